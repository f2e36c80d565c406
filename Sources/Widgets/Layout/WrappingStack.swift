import Render2D

/// Where a `wrappingHStack`'s children go: left to right, and on to a new line below when
/// the next one would pass the stack's right edge (Compose's `FlowRow`, egui's
/// `horizontal_wrapped`, GTK's `GtkFlowBox`).
///
/// An immediate-mode child is drawn where it is placed, and a container (a padding, a nested
/// stack) learns its size only once it is built. So the lines are decided before the first
/// child is built, from the widths the children took last frame (`Memo`); a child whose width
/// changed asks for one more frame, in which the lines settle. Each child is offered the whole
/// row's width wherever it starts, so it measures whole rather than cut at the edge (a line of
/// text, a padded label), and moves to a line where it fits.
/// Each line's children are aligned within the height that line took last frame.
struct WrapLayout {
    /// What the last frame measured: each child's width, and each line's height.
    struct Memo: Equatable {
        var widths: [Double] = []
        var lineHeights: [Double] = []
    }

    let width: Double
    let spacing: Double
    let lineSpacing: Double
    let last: Memo
    /// The children that start a line, after the first, in order (from `last.widths`).
    let breaks: [Int]
    /// This frame's measurements so far.
    private(set) var measured = Memo()
    /// The line being filled: its index, the index of its first child, its top (from the
    /// stack's top) and its height so far.
    private(set) var line = 0
    private(set) var lineStart = 0
    private(set) var lineTop = 0.0
    private(set) var lineHeight = 0.0
    /// The first of `breaks` not reached yet: children are placed in order, so finding
    /// whether one starts a line takes one comparison, not a search (a row of thousands of
    /// tags stays linear).
    private(set) var nextBreak = 0
    /// The widest line so far.
    private(set) var widest = 0.0

    init(width: Double, spacing: Double, lineSpacing: Double, last: Memo) {
        self.width = width
        self.spacing = spacing
        self.lineSpacing = lineSpacing
        self.last = last
        breaks = Self.breaks(widths: last.widths, width: width, spacing: spacing)
    }

    /// The children (by index) that start a new line when children `widths` wide are laid out
    /// `spacing` apart in `width`: each one that would pass the edge, unless it is first on its
    /// line (a child wider than the stack has a line to itself).
    static func breaks(widths: [Double], width: Double, spacing: Double) -> [Int] {
        var result: [Int] = []
        var x = 0.0
        for (index, w) in widths.enumerated() {
            let child = w.isFinite ? max(0, w) : 0
            if index > 0, x + spacing + child > width + 0.5 {
                result.append(index)
                x = child
            } else {
                x += (index > 0 ? spacing : 0) + child
            }
        }
        return result
    }

    /// Whether child `index` starts a new line below the one being filled.
    func startsNewLine(_ index: Int) -> Bool {
        index > lineStart && nextBreak < breaks.count && breaks[nextBreak] == index
    }

    /// Where child `index` starts, from the stack's top-left, `cursor` being the end of the
    /// line's last child: at the left of the next line when it starts one.
    func origin(of index: Int, cursor: Double) -> Point {
        if startsNewLine(index) { return Point(0, lineTop + lineHeight + lineSpacing) }
        return Point(index > lineStart ? cursor + spacing : 0, lineTop)
    }

    /// Places child `index` of `size` (`desiredWidth`: its whole width when it was cut to
    /// fit), with `cursor` the end of the line's last child: its rectangle from the stack's
    /// top-left, and the new cursor.
    mutating func place(
        _ index: Int, size: Size, desiredWidth: Double?, cursor: Double, alignment: CrossAlignment
    ) -> (rect: Rect, cursor: Double) {
        if startsNewLine(index) {
            measured.lineHeights.append(lineHeight)
            lineTop += lineHeight + lineSpacing
            lineHeight = 0
            line += 1
            lineStart = index
            nextBreak += 1
        }
        let x = origin(of: index, cursor: cursor).x
        let basis = max(size.height, line < last.lineHeights.count ? last.lineHeights[line] : 0)
        let y = lineTop + LayoutFrame.offset(size.height, in: basis, alignment == .fill ? .start : alignment)
        let height = alignment == .fill ? basis : size.height
        let width = max(size.width, desiredWidth ?? 0)
        measured.widths.append(width.isFinite ? max(0, width) : 0)  // a NaN would never settle
        lineHeight = max(lineHeight, size.height)
        widest = max(widest, x + size.width)
        return (Rect(x: x, y: y, width: size.width, height: height), x + size.width)
    }

