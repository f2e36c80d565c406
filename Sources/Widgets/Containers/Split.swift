import Render2D
import Imaging
import Profiling

/// A side of a split view. `.left` and `.top` are synonyms of `.primary`; `.right` and
/// `.bottom` of `.secondary`.
public enum SplitSide: String, Sendable, Codable, Equatable {
    /// The left or top pane.
    case primary
    /// The right or bottom pane.
    case secondary
    /// The left pane of a horizontal split.
    public static let left = SplitSide.primary
    /// The top pane of a vertical split.
    public static let top = SplitSide.primary
    /// The right pane of a horizontal split.
    public static let right = SplitSide.secondary
    /// The bottom pane of a vertical split.
    public static let bottom = SplitSide.secondary
    /// The side across the splitter.
    public var other: SplitSide { self == .primary ? .secondary : .primary }
}

/// Side by side (`.horizontal`) or one above the other (`.vertical`).
public enum SplitLayout: String, Sendable, Codable, Equatable {
    /// Side by side.
    case horizontal
    /// One above the other.
    case vertical
    /// Whether the panes are side by side.
    public var isHorizontal: Bool { self == .horizontal }
    /// Switches between side by side and one above the other.
    public mutating func toggle() { self = self == .horizontal ? .vertical : .horizontal }
}

/// The state of a split view, as the SplitView package's holders keep it: the fraction of
/// the full width/height at which the splitter sits, the layout, and the hidden side. Hiding
/// keeps the fraction, so showing restores it. The app can own it, or leave it in the UI store.
///
/// ```swift
/// var split = SplitState(fraction: 0.25)
/// split.toggle()           // hides the secondary side
/// split.toggle()           // shows it again, at 0.25
/// split.toggle(.primary)   // hides the primary side
/// ```
public struct SplitState: Sendable, Equatable, Codable {
    /// Splitter position as a fraction of the full width (horizontal) or height (vertical).
    public var fraction: Double
    /// Side by side or one above the other.
    public var layout: SplitLayout
    /// The hidden side, if one is (`hide`, `show`, `toggle` change it).
    public private(set) var hidden: SplitSide?
    /// The side hidden most recently; `toggle()` toggles it.
    public private(set) var lastHidden: SplitSide?

    /// A split at `fraction` in `layout`, with `hidden` hidden.
    public init(fraction: Double = 0.5, layout: SplitLayout = .horizontal, hidden: SplitSide? = nil) {
        self.fraction = fraction
        self.layout = layout
        self.hidden = hidden
        self.lastHidden = hidden
    }

    /// Hides `side`; the fraction is kept for when it shows again.
    public mutating func hide(_ side: SplitSide) {
        hidden = side
        lastHidden = side
    }
    /// Shows the hidden side again.
    public mutating func show() { hidden = nil }
    /// Toggles the secondary side, or the side hidden last.
    public mutating func toggle() {
        if hidden != nil { show() } else { hide(lastHidden ?? .secondary) }
    }
    /// Hides `side`, or shows it when it is the hidden one.
    public mutating func toggle(_ side: SplitSide) {
        if hidden == side { show() } else { hide(side) }
    }
    /// Whether `side` is the hidden one.
    public func isHidden(_ side: SplitSide) -> Bool { hidden == side }
}

/// Limits on the splitter: minimum fractions per side, the side that keeps its pixel size
/// when the container resizes, and drag-to-hide (releasing more than halfway past a side's
/// minimum hides it).
public struct SplitConstraints: Sendable, Equatable {
    /// The primary pane's smallest share of the length (nil: none).
    public var minPFraction: Double?
    /// The secondary pane's smallest share of the length (nil: none).
    public var minSFraction: Double?
    /// The side that keeps its size in pixels when the container resizes (nil: both keep their fractions).
    public var priority: SplitSide?
    /// Whether dragging the splitter far past the primary pane's minimum hides it.
    public var dragToHideP: Bool
    /// Whether dragging the splitter far past the secondary pane's minimum hides it.
    public var dragToHideS: Bool

