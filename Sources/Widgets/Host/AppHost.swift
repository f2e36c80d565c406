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

/// How `AppHost.run` schedules frames.
public enum FrameSchedule: Sendable, Equatable {
    /// A frame after input (and one more to settle), while a widget asks for frames
    /// (`UI.requestRedraw`), and when background work wakes the loop (`FrameWaker`);
    /// otherwise the loop sleeps in `SDL_WaitEventTimeout`. What desktop apps want: an
    /// untouched window costs nothing.
    case onDemand
    /// Frame after frame, as fast as present allows: benchmarks, profiling, replays.
    case continuous
}

/// Owns a window, its `UI`, the event pump and the frame profiler, and runs frames:
/// poll events → build the UI → submit draw lists → (screenshot) → present.
///
/// `run` draws frames on demand (see `FrameSchedule`): widgets that animate call
/// `ui.requestRedraw()`, timers `ui.requestRedraw(after:)`, and worker threads
/// `FrameWaker.wake()`.
///
/// ```swift
/// let host = try AppHost(options: .init(title: "Demo"))
/// host.run { ui in
///     ui.text("Hello")
/// }
/// ```
@MainActor
public final class AppHost {
    /// How to open the window and run the app.
    public struct Options: Sendable {
        /// The window's title.
        public var title = "Tessera"
        /// The window's width, in window coordinates.
        public var width = 1280
        /// The window's height, in window coordinates.
        public var height = 800
        /// Whether presenting waits for the display's refresh.
        public var vsync = true
        /// Use SDL's offscreen video driver (no display needed).
        public var offscreen = false
        /// UI scale; nil takes it from the display's DPI.
        public var scale: Double?
        /// The colors and metrics of the widgets.
        public var theme = Theme.light
        /// When frames run: on demand (input, redraw requests, wake-ups) or continuously.
        public var schedule = FrameSchedule.onDemand
        /// Options for a window of `width` × `height` titled `title`.
        public init(title: String = "Tessera", width: Int = 1280, height: Int = 800, vsync: Bool = true,
                    offscreen: Bool = false, scale: Double? = nil, theme: Theme = .light, schedule: FrameSchedule = .onDemand) {
            self.title = title; self.width = width; self.height = height; self.vsync = vsync
            self.offscreen = offscreen; self.scale = scale; self.theme = theme; self.schedule = schedule
        }
    }

