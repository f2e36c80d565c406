import Render2D
import Imaging
import Profiling
#if canImport(Glibc)
    import Glibc
#endif

/// Momentum after a touch flick: the velocity of the last ~100 ms of the drag, decaying
/// exponentially (UIKit's "normal" rate: ×0.998 per millisecond) until it is too slow to see.
///
/// ```swift
/// var k = KineticScroller()
/// k.addSample(delta: Point(0, -30), time: t)   // while dragging
/// k.release(time: t)                            // finger lifts: momentum begins
/// offset -= k.step(dt: 1.0 / 60)                // every frame after
/// ```
package struct KineticScroller: Sendable {
    /// Content velocity in logical pixels per second (positive = content moves down/right).
    public private(set) var velocity = Point.zero
    /// Fraction of velocity kept per millisecond.
    public var decelerationRate = 0.998
    /// Below this speed (px/s) the motion stops.
    public var minimumSpeed = 15.0
    /// Samples older than this (s) at release do not count.
    public var sampleWindow = 0.1
    private var samples: [(time: Double, delta: Point)] = []

    public init() {}

    public var isMoving: Bool { velocity != .zero }

    /// Records pointer motion during a drag.
    public mutating func addSample(delta: Point, time: Double) {
        velocity = .zero
        samples.append((time, delta))
        samples.removeAll { time - $0.time > sampleWindow }
    }

    /// Ends the drag at `time`: the recent motion becomes the velocity.
    public mutating func release(time: Double) {
        let recent = samples.filter { time - $0.time <= sampleWindow }
        samples.removeAll()
        guard let first = recent.first, recent.count >= 2 else {
            velocity = .zero
            return
        }
        let span = max(time - first.time, 1.0 / 120)
        var total = Point.zero
        for s in recent.dropFirst() { total = total + s.delta }
        velocity = total * (1 / span)
        if velocity.length < minimumSpeed { velocity = .zero }
    }

    /// Advances `dt` seconds; returns the displacement (content moves by it) and decays.
    public mutating func step(dt: Double) -> Point {
        guard isMoving, dt > 0 else { return .zero }
        let decay = pow(decelerationRate, dt * 1000)
        // Exact integral of v·r^t over the step.
        let k = log(decelerationRate) * 1000
        let displacement = velocity * ((decay - 1) / k)
        velocity = velocity * decay
        if velocity.length < minimumSpeed { velocity = .zero }
        return displacement
    }

    public mutating func stop() {
        velocity = .zero
        samples.removeAll()
    }
    /// Zeroes one axis (the content hit an edge).
    public mutating func stopAxis(_ axis: Axis) {
        if axis == .vertical { velocity.y = 0 } else { velocity.x = 0 }
    }
}

/// Which directions a scroll view scrolls.
public struct ScrollAxes: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Scrolls up and down.
    public static let vertical = ScrollAxes(rawValue: 1)
    /// Scrolls sideways.
    public static let horizontal = ScrollAxes(rawValue: 2)
    /// Scrolls both ways.
    public static let both: ScrollAxes = [.vertical, .horizontal]
}

/// What a scroll view showed this frame.
public struct ScrollViewInfo: Sendable {
    /// Scroll offset of the content (Double: a million rows is beyond exact Float).
    public var offset: Point
    /// The size of everything the content laid out.
    public var contentSize: Size
    /// The visible part, in window coordinates.
    public var viewport: Rect
}

struct ScrollState {
    var offset = Point.zero
    var contentSize = Size.zero
    var kinetic = KineticScroller()
    var touchDragging = false
    var thumbDrag: (axis: Axis, startOffset: Double, startPointer: Double)?
    var pendingVisible: Rect?
}