    /// Limits of a splitter.
    public init(
        minPFraction: Double? = nil, minSFraction: Double? = nil, priority: SplitSide? = nil,
        dragToHideP: Bool = false, dragToHideS: Bool = false
    ) {
        self.minPFraction = minPFraction
        self.minSFraction = minSFraction
        self.priority = priority
        self.dragToHideP = dragToHideP
        self.dragToHideS = dragToHideS
    }

    /// `fraction` inside the constraints (NaN becomes 0.5; impossible constraints meet in the middle).
    public func clamp(_ fraction: Double) -> Double {
        let lo = min(max(minPFraction ?? 0, 0), 1), hi = max(min(1 - (minSFraction ?? 0), 1), 0)
        let f = fraction.isFinite ? fraction : 0.5
        if lo > hi { return (lo + hi) / 2 }
        return min(max(f, lo), hi)
    }

    /// Where a drag to the raw fraction `raw` puts the splitter, and which side would hide if
    /// released there (more than halfway past that side's minimum, when drag-to-hide is on).
    public func dragOutcome(raw: Double) -> (fraction: Double, previewHide: SplitSide?) {
        let f = clamp(raw)
        guard raw.isFinite else { return (f, nil) }
        if dragToHideP, let minP = minPFraction, minP > 0, raw < minP / 2 { return (f, .primary) }
        if dragToHideS, let minS = minSFraction, minS > 0, raw > 1 - minS / 2 { return (f, .secondary) }
        return (f, nil)
    }

    /// The fraction after the container's length along the split axis changes from `old` to
    /// `new`: the priority side keeps its pixels, otherwise the proportion is kept.
    public func resized(_ fraction: Double, from old: Double, to new: Double) -> Double {
        guard let priority, old > 0, new > 0, old != new else { return clamp(fraction) }
        switch priority {
        case .primary: return clamp(fraction * old / new)
        case .secondary: return clamp(1 - (1 - fraction) * old / new)
        }
    }
}

/// How the default splitter looks and how much room it takes.
public struct SplitStyling: Sendable, Equatable {
    /// Line color; nil uses the theme's separator color.
    public var color: Color?
    /// Space left empty at both ends of the line.
    public var inset: Double
    /// The drawn thickness, which is also the gap between the two sides.
    public var visibleThickness: Double
    /// The thickness that reacts to the mouse (at least the visible one).
    public var invisibleThickness: Double
    /// The hit thickness for a finger.
    public var touchThickness: Double
    /// The splitter disappears together with a hidden side (show it again with a button).
    public var hideSplitter: Bool

    /// A splitter's look and hit area.
    public init(
        color: Color? = nil, inset: Double = 0, visibleThickness: Double = 1, invisibleThickness: Double = 9,
        touchThickness: Double = 32, hideSplitter: Bool = false
    ) {
        self.color = color
        self.inset = inset
        self.visibleThickness = max(0, visibleThickness)
        self.invisibleThickness = max(invisibleThickness, visibleThickness)
        self.touchThickness = max(touchThickness, invisibleThickness)
        self.hideSplitter = hideSplitter
    }

    /// A zero-thickness splitter that can still be dragged.
    public static let invisible = SplitStyling(visibleThickness: 0, invisibleThickness: 9)
}

/// What a custom splitter is told when it draws.
public struct SplitterContext: Sendable {
    /// The visible splitter's rectangle (zero thickness for an invisible one).
    public var rect: Rect
    /// The rectangle that reacts to the pointer.
    public var hitRect: Rect
    /// Side by side or one above the other.
    public var layout: SplitLayout
    /// The hidden side, if one is.
    public var hidden: SplitSide?
    /// The side a drag in progress would hide on release.
    public var previewHide: SplitSide?
    /// The pointer is over the splitter.
    public var isHovered: Bool
    /// The splitter is being dragged.
    public var isDragging: Bool
    /// The styling the split was given.
    public var styling: SplitStyling
}

