import Foundation
import CSDL2
import Render2D
import Imaging
import Profiling

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

/// Owns the app's windows (each with its `UI`, event routing and frame profiler) and runs
/// frames: poll events and route them to their windows → build each due window's UI → submit
/// its draw lists → (screenshot) → present.
///
/// `run` draws frames on demand, per window (see `FrameSchedule`): widgets that animate call
/// `ui.requestRedraw()`, timers `ui.requestRedraw(after:)`, and worker threads
/// `FrameWaker.wake()`. The first window is `window`/`ui`; `ui.openWindow(id:)` opens more.
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
        /// Where the window opens on the desktop (its top-left corner); nil centres it.
        public var position: Point?
        /// Options for a window of `width` × `height` titled `title`.
        public init(
            title: String = "Tessera", width: Int = 1280, height: Int = 800, vsync: Bool = true,
            offscreen: Bool = false, scale: Double? = nil, theme: Theme = .light, schedule: FrameSchedule = .onDemand,
            position: Point? = nil
        ) {
            self.title = title
            self.width = width
            self.height = height
            self.vsync = vsync
            self.offscreen = offscreen
            self.scale = scale
            self.theme = theme
            self.schedule = schedule
            self.position = position
        }
    }

    /// The group of the first window, and of windows `ui.openWindow()` opens without an id:
    /// built by the closure given to `run` or `frame`.
    public nonisolated static let mainGroup = "main"

    /// The first window: `window`, `ui` and `profiler` are its.
    public let primary: AppWindow
    /// The first window's SDL window.
    public var window: Window { primary.window }
    /// The UI the first window builds each frame.
    public var ui: UI { primary.ui }
    /// Times every frame of the first window: phases, scopes, percentiles, janky frames.
    public var profiler: FrameProfiler { primary.profiler }
    /// The open windows, in the order they opened (the first window leaves it when closed).
    public private(set) var windows: [AppWindow]
    /// The window whose frame is being built (the first one outside frames).
    public private(set) var currentWindow: AppWindow
    /// Turns SDL events into the UI's input events.
    public var pump = EventPump()
    /// Shows the frame-time HUD over the first window (F12 toggles it). While it is shown, its
    /// frames run at the display's rate (its graphs move).
    public var showsHUD: Bool {
        get { primary.showsHUD }
        set { primary.showsHUD = newValue }
    }
    /// How `run` schedules frames.
    public var schedule: FrameSchedule
    /// Whether closing the last window ends `run` (true, as SwiftUI apps on Linux do).
    public var quitsWhenLastWindowCloses = true
    /// Called with each window opened after the first, before its first frame: give it what
    /// the first has (an image pipeline for its renderer, say).
    public var prepareWindow: ((AppWindow) -> Void)?
    /// Where the windows' sizes and positions are kept between runs (each group's last one),
    /// and the store every window's UI saves into. Setting it gives it to every window.
    public var persistentStore: PersistentStore? {
        didSet { for w in windows + [primary] { w.ui.persistentStore = persistentStore } }
    }
    /// Times the on-demand loop woke from its wait for a reason of its own (an event, a
    /// worker's wake-up, a requested frame), not counting a caller's timeout.
    public private(set) var wakeups = 0
    /// Whether the video driver can sleep in `SDL_WaitEventTimeout` (SDL's offscreen and dummy
    /// drivers poll every millisecond instead).
    private let waitsInSDL: Bool
    /// Seconds for the UI's clock; tests substitute a virtual clock.
    public var clock: () -> Double = { MonotonicClock.seconds() }
    /// The user's UI scale on top of the backing scale, in the first window.
    public var userScale: Double { primary.userScale }
    private let options: Options
    private var groups: [String: WindowGroupSpec] = [:]
    private var nextWindowNumber = 2
    /// Whether the app was asked to quit (the last window closed, or `requestQuit`).
    public private(set) var quitRequested = false
    /// When set, every frame of the first window is read back before it is presented.
    public var readsBackFrames: Bool {
        get { primary.readsBackFrames }
        set { primary.readsBackFrames = newValue }
    }
    /// The first window's last frame read back (see `readsBackFrames`).
    public var lastFramePixels: PixelBuffer? { primary.lastFramePixels }
    /// Records every frame's input with its time on the UI's clock (`--record`).
    public var recorder: InputRecorder? {
        didSet { recordingOrigin = clock() }
    }
    private var recordingOrigin = 0.0
    /// The recorded frame's input that the next frame of the first window plays instead of
    /// the live input (only quitting stays live); nil when no replay runs.
    private var replayInput: [InputEvent]?
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
        let path =
            traceFolder + (traceFolder.hasSuffix("/") ? "" : "/")
            + "tessera-trace-\(Int(Date().timeIntervalSince1970)).json"
        let json = profiler.chromeTraceJSON(
            images: ui.images?.timelines ?? [], workers: ui.images?.loader.workerCount ?? 0)
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
    /// Turns of the loop that drew at least one frame (the frame index of recordings).
    public private(set) var frameNumber = 0
    /// Serves the UI to screen readers over AT-SPI (nil without a session bus).
    private let accessibilityBridge: AtspiBridge?
    private var accessibilityWasEnabled = false
    /// The window whose tree the bridge has (the one with keyboard focus, else the first).
    private var accessibleWindow: AppWindow?
    private var cursors: [CursorKind: OpaquePointer] = [:]
    private var currentCursor: CursorKind = .arrow
    /// A general wake-up arrived since the last turn: every window draws a frame.
    private var wokenForAll = false
    /// An image wake-up arrived: windows whose pipeline has something to upload draw one.
    private var wokenForImages = false

    /// Opens the window (SDL's offscreen driver when `options.offscreen`) and makes the UI.
    public init(options: Options) throws {
        // A write to a closed pipe (a recording, a log read by a program that quit) fails with
        // EPIPE and is handled where it happens, instead of killing the app with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        try SDLContext.initialize(offscreen: options.offscreen)
        waitsInSDL = !["offscreen", "dummy"].contains(SDLContext.videoDriver)
        self.options = options
        let window = try Window(
            title: options.title, width: options.width, height: options.height, vsync: options.vsync,
            position: options.position.flatMap(Self.desktopPosition))
        let ui = UI(fonts: try FontLibrary(atlas: window.renderer.atlas), theme: options.theme)
        ui.bitmapTextures.renderer = window.renderer
        ui.reducesMotion = SystemAppearance.flag(ProcessInfo.processInfo.environment["TESSERA_REDUCE_MOTION"]) ?? false
        ui.layoutDirection = LayoutDirection(environment: ProcessInfo.processInfo.environment)
        ui.clipboard = SDLClipboard()
        primary = AppWindow(
            group: Self.mainGroup, number: 1, window: window, ui: ui, explicitScale: options.scale, content: nil)
        primary.profiler.presentWaitsForVSync = options.vsync && waitsInSDL
        windows = [primary]
        currentWindow = primary
        schedule = options.schedule
        // (Offscreen windows are tests' and tools': nothing a screen reader can show.)
        accessibilityBridge =
            options.offscreen
            ? nil
            : AtspiBridge.start(
                appName: options.title,
                environment: ProcessInfo.processInfo.environment)
        SDL_StopTextInput()
        MainActorJobs.start()
        ui.accessibilityTitle = options.title
        Log.info(
            "window \(options.width)×\(options.height) on '\(SDLContext.videoDriver)', renderer '\(window.renderer.name)', UI scale \(primary.userScale)"
        )
    }

    /// A desktop position as whole pixels; nil for one that is not a number (an app's setting
    /// read from a file: never a trap).
    static func desktopPosition(_ p: Point) -> (x: Int, y: Int)? {
        guard p.x.isFinite, p.y.isFinite else { return nil }
        return (Int(min(max(p.x, -100_000), 100_000)), Int(min(max(p.y, -100_000), 100_000)))
    }

    /// The viewport of the first window in logical pixels.
    public var logicalSize: Size { primary.logicalSize }

    /// Ends `run` after the current frame.
    public func requestQuit() { quitRequested = true }

    /// Saves the first window's next frame to `path` as PNG.
    public func captureScreenshot(to path: String) { primary.captureScreenshot(to: path) }

    // MARK: Windows

    /// Registers a kind of window (SwiftUI's `WindowGroup(id:)`): `ui.openWindow(id: id)` opens
    /// one titled `title`, first `width` × `height` (then where the last one of the group was
    /// left), built by `content`.
    ///
    /// ```swift
    /// host.windowGroup("photo", title: "Photo", width: 900, height: 700) { ui in
    ///     ui.asyncImage(ui.windowValue(as: String.self) ?? "", in: ui.availableRect, mode: .fit)
    /// }
    /// ```
    public func windowGroup(
        _ id: String, title: String, width: Int = 1000, height: Int = 700,
        content: @escaping (UI) -> Void
    ) {
        groups[id] = WindowGroupSpec(title: title, width: width, height: height, content: content)
    }

    /// Opens a window of the group `group` (`mainGroup`: another one like the first), and
    /// returns it; nil when SDL could not make it (logged). Its first frame runs in the next turn
    /// of the loop. `ui.openWindow(id:)` asks for one from a frame.
    ///
    /// ```swift
    /// let second = host.openWindow()                     // another main window
    /// host.openWindow(group: "photo", value: path)       // ui.windowValue(as: String.self) there
    /// ```
    @discardableResult
    public func openWindow(group: String = AppHost.mainGroup) -> AppWindow? {
        open(group: group, value: nil)
    }

    /// Opens a window of the group `group` showing `value` (read there with `ui.windowValue(as:)`).
    @discardableResult
    public func openWindow<Value: Encodable>(group: String = AppHost.mainGroup, value: Value) -> AppWindow? {
        open(group: group, value: try? JSONEncoder().encode(value))
    }

    private func open(group: String, value: Data?) -> AppWindow? {
        let spec = groups[group]
        if spec == nil && group != Self.mainGroup {
            Log.warn("no window group '\(group)': opening a main window instead")
        }
        let title = spec?.title ?? options.title
        // Where the last window of the group was left, else where its newest open one is.
        let startFrame = savedFrame(of: group) ?? windows.last { $0.group == group }?.frame
        var frame = startFrame.map { (x: Int($0.x), y: Int($0.y), width: Int($0.width), height: Int($0.height)) }
        let size = frame.map { ($0.width, $0.height) } ?? (spec?.width ?? options.width, spec?.height ?? options.height)
        // A second window of a group opens offset from the first, not on top of it.
        if var f = frame {
            while windows.contains(where: { $0.group == group && Int($0.frame.x) == f.x && Int($0.frame.y) == f.y }) {
                f.x += 32
                f.y += 32
            }
            frame = f
        }
        do {
            let window = try Window(
                title: title, width: size.0, height: size.1, vsync: options.vsync,
                position: frame.map { ($0.x, $0.y) })
            let ui = UI(
                fonts: FontLibrary(atlas: window.renderer.atlas, sharingFilesWith: primary.ui.fonts),
                theme: primary.ui.theme)
            ui.bitmapTextures.renderer = window.renderer
            ui.reducesMotion = primary.ui.reducesMotion
            ui.layoutDirection = primary.ui.layoutDirection
            ui.clipboard = primary.ui.clipboard
            ui.persistentStore = persistentStore ?? primary.ui.persistentStore
            ui.fileChooserBackend = primary.ui.fileChooserBackend
            ui.isAccessibilityEnabled = primary.ui.isAccessibilityEnabled
            ui.recordsDrawnText = primary.ui.recordsDrawnText
            ui.accessibilityTitle = title
            ui.windowScene.value = value
            let opened = AppWindow(
                group: group, number: nextWindowNumber, window: window, ui: ui,
                explicitScale: options.scale, content: spec?.content)
            opened.profiler.presentWaitsForVSync = primary.profiler.presentWaitsForVSync
            nextWindowNumber += 1
            windows.append(opened)
            prepareWindow?(opened)
            Log.info("opened window \(opened.number) (\(group)) \(size.0)×\(size.1)")
            return opened
        } catch {
            Log.error("could not open a window: \(error)")
            return nil
        }
    }

    /// Closes `window`: its size and position are kept for the next window of its group, its
    /// image pipeline stops, its state goes. The first window is hidden rather than destroyed
    /// (`window` and `ui` stay usable). Closing the last open window quits when
    /// `quitsWhenLastWindowCloses`.
    public func close(_ window: AppWindow) {
        guard !window.isClosed else { return }
        saveFrame(of: window)
        window.isClosed = true
        windows.removeAll { $0 === window }
        if window === primary {
            SDL_HideWindow(window.window.handle)
        } else {
            _ = window.ui.images?.shutdown(within: 0)  // its workers end after the decode at hand: closing never waits
            window.ui.images = nil
            window.ui.windowScene.objects.removeAll()
        }
        if accessibleWindow === window { accessibleWindow = nil }
        if windows.isEmpty && quitsWhenLastWindowCloses { quitRequested = true }
        Log.info("closed window \(window.number)")
    }

    /// Where the last window of `group` was left (`persistentStore`), nil when none was kept
    /// or what was kept is not a frame.
    public func savedFrame(of group: String) -> Rect? {
        guard let store = persistentStore ?? primary.ui.persistentStore,
            let v = store.value("window.\(group)", as: [Int].self), v.count == 4,
            v[2] > 0, v[3] > 0, v[2] <= 16_384, v[3] <= 16_384, abs(v[0]) <= 100_000, abs(v[1]) <= 100_000
        else { return nil }
        return Rect(x: Double(v[0]), y: Double(v[1]), width: Double(v[2]), height: Double(v[3]))
    }

    private func saveFrame(of window: AppWindow) {
        guard let store = persistentStore ?? primary.ui.persistentStore else { return }
        let f = window.frame
        store.set([Int(f.x), Int(f.y), Int(f.width), Int(f.height)], for: "window.\(window.group)")
    }

    // MARK: Frames

    /// Runs one frame in every open window, with `build` producing the UI of windows of the
    /// main group.
    public func frame(_ build: (UI) -> Void) {
        _ = turn(build, onlyDue: false)
    }

    /// Polls and routes the events, then runs a frame in each window that is due (every open
    /// window unless `onlyDue`), then opens and closes the windows those frames asked for.
    /// Returns whether any frame ran.
    private func turn(_ build: (UI) -> Void, onlyDue: Bool) -> Bool {
        let start = MonotonicClock.nanoseconds()
        routeEvents()
        let now = clock()
        let forAll = wokenForAll, forImages = wokenForImages
        wokenForAll = false
        wokenForImages = false
        var ran = false
        for w in windows {
            let due =
                !onlyDue || w.frameDue || !w.pendingEvents.isEmpty || forAll
                || (forImages && w.ui.images?.needsFrame == true) || (w.pacedFrameTime.map { $0 <= now } ?? false)
            guard due else { continue }
            if !ran { frameNumber += 1 }
            runFrame(of: w, build: build, startNs: ran ? nil : start)
            ran = true
        }
        applyWindowRequests()
        return ran
    }

    /// Drains SDL's queue into each window's pending events (by the event's window; one with
    /// none goes to the window with keyboard focus, else the first). Quitting goes to all; a
    /// window's close button closes it.
    private func routeEvents() {
        var event = SDL_Event()
        let eventClock = SDLEventClock()
        while SDL_PollEvent(&event) != 0 {
            let type = SDL_EventType(event.type)
            if event.type == FrameWaker.eventType {
                FrameWaker.acknowledge()
                continue
            }
            if type == SDL_RENDER_TARGETS_RESET || type == SDL_RENDER_DEVICE_RESET {
                // The kept frame is gone: every window draws its next frame whole, now.
                for w in windows {
                    w.window.renderer.invalidateLastFrame()
                    w.frameDue = true
                }
                continue
            }
            if type == SDL_QUIT {
                for w in windows { w.enqueue(.quit, at: MonotonicClock.nanoseconds()) }
                if windows.isEmpty { quitRequested = true }
                continue
            }
            guard let target = window(for: event) else { continue }
            if type == SDL_WINDOWEVENT && SDL_WindowEventID(UInt32(event.window.event)) == SDL_WINDOWEVENT_CLOSE {
                target.ui.windowScene.dismissRequested = true
                target.frameDue = true
                continue
            }
            // A window the display uncovered draws its next frame whole, now (presenting only
            // what changed would leave the rest of it as the display left it).
            if type == SDL_WINDOWEVENT && SDL_WindowEventID(UInt32(event.window.event)) == SDL_WINDOWEVENT_EXPOSED {
                target.window.renderer.invalidateLastFrame()
                target.frameDue = true
            }
            // A window given keyboard focus draws a frame: a screen reader is then shown its tree.
            if type == SDL_WINDOWEVENT && SDL_WindowEventID(UInt32(event.window.event)) == SDL_WINDOWEVENT_FOCUS_GAINED
            {
                target.frameDue = true
            }
            var pump = self.pump
            pump.coordinateScale = 1 / target.userScale
            if let e = pump.translate(event, window: target.window) {
                target.enqueue(e, at: eventClock.nanoseconds(ofSDLTimestamp: event.common.timestamp))
            }
        }
        let reasons = FrameWaker.takeReasons()
        if reasons.contains(.general) { wokenForAll = true }
        if reasons.contains(.images) { wokenForImages = true }
    }

    private func window(for event: SDL_Event) -> AppWindow? {
        let id: UInt32
        switch SDL_EventType(event.type) {
        case SDL_MOUSEMOTION: id = event.motion.windowID
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP: id = event.button.windowID
        case SDL_MOUSEWHEEL: id = event.wheel.windowID
        case SDL_KEYDOWN, SDL_KEYUP: id = event.key.windowID
        case SDL_TEXTINPUT: id = event.text.windowID
        case SDL_TEXTEDITING: id = event.edit.windowID
        case SDL_FINGERDOWN, SDL_FINGERMOTION, SDL_FINGERUP: id = event.tfinger.windowID
        case SDL_DROPFILE, SDL_DROPTEXT, SDL_DROPBEGIN, SDL_DROPCOMPLETE: id = event.drop.windowID
        case SDL_WINDOWEVENT: id = event.window.windowID
        default: id = 0
        }
        if id != 0 {
            // A window already closed (its last events) gets nothing.
            return windows.first { $0.window.id == id }
        }
        if windows.count > 1, let focus = SDL_GetKeyboardFocus(),
            let w = windows.first(where: { $0.window.handle == focus })
        {
            return w
        }
        return windows.first
    }

    /// Runs one frame of `w`: its events, the app's build, then submit and present, each a
    /// phase of its profiler. `startNs`: when the turn began, for the turn's first frame (its
    /// events phase then includes polling).
    private func runFrame(of w: AppWindow, build: (UI) -> Void, startNs: UInt64?) {
        currentWindow = w
        defer { currentWindow = primary }
        w.profiler.beginFrame(startNs: startNs)
        FrameProfiler.current = w.profiler
        defer { FrameProfiler.current = nil }
        let (events, frameTime) = takeFrameEvents(of: w)
        buildFrame(of: w, events: events, frameTime: frameTime, build: build)
        submitAndPresent(w)
    }

    /// The events phase: the window's events (through the touch simulator, replaced by a
    /// replay's, written to a recording), their latency stamps, the main actor's waiting jobs
    /// and a screen reader's requests. Returns the events and the frame's time.
    private func takeFrameEvents(of w: AppWindow) -> (events: [InputEvent], time: Double) {
        let profiler = w.profiler
        var (events, times) = w.takeEvents()
        let frameTime = clock()
        if w === primary {
            if let touchSimulator {
                touchSimulator.scale = w.userScale
                let before = times.min() ?? MonotonicClock.nanoseconds()
                events = touchSimulator.filter(events)
                if times.count != events.count { times = Array(repeating: before, count: events.count) }
            }
            if let replayed = replayInput {
                // Live input is dropped, but for quitting; the recorded input happened now.
                let live = events.filter { $0 == .quit }
                events = live + replayed
                times = Array(repeating: MonotonicClock.nanoseconds(), count: events.count)
                replayInput = []
            }
            if let recorder {
                let now = MonotonicClock.nanoseconds()
                let ages = times.map { now > $0 ? Double(now - $0) / 1e9 : 0 }
                recorder.record(frame: frameNumber - 1, time: frameTime - recordingOrigin, events: events, ages: ages)
            }
        }
        profiler.recordInputs(
            zip(events, times).compactMap { event, ns in event.latencyKind.map { InputStamp(kind: $0, ns: ns) } })
        w.framesDrawn += 1
        w.lastFrameStart = frameTime
        w.frameDue = !events.isEmpty
        if events.contains(.displayChanged) { w.userScale = w.resolvedUserScale() }
        profiler.recordEvents(events.count)
        MainActorJobs.runWaiting()  // what a task changed is drawn in this frame
        if let accessibilityBridge, w === accessibilityTarget {
            takeAccessibilityRequests(accessibilityBridge, into: w)
        }
        profiler.endPhase(.events)
        return (events, frameTime)
    }

    /// The build phase: the app's closure above a docked HUD's strip, the image uploads, the
    /// HUD, the end of the UI's frame, the accessibility tree, the settings saved, the cursor
    /// and text input.
    private func buildFrame(of w: AppWindow, events: [InputEvent], frameTime: Double, build: (UI) -> Void) {
        let profiler = w.profiler, ui = w.ui, window = w.window
        // A docked HUD keeps a strip below the app free: the app is laid out above it.
        let logical = w.logicalSize
        let hudHeight =
            w.showsHUD && ui.hudPlacement == .docked ? min(ui.hudDockHeight, (logical.height / 2).rounded(.down)) : 0
        ui.beginFrame(
            events: events, size: Size(logical.width, logical.height - hudHeight),
            scale: window.backingScale * w.userScale, time: frameTime)
        if ui.input.quitRequested { quitRequested = true }
        if let images = ui.images {
            images.beginFrame()
            images.timesUpload = w.timesUpload  // this window's profiler (a pipeline may serve several)
        }
        if let content = w.content { content(ui) } else { build(ui) }
        // F12 shows the HUD, unless the app took the key (a menu command of its own).
        if ui.shortcutPressed(KeyboardShortcut(.f12, modifiers: [])) { w.showsHUD.toggle() }
        if let images = ui.images {
            profiler.beginScope(FrameRecord.uploadKind, "images")
            profiler.recordLazyPath(images.endFrame())
            profiler.endScope()
            if images.needsFrame { ui.requestRedraw() }
        }
        if w.showsHUD {
            let dock = Rect(x: 0, y: logical.height - hudHeight, width: logical.width, height: hudHeight)
            if ui.profilerHUD(
                profiler, isRecording: profiler.keepsTrace, note: w === primary ? traceNote : nil, dock: dock,
                screenshot: { w.texture(of: $0) }), w === primary
            {
                toggleTraceRecording()
            }
            ui.requestRedraw()  // its graphs move
        }
        profiler.beginScope("", "end of frame")
        ui.endFrame()
        profiler.endScope()
        if let accessibilityBridge, ui.isAccessibilityEnabled, w === accessibilityTarget {
            publishAccessibility(accessibilityBridge, from: w)
        }
        w.requestedFrameTime = ui.redrawTime
        if let store = ui.persistentStore {
            profiler.beginScope("", "state save")
            store.saveIfNeeded()
            profiler.endScope()
        }
        if windows.count == 1 || SDL_GetMouseFocus() == window.handle { applyCursor(ui.cursor) }
        if windows.count == 1 || SDL_GetKeyboardFocus() == window.handle { applyTextInput(w) }
        profiler.endPhase(.build)
    }

    /// The submit and present phases: the content and overlay lists to the renderer, a read
    /// back when tests or the profiler want the pixels, a screenshot asked for, the present.
    private func submitAndPresent(_ w: AppWindow) {
        let profiler = w.profiler, ui = w.ui, renderer = w.window.renderer
        renderer.beginFrame(clearColor: ui.theme.background)
        renderer.draw(ui.contentDrawList)
        renderer.draw(ui.overlayDrawList)
        renderer.finishFrame()  // only what changed since the last frame (`redrawsOnlyDamage`)
        profiler.endPhase(.submit)
        if w.readsBackFrames { w.lastFramePixels = try? renderer.readPixels() }
        if profiler.keepsTrace || w.showsHUD {  // a janky frame's picture, for the trace and the inspector
            profiler.screenshotIfJanky { w.readsBackFrames ? w.lastFramePixels : try? renderer.readPixels() }
        }
        if let path = w.pendingScreenshot {
            w.pendingScreenshot = nil
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

    /// After the turn's frames: the windows they asked to open, then those asked to close.
    private func applyWindowRequests() {
        for w in windows {
            let requests = w.ui.windowScene.openRequests
            w.ui.windowScene.openRequests.removeAll()
            for request in requests { _ = open(group: request.group, value: request.value) }
        }
        for w in windows {
            guard let fullscreen = w.ui.windowScene.fullscreenRequest else { continue }
            w.ui.windowScene.fullscreenRequest = nil
            w.isFullscreen = fullscreen
        }
        for w in windows where w.ui.windowScene.dismissRequested {
            w.ui.windowScene.dismissRequested = false
            close(w)
        }
    }

    /// Runs frames until the app quits (the last window closed, or `requestQuit`) or
    /// `maxFrames` turns have drawn, each window scheduled by `schedule`.
    public func run(maxFrames: Int? = nil, _ build: (UI) -> Void) {
        var count = 0
        while !quitRequested {
            if schedule == .onDemand {
                _ = waitForFrame()
                guard turn(build, onlyDue: true) else { continue }
            } else {
                frame(build)
            }
            count += 1
            if let maxFrames, count >= maxFrames { break }
        }
        for w in windows { saveFrame(of: w) }
        let store = persistentStore ?? ui.persistentStore
        if store?.hasUnsavedChanges == true { store?.save() }
    }

    /// Plays `replay` into the first window: each recorded frame at its recorded time with
    /// its input, on a clock that runs from the recording's start, so long presses, double
    /// clicks, flicks and hover delays behave as recorded; after the last one, the frames the
    /// UI asks for (animations, timers) for `settle` seconds of that clock. Live input is
    /// ignored but for quitting. Returns then, or when the app quits.
    ///
    /// ```swift
    /// host.play(try InputReplay(path: "session.jsonl"), speed: .max) { ui in app.build(ui) }
    /// ```
    public func play(_ replay: InputReplay, speed: ReplaySpeed = .recorded, settle: Double = 1, _ build: (UI) -> Void) {
        let savedClock = clock
        let origin = clock()
        let elapsed = ReplayClock()
        clock = { origin + elapsed.seconds }
        defer {
            clock = savedClock
            replayInput = nil
        }
        let startedAt = MonotonicClock.seconds()
        let end = replay.duration + (settle.isFinite ? min(max(settle, 0), 3600) : 0)
        var next = 0
        while !quitRequested && !primary.isClosed {
            // The next recorded frame; after the last, the next frame the UI asks for (one a
            // refresh after a frame with input, or at the time a timer or animation asked).
            var due = Double.infinity
            if next < replay.steps.count {
                due = replay.steps[next].time
            } else {
                if primary.frameDue { due = primary.lastFrameStart - origin + primary.window.refreshInterval }
                if let asked = primary.pacedFrameTime { due = min(due, asked - origin) }
            }
            guard due <= end else { break }
            elapsed.seconds = max(elapsed.seconds, due)
            if speed == .recorded, !sleepUntil(startedAt + elapsed.seconds) { break }
            replayInput = next < replay.steps.count ? replay.steps[next].events : []
            next += 1
            primary.frameDue = true
            _ = turn(build, onlyDue: true)
        }
    }

    /// Sleeps until `deadline` (monotonic seconds), watching for the app being asked to quit;
    /// false when it was.
    private func sleepUntil(_ deadline: Double) -> Bool {
        while case let wait = deadline - MonotonicClock.seconds(), wait > 0 {
            usleep(UInt32(min(wait, 0.05) * 1e6))
            routeEvents()
            if primary.pendingEvents.contains(.quit) { return false }
        }
        return true
    }

    /// One turn of the on-demand loop: waits (at most `timeout` seconds) until a frame is
    /// due, then runs the due windows' frames. Returns whether a frame ran. Tests and tools
    /// drive the loop with it.
    @discardableResult
    public func runOnce(timeout: Double = .infinity, _ build: (UI) -> Void) -> Bool {
        guard waitForFrame(timeout: timeout) else { return false }
        return turn(build, onlyDue: true)
    }

    /// The earliest frame any window asked for (paced by its display's refresh).
    private var pacedFrameTime: Double? {
        windows.compactMap(\.pacedFrameTime).min()
    }

    /// Blocks until a frame may be due: an SDL event is queued (input, a window change, a
    /// worker's wake-up), or a window's requested frame time has come. Returns false when
    /// `timeout` seconds passed first. Never sleeps while an event is waiting.
    public func waitForFrame(timeout: Double = .infinity) -> Bool {
        if windows.contains(where: { $0.frameDue || !$0.pendingEvents.isEmpty }) { return true }
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

    private func applyTextInput(_ w: AppWindow) {
        let ui = w.ui, scale = w.userScale
        if ui.wantsTextInput {
            let r = ui.textInputRect
            var rect = SDL_Rect(
                x: Int32(r.x * scale), y: Int32(r.y * scale), w: Int32(r.width * scale), h: Int32(r.height * scale))
            SDL_SetTextInputRect(&rect)
            if !w.textInputActive {
                SDL_StartTextInput()
                w.textInputActive = true
            }
        } else if w.textInputActive {
            SDL_StopTextInput()
            w.textInputActive = false
        }
    }

    /// The window a screen reader is shown: the one with keyboard focus, else the first open one.
    private var accessibilityTarget: AppWindow? {
        if windows.count > 1, let focus = SDL_GetKeyboardFocus(),
            let w = windows.first(where: { $0.window.handle == focus })
        {
            return w
        }
        return windows.first
    }

    /// Before a frame: a screen reader turned on or off, what it asked the widgets to do, and
    /// the table cells it asked for that the last frame did not build.
    private func takeAccessibilityRequests(_ bridge: AtspiBridge, into w: AppWindow) {
        let enabled = bridge.isEnabled
        if enabled != accessibilityWasEnabled || w !== accessibleWindow {
            accessibilityWasEnabled = enabled
            accessibleWindow = w
            for other in windows { other.ui.isAccessibilityEnabled = enabled && other === w }
        }
        guard enabled else { return }
        bridge.answerCellQueries(w.ui.accessibilityCellText)
        for request in bridge.takeRequests() { w.ui.perform(request) }
    }

    /// After a frame: its tree, with where the window is, goes to the bridge.
    private func publishAccessibility(_ bridge: AtspiBridge, from w: AppWindow) {
        w.profiler.beginScope("", "accessibility")
        let frame = w.frame
        bridge.publish(AccessibilitySnapshot(tree: w.ui.accessibilityTree, origin: frame.origin, scale: w.userScale))
        w.profiler.endScope()
    }

    /// The cursor currently shown (for tests).
    public var shownCursor: CursorKind { currentCursor }
}

/// The replay's clock: seconds since the recording's start (a box the host's clock reads).
private final class ReplayClock {
    var seconds = 0.0
}
