import Render2D
import Imaging
import Profiling

/// Keyboard modifiers held during an event.
public struct KeyModifiers: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Either Shift key.
    public static let shift = KeyModifiers(rawValue: 1)
    /// Either Ctrl key (the command key of Linux desktops).
    public static let control = KeyModifiers(rawValue: 2)
    /// Either Alt key.
    public static let alt = KeyModifiers(rawValue: 4)
    /// The Super (Windows) key.
    public static let gui = KeyModifiers(rawValue: 8)
    /// AltGr, the right Alt key that types a layout's third characters ("@" on a German
    /// keyboard): held alone with a key it types text, where Ctrl, Super and the left Alt don't.
    public static let altGraph = KeyModifiers(rawValue: 16)

    /// Whether text typed with these held is a shortcut's, not text: Ctrl or Super, or Alt
    /// without AltGr. (Under X11, Ctrl+minus also delivers the text "-".)
    ///
    /// ```swift
    /// KeyModifiers.control.suppressesText                  // true
    /// ([.alt, .altGraph] as KeyModifiers).suppressesText   // false: AltGr types
    /// ```
    public var suppressesText: Bool {
        !isDisjoint(with: [.control, .gui]) || (contains(.alt) && !contains(.altGraph))
    }
    /// Ctrl on Linux: the modifier for shortcuts like copy and select-all.
    public static let command: KeyModifiers = .control
}

