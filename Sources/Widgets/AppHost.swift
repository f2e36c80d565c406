import Foundation
import CSDL2
import Render2D

/// SDL's clipboard (falls back to an in-process copy when the video driver has none).
@MainActor
final class SDLClipboard: Clipboard {
    private var local = ""
    var text: String {
        get {
            guard SDL_HasClipboardText() == SDL_TRUE, let raw = SDL_GetClipboardText() else { return local }
            defer { SDL_free(raw) }
            return String(cString: raw)
        }
        set {
            local = newValue
            SDL_SetClipboardText(newValue)
        }
    }
}

/// Owns a window, its `UI`, the event pump and the frame profiler, and runs frames:
/// poll events → build the UI → submit draw lists → (screenshot) → present.
///
/// ```swift
/// let host = try AppHost(options: .init(title: "Demo"))
/// host.run { ui in
///     ui.text("Hello")
/// }
/// ```
@MainActor
public final class AppHost {
    public struct Options: Sendable {
        public var title = "Tessera"
        public var width = 1280
        public var height = 800
        public var vsync = true
        /// Use SDL's offscreen video driver (no display needed).
        public var offscreen = false
        /// UI scale; nil takes it from the display's DPI.
        public var scale: Double?
        public var theme = Theme.light
        public init(title: String = "Tessera", width: Int = 1280, height: Int = 800, vsync: Bool = true,
                    offscreen: Bool = false, scale: Double? = nil, theme: Theme = .light) {
            self.title = title; self.width = width; self.height = height; self.vsync = vsync
            self.offscreen = offscreen; self.scale = scale; self.theme = theme
        }
    }

    public let window: Window
    public let ui: UI
    public let profiler: FrameProfiler
    public var pump = EventPump()
    /// Shows the frame-time HUD (F12 toggles it).
    public var showsHUD = false
    /// Seconds for the UI's clock; tests substitute a virtual clock.
    public var clock: () -> Double = { MonotonicClock.seconds() }
    /// The user's UI scale on top of the backing scale.
    public private(set) var userScale: Double
    private let explicitScale: Double?
    public private(set) var quitRequested = false
    private var pendingScreenshot: String?
    /// When set, every frame is read back before it is presented (tests assert on pixels).
    public var readsBackFrames = false
    /// The last frame read back (see `readsBackFrames`).
    public private(set) var lastFramePixels: PixelBuffer?
    /// Records every frame's input (`--record`).
    public var recorder: InputRecorder?
    /// Plays recorded input instead of the live one (only quitting stays live), on a fixed
    /// 60 Hz clock so the replay is deterministic.
    public var replay: InputReplay? {
        didSet { if replay != nil { clock = { [unowned self] in 100 + Double(self.frameNumber) / 60 } } }
    }
    /// Where the HUD's Record button saves traces.
    public var traceFolder = NSTemporaryDirectory()
    /// The last saved trace (shown in the HUD).
    public private(set) var lastTracePath: String?
    private var traceNote: String? {
        profiler.keepsTrace ? "recording \(profiler.trace.count) frames…" : lastTracePath.map { "saved " + $0 }
    }

    /// Starts keeping a trace (frames and image timelines), or stops and saves it as Chrome
    /// trace-event JSON, logging the path.
    public func toggleTraceRecording() {
        if !profiler.keepsTrace {
            profiler.clearTrace()
            ui.images?.clearTimelines()
            ui.images?.keepsTimelines = true
            profiler.keepsTrace = true
            return
        }
        profiler.keepsTrace = false
        ui.images?.keepsTimelines = false
        let path = traceFolder + (traceFolder.hasSuffix("/") ? "" : "/") + "tessera-trace-\(Int(Date().timeIntervalSince1970)).json"
        let json = profiler.chromeTraceJSON(images: ui.images?.timelines ?? [], workers: ui.images?.loader.workerCount ?? 0)
        do {
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            lastTracePath = path
            Log.info("trace of \(profiler.trace.count) frames saved to \(path) (open it in https://ui.perfetto.dev)")
        } catch {
            Log.error("could not save the trace to \(path): \(error)")
        }
    }

    /// Turns the mouse into fingers while a key is held (see `TouchSimulator`).
    public var touchSimulator: TouchSimulator?
    /// Frames run so far (the frame index of recordings).
    public private(set) var frameNumber = 0
    private var cursors: [CursorKind: OpaquePointer] = [:]
    private var currentCursor: CursorKind = .arrow
    private var textInputActive = false

    public init(options: Options) throws {
        try SDLContext.initialize(offscreen: options.offscreen)
        window = try Window(title: options.title, width: options.width, height: options.height, vsync: options.vsync)
        ui = UI(fonts: try FontLibrary(atlas: window.renderer.atlas), theme: options.theme)
        ui.clipboard = SDLClipboard()
        profiler = FrameProfiler()
        explicitScale = options.scale
        userScale = 1
        userScale = resolvedUserScale()
        SDL_StopTextInput()
        Log.info("window \(options.width)×\(options.height) on '\(SDLContext.videoDriver)', renderer '\(window.renderer.name)', UI scale \(userScale)")
    }

