import Foundation
import Render2D
import Imaging
import Profiling

/// How a value moves from where it was to where it is going (SwiftUI's `Animation`): a timing
/// curve over a duration, or a spring. Pure: its curve is tested without a window.
///
/// ```swift
/// ui.withAnimation(.spring) { showsSidebar.toggle() }
/// let width = ui.animation(.easeInOut(duration: 0.25), value: expanded ? 300.0 : 120, id: "panel")
/// ```
public struct Animation: Sendable, Equatable {
    enum Curve: Sendable, Equatable {
        case linear, easeIn, easeOut, easeInOut
        case spring(response: Double, dampingFraction: Double)
    }
    let curve: Curve
    /// Seconds a timing curve takes; a spring's settling time.
    public let duration: Double

    /// A timing curve over `duration` seconds (at least 0: no time is a jump).
    private init(_ curve: Curve, duration: Double) {
        self.curve = curve
        self.duration = duration.isFinite ? max(0, min(duration, 60)) : 0
    }

    /// Ease in and out over 0.35 s: what `withAnimation` uses when given nothing.
    public static let `default` = Animation.easeInOut(duration: 0.35)
    /// A constant speed over 0.35 s.
    public static let linear = Animation.linear(duration: 0.35)
    /// Slow at the start, over 0.35 s.
    public static let easeIn = Animation.easeIn(duration: 0.35)
    /// Slow at the end, over 0.35 s.
    public static let easeOut = Animation.easeOut(duration: 0.35)
    /// Slow at both ends, over 0.35 s.
    public static let easeInOut = Animation.easeInOut(duration: 0.35)
    /// A spring that settles without much bounce (response 0.5 s, damping 0.825).
    public static let spring = Animation.spring()

    /// A constant speed over `duration` seconds.
    public static func linear(duration: Double) -> Animation { Animation(.linear, duration: duration) }
    /// Slow at the start, over `duration` seconds.
    public static func easeIn(duration: Double) -> Animation { Animation(.easeIn, duration: duration) }
    /// Slow at the end, over `duration` seconds.
    public static func easeOut(duration: Double) -> Animation { Animation(.easeOut, duration: duration) }
    /// Slow at both ends, over `duration` seconds.
    public static func easeInOut(duration: Double) -> Animation { Animation(.easeInOut, duration: duration) }

    /// A spring: `response` is roughly the seconds of one swing, `dampingFraction` how fast
    /// it calms (1 and above: no overshoot; lower: it bounces past the target and back).
    public static func spring(response: Double = 0.5, dampingFraction: Double = 0.825) -> Animation {
        let response = response.isFinite ? min(max(response, 0.01), 10) : 0.5
        let damping = dampingFraction.isFinite ? min(max(dampingFraction, 0.05), 4) : 0.825
        // Settled when the swing's envelope is under a thousandth of the distance.
        let omega = 2 * Double.pi / response
        return Animation(
            .spring(response: response, dampingFraction: damping), duration: log(1000) / (min(damping, 1) * omega))
    }

    /// How far along it is `elapsed` seconds after it started: 0 at the start, 1 once done (a
    /// spring passes 1 and comes back on its way).
    public func progress(at elapsed: Double) -> Double {
        guard elapsed.isFinite, elapsed < duration, duration > 0 else { return 1 }
        let t = max(0, elapsed / duration)
        switch curve {
        case .linear: return t
        case .easeIn: return Self.bezier(t, 0.42, 0, 1, 1)
        case .easeOut: return Self.bezier(t, 0, 0, 0.58, 1)
        case .easeInOut: return Self.bezier(t, 0.42, 0, 0.58, 1)
        case .spring(let response, let damping):
            let omega = 2 * Double.pi / response, s = max(0, elapsed)
            if damping >= 1 { return 1 - exp(-omega * s) * (1 + omega * s) }
            let damped = omega * (1 - damping * damping).squareRoot()
            return 1 - exp(-damping * omega * s) * (cos(damped * s) + damping * omega / damped * sin(damped * s))
        }
    }

    /// Whether it has finished `elapsed` seconds after it started.
    public func isFinished(at elapsed: Double) -> Bool { !(elapsed < duration) }

    /// The y of CSS's cubic-bezier(x1, y1, x2, y2) at x = `t`: x solved by Newton's method, then bisection.
    static func bezier(_ t: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func curve(_ s: Double, _ a: Double, _ b: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * a + 3 * (1 - s) * s * s * b + s * s * s
        }
        func slope(_ s: Double, _ a: Double, _ b: Double) -> Double {
            3 * (1 - s) * (1 - s) * a + 6 * (1 - s) * s * (b - a) + 3 * s * s * (1 - b)
        }
        var s = t
        for _ in 0..<8 {
            let d = slope(s, x1, x2)
            guard abs(d) > 1e-6 else { break }
            s = min(1, max(0, s - (curve(s, x1, x2) - t) / d))
        }
        if abs(curve(s, x1, x2) - t) > 1e-5 {
            var lo = 0.0, hi = 1.0
            for _ in 0..<40 {
                s = (lo + hi) / 2
                if curve(s, x1, x2) < t { lo = s } else { hi = s }
            }
        }
        return curve(s, y1, y2)
    }
}