/// How the splitter is drawn: a line, nothing, or your own drawing (which may contain
/// buttons: they get the click, the rest of the splitter still drags).
///
/// ```swift
/// let withButton = Splitter.custom { ui, context, state in   // state: inout SplitState
///     ui.region(context.rect.insetBy(dx: -12, dy: 0)) {
///         if ui.button("", icon: state.hidden == nil ? .chevronRight : .chevronLeft, style: .plain) { state.toggle() }
///     }
/// }
/// ```
public enum Splitter {
    /// A line of the theme's separator color.
    case line
    /// Nothing drawn; still dragged.
    case invisible
    /// Your drawing: called with the UI, the splitter's context and the state to change.
    case custom(@MainActor (UI, SplitterContext, inout SplitState) -> Void)
}

/// The rectangles of a split: pure geometry, shared by drawing, input and tests.
package struct SplitGeometry: Sendable, Equatable {
    /// The first pane's rectangle.
    package var primary: Rect
    /// The splitter's rectangle.
    package var splitter: Rect
    /// The second pane's rectangle.
    package var secondary: Rect

    /// Lays out `rect` with the splitter centred at `position` (0...1 of the length along the
    /// split axis), `thickness` wide (0 when no splitter is shown).
    package static func layout(_ rect: Rect, layout: SplitLayout, position: Double, thickness: Double) -> SplitGeometry
    {
        let length = layout.isHorizontal ? rect.width : rect.height
        let t = min(max(thickness, 0), length)
        let p = position.isFinite ? min(max(position, 0), 1) : 0.5
        let start = min(max((p * length - t / 2).rounded(), 0), length - t)
        let end = start + t
        if layout.isHorizontal {
            return SplitGeometry(
                primary: Rect(x: rect.x, y: rect.y, width: start, height: rect.height),
                splitter: Rect(x: rect.x + start, y: rect.y, width: t, height: rect.height),
                secondary: Rect(x: rect.x + end, y: rect.y, width: length - end, height: rect.height))
        }
        return SplitGeometry(
            primary: Rect(x: rect.x, y: rect.y, width: rect.width, height: start),
            splitter: Rect(x: rect.x, y: rect.y + start, width: rect.width, height: t),
            secondary: Rect(x: rect.x, y: rect.y + end, width: rect.width, height: length - end))
    }
}

/// What a split view remembers between frames beyond its `SplitState`.
struct SplitMemo {
    /// The container's length along the split axis last frame, and that axis.
    var lastLength: Double?
    var lastLayout: SplitLayout?
    var displayed: Double?
    var animation: (from: Double, start: Double, curve: Animation)?
    var lastTargetHidden: SplitSide??
    var grabOffset = 0.0
    var previewHide: SplitSide?
}

extension UI {
    /// Two panes side by side with a draggable splitter between them (the SplitView
    /// package's `HSplit`). The state is yours (bind it to a property: persist it, set its
    /// fraction or hidden side from anywhere, including the panes themselves).
    ///
    /// ```swift
    /// ui.hSplit("main", state: Binding(self, \.split), constraints: .init(minPFraction: 0.15, priority: .left)) {
    ///     sidebar()
    /// } right: {
    ///     content()
    /// }
    /// ```
    public func hSplit(
        _ name: String, state: Binding<SplitState>, constraints: SplitConstraints = .init(),
        styling: SplitStyling = .init(), splitter: Splitter = .line, onDrag: ((Double) -> Void)? = nil,
        _ left: () -> Void, right: () -> Void
    ) {
        if state.wrappedValue.layout != .horizontal { state.wrappedValue.layout = .horizontal }
        split(
            name, state: state, constraints: constraints, styling: styling, splitter: splitter, onDrag: onDrag, left,
            secondary: right)
    }

    /// Two panes one above the other (the SplitView package's `VSplit`).
    public func vSplit(
        _ name: String, state: Binding<SplitState>, constraints: SplitConstraints = .init(),
        styling: SplitStyling = .init(), splitter: Splitter = .line, onDrag: ((Double) -> Void)? = nil,
        _ top: () -> Void, bottom: () -> Void
    ) {
        if state.wrappedValue.layout != .vertical { state.wrappedValue.layout = .vertical }
        split(
            name, state: state, constraints: constraints, styling: styling, splitter: splitter, onDrag: onDrag, top,
            secondary: bottom)
    }

