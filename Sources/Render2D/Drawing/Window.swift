import CSDL2
import Foundation

/// Why a window could not be opened, with what to do about it.
public struct WindowError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// Process-wide SDL setup (video, events, TTF, image). Idempotent.
@MainActor
package enum SDLContext {
    private static var initialized = false

    /// Initializes SDL. With `offscreen` the `offscreen` video driver is used (no display needed).
    public static func initialize(offscreen: Bool = false) throws(WindowError) {
        if initialized { return }
        if offscreen { SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen") }
        SDL_SetHint(SDL_HINT_RENDER_DRIVER, "opengl")
        // Naming a driver turns SDL's command batching off by default; without it every
        // SDL_RenderGeometry call flushes to the GPU synchronously (measured: 17 ms vs 1.3 ms
        // of submit for 40k glyphs). Batching stays on.
        SDL_SetHint(SDL_HINT_RENDER_BATCHING, "1")
        // Touch and mouse stay separate: we read fingers ourselves and drop the mouse
        // events SDL synthesizes from them (they carry SDL_TOUCH_MOUSEID).
        SDL_SetHint(SDL_HINT_MOUSE_TOUCH_EVENTS, "0")
        SDL_SetHint(SDL_HINT_IME_SHOW_UI, "1")
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        SDL_SetMainReady()
        if SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) != 0 {
            throw noDisplay(String(cString: SDL_GetError()))
        }
        // No depth buffer: nothing we draw tests depth, but SDL asks for 16 bits by default,
        // which a software GL allocates, clears and carries through every frame (llvmpipe:
        // text frames about 10 % longer, 7 MB more resident at 1280×800).
        SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0)
        // SDL falls back to its offscreen or dummy driver when no display works: a window
        // nobody can see. Only accept that when it was asked for.
        let driver = videoDriver
        if !offscreen && ["offscreen", "dummy"].contains(driver) && SDL_getenv("SDL_VIDEODRIVER") == nil {
            SDL_Quit()
            throw noDisplay("no usable display; SDL fell back to its '\(driver)' driver")
        }
        initialized = true
    }

    private static func noDisplay(_ reason: String) -> WindowError {
        WindowError(
            description: """
                No display available (\(reason)).
                Run with a display, under Xvfb (`Xvfb :99 &` then `DISPLAY=:99` for the app), \
                or offscreen: SDL_VIDEODRIVER=offscreen in the environment, or \
                `AppHost.Options(offscreen: true)` in the app.
                """)
    }

    /// The active SDL video driver ("x11", "wayland", "offscreen", ...).
    public static var videoDriver: String {
        SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
    }
}

/// A resizable, high-DPI-aware SDL window with an accelerated renderer (OpenGL preferred,
/// software as a logged fallback).
///
/// ```swift
/// try SDLContext.initialize(offscreen: true)
/// let window = try Window(title: "Tessera", width: 1280, height: 800, vsync: false)
/// print(window.renderer.name)
/// ```
@MainActor
public final class Window {
    /// The `SDL_Window*`.
    public let handle: OpaquePointer
    /// The renderer drawing into this window.
    public let renderer: Renderer
    public let id: UInt32

