import Render2D
import Imaging
import Profiling

/// A side of a rectangle (SwiftUI's `Edge`).
public enum Edge: Sendable, Equatable {
    /// The top.
    case top
    /// The leading side (the left, left to right).
    case leading
    /// The bottom.
    case bottom
    /// The trailing side (the right, left to right).
    case trailing
}

/// How content comes and goes (SwiftUI's `AnyTransition`): faded, slid from an edge, grown,
/// or several at once.
///
/// ```swift
/// ui.transition(.move(edge: .leading).combined(with: .opacity), isPresented: showsPanel, id: "panel") { panel() }
/// ```
public struct Transition: Sendable, Equatable {
    var fades = false
    var edge: Edge?
    var scale: Double?

    /// Fades in and out.
    public static let opacity = Transition(fades: true)
    /// Grows from half its size and shrinks back.
    public static let scale = Transition(scale: 0.5)
    /// Comes in from the leading edge and leaves by it.
    public static let slide = Transition(edge: .leading)

    /// Comes in from `edge` (its own width or height away) and leaves by it.
    public static func move(edge: Edge) -> Transition { Transition(edge: edge) }
    /// Grows from `scale` of its size (0…1) and shrinks back to it.
    public static func scale(_ scale: Double) -> Transition {
        Transition(scale: scale.isFinite ? min(max(scale, 0), 1) : 0.5)
    }

    /// This transition and `other` at once.
    public func combined(with other: Transition) -> Transition {
        Transition(fades: fades || other.fades, edge: edge ?? other.edge, scale: scale ?? other.scale)
    }
}

extension UI {
    /// `content` while `isPresented`, coming and going by `transition` (SwiftUI's `.transition`
    /// on an `if`): build it every frame with the condition rather than inside an `if`, so it
    /// is still drawn while it leaves. It moves with `animation`, or the `withAnimation` in
    /// effect, or (neither) at once. While it comes and goes it keeps its place in the layout;
    /// the effect is drawn, input goes to where it will rest.
    ///
    /// ```swift
    /// if ui.button("Details") { ui.withAnimation { showsDetails.toggle() } }
    /// ui.transition(.opacity.combined(with: .move(edge: .top)), isPresented: showsDetails, id: "details") {
    ///     ui.text("Taken 12 May 2024 · 1/250 s")
    /// }
    /// ```
    public func transition(
        _ transition: Transition, isPresented: Bool, id name: String, animation: Animation? = nil,
        _ content: () -> Void
    ) {
        let tid = id(name)
        let shown = animatedValue(isPresented ? 1.0 : 0, animation: animation, id: WidgetID(parent: tid, "transition"))
        guard isPresented || shown > 0.001 else { return }
        let mark = drawList.mark
        withID(tid) { vstack(spacing: theme.spacing, content) }
        let progress = min(max(shown, 0), 1)
        guard progress < 1 || shown > 1 else { return }
        guard let bounds = drawList.bounds(since: mark) else { return }
        var offset = Point.zero
        switch transition.edge {
        case .leading: offset.x = -bounds.width * (1 - shown)
        case .trailing: offset.x = bounds.width * (1 - shown)
        case .top: offset.y = -bounds.height * (1 - shown)
        case .bottom: offset.y = bounds.height * (1 - shown)
        case nil: break
        }
        let factor = transition.scale.map { $0 + (1 - $0) * shown } ?? 1
        drawList.transform(since: mark, offset: offset, scale: factor, about: Point(bounds.midX, bounds.midY))
        if transition.fades { drawList.fade(since: mark, opacity: progress) }
    }
}
