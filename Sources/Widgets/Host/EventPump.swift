import CSDL2
import Render2D
import Imaging
import Profiling

/// Turns SDL events into `InputEvent`s in logical coordinates (`AppHost` drains SDL's queue and
/// hands each event to the pump with the window it is for).
///
/// Mouse events that SDL synthesizes from touch (`which == SDL_TOUCH_MOUSEID`) are dropped:
/// fingers arrive as finger events, so a touch is never counted twice.
@MainActor
public struct EventPump {
    /// Logical pixels per window coordinate (1 / the user's UI scale).
    public var coordinateScale = 1.0
    /// Logical pixels a precise wheel delta of 1.0 (one notch) scrolls.
    public var wheelStep = 48.0

    /// A pump with the default wheel step and no scaling.
    public init() {}

    func translate(_ event: SDL_Event, window: Window) -> InputEvent? {
        let touchMouse = tessera_touch_mouse_id()
        let s = coordinateScale
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            return .quit
        case SDL_MOUSEMOTION:
            guard event.motion.which != touchMouse else { return nil }
            return .pointerMoved(Point(Double(event.motion.x) * s, Double(event.motion.y) * s))
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP:
            guard event.button.which != touchMouse,
                let button = MouseButton(rawValue: Int(event.button.button))
            else { return nil }
            return .mouseButton(
                button, isDown: event.type == SDL_MOUSEBUTTONDOWN.rawValue,
                at: Point(Double(event.button.x) * s, Double(event.button.y) * s))
        case SDL_MOUSEWHEEL:
            guard event.wheel.which != touchMouse else { return nil }
            var dx = Double(event.wheel.preciseX), dy = Double(event.wheel.preciseY)
            if event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue {
                dx = -dx
                dy = -dy
            }
            // SDL: positive x scrolls right, i.e. the view moves towards the right edge.
            return .wheel(dx: -dx * wheelStep, dy: dy * wheelStep)
        case SDL_KEYDOWN, SDL_KEYUP:
            return .key(
                Key(rawValue: event.key.keysym.sym), isDown: event.type == SDL_KEYDOWN.rawValue,
                modifiers: Self.modifiers(event.key.keysym.mod), isRepeat: event.key.repeat != 0)
        case SDL_TEXTINPUT:
            let text = withUnsafeBytes(of: event.text.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return .text(text)
        case SDL_TEXTEDITING:
            let text = withUnsafeBytes(of: event.edit.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return .composition(text, cursor: Int(event.edit.start))
        case SDL_FINGERDOWN, SDL_FINGERMOTION, SDL_FINGERUP:
            let size = window.size
            let p = Point(Double(event.tfinger.x) * size.width * s, Double(event.tfinger.y) * size.height * s)
            let phase: FingerPhase =
                event.type == SDL_FINGERDOWN.rawValue
                ? .down
                : event.type == SDL_FINGERUP.rawValue ? .up : .moved
            return .finger(id: event.tfinger.fingerId, phase: phase, at: p)
        case SDL_DROPFILE, SDL_DROPTEXT:
            guard let pointer = event.drop.file else { return nil }
            defer { SDL_free(pointer) }  // SDL hands the string over
            let string = String(cString: pointer)
            return .dropped(event.type == SDL_DROPFILE.rawValue ? .file(string) : .text(string))
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_SIZE_CHANGED:
                return .resized(Size(Double(event.window.data1) * s, Double(event.window.data2) * s))
            case SDL_WINDOWEVENT_DISPLAY_CHANGED:
                return .displayChanged
            default:
                return nil
            }
        default:
            if event.type == FrameWaker.eventType { FrameWaker.acknowledge() }
            return nil
        }
    }

    static func modifiers(_ mod: UInt16) -> KeyModifiers {
        var m: KeyModifiers = []
        if mod & UInt16(KMOD_SHIFT.rawValue) != 0 { m.insert(.shift) }
        if mod & UInt16(KMOD_CTRL.rawValue) != 0 { m.insert(.control) }
        if mod & UInt16(KMOD_ALT.rawValue) != 0 { m.insert(.alt) }
        if mod & UInt16(KMOD_GUI.rawValue) != 0 { m.insert(.gui) }
        if mod & UInt16(KMOD_RALT.rawValue | KMOD_MODE.rawValue) != 0 { m.insert(.altGraph) }
        return m
    }
}