    /// An `HSplit` whose state lives in the UI store (and in the `persistentStore` when
    /// `persist` is set, so it survives restarts).
    public func hSplit(
        _ name: String, fraction: Double = 0.5, persist: Bool = false, constraints: SplitConstraints = .init(),
        styling: SplitStyling = .init(), splitter: Splitter = .line, _ left: () -> Void, right: () -> Void
    ) {
        let state = storedSplitState(
            name, initial: SplitState(fraction: fraction, layout: .horizontal), persist: persist)
        hSplit(name, state: state, constraints: constraints, styling: styling, splitter: splitter, left, right: right)
    }

    /// A `VSplit` whose state lives in the UI store (and optionally the `persistentStore`).
    public func vSplit(
        _ name: String, fraction: Double = 0.5, persist: Bool = false, constraints: SplitConstraints = .init(),
        styling: SplitStyling = .init(), splitter: Splitter = .line, _ top: () -> Void, bottom: () -> Void
    ) {
        let state = storedSplitState(name, initial: SplitState(fraction: fraction, layout: .vertical), persist: persist)
        vSplit(name, state: state, constraints: constraints, styling: styling, splitter: splitter, top, bottom: bottom)
    }

    /// A split whose layout (`state.layout`) can change at run time (the SplitView package's
    /// `Split`): primary on the left or top, secondary on the right or bottom.
    public func split(
        _ name: String, state binding: Binding<SplitState>, constraints: SplitConstraints = .init(),
        styling: SplitStyling = .init(), splitter: Splitter = .line, onDrag: ((Double) -> Void)? = nil,
        _ primary: () -> Void, secondary: () -> Void
    ) {
        widget("split", name, unboundedHeight: 0) { sid, rect in
            var state = binding.wrappedValue
            let original = state
            let memo = stateBox(WidgetID(parent: sid, "memo"), SplitMemo())
            let horizontal = state.layout.isHorizontal
            let length = horizontal ? rect.width : rect.height

            // Container resized: the priority side keeps its pixels, else the proportion stays.
            // A layout toggle changes the axis, not the container: the fraction stays. Either way
            // the fraction respects the constraints, including one restored or set from outside.
            if let old = memo.value.lastLength, old != length, memo.value.lastLayout == state.layout {
                state.fraction = constraints.resized(state.fraction, from: old, to: length)
            } else {
                state.fraction = constraints.clamp(state.fraction)
            }
            memo.value.lastLength = length
            memo.value.lastLayout = state.layout

            var thickness: Double
            switch splitter {
            case .invisible: thickness = 0
            case .line, .custom: thickness = styling.visibleThickness
            }
            let handleID = WidgetID(parent: sid, "splitter")
            if (memo.value.previewHide ?? state.hidden) != nil && styling.hideSplitter { thickness = 0 }

            // Input on the splitter, using where it was drawn last frame. A splitter hidden with its
            // side takes no input, but one only previewed as hidden is still being dragged.
            let current = SplitGeometry.layout(
                rect, layout: state.layout, position: memo.value.displayed ?? target(state, memo.value),
                thickness: thickness)
            let splitterShown = !(state.hidden != nil && styling.hideSplitter) || activeID == handleID
            var r = Interaction(id: handleID, rect: current.splitter)
            if splitterShown {
                r = splitterHandle(
                    handleID, splitter: current.splitter, horizontal: horizontal, styling: styling, focusable: true)
                splitterInput(
                    r, state: &state, memo: memo, rect: rect, splitter: current.splitter, constraints: constraints,
                    onDrag: onDrag)
            }

            // Where the splitter is drawn this frame (animated briefly on hide/show).
            let goal = target(state, memo.value)
            let position = animatedPosition(
                goal, hidden: memo.value.previewHide ?? state.hidden, memo: memo, dragging: r.isActive)
            var finalThickness = thickness
            if (memo.value.previewHide ?? state.hidden) != nil && styling.hideSplitter { finalThickness = 0 }
            let geometry = SplitGeometry.layout(
                rect, layout: state.layout, position: position, thickness: finalThickness)

            // Hand the state back before the panes run: they may change it themselves.
            if state != original { binding.wrappedValue = state }
            pane(geometry.primary, primary)
            pane(geometry.secondary, secondary)
            if splitterShown { claimSplitterPress(r) }

            let context = SplitterContext(
                rect: geometry.splitter,
                hitRect: splitterHitRect(geometry.splitter, horizontal: horizontal, styling: styling),
                layout: state.layout, hidden: state.hidden, previewHide: memo.value.previewHide,
                isHovered: r.isHovered, isDragging: r.isActive, styling: styling)
            guard splitterShown || memo.value.previewHide != nil else { return }
            drawSplitter(
                splitter, context, handleID: handleID, horizontal: horizontal, styling: styling, r, binding: binding)
        }
    }