extension UI {
    /// A clipped, scrollable region: wheel (and shift+wheel sideways), draggable scrollbars,
    /// touch drag with kinetic momentum. It is a Tab stop: focused, the arrow keys, Page Up,
    /// Page Down, Home and End scroll it.
    ///
    /// ```swift
    /// ui.scrollView("log", height: 300) {
    ///     for line in lines { ui.text(line) }
    /// }
    /// ```
    @discardableResult
    public func scrollView(
        _ name: String, axes: ScrollAxes = .vertical, height: Double? = nil,
        _ content: () -> Void
    ) -> ScrollViewInfo {
        let sid = id(name)
        profiler?.beginScope("scroll view", name)
        defer { profiler?.endScope() }
        let available = availableRect
        let viewport = allocate(
            Size(available.width, height ?? (available.height.isFinite ? available.height : 200)),
            flexibleWidth: true, flexibleHeight: height == nil)
        let box = stateBox(sid, ScrollState())
        let bar = theme.scrollbarWidth
        clampOffset(&box.value, viewport: viewport)

        // Content, offset and clipped.
        drawList.pushClip(viewport)
        let contentRect = Rect(
            x: viewport.x - box.value.offset.x, y: viewport.y - box.value.offset.y,
            width: axes.contains(.horizontal)
                ? .infinity : max(0, viewport.width - (axes.contains(.vertical) ? bar : 0)),
            height: .infinity)
        scrollStack.append((sid, viewport))
        registerFocusable(sid, rect: viewport)
        let measured = accessibilityContainer(
            sid, role: .scrollPane, name: name, frame: viewport, states: controlStates()
        ) {
            withID(sid) {
                child(at: contentRect, axis: .vertical, spacing: theme.spacing, alignment: .start, content)
            }
        }
        scrollStack.removeLast()
        box.value.contentSize = Size(axes.contains(.horizontal) ? measured.width : viewport.width, measured.height)

        handleScrollInput(sid, box: box, axes: axes, viewport: viewport, keyboard: true)
        drawScrollbars(sid, box: box, axes: axes, viewport: viewport)
        drawList.popClip()
        return ScrollViewInfo(offset: box.value.offset, contentSize: box.value.contentSize, viewport: viewport)
    }

    /// A scroll viewport over `contentSize` whose content the caller lays out itself, for
    /// virtualized views (tables, lists, grids): `content` gets the offset and builds only
    /// what is visible. Wheel, scrollbars and touch momentum work as in `scrollView`; with
    /// `focusable`, it is a Tab stop and scrolls with the keys as `scrollView` does (a view
    /// with keys of its own, such as a table's rows, leaves it off).
    ///
    /// ```swift
    /// ui.virtualScrollView("rows", contentSize: Size(width, Double(count) * 24), viewport: rect) { info in
    ///     let first = Int(info.offset.y / 24)
    ///     // draw rows first ..< first + visibleCount
    /// }
    /// ```
    @discardableResult
    public func virtualScrollView(
        _ name: String, contentSize: Size, viewport: Rect, axes: ScrollAxes = .vertical,
        focusable: Bool = false, _ content: (ScrollViewInfo) -> Void
    ) -> ScrollViewInfo {
        let sid = id(name)
        if focusable { registerFocusable(sid, rect: viewport) }
        let box = stateBox(sid, ScrollState())
        box.value.contentSize = contentSize
        clampOffset(&box.value, viewport: viewport)
        drawList.pushClip(viewport)
        scrollStack.append((sid, viewport))
        withID(sid) { content(ScrollViewInfo(offset: box.value.offset, contentSize: contentSize, viewport: viewport)) }
        scrollStack.removeLast()
        handleScrollInput(sid, box: box, axes: axes, viewport: viewport, keyboard: focusable)
        drawScrollbars(sid, box: box, axes: axes, viewport: viewport)
        drawList.popClip()
        return ScrollViewInfo(offset: box.value.offset, contentSize: contentSize, viewport: viewport)
    }

    /// The keys of a focused scroll view: arrows by a line, Page Up and Page Down by a page
    /// less a line, Home and End to the ends (along the axis it scrolls, vertical first).
    private func scrollWithKeys(_ state: inout ScrollState, viewport: Rect, canX: Bool, canY: Bool) {
        let line = 40.0
        for press in input.keys
        where press.modifiers.isDisjoint(with: [.command, .alt]) && !consumedKeys.contains(press.key.rawValue) {
            let page = (canY ? viewport.height : viewport.width) - line
            var delta = Point.zero
            switch press.key {
            case .up where canY: delta.y = -line
            case .down where canY: delta.y = line
            case .left where canX: delta.x = -line
            case .right where canX: delta.x = line
            case .pageUp: delta = canY ? Point(0, -page) : Point(-page, 0)
            case .pageDown: delta = canY ? Point(0, page) : Point(page, 0)
            case .home: delta = canY ? Point(0, -.greatestFiniteMagnitude) : Point(-.greatestFiniteMagnitude, 0)
            case .end: delta = canY ? Point(0, .greatestFiniteMagnitude) : Point(.greatestFiniteMagnitude, 0)
            default: continue
            }
            guard canX || canY else { continue }
            consumeKey(press.key)
            state.offset = state.offset + delta
            state.kinetic.stop()
            clampOffset(&state, viewport: viewport)
            requestRedraw()  // the content moves in the next frame
        }
    }

