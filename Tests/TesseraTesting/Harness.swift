import CSDL2
import Render2D
import Imaging
import Profiling
import Widgets
#if canImport(Glibc)
    import Glibc
#endif

/// Drives a real window (SDL's offscreen driver: no display needed) with injected SDL
/// events and a virtual clock: each `frame` advances time by 1/60 s, so double clicks,
/// long presses and kinetic scrolling are deterministic.
///
/// ```swift
/// let h = try Harness()
/// h.click(at: Point(40, 20)) { ui in if ui.button("OK") { clicks += 1 } }
/// ```
@MainActor
public final class Harness {
    /// The app host whose window the harness drives; its `ui` is what the test builds into.
    public let host: AppHost
    /// Injects SDL events into the window (mouse, wheel, keys, text, touch, drops).
    public let inject: EventInjector
    /// The virtual clock, in seconds: each `frame` advances it by 1/60.
    public private(set) var time = 100.0
    /// The host's UI.
    public var ui: UI { host.ui }

    /// A `width`×`height` window (physical pixels) at UI `scale`: the UI lays out in
    /// `width / scale` × `height / scale` logical pixels, and events are injected in window pixels.
    public init(width: Int = 640, height: Int = 480, scale: Double = 1, theme: Theme = .light) throws {
        host = try AppHost(
            options: .init(
                title: "Tessera tests", width: width, height: height, vsync: false,
                offscreen: true, scale: scale, theme: theme))
        inject = EventInjector(window: host.window)
        host.readsBackFrames = true
        host.ui.recordsDrawnText = true
        host.ui.isAccessibilityEnabled = true  // the queries of `find` read the tree
        host.ui.layoutDirection = .leftToRight  // whatever the machine's locale; a test sets its own
        let start = time
        host.clock = { [unowned self] in self.time }
        time = start
        // Drain the window's own startup events.
        SDL_PumpEvents()
        SDL_FlushEvents(SDL_FIRSTEVENT.rawValue, SDL_LASTEVENT.rawValue)
    }

    /// Runs one frame of `build`, then advances the virtual clock.
    public func frame(_ build: (UI) -> Void) {
        host.frame(build)
        time += 1.0 / 60
    }

    /// Runs `count` frames of `build`.
    public func frames(_ count: Int, _ build: (UI) -> Void) {
        for _ in 0..<count { frame(build) }
    }

    /// Runs frames of `build` until `done` says so or `timeout` seconds of real time pass,
    /// pausing 5 ms between frames: for work on other threads (decodes, sorts), which a
    /// sanitizer or a busy machine can slow many times over. Returns `done()`.
    ///
    /// ```swift
    /// XCTAssertTrue(h.frames(until: { images.uploadsTotal >= 3 }) { ui in grid(ui) })
    /// ```
    @discardableResult
    public func frames(until done: () -> Bool, timeout: Double = 60, _ build: (UI) -> Void) -> Bool {
        let deadline = MonotonicClock.seconds() + timeout
        repeat {
            frame(build)
            if done() { return true }
            usleep(5_000)
        } while MonotonicClock.seconds() < deadline
        return done()
    }

    /// Advances the virtual clock without running a frame.
    public func wait(_ seconds: Double) { time += seconds }

    /// Move, press and release the left button at `p`, with a frame after each step.
    public func click(at p: Point, button: MouseButton = .left, _ build: (UI) -> Void) {
        inject.mouseMove(to: p)
        frame(build)
        inject.mouseButton(button, down: true, at: p)
        frame(build)
        inject.mouseButton(button, down: false, at: p)
        frame(build)
    }

    /// Clicks the left button `count` times in a row at `p` (2: a double click, 3: a triple
    /// click), with a frame after each step.
    ///
    /// ```swift
    /// h.click(at: wordCentre, count: 2, build)  // selects the word
    /// ```
    public func click(at p: Point, count: Int, _ build: (UI) -> Void) {
        inject.mouseMove(to: p)
        frame(build)
        for _ in 0..<count {
            inject.mouseButton(.left, down: true, at: p)
            frame(build)
            inject.mouseButton(.left, down: false, at: p)
            frame(build)
        }
    }

    /// Press at `from`, move to `to` in `steps`, release; one frame per step.
    public func drag(from: Point, to: Point, steps: Int = 8, _ build: (UI) -> Void) {
        inject.mouseMove(to: from)
        frame(build)
        inject.mouseButton(.left, down: true, at: from)
        frame(build)
        for i in 1...steps {
            let t = Double(i) / Double(steps)
            inject.mouseMove(to: from + (to - from) * t, buttons: 1)
            frame(build)
        }
        inject.mouseButton(.left, down: false, at: to)
        frame(build)
    }

