import CSDL2
import Render2D
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
    public let host: AppHost
    public let inject: EventInjector
    public private(set) var time = 100.0
    public var ui: UI { host.ui }

    /// A `width`×`height` window (physical pixels) at UI `scale`: the UI lays out in
    /// `width / scale` × `height / scale` logical pixels, and events are injected in window pixels.
    public init(width: Int = 640, height: Int = 480, scale: Double = 1, theme: Theme = .light) throws {
        host = try AppHost(options: .init(title: "Tessera tests", width: width, height: height, vsync: false,
                                          offscreen: true, scale: scale, theme: theme))
        inject = EventInjector(window: host.window)
        host.readsBackFrames = true
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

    public func frames(_ count: Int, _ build: (UI) -> Void) {
        for _ in 0..<count { frame(build) }
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
            x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
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
