import Render2D
import Imaging
import Profiling

/// Touch input on machines without a touch screen. While `holdKey` is held, the mouse
/// becomes finger 1: presses, drags and releases turn into real SDL finger events (pushed
/// to SDL's queue, so they arrive next frame through the same path as a touch screen's) and
/// the mouse events they replace are dropped. Holding ctrl as well adds finger 2, mirrored
/// around the press point: dragging then pinches.
///
/// ```swift
/// host.touchSimulator = TouchSimulator(window: host.window)
/// ```
@MainActor
public final class TouchSimulator {
    /// The key that, held, turns the mouse into a finger (T; with Ctrl too, two fingers pinching).
    public var holdKey = Key("t")
    /// Whether the key is held now.
    public private(set) var isHeld = false
    private var fingerDown = false
    private var anchor = Point.zero
    private var pinching = false
    private let injector: EventInjector
    /// Window pixels per logical pixel (the host's UI scale).
    public var scale = 1.0

    /// A simulator injecting its fingers into `window`.
    public init(window: Window) { injector = EventInjector(window: window) }

    /// The events to deliver this frame: the mouse's replaced by fingers while the key is held.
    public func filter(_ events: [InputEvent]) -> [InputEvent] {
        var kept: [InputEvent] = []
        for event in events {
            switch event {
            case .key(let key, let isDown, _, _) where key == holdKey:
                isHeld = isDown
                if !isDown && fingerDown { lift(at: anchor) }
            case .mouseButton(.left, let isDown, let p) where isHeld || fingerDown:
                if isDown {
                    fingerDown = true
                    anchor = p
                    pinching = false
                    injector.finger(1, .down, at: p * scale)
                } else {
                    lift(at: p)
                }
            case .pointerMoved(let p) where fingerDown:
                injector.finger(1, .moved, at: p * scale)
                if pinching { injector.finger(2, .moved, at: mirror(p) * scale) }
            case .key(let key, true, _, _) where key == Key(rawValue: 224 | (1 << 30)) && fingerDown && !pinching:
                pinching = true  // ctrl while the finger is down: a second finger appears opposite
                injector.finger(2, .down, at: mirror(anchor) * scale)
            default:
                kept.append(event)
            }
        }
        return kept
    }

    private func mirror(_ p: Point) -> Point { Point(2 * anchor.x - p.x + 1, 2 * anchor.y - p.y) }

    private func lift(at p: Point) {
        injector.finger(1, .up, at: p * scale)
        if pinching { injector.finger(2, .up, at: mirror(p) * scale) }
        fingerDown = false
        pinching = false
    }
}