/// A key, by SDL keycode (`SDLK_*` values): printable keys are their lowercase character.
public struct Key: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// The key that types `character` (letters and digits).
    public init(_ character: Character) {
        // ASCII directly: menus make their shortcuts' keys every frame, and `lowercased()`
        // makes a String each time.
        if character.utf8.count == 1, let byte = character.utf8.first {
            rawValue = Int32((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
        } else {
            rawValue = Int32(character.lowercased().unicodeScalars.first!.value)
        }
    }

    private static func scancodeKey(_ scancode: Int32) -> Key { Key(rawValue: scancode | (1 << 30)) }
    /// Return (Enter).
    public static let returnKey = Key(rawValue: 13)
    /// Escape.
    public static let escape = Key(rawValue: 27)
    /// Backspace.
    public static let backspace = Key(rawValue: 8)
    /// Tab.
    public static let tab = Key(rawValue: 9)
    /// The space bar.
    public static let space = Key(rawValue: 32)
    /// Delete (forward).
    public static let delete = Key(rawValue: 127)
    /// →
    public static let right = scancodeKey(79)
    /// ←
    public static let left = scancodeKey(80)
    /// ↓
    public static let down = scancodeKey(81)
    /// ↑
    public static let up = scancodeKey(82)
    /// Home.
    public static let home = scancodeKey(74)
    /// Page Up.
    public static let pageUp = scancodeKey(75)
    /// End.
    public static let end = scancodeKey(77)
    /// Page Down.
    public static let pageDown = scancodeKey(78)
    /// F2 (rename, edit a cell).
    public static let f2 = scancodeKey(59)
    /// F10 (with Shift: the context menu).
    public static let f10 = scancodeKey(67)
    /// The Menu (application) key: opens the context menu of what has focus.
    public static let menu = scancodeKey(101)
    /// F11 (fullscreen).
    public static let f11 = scancodeKey(68)
    /// F12 (the frame inspector).
    public static let f12 = scancodeKey(69)
    /// The left Ctrl key (held during a drag, it makes the drop a copy).
    public static let control = scancodeKey(224)
}

/// A mouse button.
public enum MouseButton: Int, Sendable, Codable {
    /// The primary button.
    case left = 1
    /// The wheel's button.
    case middle = 2
    /// The secondary button: context menus.
    case right = 3
    /// The side button that goes back (SDL's X1): a navigation stack pops.
    case back = 4
    /// The side button that goes forward (SDL's X2).
    case forward = 5
}

/// What a finger did.
public enum FingerPhase: String, Sendable, Codable {
    /// It touched the screen.
    case down
    /// It moved on the screen.
    case moved
    /// It lifted.
    case up
}

/// What drives the primary pointer.
public enum PointerKind: Sendable {
    /// A mouse, trackpad or pen.
    case mouse
    /// A finger on a touch screen.
    case touch
}

/// One input event in logical coordinates, translated from SDL by `EventPump` (or built
/// directly by logic tests).
public enum InputEvent: Sendable, Equatable, Codable {
    /// The pointer moved to a point.
    case pointerMoved(Point)
    /// A mouse button went down or up at a point.
    case mouseButton(MouseButton, isDown: Bool, at: Point)
    /// Scroll amount in logical pixels; scroll views subtract it from their offset. Positive
    /// `dy` (wheel turned away from the user) moves the view towards the top, positive `dx`
    /// towards the left edge.
    case wheel(dx: Double, dy: Double)
    /// A key went down or up (auto-repeats are downs with `isRepeat`).
    case key(Key, isDown: Bool, modifiers: KeyModifiers, isRepeat: Bool)
    /// Text typed, composed by the input method.
    case text(String)
    /// IME composition in progress (pre-edit text and the caret in it).
    case composition(String, cursor: Int)
    /// A finger touched, moved or lifted at a point.
    case finger(id: Int64, phase: FingerPhase, at: Point)
    /// The window was resized to a size in logical pixels.
    case resized(Size)
    /// The window moved to a display of another scale.
    case displayChanged
    /// A file, folder or text dropped on the window (SDL_DROPFILE, SDL_DROPTEXT).
    case dropped(DroppedItem)
    /// The user asked to close the window.
    case quit
}

extension InputEvent {
    /// The kind of input whose latency it counts in (nil for window changes, drops and quitting).
    public var latencyKind: InputKind? {
        switch self {
        case .pointerMoved: .pointer
        case .mouseButton: .button
        case .wheel: .wheel
        case .key: .key
        case .text, .composition: .text
        case .finger: .touch
        case .resized, .displayChanged, .dropped, .quit: nil
        }
    }
}

/// What was dropped on the window.
public enum DroppedItem: Sendable, Equatable, Codable {
    /// The path of a file or folder.
    case file(String)
    /// Text (from another program, or a selection).
    case text(String)
}

/// A key press delivered this frame.
public struct KeyPress: Sendable, Equatable {
    /// The key.
    public var key: Key
    /// The modifiers held when it went down.
    public var modifiers: KeyModifiers
    /// An auto-repeat of a key held down.
    public var isRepeat: Bool
}

/// Keyboard input in the order it was typed: keys and text interleave (a key press, then
/// the text it produced, then Backspace...).
public enum TypedInput: Sendable, Equatable {
    /// A key press.
    case key(KeyPress)
    /// Text the press (or an input method) produced.
    case text(String)
}

/// The primary pointer: the mouse, or the first finger down when no mouse button is held.
public struct Pointer: Sendable {
    /// Whether the pointer is the mouse or a finger.
    public var kind: PointerKind = .mouse
    /// Far away when nothing hovers (after a finger lifts).
    public var position = Pointer.nowhere
    /// The primary button or finger is down.
    public var isDown = false
    /// Went down / up this frame.
    public var pressed = false
    /// Went up this frame.
    public var released = false
    /// Where the last press happened.
    public var pressPosition = Pointer.nowhere
    /// When the last press happened (the UI's time).
    public var pressTime = 0.0
    /// 1 for a single click, 2 for a double click... (set on the press).
    public var clickCount = 0
    /// Right button pressed, or a touch long-press fired, this frame.
    public var secondaryPressed = false
    /// Moved past the slop since the press: a drag, not a click or tap.
    public var isDragging = false
    /// Motion this frame.
    public var delta = Point.zero
    /// Set on release of a touch that never dragged and never long-pressed.
    public var wasTap = false
    var longPressFired = false
    var fingerID: Int64?

    /// A position no widget is at.
    public static let nowhere = Point(-1e9, -1e9)
}

/// Gesture thresholds, in logical pixels and seconds.
public struct GestureSettings: Sendable {
    /// How far the mouse may move, in points, before a press becomes a drag.
    public var mouseSlop = 3.0
    /// How far a finger may move before a touch becomes a drag (fingers are less precise).
    public var touchSlop = 8.0
    /// The longest time between two clicks of a double click, in seconds.
    public var doubleClickInterval = 0.4
    /// The farthest apart two clicks of a double click may be, in points.
    public var doubleClickDistance = 6.0
    /// How long a touch must stay still to become a long press, in seconds.
    public var longPressDuration = 0.5
    /// The default thresholds.
    public init() {}
}

/// Input state for one frame, built from `InputEvent`s. Holds no SDL types, so gesture
/// rules (tap, long-press, double click, touch/mouse arbitration) are testable as logic.
///
/// At most one press or release of the primary pointer is applied per frame; the rest of
/// the queue waits for the next frame, so a fast click (down and up between two frames)
/// is still seen as a press and then a release.
public struct InputState: Sendable {
    /// The primary pointer.
    public var pointer = Pointer()
    /// Every finger currently down, by SDL finger ID.
    public private(set) var fingers: [Int64: Point] = [:]
    /// Wheel scroll this frame, logical pixels.
    public var wheel = Point.zero
    /// Key presses of this frame, in order.
    public var keys: [KeyPress] = []
    /// Key presses and text of this frame, in order.
    public var typing: [TypedInput] = []
    /// The modifiers held now.
    public var modifiers: KeyModifiers = []
    /// The last key went down with Ctrl, Super or the left Alt: the text it delivers (X11
    /// delivers some, between the key's press and release) is a shortcut's, not typed.
    var textFollowsShortcut = false
    /// Text typed this frame (already composed by the IME).
    public var text = ""
    /// The input method's pre-edit text (composition in progress), or "".
    public var composition = ""
    /// Where the input method's caret is in `composition`, in Unicode scalars.
    public var compositionCursor = 0
    /// The window's new size, if it was resized this frame.
    public var resized: Size?
    /// Files and text dropped on the window this frame.
    public var dropped: [DroppedItem] = []
    /// The user asked to close the window this frame.
    public var quitRequested = false
    /// The mouse's back button went down this frame.
    public var backPressed = false
    /// Thresholds of clicks, drags and long presses.
    public var settings = GestureSettings()

    private var lastClickTime = -1.0
    private var lastClickPosition = Pointer.nowhere
    private var clearHoverNextFrame = false
    private var pending: [InputEvent] = []

    /// Empty input.
    public init() {}

    /// Starts a frame at `time` (seconds) with `events`; events that must wait are kept.
    public mutating func beginFrame(events: [InputEvent], time: Double) {
        pointer.pressed = false
        pointer.released = false
        pointer.secondaryPressed = false
        pointer.wasTap = false
        pointer.delta = .zero
        wheel = .zero
        keys.removeAll(keepingCapacity: true)
        typing.removeAll(keepingCapacity: true)
        text = ""
        dropped.removeAll(keepingCapacity: true)
        resized = nil
        backPressed = false
        if clearHoverNextFrame && !pointer.isDown {
            pointer.position = Pointer.nowhere
            pointer.kind = .mouse
        }
        clearHoverNextFrame = false

        let queue = pending + events
        pending.removeAll()
        var transitioned = false
        for (i, event) in queue.enumerated() {
            if transitioned && event.isPrimaryTransition(for: pointer) {
                pending = Array(queue[i...])
                break
            }
            if apply(event, time: time) { transitioned = true }
        }

        // A touch held still long enough is a secondary click (context menu).
        if pointer.kind == .touch, pointer.isDown, !pointer.isDragging, !pointer.longPressFired,
            time - pointer.pressTime >= settings.longPressDuration
        {
            pointer.longPressFired = true
            pointer.secondaryPressed = true
        }
    }

    /// Applies one event; returns true when it pressed or released the primary pointer.
    private mutating func apply(_ event: InputEvent, time: Double) -> Bool {
        switch event {
        case .pointerMoved(let p):
            guard pointer.kind == .mouse || !pointer.isDown else { return false }
            pointer.kind = .mouse
            move(to: p)
        case .mouseButton(let button, let isDown, let p):
            return applyMouseButton(button, isDown: isDown, at: p, time: time)
        case .wheel(let dx, let dy):
            wheel.x += dx
            wheel.y += dy
        case .key(let key, let isDown, let mods, let isRepeat):
            modifiers = mods
            textFollowsShortcut = isDown && mods.suppressesText
            if isDown {
                let press = KeyPress(key: key, modifiers: mods, isRepeat: isRepeat)
                keys.append(press)
                typing.append(.key(press))
            }
        case .text(let t):
            // The text a shortcut's key press also delivers is not typed.
            guard !textFollowsShortcut else {
                textFollowsShortcut = false
                break
            }
            text += t
            typing.append(.text(t))
            composition = ""
            compositionCursor = 0
        case .composition(let t, let cursor):
            composition = t
            compositionCursor = cursor
        case .finger(let id, let phase, let p):
            return applyFinger(id, phase, at: p, time: time)
        case .resized(let size):
            resized = size
        case .dropped(let item):
            dropped.append(item)
        case .displayChanged:
            break
        case .quit:
            quitRequested = true
        }
        return false
    }

    /// A mouse button, unless a finger owns the pointer. Returns true for a left press or
    /// release (which ends the frame's fold, as `apply` says).
    private mutating func applyMouseButton(_ button: MouseButton, isDown: Bool, at p: Point, time: Double) -> Bool {
        if pointer.kind == .touch && pointer.isDown { return false }  // a finger owns the pointer
        pointer.kind = .mouse
        move(to: p)
        switch button {
        case .left:
            if isDown == pointer.isDown { return false }
            isDown ? press(at: p, time: time) : release()
            return true
        case .right:
            if isDown { pointer.secondaryPressed = true }
        case .back:
            if isDown { backPressed = true }
        case .middle, .forward:
            break
        }
        return false
    }

    /// A finger down, moved or up: the first finger down drives the pointer until it lifts;
    /// every finger is tracked for gestures. Returns true when it pressed or released the pointer.
    private mutating func applyFinger(_ id: Int64, _ phase: FingerPhase, at p: Point, time: Double) -> Bool {
        switch phase {
        case .down:
            fingers[id] = p
            if !pointer.isDown {
                pointer.kind = .touch
                pointer.fingerID = id
                pointer.position = p
                press(at: p, time: time)
                return true
            }
        case .moved:
            fingers[id] = p
            if pointer.fingerID == id && pointer.isDown { move(to: p) }
        case .up:
            fingers[id] = nil
            if pointer.fingerID == id && pointer.isDown {
                move(to: p)
                release()
                pointer.fingerID = nil
                clearHoverNextFrame = true
                return true
            }
        }
        return false
    }

    private mutating func move(to p: Point) {
        if pointer.position != Pointer.nowhere { pointer.delta = pointer.delta + (p - pointer.position) }
        pointer.position = p
        if pointer.isDown && !pointer.isDragging {
            let slop = pointer.kind == .touch ? settings.touchSlop : settings.mouseSlop
            if p.distance(to: pointer.pressPosition) > slop { pointer.isDragging = true }
        }
    }

    private mutating func press(at p: Point, time: Double) {
        pointer.isDown = true
        pointer.pressed = true
        pointer.pressPosition = p
        pointer.pressTime = time
        pointer.isDragging = false
        pointer.longPressFired = false
        let isRepeatClick =
            time - lastClickTime <= settings.doubleClickInterval
            && p.distance(to: lastClickPosition) <= settings.doubleClickDistance
        pointer.clickCount = isRepeatClick ? pointer.clickCount + 1 : 1
        lastClickTime = time
        lastClickPosition = p
    }

    private mutating func release() {
        pointer.isDown = false
        pointer.released = true
        pointer.wasTap = pointer.kind == .touch && !pointer.isDragging && !pointer.longPressFired
    }
}

extension InputEvent {
    /// Whether applying this event would press or release the primary pointer.
    func isPrimaryTransition(for pointer: Pointer) -> Bool {
        switch self {
        case .mouseButton(.left, _, _): return pointer.kind == .mouse || !pointer.isDown
        case .finger(let id, .down, _): return !pointer.isDown || pointer.fingerID == id
        case .finger(let id, .up, _): return pointer.fingerID == id
        default: return false
        }
    }
}