    /// The window the app draws in.
    public let window: Window
    /// The UI the app builds each frame.
    public let ui: UI
    /// Times every frame: phases, scopes, percentiles, janky frames.
    public let profiler: FrameProfiler
    /// Turns SDL events into the UI's input events.
    public var pump = EventPump()
    /// Shows the frame-time HUD (F12 toggles it). While it is shown, frames run at the
    /// display's rate (its graphs move).
    public var showsHUD = false
    /// How `run` schedules frames.
    public var schedule: FrameSchedule
    /// Times the on-demand loop woke from its wait for a reason of its own (an event, a
    /// worker's wake-up, a requested frame), not counting a caller's timeout.
    public private(set) var wakeups = 0
    /// A frame is due regardless of timers: the first one, and one after each frame with input
    /// (immediate mode settles a change made late in a frame on the next one).
    private var frameDue = true
    /// When the UI asked for the next frame (`ui.redrawTime`, clock seconds), paced.
    private var requestedFrameTime: Double?
    private var lastFrameStart = -Double.infinity
    /// Whether the video driver can sleep in `SDL_WaitEventTimeout` (SDL's offscreen and dummy
    /// drivers poll every millisecond instead).
    private let waitsInSDL: Bool
    /// Seconds for the UI's clock; tests substitute a virtual clock.
    public var clock: () -> Double = { MonotonicClock.seconds() }
    /// The user's UI scale on top of the backing scale.
    public private(set) var userScale: Double
    private let explicitScale: Double?
    /// Whether the app was asked to quit (the window closed, or `requestQuit`).
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
    /// Where the HUD's Record button saves traces (each a new file, mode 0600).
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
        do throws(RegularFile.ReadError) {
            // Private to the user, and a new file: in a shared temporary folder, no file or link
            // another user put there first is followed or written over.
            try RegularFile.writeNew(Array(json.utf8), to: path, mode: 0o600)
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
    /// Serves the UI to screen readers over AT-SPI (nil without a session bus).
    private let accessibilityBridge: AtspiBridge?
    private var accessibilityWasEnabled = false
    private var cursors: [CursorKind: OpaquePointer] = [:]
    private var currentCursor: CursorKind = .arrow
    private var textInputActive = false

    /// Opens the window (SDL's offscreen driver when `options.offscreen`) and makes the UI.
    public init(options: Options) throws {
        // A write to a closed pipe (a recording, a log read by a program that quit) fails with
        // EPIPE and is handled where it happens, instead of killing the app with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        try SDLContext.initialize(offscreen: options.offscreen)
        waitsInSDL = !["offscreen", "dummy"].contains(SDLContext.videoDriver)
        window = try Window(title: options.title, width: options.width, height: options.height, vsync: options.vsync)
        ui = UI(fonts: try FontLibrary(atlas: window.renderer.atlas), theme: options.theme)
        ui.clipboard = SDLClipboard()
        profiler = FrameProfiler()
        profiler.presentWaitsForVSync = options.vsync && waitsInSDL
        ui.profiler = profiler
        explicitScale = options.scale
        schedule = options.schedule
        // (Offscreen windows are tests' and tools': nothing a screen reader can show.)
        accessibilityBridge = options.offscreen ? nil : AtspiBridge.start(appName: options.title,
                                                                         environment: ProcessInfo.processInfo.environment)
        userScale = 1
        userScale = resolvedUserScale()
        SDL_StopTextInput()
        MainActorJobs.start()
        ui.accessibilityTitle = options.title
        Log.info("window \(options.width)×\(options.height) on '\(SDLContext.videoDriver)', renderer '\(window.renderer.name)', UI scale \(userScale)")
    }

    private func resolvedUserScale() -> Double {
        let s = explicitScale ?? window.contentScale
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
        FrameProfiler.current = profiler
        defer { FrameProfiler.current = nil }
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
        lastFrameStart = clock()
        frameDue = !events.isEmpty
        if events.contains(.displayChanged) { userScale = resolvedUserScale() }
        profiler.recordEvents(events.count)
        MainActorJobs.runWaiting() // what a task changed is drawn in this frame
        if let accessibilityBridge { takeAccessibilityRequests(accessibilityBridge) }
        profiler.endPhase(.events)

        ui.beginFrame(events: events, size: logicalSize, scale: window.backingScale * userScale, time: clock())
        if ui.input.quitRequested { quitRequested = true }
        ui.images?.beginFrame()
        build(ui)
        // F12 shows the HUD, unless the app took the key (a menu command of its own).
        if ui.shortcutPressed(KeyboardShortcut(.f12, modifiers: [])) { showsHUD.toggle() }
        if let images = ui.images {
            profiler.beginScope(FrameRecord.uploadKind, "images")
            profiler.recordLazyPath(images.endFrame())
            profiler.endScope()
            if images.needsFrame { ui.requestRedraw() }
        }
        if showsHUD {
            if ui.profilerHUD(profiler, isRecording: profiler.keepsTrace, note: traceNote) { toggleTraceRecording() }
            ui.requestRedraw() // its graphs move
        }
        profiler.beginScope("", "end of frame")
        ui.endFrame()
        profiler.endScope()
        if let accessibilityBridge, ui.isAccessibilityEnabled { publishAccessibility(accessibilityBridge) }
        requestedFrameTime = ui.redrawTime
        if let store = ui.persistentStore {
            profiler.beginScope("", "state save")
            store.saveIfNeeded()
            profiler.endScope()
        }
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

    /// Runs frames until the window closes (or `maxFrames` have run), scheduled by `schedule`.
    public func run(maxFrames: Int? = nil, _ build: (UI) -> Void) {
        var count = 0
        while !quitRequested {
            if schedule == .onDemand { _ = waitForFrame() }
            frame(build)
            count += 1
            if let maxFrames, count >= maxFrames { break }
        }
        if ui.persistentStore?.hasUnsavedChanges == true { ui.persistentStore?.save() }
    }

    /// One turn of the on-demand loop: waits (at most `timeout` seconds) until a frame is
    /// due, then runs it. Returns whether a frame ran. Tests and tools drive the loop with it.
    @discardableResult
    public func runOnce(timeout: Double = .infinity, _ build: (UI) -> Void) -> Bool {
        guard waitForFrame(timeout: timeout) else { return false }
        frame(build)
        return true
    }

    /// The earliest the UI's requested frame may run: at its time, and no sooner than one
    /// refresh after the last frame started, so animations run at the display's rate even
    /// where present does not wait for the display (vsync off, Xvfb, offscreen). Input is not
    /// paced: an event starts a frame at once.
    private var pacedFrameTime: Double? {
        requestedFrameTime.map { max($0, lastFrameStart + window.refreshInterval) }
    }

    /// Blocks until a frame is due: an SDL event is queued (input, a window change, a worker's
    /// wake-up), or the requested frame time has come. Returns false when `timeout` seconds
    /// passed first. Never sleeps while an event is waiting.
    public func waitForFrame(timeout: Double = .infinity) -> Bool {
        if frameDue { return true }
        let deadline = timeout < .infinity ? MonotonicClock.seconds() + max(0, timeout) : .infinity
        var waited = false
        while true {
            let now = clock()
            var wait = deadline - MonotonicClock.seconds()
            if let due = pacedFrameTime {
                if due <= now {
                    if waited { wakeups += 1 }
                    return true
                }
                wait = min(wait, due - now)
            }
            if wait <= 0 {
                SDL_PumpEvents()
                let queued = hasQueuedEvents()
                if queued && waited { wakeups += 1 }
                return queued
            }
            waited = true
            if waitsInSDL {
                let ms = wait == .infinity ? -1 : Int32(min((wait * 1000).rounded(.up), Double(Int32.max)))
                if SDL_WaitEventTimeout(nil, ms) == 1 && hasQueuedEvents() {
                    wakeups += 1
                    return true
                }
            } else {
                // No blocking wait in this video driver: sleep until a worker's wake-up, and
                // look at the queue every 50 ms for anything pushed another way.
                FrameWaker.waitForWake(timeout: min(wait, 0.05))
                SDL_PumpEvents()
                if hasQueuedEvents() {
                    wakeups += 1
                    return true
                }
            }
        }
    }

    /// Whether an event is queued. SDL's internal poll sentinel does not count and is dropped:
    /// left at the head of the queue, it would end the next poll before the events behind it.
    private func hasQueuedEvents() -> Bool {
        SDL_FlushEvent(SDL_POLLSENTINEL.rawValue)
        return SDL_HasEvents(SDL_FIRSTEVENT.rawValue, SDL_LASTEVENT.rawValue) == SDL_TRUE
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

    /// Before a frame: a screen reader turned on or off, what it asked the widgets to do, and
    /// the table cells it asked for that the last frame did not build.
    private func takeAccessibilityRequests(_ bridge: AtspiBridge) {
        let enabled = bridge.isEnabled
        if enabled != accessibilityWasEnabled {
            accessibilityWasEnabled = enabled
            ui.isAccessibilityEnabled = enabled
        }
        guard enabled else { return }
        bridge.answerCellQueries(ui.accessibilityCellText)
        for request in bridge.takeRequests() { ui.perform(request) }
    }

    /// After a frame: its tree, with where the window is, goes to the bridge.
    private func publishAccessibility(_ bridge: AtspiBridge) {
        profiler.beginScope("", "accessibility")
        var x: Int32 = 0, y: Int32 = 0
        SDL_GetWindowPosition(window.handle, &x, &y)
        bridge.publish(AccessibilitySnapshot(tree: ui.accessibilityTree, origin: Point(Double(x), Double(y)), scale: userScale))
        profiler.endScope()
    }

    /// The cursor currently shown (for tests).
    public var shownCursor: CursorKind { currentCursor }
}
