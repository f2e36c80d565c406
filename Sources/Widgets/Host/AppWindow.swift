import CSDL2
import Foundation
import Render2D
import Imaging
import Profiling

/// One top-level window of an `AppHost`: its SDL window and renderer, its `UI` (input routing,
/// focus, HiDPI scale, widget state), its frame profiler and its own frame schedule. An idle
/// window draws nothing while another one animates.
///
/// The first window is `AppHost.window`/`AppHost.ui`; more open with `ui.openWindow(id:)`.
///
/// ```swift
/// host.windowGroup("viewer", title: "Photo", width: 900, height: 700) { ui in
///     ui.text(ui.windowValue(as: String.self) ?? "")
/// }
/// if ui.button("Open", shortcut: KeyboardShortcut("n")) { ui.openWindow(id: "viewer", value: path) }
/// ```
@MainActor
public final class AppWindow {
    /// The window group it belongs to (`AppHost.mainGroup` for the content `run` builds).
    public let group: String
    /// Its number in this process (the first window is 1), never reused.
    public let number: Int
    /// The SDL window and its renderer.
    public let window: Window
    /// The UI its content builds into each frame.
    public let ui: UI
    /// Times its frames.
    public let profiler: FrameProfiler
    /// Shows the frame-time HUD over it (F12 in the window toggles it).
    public var showsHUD = false
    /// When set, each of its frames is read back before it is presented (tests assert on pixels).
    public var readsBackFrames = false
    /// Its last frame read back (see `readsBackFrames`).
    public internal(set) var lastFramePixels: PixelBuffer?
    /// Whether it was closed (by the user, `ui.dismissWindow()` or `AppHost.close(_:)`).
    public internal(set) var isClosed = false
    /// Frames it has drawn.
    public internal(set) var framesDrawn = 0
    /// The UI scale on top of the backing scale.
    public internal(set) var userScale: Double

    /// What builds it; nil builds it with the closure given to `AppHost.run`/`frame`.
    let content: ((UI) -> Void)?
    /// A frame is due regardless of timers: its first, and one after each frame with input.
    var frameDue = true
    /// When its UI asked for the next frame (clock seconds).
    var requestedFrameTime: Double?
    var lastFrameStart = -Double.infinity
    /// Its events since its last frame, and when each happened (monotonic nanoseconds).
    var pendingEvents: [InputEvent] = []
    var pendingEventTimes: [UInt64] = []
    var pendingScreenshot: String?
    var textInputActive = false
    /// The scale given in the options (nil: the display's).
    let explicitScale: Double?
    /// Times the uploads its cells take on sight in its profiler's uploads scope, as the ones
    /// at the end of the frame (`ImagePipeline.timesUpload`); made once, handed over each frame.
    lazy var timesUpload: (_ upload: () -> Void) -> Void = { [unowned profiler] upload in
        profiler.beginScope(FrameRecord.uploadKind, "images")
        upload()
        profiler.endScope()
    }

    /// The texture of the screenshot the inspector shows, and whose it is.
    private var screenshotTexture: (frame: Int, texture: TextureHandle)?

    /// A texture of `shot` in this window's renderer (one kept: the one the inspector shows).
    func texture(of shot: FrameScreenshot) -> TextureHandle? {
        if let kept = screenshotTexture, kept.frame == shot.frame { return kept.texture }
        if let kept = screenshotTexture { window.renderer.destroyTexture(kept.texture) }
        screenshotTexture = nil
        guard
            let texture = try? window.renderer.makeTexture(
                width: shot.pixels.width, height: shot.pixels.height, pixels: shot.pixels)
        else { return nil }
        screenshotTexture = (shot.frame, texture)
        return texture
    }

    /// Queues `event`, which happened at `ns` (monotonic nanoseconds), for the next frame.
    func enqueue(_ event: InputEvent, at ns: UInt64) {
        pendingEvents.append(event)
        pendingEventTimes.append(ns)
    }

    /// The queued events and their times, leaving the queue empty.
    func takeEvents() -> (events: [InputEvent], times: [UInt64]) {
        defer {
            pendingEvents.removeAll(keepingCapacity: true)
            pendingEventTimes.removeAll(keepingCapacity: true)
        }
        return (pendingEvents, pendingEventTimes)
    }

    init(group: String, number: Int, window: Window, ui: UI, explicitScale: Double?, content: ((UI) -> Void)?) {
        self.group = group
        self.number = number
        self.window = window
        self.ui = ui
        self.explicitScale = explicitScale
        self.content = content
        profiler = FrameProfiler()
        ui.profiler = profiler
        userScale = 1
        userScale = resolvedUserScale()
        ui.windowScene.group = group
        ui.windowScene.number = number
    }

    func resolvedUserScale() -> Double {
        let s = explicitScale ?? window.contentScale
        return s.isFinite && s > 0 ? min(max(s, 0.5), 4) : 1
    }

    /// Its viewport in logical pixels.
    public var logicalSize: Size {
        let s = window.size
        return Size(s.width / userScale, s.height / userScale)
    }

    /// Whether it fills its display, without borders (the desktop's fullscreen, not a mode change).
    public var isFullscreen: Bool {
        get {
            SDL_GetWindowFlags(window.handle) & SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue
                == SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue
        }
        set {
            guard newValue != isFullscreen else { return }
            if SDL_SetWindowFullscreen(window.handle, newValue ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0) != 0 {
                Log.warn("fullscreen: \(String(cString: SDL_GetError()))")
            }
            ui.windowScene.isFullscreen = isFullscreen
            frameDue = true
        }
    }

