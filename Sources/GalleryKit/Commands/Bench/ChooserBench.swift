import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// `bench chooser`: Tessera's own folder chooser (`fileImporter`, the built-in one) opened on a
/// folder of `entries` files (made once in the cache folder). Reports:
/// - how long the listing took on its background thread, and the frames drawn meanwhile;
/// - the frames that scroll the list from top to bottom with the wheel;
/// - the frames that filter it as a name is typed.
///
/// Each with its work time (p50 and max); a frame that waited for the listing would show in the
/// first max.
@MainActor
enum ChooserBench {
    static func run(host: AppHost, entries: Int) throws -> String {
        let folder = try PhotoLibrary.cacheFolder("chooser-\(entries)")
        try makeEntries(entries, in: folder)
        host.ui.fileChooserBackend = .builtIn
        host.ui.recordsDrawnText = true  // the status line and the filter field are found by their text
        var isPresented = true
        let build: (UI) -> Void = { ui in
            ui.fileImporter(
                isPresented: Binding(get: { isPresented }, set: { isPresented = $0 }), allowedContentTypes: [.item],
                directory: folder
            ) { _ in }
        }
        let inject = EventInjector(window: host.window)
        let start = MonotonicClock.seconds()
        var listedMs: Double?
        var listingFrames: [FrameRecord] = []
        while MonotonicClock.seconds() - start < 120 {
            host.frame(build)
            if let last = host.profiler.lastFrame { listingFrames.append(last) }
            if status(host) == "\(entries) items" {
                listedMs = (MonotonicClock.seconds() - start) * 1000
                break
            }
        }
        // Scroll from the top to the bottom: a wheel notch a frame (3 rows), plus Page Downs.
        let center = Point(Double(host.window.size.width) / 2 + 80, Double(host.window.size.height) / 2)
        inject.mouseMove(to: center)
        host.frame(build)
        var scrollFrames: [FrameRecord] = []
        for k in 0..<300 {
            if k % 10 == 9 { inject.tap(.end) } else { inject.wheel(dy: -3) }
            host.frame(build)
            if let last = host.profiler.lastFrame { scrollFrames.append(last) }
        }
        // Type a name into the filter, a letter a frame.
        let filterFrames = typeFilter("file-0999", host: host, inject: inject, build: build)
        let shown = status(host)
        func summary(_ frames: [FrameRecord]) -> String { FrameTimeSummary(samples: frames.map(\.workMs)).json }
        /// What the slowest of `frames` spent its time on (the profiler's attribution).
        func slowest(_ frames: [FrameRecord]) -> String {
            guard let frame = frames.max(by: { $0.workNs < $1.workNs }) else { return "null" }
            return "\"" + frame.cause().description.replacingOccurrences(of: "\"", with: "'") + "\""
        }
        return "{\"scene\":\"chooser\",\"n\":\(entries),\"renderer\":\"\(host.window.renderer.name)\""
            + ",\"listed_ms\":\(listedMs.map { FrameTimeSummary.format($0) } ?? "null"),\"frames_while_listing\":\(listingFrames.count)"
            + ",\"listing_work_ms\":\(summary(listingFrames)),\"listing_slowest\":\(slowest(listingFrames)),\"scroll_frames\":\(scrollFrames.count),\"scroll_work_ms\":\(summary(scrollFrames))"
            + ",\"filter_frames\":\(filterFrames.count),\"filter_work_ms\":\(summary(filterFrames)),\"filter_slowest\":\(slowest(filterFrames)),\"filtered\":\"\(shown)\""
            + ",\"peak_rss_mb\":\(peakRSSMegabytes())}"
    }

    /// The chooser's status line ("100000 items", "Listing…").
    private static func status(_ host: AppHost) -> String {
        host.ui.contentDrawList.drawnText.first { $0.text.hasSuffix(" items") || $0.text == "Listing…" }?.text
            ?? host.ui.overlayDrawList.drawnText.first { $0.text.hasSuffix(" items") || $0.text == "Listing…" }?.text
            ?? ""
    }

    /// Clicks the filter field and types `text` a character a frame; returns those frames.
    private static func typeFilter(_ text: String, host: AppHost, inject: EventInjector, build: (UI) -> Void)
        -> [FrameRecord]
    {
        let all = host.ui.overlayDrawList.drawnText + host.ui.contentDrawList.drawnText
        guard let field = all.first(where: { $0.text == "Filter" })?.rect else { return [] }
        let p = Point((field.midX) * host.userScale, field.midY * host.userScale)
        inject.mouseMove(to: p)
        inject.mouseButton(.left, down: true, at: p)
        host.frame(build)
        inject.mouseButton(.left, down: false, at: p)
        host.frame(build)
        var frames: [FrameRecord] = []
        for character in text {
            inject.text(String(character))
            host.frame(build)
            if let last = host.profiler.lastFrame { frames.append(last) }
        }
        host.frame(build)
        return frames
    }

    struct EntryError: Error, CustomStringConvertible {
        let description: String
    }

    /// `count` empty files named `file-000000`… in `folder`, made once (a marker says they are).
    private static func makeEntries(_ count: Int, in folder: String) throws {
        let marker = folder + "/.complete"
        if FileManager.default.fileExists(atPath: marker) { return }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for i in 0..<count {
            let path = folder + "/" + String(format: "file-%06d.txt", i)
            let fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw EntryError(description: "cannot make \(path): \(String(cString: strerror(errno)))")
            }
            close(fd)
        }
        _ = FileManager.default.createFile(atPath: marker, contents: nil)
    }
}