    private func resolvedUserScale() -> Double {
        let s = explicitScale ?? window.displayScale
        return s.isFinite && s > 0 ? min(max(s, 0.5), 4) : 1
    }

    /// The viewport in logical pixels.
    public var logicalSize: Size {
        let s = window.size
        return Size(s.width / userScale, s.height / userScale)
    }

    /// Ends `run` after the current frame.
    public func requestQuit() { quitRequested = true }

    /// Saves the next frame to `path` as PNG.
    public func captureScreenshot(to path: String) { pendingScreenshot = path }

    /// Runs one frame with `build` producing the UI.
    public func frame(_ build: (UI) -> Void) {
        profiler.beginFrame()
        pump.coordinateScale = 1 / userScale
        var events = pump.poll(window: window)
        if let touchSimulator {
            touchSimulator.scale = userScale
            events = touchSimulator.filter(events)
        }
        if let replay {
            events = events.filter { $0 == .quit } + replay.events(forFrame: frameNumber)
        }
        recorder?.record(frame: frameNumber, events: events)
        frameNumber += 1
        if events.contains(.displayChanged) { userScale = resolvedUserScale() }
        profiler.endPhase(.events)

        ui.beginFrame(events: events, size: logicalSize, scale: window.backingScale * userScale, time: clock())
        if ui.input.quitRequested { quitRequested = true }
        if ui.input.keys.contains(where: { $0.key == .f12 && !$0.isRepeat }) { showsHUD.toggle() }
        ui.images?.beginFrame()
        build(ui)
        if let images = ui.images { profiler.recordLazyPath(images.endFrame()) }
        if showsHUD, ui.profilerHUD(profiler, isRecording: profiler.keepsTrace, note: traceNote) { toggleTraceRecording() }
        ui.endFrame()
        ui.persistentStore?.saveIfNeeded()
        applyCursor(ui.cursor)
        applyTextInput()
        profiler.endPhase(.build)

        let renderer = window.renderer
        renderer.beginFrame(clearColor: ui.theme.background)
        renderer.draw(ui.contentDrawList)
        renderer.draw(ui.overlayDrawList)
        profiler.endPhase(.submit)
        if readsBackFrames { lastFramePixels = try? renderer.readPixels() }
        if let path = pendingScreenshot {
            pendingScreenshot = nil
            do {
                try renderer.saveScreenshot(to: path)
                Log.info("screenshot saved to \(path)")
            } catch {
                Log.error("screenshot failed: \(error)")
            }
        }
        renderer.present()
        profiler.endPhase(.present)
        profiler.endFrame(stats: renderer.stats)
    }

    /// Runs frames until the window closes (or `maxFrames` have run).
    public func run(maxFrames: Int? = nil, _ build: (UI) -> Void) {
        var count = 0
        while !quitRequested {
            frame(build)
            count += 1
            if let maxFrames, count >= maxFrames { break }
        }
        if ui.persistentStore?.hasUnsavedChanges == true { ui.persistentStore?.save() }
    }

    private func applyCursor(_ kind: CursorKind) {
        guard kind != currentCursor else { return }
        currentCursor = kind
        if cursors[kind] == nil {
            let system: SDL_SystemCursor
            switch kind {
            case .arrow: system = SDL_SYSTEM_CURSOR_ARROW
            case .pointingHand: system = SDL_SYSTEM_CURSOR_HAND
            case .iBeam: system = SDL_SYSTEM_CURSOR_IBEAM
            case .resizeLeftRight: system = SDL_SYSTEM_CURSOR_SIZEWE
            case .resizeUpDown: system = SDL_SYSTEM_CURSOR_SIZENS
            case .resizeAll: system = SDL_SYSTEM_CURSOR_SIZEALL
            case .notAllowed: system = SDL_SYSTEM_CURSOR_NO
            }
            cursors[kind] = SDL_CreateSystemCursor(system)
        }
        if let cursor = cursors[kind] { SDL_SetCursor(cursor) }
    }

    private func applyTextInput() {
        if ui.wantsTextInput {
            let r = ui.textInputRect
            var rect = SDL_Rect(x: Int32(r.x * userScale), y: Int32(r.y * userScale), w: Int32(r.width * userScale), h: Int32(r.height * userScale))
            SDL_SetTextInputRect(&rect)
            if !textInputActive { SDL_StartTextInput(); textInputActive = true }
        } else if textInputActive {
            SDL_StopTextInput()
            textInputActive = false
        }
    }

    /// The cursor currently shown (for tests).
    public var shownCursor: CursorKind { currentCursor }
}