    /// Where the last frame drew the line of text `label` (window pixels, like the events):
    /// the topmost such line, popups and menus before the content; nil when it was not drawn
    /// or was clipped away.
    public func rect(ofText label: String) -> Rect? {
        rect(ofText: label, in: .window)
    }

    /// Where the last frame drew `label` inside `scope` (its line's centre in the scope's
    /// region): the one to use when a label repeats, such as a picker showing "amount" and
    /// the "amount" column header.
    ///
    /// ```swift
    /// try h.click(on: "amount", in: .tableHeader("sales"), app.body)   // sorts by it
    /// try h.click(on: "amount", in: .popup, app.body)                   // picks it in the open menu
    /// ```
    public func rect(ofText label: String, in scope: Scope) -> Rect? {
        let areas = regions(of: scope)
        let drawn = (host.ui.overlayDrawList.drawnText.reversed() + host.ui.contentDrawList.drawnText.reversed()).first
        { line in
            line.text == label
                && (areas.map { $0.contains { $0.contains(Point(line.rect.midX, line.rect.midY)) } } ?? true)
        }
        return drawn.map { toWindow($0.rect) }
    }

    /// Where in the window to look for a label.
    public enum Scope: Sendable {
        /// Anywhere.
        case window
        /// Inside a rectangle of the window (window pixels).
        case rect(Rect)
        /// The column headers of the table named `name`.
        case tableHeader(String)
        /// The rows of the table named `name`.
        case tableRows(String)
        /// The list named `name`.
        case list(String)
        /// An open popup or menu (the topmost is searched first).
        case popup
    }

    /// The regions (logical pixels) `scope` covers in the last frame (none when its widget was
    /// not drawn); nil: the whole window.
    private func regions(of scope: Scope) -> [Rect]? {
        let landmarks = host.ui.landmarks
        func named(_ kind: Landmark.Kind, _ name: String) -> [Rect] {
            landmarks.filter { $0.kind == kind && $0.name == name }.map(\.rect)
        }
        switch scope {
        case .window: return nil
        case .rect(let r):
            let s = host.userScale
            return [Rect(x: r.minX / s, y: r.minY / s, width: r.width / s, height: r.height / s)]
        case .tableHeader(let name): return named(.tableHeader, name)
        case .tableRows(let name): return named(.tableRows, name)
        case .list(let name): return named(.list, name)
        case .popup: return landmarks.filter { $0.kind == .popup }.reversed().map(\.rect)
        }
    }

    /// A logical rectangle in window pixels.
    private func toWindow(_ r: Rect) -> Rect {
        let s = host.userScale
        return Rect(x: r.minX * s, y: r.minY * s, width: r.width * s, height: r.height * s)
    }

    /// Every line of text the last frame drew, content first, then popups and menus.
    public var drawnText: [String] {
        (host.ui.contentDrawList.drawnText + host.ui.overlayDrawList.drawnText).map(\.text)
    }

    /// Clicks the centre of the text `label` as the last frame drew it (a button's title, a
    /// row's name, a menu item), with a frame after each step and one more, so that what the
    /// click changed is drawn when the call returns (a widget drawn before the one clicked
    /// shows a change in the frame after it).
    ///
    /// ```swift
    /// h.frame(app.body)
    /// try h.click(on: "Greet", app.body)
    /// ```
    public func click(on label: String, button: MouseButton = .left, _ build: (UI) -> Void) throws {
        try click(on: label, in: .window, button: button, build)
    }

    /// Clicks `label` where the last frame drew it inside `scope` (see `rect(ofText:in:)`).
    public func click(on label: String, in scope: Scope, button: MouseButton = .left, _ build: (UI) -> Void) throws {
        guard let r = rect(ofText: label, in: scope) else { throw HarnessError.notDrawn(label, drawn: drawnText) }
        click(at: Point(r.midX, r.midY), button: button, build)
        frame(build)
    }

    /// A key press and release (with `modifiers` held), then two frames: one that handles
    /// it and one that draws what it changed.
    public func press(_ key: Key, modifiers: KeyModifiers = [], _ build: (UI) -> Void) {
        inject.tap(key, modifiers: modifiers)
        frames(2, build)
    }

    /// Text typed as the keyboard or an input method delivers it, then two frames: one that
    /// handles it and one that draws what it changed.
    public func type(_ text: String, _ build: (UI) -> Void) {
        inject.text(text)
        frames(2, build)
    }