    /// The splitter's keyboard (the arrows along the split move it 10 pt, 50 with Shift) and
    /// pointer (a drag moves it and may preview hiding a side, which the release makes so; a
    /// double click hides the smaller side or shows a hidden one).
    private func splitterInput(
        _ r: Interaction, state: inout SplitState, memo: StateBox<SplitMemo>, rect: Rect, splitter: Rect,
        constraints: SplitConstraints, onDrag: ((Double) -> Void)?
    ) {
        let horizontal = state.layout.isHorizontal
        let length = horizontal ? rect.width : rect.height
        if focusID == r.id && length > 0 {
            for press in input.keys {
                let back: Key = horizontal ? .left : .up, forward: Key = horizontal ? .right : .down
                guard press.key == back || press.key == forward else { continue }
                let step = (press.modifiers.contains(.shift) ? 50 : 10) / length * (press.key == forward ? 1 : -1)
                if state.hidden != nil { state.show() }
                state.fraction = constraints.dragOutcome(raw: state.fraction + step).fraction
                onDrag?(state.fraction)
            }
        }
        let along = horizontal ? input.pointer.position.x : input.pointer.position.y
        let origin = horizontal ? rect.minX : rect.minY
        let center = horizontal ? splitter.midX : splitter.midY
        if r.pressed {
            memo.value.grabOffset =
                (horizontal ? input.pointer.pressPosition.x : input.pointer.pressPosition.y) - center
        }
        if r.isActive && input.pointer.isDragging && length > 0 {
            let raw = (along - memo.value.grabOffset - origin) / length
            let outcome = constraints.dragOutcome(raw: raw)
            state.fraction = outcome.fraction
            if state.hidden != nil { state.show() }  // dragging a hidden side's splitter pulls it out
            memo.value.previewHide = outcome.previewHide
            onDrag?(state.fraction)
        }
        if r.isActive && input.pointer.released, let side = memo.value.previewHide {
            state.hide(side)
            memo.value.lastTargetHidden = .some(side)  // the preview already showed it hidden: no animation
        }
        if !r.isActive { memo.value.previewHide = nil }
        if r.doubleClicked {
            if state.hidden != nil { state.show() } else { state.hide(state.fraction <= 0.5 ? .primary : .secondary) }
        }
    }

    /// Draws the splitter: nothing, the standard line, or the app's own drawing (which may
    /// change the split's state).
    private func drawSplitter(
        _ splitter: Splitter, _ context: SplitterContext, handleID: WidgetID, horizontal: Bool,
        styling: SplitStyling, _ r: Interaction, binding: Binding<SplitState>
    ) {
        switch splitter {
        case .invisible:
            break
        case .line:
            drawSplitterLine(
                context.rect, horizontal: horizontal, styling: styling, emphasized: r.isActive || r.isHovered)
        case .custom(let draw):
            var latest = binding.wrappedValue
            let before = latest
            withID(handleID) { draw(self, context, &latest) }
            if latest != before { binding.wrappedValue = latest }
        }
    }

    /// Where the splitter belongs: the fraction, or an edge when a side is hidden (or previewed hidden).
    private func target(_ state: SplitState, _ memo: SplitMemo) -> Double {
        switch memo.previewHide ?? state.hidden {
        case .primary?: return 0
        case .secondary?: return 1
        case nil: return state.fraction
        }
    }