/// Pushes real SDL events onto SDL's queue, in window coordinates, so the same `EventPump`
/// path that handles a user's input handles them. Used by tests, benchmarks and the touch
/// simulation.
///
/// ```swift
/// let inject = EventInjector(window: window)
/// inject.mouseMove(to: Point(40, 20)); inject.mouseButton(.left, down: true, at: Point(40, 20))
/// ```
@MainActor
public struct EventInjector {
    /// The window the events are for.
    public let window: Window
    /// The synthetic touch device's ID.
    public var touchID: Int64 = 4242

    /// An injector for `window`.
    public init(window: Window) { self.window = window }

    private func push(_ event: inout SDL_Event) {
        if SDL_PushEvent(&event) < 0 { Log.warn("SDL_PushEvent: \(String(cString: SDL_GetError()))") }
    }

    /// The mouse moved to `p` (window coordinates), with `buttons` held (SDL's button mask).
    public func mouseMove(to p: Point, buttons: UInt32 = 0) {
        var e = SDL_Event()
        e.motion.type = SDL_MOUSEMOTION.rawValue
        e.motion.windowID = window.id
        e.motion.which = 0
        e.motion.state = buttons
        e.motion.x = Int32(p.x.rounded())
        e.motion.y = Int32(p.y.rounded())
        push(&e)
    }

    /// A mouse button went down or up at `p`; `clicks` is SDL's click count (2 for a double click).
    public func mouseButton(_ button: MouseButton, down: Bool, at p: Point, clicks: Int = 1) {
        var e = SDL_Event()
        e.button.type = down ? SDL_MOUSEBUTTONDOWN.rawValue : SDL_MOUSEBUTTONUP.rawValue
        e.button.windowID = window.id
        e.button.which = 0
        e.button.button = UInt8(button.rawValue)
        e.button.state = UInt8(down ? SDL_PRESSED : SDL_RELEASED)
        e.button.clicks = UInt8(clicks)
        e.button.x = Int32(p.x.rounded())
        e.button.y = Int32(p.y.rounded())
        push(&e)
    }

    /// A wheel turn of `dy` notches (positive = away from the user), `dx` to the right.
    public func wheel(dx: Double = 0, dy: Double) {
        var e = SDL_Event()
        e.wheel.type = SDL_MOUSEWHEEL.rawValue
        e.wheel.windowID = window.id
        e.wheel.which = 0
        e.wheel.x = Int32(dx.rounded())
        e.wheel.y = Int32(dy.rounded())
        e.wheel.preciseX = Float(dx)
        e.wheel.preciseY = Float(dy)
        e.wheel.direction = SDL_MOUSEWHEEL_NORMAL.rawValue
        push(&e)
    }

    /// A key went down (or up), with `modifiers` held.
    public func key(_ key: Key, down: Bool = true, modifiers: KeyModifiers = []) {
        var e = SDL_Event()
        e.key.type = down ? SDL_KEYDOWN.rawValue : SDL_KEYUP.rawValue
        e.key.windowID = window.id
        e.key.state = UInt8(down ? SDL_PRESSED : SDL_RELEASED)
        e.key.keysym.sym = key.rawValue
        var mod: UInt32 = 0
        if modifiers.contains(.shift) { mod |= KMOD_LSHIFT.rawValue }
        if modifiers.contains(.control) { mod |= KMOD_LCTRL.rawValue }
        if modifiers.contains(.alt) { mod |= KMOD_LALT.rawValue }
        if modifiers.contains(.altGraph) { mod |= KMOD_RALT.rawValue }
        if modifiers.contains(.gui) { mod |= KMOD_LGUI.rawValue }
        e.key.keysym.mod = UInt16(mod)
        push(&e)
    }

    /// A key press and release.
    public func tap(_ key: Key, modifiers: KeyModifiers = []) {
        self.key(key, down: true, modifiers: modifiers)
        self.key(key, down: false, modifiers: modifiers)
    }

    /// The window moved to another display (SDL_WINDOWEVENT_DISPLAY_CHANGED): the host takes
    /// the new display's scale.
    public func displayChanged() { windowEvent(SDL_WINDOWEVENT_DISPLAY_CHANGED) }

