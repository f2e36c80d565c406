import Render2D
import Imaging
import Profiling

// `profile` is `@inlinable` so its scope is inlined into the app's code as the profiler's
// own are (`bench scopes`: 12.3 → 1.6 ns a scope with scopes off; see FrameProfiler.swift).

extension UI {
    /// Times `body` as a scope named `name` in the frame profiler: it shows in the HUD's frame
    /// inspector, in attributions ("build: thumbnails strip 7.20 ms") and as a slice in traces.
    /// Container widgets open their own scopes; nest yours freely. With no profiler, or scopes
    /// off (`FrameProfiler.recordsScopes`), it only runs `body`.
    ///
    /// ```swift
    /// ui.profile("thumbnails strip") {
    ///     ui.lazyHStack("strip", count: photos.count) { ui, i in cell(ui, photos[i]) }
    /// }
    /// ```
    @inlinable @discardableResult
    public func profile<Result>(_ name: String, _ body: () throws -> Result) rethrows -> Result {
        profiler?.beginScope("", name)
        defer { profiler?.endScope() }
        return try body()
    }
}