    /// Opens a window of `width` × `height` (sizes are clamped to 1...16,384) with an accelerated
    /// renderer, at `position` on the desktop (centred when nil).
    public init(
        title: String, width: Int, height: Int, vsync: Bool = true, resizable: Bool = true,
        position: (x: Int, y: Int)? = nil
    ) throws(WindowError) {
        try SDLContext.initialize()
        var flags = SDL_WINDOW_SHOWN.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if resizable { flags |= SDL_WINDOW_RESIZABLE.rawValue }
        // Sizes from outside (a state file, a replay, the command line) are clamped, never trapped on.
        let centred = Int32(tessera_windowpos_centered())
        let x = position.map { Int32(clamping: min(max($0.x, -100_000), 100_000)) } ?? centred
        let y = position.map { Int32(clamping: min(max($0.y, -100_000), 100_000)) } ?? centred
        guard
            let window = SDL_CreateWindow(
                title, x, y,
                Int32(min(max(1, width), 16_384)), Int32(min(max(1, height), 16_384)), flags)
        else {
            throw WindowError(description: "SDL_CreateWindow: \(String(cString: SDL_GetError()))")
        }
        SDL_SetWindowMinimumSize(window, 1, 1)
        var rendererFlags = SDL_RENDERER_ACCELERATED.rawValue
        if vsync { rendererFlags |= SDL_RENDERER_PRESENTVSYNC.rawValue }
        var sdlRenderer = SDL_CreateRenderer(window, -1, rendererFlags)
        if sdlRenderer == nil {
            let reason = String(cString: SDL_GetError())
            Log.warn("accelerated renderer unavailable (\(reason)); falling back to the software renderer")
            sdlRenderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue)
        }
        guard let sdlRenderer else {
            SDL_DestroyWindow(window)
            throw WindowError(description: "SDL_CreateRenderer: \(String(cString: SDL_GetError()))")
        }
        handle = window
        id = SDL_GetWindowID(window)
        renderer = Renderer(handle: sdlRenderer, atlas: GlyphAtlas())
    }

    isolated deinit {
        renderer.destroy()
        SDL_DestroyWindow(handle)
    }

    /// Size in logical (window-manager) pixels.
    public var size: Size {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(handle, &w, &h)
        return Size(Double(w), Double(h))
    }

    /// Resizes the window (logical pixels).
    public func setSize(width: Int, height: Int) {
        SDL_SetWindowSize(handle, Int32(min(max(1, width), 16_384)), Int32(min(max(1, height), 16_384)))
    }

    /// Physical pixels per logical pixel of the drawable (2 on a Retina-style backing store).
    public var backingScale: Double {
        let w = size.width
        return w > 0 ? Double(renderer.outputSize.width) / w : 1
    }

    /// The horizontal DPI SDL reports for the window's display (nil when it cannot tell).
    public var displayDPI: Double? {
        var ddpi: Float = 0, hdpi: Float = 0, vdpi: Float = 0
        let index = SDL_GetWindowDisplayIndex(handle)
        guard index >= 0, SDL_GetDisplayDPI(index, &ddpi, &hdpi, &vdpi) == 0, hdpi > 0 else { return nil }
        return Double(hdpi)
    }

    /// The UI scale the desktop asks for on top of `backingScale` (see `ContentScale`).
    public var contentScale: Double {
        ContentScale.resolve(
            environment: ProcessInfo.processInfo.environment, displayDPI: displayDPI, backingScale: backingScale)
    }

    /// Seconds between the refreshes of the window's display (1/60 when it does not say).
    public var refreshInterval: Double {
        var mode = SDL_DisplayMode()
        let index = SDL_GetWindowDisplayIndex(handle)
        guard index >= 0, SDL_GetCurrentDisplayMode(index, &mode) == 0, mode.refresh_rate >= 20 else { return 1.0 / 60 }
        return 1 / Double(mode.refresh_rate)
    }

    /// Sets the window's title.
    public func setTitle(_ title: String) { SDL_SetWindowTitle(handle, title) }
}

/// How much larger than 96 DPI the desktop wants the UI, fractions kept (1.25, 1.5, 1.75):
/// the toolkit scale variables desktops set (`GDK_SCALE` × `GDK_DPI_SCALE`, else
/// `QT_SCALE_FACTOR`), else the display's DPI / 96 rounded to a quarter (at least 1: small
/// DPI figures are usually a monitor misreporting its size). A backing store that is already
/// denser than the window (`backingScale` 2 on Wayland) takes its share. Pure: tested alone.
package enum ContentScale {
    public static func resolve(environment: [String: String], displayDPI: Double?, backingScale: Double) -> Double {
        func number(_ name: String) -> Double? {
            guard let value = environment[name].flatMap(Double.init), value.isFinite, value > 0 else { return nil }
            return value
        }
        let desktop: Double
        if number("GDK_SCALE") != nil || number("GDK_DPI_SCALE") != nil {
            desktop = (number("GDK_SCALE") ?? 1) * (number("GDK_DPI_SCALE") ?? 1)
        } else if let qt = number("QT_SCALE_FACTOR") {
            desktop = qt
        } else if let dpi = displayDPI, dpi.isFinite, dpi > 0 {
            desktop = max(1, (dpi / 96 * 4).rounded() / 4)
        } else {
            desktop = 1
        }
        let backing = backingScale.isFinite && backingScale >= 1 ? backingScale : 1
        return min(max(desktop / backing, 0.5), 4)
    }
}