    private func animatedPosition(_ goal: Double, hidden: SplitSide?, memo: StateBox<SplitMemo>, dragging: Bool)
        -> Double
    {
        let duration = 0.16
        let changed = memo.value.lastTargetHidden.map { $0 != hidden } ?? false
        memo.value.lastTargetHidden = .some(hidden)
        if changed && !dragging && !reducesMotion, let from = memo.value.displayed {
            memo.value.animation = (from, time, currentTransaction ?? .easeOut(duration: duration))
        }
        var position = goal
        if let animation = memo.value.animation, !dragging {
            let elapsed = time - animation.start
            position = animation.from + (goal - animation.from) * animation.curve.progress(at: elapsed)
            if animation.curve.isFinished(at: elapsed) { memo.value.animation = nil } else { requestRedraw() }
        } else {
            memo.value.animation = nil
        }
        memo.value.displayed = position
        return position
    }

    /// Hit-tests a splitter (wider than drawn; wider still for a finger) and sets the resize
    /// cursor while it is hovered or dragged. Shared by split views and `navigationSplit`.
    /// `focusable`: a Tab stop too (the caller moves it with the arrows).
    func splitterHandle(
        _ id: WidgetID, splitter: Rect, horizontal: Bool, styling: SplitStyling, focusable: Bool = false
    ) -> Interaction {
        let r = interact(
            id, rect: splitterHitRect(splitter, horizontal: horizontal, styling: styling),
            sense: focusable ? [.drag, .focus] : .drag)
        if r.isHovered || r.isActive { setCursor(horizontal ? .resizeLeftRight : .resizeUpDown) }
        if isAccessibilityEnabled {
            accessibilityElement(
                id, role: .splitPane, name: "splitter", frame: splitter,
                states: (focusable ? controlStates() : [.enabled, .sensitive]).union(
                    horizontal ? .horizontal : .vertical))
        }
        return r
    }

    /// A splitter's reach overlaps the panes' edges: call after building the panes so a
    /// press there goes to the splitter rather than to a widget under it.
    func claimSplitterPress(_ handle: Interaction) {
        if input.pointer.pressed && activeID == nil && isPointerOver(handle.rect) {
            pressCandidate = (handle.id, .drag)
        }
    }

    func drawSplitterLine(_ splitter: Rect, horizontal: Bool, styling: SplitStyling, emphasized: Bool) {
        let line = horizontal ? splitter.insetBy(dx: 0, dy: styling.inset) : splitter.insetBy(dx: styling.inset, dy: 0)
        let color = styling.color ?? theme.separator
        drawList.addRect(line, color: emphasized ? color.mix(theme.accent, 0.5) : color)
    }

    private func splitterHitRect(_ splitter: Rect, horizontal: Bool, styling: SplitStyling) -> Rect {
        let reach = input.pointer.kind == .touch ? styling.touchThickness : styling.invisibleThickness
        if horizontal {
            let w = max(reach, splitter.width)
            return Rect(x: splitter.midX - w / 2, y: splitter.y, width: w, height: splitter.height)
        }
        let h = max(reach, splitter.height)
        return Rect(x: splitter.x, y: splitter.midY - h / 2, width: splitter.width, height: h)
    }

    /// Builds one side in its rectangle, clipped to it.
    @usableFromInline
    func pane(_ rect: Rect, _ content: () -> Void) {
        pane(rect, rect, content)
    }

    /// Builds content laid out in `layout` but visible only in `clip` (a pane pushed partly off screen).
    func pane(_ clip: Rect, _ layout: Rect, _ content: () -> Void) {
        guard !clip.isEmpty else { return }
        drawList.pushClip(clip)
        region(layout, content)
        drawList.popClip()
    }

    /// A binding to split state kept in the UI store, and in the persistent store when asked.
    private func storedSplitState(_ name: String, initial: SplitState, persist: Bool) -> Binding<SplitState> {
        let key = "split." + id(name).description
        let store = persist ? persistentStore : nil
        let box = stateBox(WidgetID(parent: id(name), "state"), store?.value(key, as: SplitState.self) ?? initial)
        return Binding(
            get: { box.value },
            set: {
                box.value = $0
                store?.set($0, for: key)
            })
    }
}