    /// The current offset of the scroll view `name` (in the current ID scope).
    public func scrollOffset(_ name: String) -> Point { stateBox(id(name), ScrollState()).value.offset }

    /// Scrolls the scroll view `name` (in the current ID scope) to `offset`.
    public func scrollTo(_ name: String, offset: Point) {
        let box = stateBox(id(name), ScrollState())
        box.value.offset = offset
        box.value.kinetic.stop()
    }

    /// Scrolls the innermost enclosing scroll view just enough to show `rect` (screen
    /// coordinates of this frame); call it from inside the scroll view's content.
    public func scrollToVisible(_ rect: Rect) {
        guard let (sid, _) = scrollStack.last else { return }
        stateBox(sid, ScrollState()).value.pendingVisible = rect
    }

    private func maxOffset(_ s: ScrollState, viewport: Rect) -> Point {
        Point(max(0, s.contentSize.width - viewport.width), max(0, s.contentSize.height - viewport.height))
    }

    private func clampOffset(_ s: inout ScrollState, viewport: Rect) {
        let m = maxOffset(s, viewport: viewport)
        if !s.offset.x.isFinite { s.offset.x = 0 }
        if !s.offset.y.isFinite { s.offset.y = 0 }
        let clamped = Point(min(max(0, s.offset.x), m.x), min(max(0, s.offset.y), m.y))
        if clamped.x != s.offset.x { s.kinetic.stopAxis(.horizontal) }
        if clamped.y != s.offset.y { s.kinetic.stopAxis(.vertical) }
        s.offset = clamped
    }

    private func handleScrollInput(
        _ sid: WidgetID, box: StateBox<ScrollState>, axes: ScrollAxes, viewport: Rect, keyboard: Bool
    ) {
        let p = input.pointer
        let limit = maxOffset(box.value, viewport: viewport)
        let canX = axes.contains(.horizontal) && limit.x > 0, canY = axes.contains(.vertical) && limit.y > 0
        let before = box.value.offset, wasMoving = box.value.kinetic.isMoving
        if keyboard && focusID == sid { scrollWithKeys(&box.value, viewport: viewport, canX: canX, canY: canY) }

        if let visible = box.value.pendingVisible {
            box.value.pendingVisible = nil
            let top = visible.minY - viewport.minY + box.value.offset.y
            if top < box.value.offset.y {
                box.value.offset.y = top
            } else if top + visible.height > box.value.offset.y + viewport.height {
                box.value.offset.y = top + visible.height - viewport.height
            }
            box.value.kinetic.stop()
        }

        // Wheel: the innermost scroll view under the pointer that can move takes it.
        // Shift turns a vertical wheel into a horizontal one.
        if isPointerOver(viewport) && input.wheel != .zero {
            let shifted = input.modifiers.contains(.shift) && input.wheel.x == 0
            let w = shifted ? Point(input.wheel.y, 0) : input.wheel
            if canY && w.y != 0 {
                box.value.offset.y -= w.y
                input.wheel.y = 0
                box.value.kinetic.stop()
            }
            if canX && w.x != 0 {
                box.value.offset.x -= w.x
                if shifted { input.wheel.y = 0 } else { input.wheel.x = 0 }
                box.value.kinetic.stop()
            }
        }

        // Touch: a finger pressed inside stops momentum; a drag past the slop scrolls.
        if p.kind == .touch {
            if p.pressed && viewport.contains(p.pressPosition) { box.value.kinetic.stop() }
            let dominantY = abs(p.position.y - p.pressPosition.y) >= abs(p.position.x - p.pressPosition.x)
            let wantsDrag = (dominantY && canY) || (!dominantY && canX)
            if p.isDown && p.isDragging && viewport.contains(p.pressPosition) && activeID == nil && wantsDrag
                && !box.value.touchDragging
            {
                activeID = sid
                box.value.touchDragging = true
            }
            if box.value.touchDragging && activeID == sid {
                let delta = Point(canX ? p.delta.x : 0, canY ? p.delta.y : 0)
                box.value.offset = box.value.offset - delta
                box.value.kinetic.addSample(delta: delta, time: time)
                if p.released {
                    box.value.kinetic.release(time: time)
                    box.value.touchDragging = false
                    activeID = nil
                }
            } else if box.value.touchDragging {
                box.value.touchDragging = false
            }
        }
        let byInput = box.value.offset
        if !box.value.touchDragging {
            box.value.offset = box.value.offset - box.value.kinetic.step(dt: deltaTime)
        }
        clampOffset(&box.value, viewport: viewport)
        if box.value.kinetic.isMoving { requestRedraw() }  // momentum runs on its own until it stops
        if box.value.offset != before || box.value.kinetic.isMoving, let profiler {  // for the scroll-jank categories
            func distance(_ a: Point, _ b: Point) -> Double {
                ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
            }
            profiler.noteScroll(
                inputPoints: distance(byInput, before), momentumPoints: distance(box.value.offset, byInput),
                flingStarted: !wasMoving && box.value.kinetic.isMoving)
        }
    }