/// A value an animation can move: any point between two of them is one of them (SwiftUI's
/// `VectorArithmetic`, for the values widgets draw with).
public protocol AnimatableValue: Equatable {
    /// The value `fraction` of the way from `start` to `end` (past 1 for a spring's overshoot).
    static func interpolate(from start: Self, to end: Self, fraction: Double) -> Self
}

extension Double: AnimatableValue {
    /// `start` + (`end` − `start`) × `fraction`.
    public static func interpolate(from start: Double, to end: Double, fraction: Double) -> Double {
        start + (end - start) * fraction
    }
}

extension Point: AnimatableValue {
    /// Each coordinate moved by `fraction`.
    public static func interpolate(from start: Point, to end: Point, fraction: Double) -> Point {
        Point(
            .interpolate(from: start.x, to: end.x, fraction: fraction),
            .interpolate(from: start.y, to: end.y, fraction: fraction))
    }
}

extension Size: AnimatableValue {
    /// Each side moved by `fraction`.
    public static func interpolate(from start: Size, to end: Size, fraction: Double) -> Size {
        Size(
            .interpolate(from: start.width, to: end.width, fraction: fraction),
            .interpolate(from: start.height, to: end.height, fraction: fraction))
    }
}

extension Rect: AnimatableValue {
    /// The origin and the size moved by `fraction`.
    public static func interpolate(from start: Rect, to end: Rect, fraction: Double) -> Rect {
        Rect(
            origin: .interpolate(from: start.origin, to: end.origin, fraction: fraction),
            size: .interpolate(from: start.size, to: end.size, fraction: fraction))
    }
}

extension Color: AnimatableValue {
    /// Each channel moved by `fraction` (within 0…255).
    public static func interpolate(from start: Color, to end: Color, fraction: Double) -> Color {
        func channel(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8(min(255, max(0, (Double(a) + (Double(b) - Double(a)) * fraction).rounded())))
        }
        return Color(
            r: channel(start.r, end.r), g: channel(start.g, end.g), b: channel(start.b, end.b),
            a: channel(start.a, end.a))
    }
}

/// One animated value's course: where it came from, where it goes, since when, how.
struct AnimationTrack<Value: AnimatableValue> {
    var from: Value
    var to: Value
    var start = -Double.infinity
    var animation: Animation?

    func value(at time: Double) -> Value {
        guard let animation, !animation.isFinished(at: time - start) else { return to }
        return .interpolate(from: from, to: to, fraction: animation.progress(at: time - start))
    }

    func isRunning(at time: Double) -> Bool { animation.map { !$0.isFinished(at: time - start) } ?? false }
}

extension UI {
    /// Runs `body`, whose state changes animate (SwiftUI's `withAnimation`): each animated
    /// value (`animation(_:value:id:)`, `transition`, the built-in controls' knobs and panes)
    /// that changes in this frame or the next moves with `animation` unless it has its own.
    /// With reduce motion on (`reducesMotion`), they jump.
    ///
    /// ```swift
    /// if ui.button("Details") { ui.withAnimation(.spring) { showsDetails.toggle() } }
    /// ```
    @discardableResult
    public func withAnimation<Result>(_ animation: Animation = .default, _ body: () throws -> Result) rethrows -> Result
    {
        transaction = (animation, frameIndex + 1)
        return try body()
    }

    /// The animation of the `withAnimation` in effect, if any.
    var currentTransaction: Animation? {
        guard let transaction, frameIndex <= transaction.untilFrame else { return nil }
        return transaction.animation
    }

    /// `value`, animated (SwiftUI's `.animation(_:value:)`): when it changes, what this returns
    /// moves from what it showed to the new value by `animation` (nil: by the `withAnimation`
    /// in effect, or at once), asking for frames only until it gets there. `id` names it among
    /// the values of the current ID scope.
    ///
    /// ```swift
    /// let knob = ui.animation(.spring, value: isOn ? 1.0 : 0, id: "knob")
    /// ```
    public func animation<Value: AnimatableValue>(_ animation: Animation?, value: Value, id name: String) -> Value {
        animatedValue(value, animation: animation, id: WidgetID(parent: id(name), "animation"))
    }

    /// The course of the value named `id` (a widget's own, keyed as it likes).
    func animatedValue<Value: AnimatableValue>(_ value: Value, animation: Animation?, id: WidgetID) -> Value {
        let box = stateBox(id, AnimationTrack(from: value, to: value))
        if box.value.to != value {
            let shown = box.value.value(at: time)
            let chosen = reducesMotion ? nil : animation ?? currentTransaction
            // Started a frame ago: the first frame drawn after the change already moves (a
            // frame identical to the last one would be a frame wasted).
            box.value = AnimationTrack(from: shown, to: value, start: time - 1.0 / 60, animation: chosen)
        }
        guard box.value.isRunning(at: time) else { return value }
        requestRedraw()
        return box.value.value(at: time)
    }
}
