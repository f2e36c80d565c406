import Profiling
import Render2D

// `widget` is `@inlinable`: the table calls it from code specialized for the app's row type,
// and its scope is inlined as the profiler's own are (`bench table`, `bench scopes`).

extension UI {
    /// Opens a widget that fills the room it is offered, as the collections and split views
    /// do: takes its ID from `name` in the current scope, times it as a `kind` scope in the
    /// frame profiler, and allocates all the room left in the enclosing stack (`unboundedHeight`
    /// high inside a vertical scroll view). `body` builds the widget in that rectangle; what
    /// it returns is returned.
    ///
    /// ```swift
    /// ui.widget("chart", "sales") { id, rect in
    ///     let hovered = ui.interact(id, rect: rect).isHovered
    ///     ui.drawList.addRect(rect, color: hovered ? ui.theme.controlHovered : ui.theme.background)
    /// }
    /// ```
    @inlinable
    public func widget<Result>(
        _ kind: StaticString, _ name: String, unboundedHeight: Double = 300,
        _ body: (_ id: WidgetID, _ rect: Rect) throws -> Result
    ) rethrows -> Result {
        let widgetID = id(name)
        profiler?.beginScope(kind, name)
        defer { profiler?.endScope() }
        return try body(widgetID, allocateRemaining(unboundedHeight: unboundedHeight))
    }
}