    /// Its title, as the window manager shows it.
    public var title: String { SDL_GetWindowTitle(window.handle).map { String(cString: $0) } ?? "" }

    /// Brings it in front of the other windows, with keyboard focus (SwiftUI's
    /// `openWindow` of a window already open does the same).
    public func raise() { SDL_RaiseWindow(window.handle) }

    /// Saves its next frame to `path` as PNG.
    public func captureScreenshot(to path: String) { pendingScreenshot = path }

    /// Where it is and how large, in the desktop's coordinates.
    public var frame: Rect {
        var x: Int32 = 0, y: Int32 = 0
        SDL_GetWindowPosition(window.handle, &x, &y)
        let size = window.size
        return Rect(x: Double(x), y: Double(y), width: size.width, height: size.height)
    }

    /// The earliest its requested frame may run: at its time, and no sooner than one refresh
    /// after its last frame started (input is not paced).
    var pacedFrameTime: Double? {
        requestedFrameTime.map { max($0, lastFrameStart + window.refreshInterval) }
    }
}

/// A kind of window the app can open (SwiftUI's `WindowGroup`): its title, its first size,
/// and what it shows. Registered with `AppHost.windowGroup`, opened with `ui.openWindow(id:)`.
@MainActor
struct WindowGroupSpec {
    let title: String
    let width: Int
    let height: Int
    let content: ((UI) -> Void)?
}

/// What a window's UI knows of its window, and what its frame asked the host to do.
struct WindowScene {
    /// Its group's id.
    var group = AppHost.mainGroup
    /// Its number in the process.
    var number = 1
    /// The value it was opened with, as JSON.
    var value: Data?
    /// Windows this frame asked to open.
    var openRequests: [(group: String, value: Data?)] = []
    /// Whether this frame asked to close the window.
    var dismissRequested = false
    /// Whether the window is fullscreen, and what this frame asked (`setFullscreen`).
    var isFullscreen = false
    var fullscreenRequest: Bool?
    /// Objects that live as long as the window (`windowState`).
    var objects: [ObjectIdentifier: AnyObject] = [:]
}

extension UI {
    /// Opens a window of the group `id` (registered with `AppHost.windowGroup`; `nil` opens
    /// another window like the first), after this frame. SwiftUI's `openWindow(id:)`.
    ///
    /// ```swift
    /// if ui.menuItem("New Window", shortcut: KeyboardShortcut("n")) { ui.openWindow() }
    /// ```
    public func openWindow(id: String? = nil) {
        windowScene.openRequests.append((id ?? AppHost.mainGroup, nil))
    }

    /// Opens a window of the group `id` showing `value` (read there with `windowValue(as:)`),
    /// after this frame. SwiftUI's `openWindow(id:value:)`.
    ///
    /// ```swift
    /// if ui.button("Open in New Window") { ui.openWindow(id: "photo", value: photo.path) }
    /// ```
    public func openWindow<Value: Encodable>(id: String? = nil, value: Value) {
        windowScene.openRequests.append((id ?? AppHost.mainGroup, try? JSONEncoder().encode(value)))
    }

    /// Closes the window this UI draws, after this frame (SwiftUI's `dismissWindow()`).
    /// Closing the last window quits, unless `AppHost.quitsWhenLastWindowCloses` is off.
    ///
    /// ```swift
    /// if ui.menuItem("Close Window", shortcut: KeyboardShortcut("w")) { ui.dismissWindow() }
    /// ```
    public func dismissWindow() { windowScene.dismissRequested = true }

    /// Whether the window this UI draws fills its display (F11 in most apps).
    public var isFullscreen: Bool { windowScene.fullscreenRequest ?? windowScene.isFullscreen }

    /// Makes the window this UI draws fill its display, or not, after this frame.
    ///
    /// ```swift
    /// if ui.shortcutPressed(KeyboardShortcut(.f11, modifiers: [])) { ui.setFullscreen(!ui.isFullscreen) }
    /// ```
    public func setFullscreen(_ on: Bool) { windowScene.fullscreenRequest = on }

    /// The group of the window this UI draws (`AppHost.mainGroup` for the first window's).
    public var windowID: String { windowScene.group }

    /// The number of the window this UI draws (1 for the first; never reused in a process).
    public var windowNumber: Int { windowScene.number }

    /// The value the window was opened with (`openWindow(id:value:)`), nil when it had none
    /// or it is not a `Value`.
    ///
    /// ```swift
    /// let path = ui.windowValue(as: String.self) ?? ""
    /// ```
    public func windowValue<Value: Decodable>(as type: Value.Type) -> Value? {
        windowScene.value.flatMap { try? JSONDecoder().decode(Value.self, from: $0) }
    }

    /// The window's own `Object`, made by `make` the first time a frame of this window asks,
    /// and released when the window closes: per-window state, as each SwiftUI window has its own.
    ///
    /// ```swift
    /// let page = ui.windowState { BrowserPage(root: folder) }   // one browser per window
    /// page.build(ui)
    /// ```
    public func windowState<Object: AnyObject>(_ make: () -> Object) -> Object {
        let key = ObjectIdentifier(Object.self)
        if let object = windowScene.objects[key] as? Object { return object }
        let object = make()
        windowScene.objects[key] = object
        return object
    }
}