    /// The window manager's close button (SDL_WINDOWEVENT_CLOSE): the host closes the window.
    public func closeButton() { windowEvent(SDL_WINDOWEVENT_CLOSE) }

    private func windowEvent(_ kind: SDL_WindowEventID) {
        var e = SDL_Event()
        e.window.type = SDL_WINDOWEVENT.rawValue
        e.window.windowID = window.id
        e.window.event = UInt8(kind.rawValue)
        push(&e)
    }

    /// A file (or folder) dropped on the window, as a file manager's drag and drop delivers it.
    public func dropFile(_ path: String) { drop(path, type: SDL_DROPFILE) }

    /// Text dropped on the window.
    public func dropText(_ text: String) { drop(text, type: SDL_DROPTEXT) }

    private func drop(_ string: String, type: SDL_EventType) {
        var e = SDL_Event()
        e.drop.type = type.rawValue
        e.drop.windowID = window.id
        e.drop.file = SDL_strdup(string)  // the pump frees it, as it frees SDL's own
        push(&e)
    }

    /// Text as the IME would deliver it (split into SDL's 32-byte chunks).
    public func text(_ string: String) {
        var bytes = Array(string.utf8)
        while !bytes.isEmpty {
            var n = min(31, bytes.count)
            while n < bytes.count && n > 0 && bytes[n] & 0xC0 == 0x80 { n -= 1 }  // whole characters only
            var e = SDL_Event()
            e.text.type = SDL_TEXTINPUT.rawValue
            e.text.windowID = window.id
            withUnsafeMutableBytes(of: &e.text.text) { raw in
                for i in 0..<n { raw[i] = bytes[i] }
                raw[n] = 0
            }
            push(&e)
            bytes.removeFirst(n)
        }
    }

    /// IME pre-edit text (composition in progress), as SDL_TEXTEDITING delivers it.
    public func composition(_ string: String, cursor: Int = 0) {
        var e = SDL_Event()
        e.edit.type = SDL_TEXTEDITING.rawValue
        e.edit.windowID = window.id
        e.edit.start = Int32(cursor)
        e.edit.length = 0
        let bytes = Array(string.utf8.prefix(31))
        withUnsafeMutableBytes(of: &e.edit.text) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        push(&e)
    }

    /// A finger event at `p` (window coordinates); SDL reports touch positions normalized to 0...1.
    public func finger(_ id: Int64, _ phase: FingerPhase, at p: Point, delta: Point = .zero) {
        var e = SDL_Event()
        switch phase {
        case .down: e.tfinger.type = SDL_FINGERDOWN.rawValue
        case .moved: e.tfinger.type = SDL_FINGERMOTION.rawValue
        case .up: e.tfinger.type = SDL_FINGERUP.rawValue
        }
        let size = window.size
        e.tfinger.touchId = touchID
        e.tfinger.fingerId = id
        e.tfinger.x = Float(p.x / max(1, size.width))
        e.tfinger.y = Float(p.y / max(1, size.height))
        e.tfinger.dx = Float(delta.x / max(1, size.width))
        e.tfinger.dy = Float(delta.y / max(1, size.height))
        e.tfinger.pressure = phase == .up ? 0 : 1
        e.tfinger.windowID = window.id
        push(&e)
    }
}

/// Turns SDL event timestamps (milliseconds since SDL started, 32 bits) into monotonic
/// nanoseconds, against one reading of both clocks taken when it is made: an event's time is
/// how long before that reading it happened (to the millisecond SDL keeps).
struct SDLEventClock {
    private let nowNs = MonotonicClock.nanoseconds()
    private let nowMs = UInt32(truncatingIfNeeded: SDL_GetTicks64())

    /// When an event stamped `timestamp` happened (an age over a minute, a clock gone wrong, counts as now).
    func nanoseconds(ofSDLTimestamp timestamp: UInt32) -> UInt64 {
        let ageMs = UInt64(nowMs &- timestamp)  // wraps with SDL's 32-bit milliseconds
        guard ageMs <= 60_000, nowNs > ageMs * 1_000_000 else { return nowNs }
        return nowNs - ageMs * 1_000_000
    }
}