    private func drawScrollbars(_ sid: WidgetID, box: StateBox<ScrollState>, axes: ScrollAxes, viewport: Rect) {
        let bar = theme.scrollbarWidth
        for axis in [Axis.vertical, .horizontal] {
            let along = axis == .vertical
            guard axes.contains(along ? .vertical : .horizontal) else { continue }
            let contentLength = along ? box.value.contentSize.height : box.value.contentSize.width
            let viewLength = along ? viewport.height : viewport.width
            guard contentLength > viewLength, viewLength > 0 else { continue }
            let track =
                along
                ? Rect(x: viewport.maxX - bar, y: viewport.y, width: bar, height: viewport.height)
                : Rect(x: viewport.x, y: viewport.maxY - bar, width: viewport.width, height: bar)
            let trackLength = along ? track.height : track.width
            let thumbLength = max(24, trackLength * viewLength / contentLength)
            let maxOffset = contentLength - viewLength
            let offset = along ? box.value.offset.y : box.value.offset.x
            let thumbPos = (trackLength - thumbLength) * (offset / maxOffset)
            let thumb =
                along
                ? Rect(x: track.x + 2, y: track.y + thumbPos, width: bar - 4, height: thumbLength)
                : Rect(x: track.x + thumbPos, y: track.y + 2, width: thumbLength, height: bar - 4)
            let tid = WidgetID(parent: sid, along ? "vbar" : "hbar")
            let r = interact(tid, rect: track, sense: .drag)
            let pointerAlong = along ? input.pointer.position.y : input.pointer.position.x
            if r.pressed || (r.isActive && box.value.thumbDrag == nil) {
                // Press on the track outside the thumb jumps there; on the thumb, grabs it.
                let thumbStart = along ? thumb.minY : thumb.minX
                let pressAlong = along ? input.pointer.pressPosition.y : input.pointer.pressPosition.x
                var start = offset
                if pressAlong < thumbStart || pressAlong > thumbStart + thumbLength {
                    start =
                        (pressAlong - (along ? track.minY : track.minX) - thumbLength / 2) / (trackLength - thumbLength)
                        * maxOffset
                }
                box.value.thumbDrag = (axis, start, pressAlong)
            }
            if r.isActive, let drag = box.value.thumbDrag, drag.axis == axis {
                let moved = (pointerAlong - drag.startPointer) / max(1, trackLength - thumbLength) * maxOffset
                let newOffset = min(max(0, drag.startOffset + moved), maxOffset)
                if along { box.value.offset.y = newOffset } else { box.value.offset.x = newOffset }
                box.value.kinetic.stop()
            } else if box.value.thumbDrag?.axis == axis {
                box.value.thumbDrag = nil
            }
            let emphasized = r.isHovered || r.isActive
            drawList.addRoundedRect(thumb, radius: (bar - 4) / 2, color: theme.scrollbar.opacity(emphasized ? 1.6 : 1))
        }
    }
}

/// Where a scrolled-to item lands in the viewport (SwiftUI's `UnitPoint` anchors of
/// `ScrollViewReader.scrollTo(_:anchor:)`: `.top`, `.center`, `.bottom`; for horizontal
/// scrolling, leading, centre and trailing).
public enum ScrollAnchor: Sendable, Equatable {
    /// At the top (leading) edge.
    case top
    /// Centred.
    case center
    /// At the bottom (trailing) edge.
    case bottom

    /// The scroll offset that shows an item at `start` (content coordinates, `length` long)
    /// in a viewport `viewport` long where it lands by `anchor`; with no anchor, the least
    /// move from `current` that brings it into view.
    public static func offset(
        showing start: Double, length: Double, viewport: Double, current: Double, anchor: ScrollAnchor?
    ) -> Double {
        switch anchor {
        case .top?: return start
        case .center?: return start - (viewport - length) / 2
        case .bottom?: return start - viewport + length
        case nil:
            if start < current { return start }
            if start + length > current + viewport { return start + length - viewport }
            return current
        }
    }
}