    /// Saves a screenshot of the next frame as `<name>.png` in `$TESSERA_TEST_SHOTS`, when
    /// that is set (to look at what a test drove); does nothing otherwise.
    public func shot(_ name: String, _ build: (UI) -> Void) {
        guard let raw = getenv("TESSERA_TEST_SHOTS") else { return }
        host.captureScreenshot(to: String(cString: raw) + "/" + name + ".png")
        frame(build)
    }

    /// The last frame's pixels.
    public var pixels: PixelBuffer { host.lastFramePixels ?? PixelBuffer(width: 0, height: 0) }

    /// The bounding box of the pixels in `rect` that differ from `background` (nil: none do).
    public func inkBounds(in rect: Rect, differingFrom background: Color, tolerance: Int = 24) -> Rect? {
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        forEachPixel(in: rect) { x, y, c in
            guard Self.differs(c, background, tolerance) else { return }
            x0 = min(x0, x)
            y0 = min(y0, y)
            x1 = max(x1, x)
            y1 = max(y1, y)
        }
        guard x1 >= x0 else { return nil }
        return Rect(x: Double(x0), y: Double(y0), width: Double(x1 - x0 + 1), height: Double(y1 - y0 + 1))
    }

    /// Pixels in `rect` for which `test` holds.
    public func countPixels(in rect: Rect, where test: (Color) -> Bool) -> Int {
        var n = 0
        forEachPixel(in: rect) { _, _, c in if test(c) { n += 1 } }
        return n
    }

    /// Pixels in `rect` whose color differs from `background` by more than `tolerance` on some channel.
    public func countPixels(in rect: Rect, differingFrom background: Color, tolerance: Int = 24) -> Int {
        countPixels(in: rect) { Self.differs($0, background, tolerance) }
    }

    private static func differs(_ c: Color, _ background: Color, _ tolerance: Int) -> Bool {
        abs(Int(c.r) - Int(background.r)) > tolerance || abs(Int(c.g) - Int(background.g)) > tolerance
            || abs(Int(c.b) - Int(background.b)) > tolerance
    }

    private func forEachPixel(in rect: Rect, _ body: (Int, Int, Color) -> Void) {
        let px = pixels
        let x0 = max(0, Int(rect.minX)), x1 = min(px.width, Int(rect.maxX))
        let y0 = max(0, Int(rect.minY)), y1 = min(px.height, Int(rect.maxY))
        guard x1 > x0, y1 > y0 else { return }
        for y in y0..<y1 {
            for x in x0..<x1 { body(x, y, px.pixel(x: x, y: y)) }
        }
    }
}

/// Why the harness could not do what a test asked.
public enum HarnessError: Error, CustomStringConvertible {
    /// No line of the last frame reads `label`; `drawn` lists what was drawn.
    case notDrawn(String, drawn: [String])
    /// No widget of the last frame has this role and name; `tree` is what there was.
    case notFound(AccessibilityRole, String?, tree: String)

    public var description: String {
        switch self {
        case .notDrawn(let label, let drawn):
            "\"\(label)\" was not drawn in the last frame; drawn: \(drawn.prefix(40).map { "\"\($0)\"" }.joined(separator: ", "))"
        case .notFound(let role, let name, let tree):
            "no \(role.atspiName)\(name.map { " named \"\($0)\"" } ?? "") in the last frame; its accessibility tree:\n\(tree)"
        }
    }
}

/// Runs a test body on the main actor. Linux XCTest runs tests on the main thread but
/// cannot call `@MainActor`-isolated test methods, so tests call this instead.
public func onMain<T: Sendable>(_ body: @MainActor () throws -> T) rethrows -> T {
    try MainActor.assumeIsolated(body)
}

extension PixelBuffer {
    /// The RGBA bytes of `rect` (whole pixels, clipped to the buffer), row by row: compare two
    /// frames' regions to see that something did not move.
    public func region(_ rect: Rect) -> [UInt8] {
        let x0 = max(0, Int(rect.minX)), x1 = min(width, Int(rect.maxX))
        let y0 = max(0, Int(rect.minY)), y1 = min(height, Int(rect.maxY))
        guard x1 > x0, y1 > y0 else { return [] }
        var out: [UInt8] = []
        out.reserveCapacity((x1 - x0) * (y1 - y0) * 4)
        for y in y0..<y1 { out += bytes[((y * width + x0) * 4)..<((y * width + x1) * 4)] }
        return out
    }
}
