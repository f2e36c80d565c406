import Render2D
import Imaging
import Profiling

/// A gesture recognized from the pointer and the fingers.
public enum Gesture: Sendable, Equatable {
    /// A tap (or click that did not move) at a point.
    case tap(Point)
    /// A second tap soon after and near the first.
    case doubleTap(Point)
    /// A touch held still past the long-press duration.
    case longPress(Point)
    /// A drag in progress: where it started and how far it has moved.
    case drag(from: Point, translation: Point)
    /// A release while moving fast, with the velocity in points per second.
    case flick(velocity: Point)
    /// Two fingers: the distance ratio since they landed, and their midpoint.
    case pinch(scale: Double, center: Point)
}

/// Recognizes taps, double-taps, long-presses, drags, flicks and pinches from `InputState`,
/// one frame at a time (mouse or touch alike). Pure logic: tested without SDL.
///
/// ```swift
/// var gestures = GestureRecognizer()
/// for gesture in gestures.update(ui.input, time: ui.time) { log(gesture) }
/// ```
public struct GestureRecognizer: Sendable {
    /// Release speed above which a drag is a flick, points per second.
    public var flickSpeed = 300.0
    private var samples: [(time: Double, position: Point)] = []
    private var pinchStart: Double?
    /// A recognizer with nothing seen yet.
    public init() {}

    /// The gestures recognized from this frame's input; call once per frame with the frame's time.
    public mutating func update(_ input: InputState, time: Double) -> [Gesture] {
        var found: [Gesture] = []
        let p = input.pointer
        let fingers = Array(input.fingers.values)
        if fingers.count >= 2 {
            let a = fingers[0], b = fingers[1]
            let distance = max(1, ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot())
            let start = pinchStart ?? distance
            pinchStart = start
            found.append(.pinch(scale: distance / start, center: Point((a.x + b.x) / 2, (a.y + b.y) / 2)))
            samples.removeAll()
            return found
        }
        pinchStart = nil
        if p.pressed { samples = [(time, p.position)] }
        if p.isDown && !p.pressed {
            samples.append((time, p.position))
            samples.removeAll { time - $0.time > 0.1 }
            if p.isDragging { found.append(.drag(from: p.pressPosition, translation: p.position - p.pressPosition)) }
        }
        if p.secondaryPressed && p.kind == .touch { found.append(.longPress(p.position)) }
        if p.released {
            if p.kind == .touch ? p.wasTap : !p.isDragging {
                found.append(p.clickCount >= 2 ? .doubleTap(p.position) : .tap(p.position))
            } else if let first = samples.first, let last = samples.last, last.time > first.time {
                let dt = last.time - first.time
                let velocity = Point(
                    (last.position.x - first.position.x) / dt, (last.position.y - first.position.y) / dt)
                if (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot() >= flickSpeed {
                    found.append(.flick(velocity: velocity))
                }
            }
            samples.removeAll()
        }
        return found
    }
}