    /// The stack's size, and what it measured (the last line's height included).
    var finished: (size: Size, memo: Memo) {
        var memo = measured
        memo.lineHeights.append(lineHeight)
        return (Size(widest, lineTop + lineHeight), memo)
    }
}

extension UI {
    /// Places a child of `size` in the innermost stack (`LayoutFrame.place`); in a wrapping
    /// row, on its line or first on the next (`placeInWrappingRow`).
    @inline(__always) func placeInStack(
        _ size: Size, flexibleMain: Bool = false, flexibleCross: Bool = false, desiredMain: Double? = nil
    ) -> Rect {
        let top = layoutStack.count - 1
        guard layoutStack[top].wrapSlot >= 0 else {
            return layoutStack[top].place(
                size, flexibleMain: flexibleMain, flexibleCross: flexibleCross, desiredMain: desiredMain)
        }
        return placeInWrappingRow(size, desiredWidth: desiredMain)
    }

    /// Places a child of the innermost stack, a wrapping row, at its own size (a line has no
    /// leftover for a flexible child to share).
    private func placeInWrappingRow(_ size: Size, desiredWidth: Double?) -> Rect {
        let top = layoutStack.count - 1
        let frame = layoutStack[top]
        let placed = wrapLayouts[frame.wrapSlot].place(
            frame.count, size: size, desiredWidth: desiredWidth, cursor: frame.cursor, alignment: frame.alignment)
        layoutStack[top].cursor = placed.cursor
        layoutStack[top].count += 1
        return placed.rect.offsetBy(dx: frame.rect.x, dy: frame.rect.y)
    }

    /// The area left for the next child of the innermost stack (`LayoutFrame.remainingRect`;
    /// in a wrapping row, `remainingRectInWrappingRow`).
    @inline(__always) var stackRemainingRect: Rect {
        let top = layoutStack.count - 1
        guard layoutStack[top].wrapSlot >= 0 else { return layoutStack[top].remainingRect }
        return remainingRectInWrappingRow
    }

    /// From where the innermost stack's next child starts, on its line or the next, as wide as
    /// the whole row: the child measures whole (not cut at the edge), and goes on to the next
    /// line from the next frame.
    private var remainingRectInWrappingRow: Rect {
        let frame = layoutStack[layoutStack.count - 1]
        let at = wrapLayouts[frame.wrapSlot].origin(of: frame.count, cursor: frame.cursor)
        return Rect(
            x: frame.rect.x + at.x, y: frame.rect.y + at.y, width: frame.rect.width,
            height: max(0, frame.rect.height - at.y))
    }

    /// Lays `content` out left to right, going on to a new line below whenever the next child
    /// would pass the right edge: a row of buttons, tags or chips that stays whole in a narrow
    /// window instead of being cut off. `spacing` is between children on a line, `lineSpacing`
    /// between lines (both default to the theme's spacing); `alignment` places each child
    /// within its line's height. Spacers inside take their minimum length.
    ///
    /// The lines come from the widths the children took the frame before, so a child that
    /// changes width settles into its line one frame later.
    ///
    /// ```swift
    /// ui.wrappingHStack {
    ///     for tag in photo.tags where ui.button(tag, style: .bordered) { filter = tag }
    /// }
    /// ```
    public func wrappingHStack(
        spacing: Double? = nil, lineSpacing: Double? = nil, alignment: VerticalAlignment = .center,
        _ content: () -> Void
    ) {
        let parent = layoutStack[layoutStack.count - 1]
        let id = WidgetID(parent: parent.id, index: parent.count)
        let memoID = WidgetID(parent: id, "lines")
        let last = state(memoID, default: WrapLayout.Memo())
        let origin = stackRemainingRect
        let spacing = spacing ?? theme.spacing
        wrapLayouts.append(
            WrapLayout(width: origin.width, spacing: spacing, lineSpacing: lineSpacing ?? theme.spacing, last: last))
        _ = childFrame(
            at: origin, axis: .horizontal, spacing: spacing, alignment: CrossAlignment(alignment), id: id,
            wrapSlot: wrapLayouts.count - 1, content)
        let (size, measured) = wrapLayouts.removeLast().finished
        if measured != last {
            setState(memoID, measured)
            requestRedraw()  // the lines settle on this frame's widths in the next one
        }
        _ = placeInStack(size)
    }
}
