import Render2D
import Imaging
import Profiling

/// The direction a stack, split or scroll view lays out along.
public enum Axis: Sendable {
    /// Left to right.
    case horizontal
    /// Top to bottom.
    case vertical
}

/// Where children of a vertical stack sit across its width.
public enum HorizontalAlignment: Sendable {
    /// At the leading edge.
    case leading
    /// Centred.
    case center
    /// At the trailing edge.
    case trailing
    /// Stretched to the full width.
    case fill
}

/// Where children of a horizontal stack sit across its height.
public enum VerticalAlignment: Sendable {
    /// At the top.
    case top
    /// Centred.
    case center
    /// At the bottom.
    case bottom
    /// Stretched to the full height.
    case fill
}

/// Where a child sits in both directions (SwiftUI's `Alignment`): in a `zstack`, an
/// `overlay` or a `background`.
///
/// ```swift
/// ui.zstack(alignment: .bottomTrailing) { ui.image(photo); ui.text("4 ★") }
/// ```
public struct Alignment: Sendable, Equatable {
    /// Across.
    public var horizontal: HorizontalAlignment
    /// Up and down.
    public var vertical: VerticalAlignment

    /// An alignment of `horizontal` and `vertical`.
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// The top left corner.
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    /// The middle of the top edge.
    public static let top = Alignment(horizontal: .center, vertical: .top)
    /// The top right corner.
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    /// The middle of the left edge.
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    /// The centre.
    public static let center = Alignment(horizontal: .center, vertical: .center)
    /// The middle of the right edge.
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    /// The bottom left corner.
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    /// The middle of the bottom edge.
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    /// The bottom right corner.
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)
}

/// Cross-axis placement inside a stack (leading = left in a VStack, top in an HStack).
enum CrossAlignment: Sendable {
    case start, center, end, fill
    init(_ h: HorizontalAlignment) {
        switch h {
        case .leading: self = .start
        case .center: self = .center
        case .trailing: self = .end
        case .fill: self = .fill
        }
    }
    init(_ v: VerticalAlignment) {
        switch v {
        case .top: self = .start
        case .center: self = .center
        case .bottom: self = .end
        case .fill: self = .fill
        }
    }
}

/// What a stack measured last frame: flexible children and cross alignment use it, so an
/// immediate-mode layout settles in one frame and then never moves.
struct StackMemo {
    var main = 0.0
    var cross = 0.0
    var fixedExtent = 0.0
    var flexCount = 0
}

/// One open stack: places children one after another along `axis`.
///
/// Fixed children take their size; flexible children (spacers, fill frames) share what the
/// fixed ones left over last frame. Pure value type: the placement math is tested directly.
struct LayoutFrame {
    var axis: Axis
    /// The area available to the stack (the main size may be infinite inside a scroll view).
    var rect: Rect
    var spacing: Double
    var alignment: CrossAlignment
    var id = WidgetID.root
    var memo = StackMemo()
    /// A layered frame (`zstack`): children one over another, each placed by this alignment
    /// (`alignment` says where across, this where along) rather than after the previous one.
    var layered: CrossAlignment?
    /// A wrapping row's place in `UI.wrapLayouts` (`wrappingHStack`), -1 for other stacks: its
    /// children are placed by `UI.placeInStack`, on the lines it says. (An index, so that a
    /// frame stays plain data, copied without reference counting: stacks are opened by the
    /// thousand a frame.)
    var wrapSlot = -1

    var cursor = 0.0
    var count = 0
    /// The ID scope (`UI.withID`) of the last child frame opened here with no ID given, and how
    /// many were opened in a row under it: such frames (regions, padding, a list's row cells)
    /// are named by their scope and that count (`UI.child(at:...)`).
    var childScope = WidgetID.root
    var childrenInScope = 0
    var crossExtent = 0.0
    var fixedExtent = 0.0
    var flexCount = 0

    init(
        axis: Axis, rect: Rect, spacing: Double, alignment: CrossAlignment, id: WidgetID = .root,
        memo: StackMemo = StackMemo()
    ) {
        self.axis = axis
        self.rect = rect
        self.spacing = spacing
        self.alignment = alignment
        self.id = id
        self.memo = memo
    }

    var mainAvailable: Double { axis == .vertical ? rect.height : rect.width }
    var crossAvailable: Double { axis == .vertical ? rect.width : rect.height }

    /// Main-axis size each flexible child gets, from last frame's measurements.
    var flexShare: Double {
        guard memo.flexCount > 0, mainAvailable.isFinite else { return 0 }
        return max(0, (mainAvailable - memo.fixedExtent) / Double(memo.flexCount))
    }

    /// The gap before the next child.
    var nextGap: Double { count > 0 ? spacing : 0 }

    /// The area left for the next child (used to lay out a nested stack in place): all of a
    /// layered frame's.
    var remainingRect: Rect {
        if layered != nil { return rect }
        let start = cursor + nextGap
        if axis == .vertical {
            return Rect(x: rect.x, y: rect.y + start, width: rect.width, height: max(0, rect.height - start))
        }
        return Rect(x: rect.x + start, y: rect.y, width: max(0, rect.width - start), height: rect.height)
    }

    /// The cross extent children align within: the full width of a VStack, the row height of an HStack.
    func crossBasis(for childCross: Double) -> Double {
        if axis == .vertical || alignment == .fill { return crossAvailable }
        return min(crossAvailable, max(memo.cross, childCross))
    }

    /// Places a child of `size`; `flexibleMain` makes it take a share of the leftover space
    /// (with `size` along the main axis as its minimum), `flexibleCross` fills the cross axis.
    /// `desiredMain`: what a child cut to fit (a line of text) would take whole; the flexible
    /// children of the next frame share what is left after it, so it is whole when they can give way.
    mutating func place(
        _ size: Size, flexibleMain: Bool = false, flexibleCross: Bool = false, desiredMain: Double? = nil
    ) -> Rect {
        if let along = layered {
            return placeLayered(size, along: along, flexibleMain: flexibleMain, flexibleCross: flexibleCross)
        }
        let gap = nextGap
        let childMain = axis == .vertical ? size.height : size.width
        let childCross = axis == .vertical ? size.width : size.height
        let main = flexibleMain ? max(childMain, flexShare) : childMain
        if flexibleMain {
            fixedExtent += gap
            flexCount += 1
        } else {
            fixedExtent += gap + max(main, desiredMain ?? 0)
        }
        let basis = crossBasis(for: childCross)
        let cross = (flexibleCross || alignment == .fill) ? basis : min(childCross, max(basis, 0))
        let crossOffset: Double
        switch alignment {
        case .start, .fill: crossOffset = 0
        case .center: crossOffset = ((basis - cross) / 2).rounded()
        case .end: crossOffset = basis - cross
        }
        let mainPos = cursor + gap
        cursor = mainPos + main
        // A child stretched across (a divider) measures at its own size: it does not make its
        // stack as wide as what it was offered (a menu with a divider stays as wide as its items).
        crossExtent = max(crossExtent, (flexibleCross ? min(cross, childCross) : cross) + crossOffset)
        count += 1
        if axis == .vertical {
            return Rect(x: rect.x + crossOffset, y: rect.y + mainPos, width: cross, height: main)
        }
        return Rect(x: rect.x + mainPos, y: rect.y + crossOffset, width: main, height: cross)
    }

    /// Places a child of a layered frame over the others: in the area the largest child took
    /// last frame (the frame's own when it is to fill), aligned in both directions. The frame
    /// measures as its largest child.
    private mutating func placeLayered(_ size: Size, along: CrossAlignment, flexibleMain: Bool, flexibleCross: Bool)
        -> Rect
    {
        let fillsWidth = flexibleCross || alignment == .fill, fillsHeight = flexibleMain || along == .fill
        let basisWidth = min(rect.width, max(memo.cross, size.width))
        let basisHeight =
            rect.height.isFinite ? min(rect.height, max(memo.main, size.height)) : max(memo.main, size.height)
        let width = fillsWidth ? basisWidth : min(size.width, basisWidth)
        let height = fillsHeight ? basisHeight : size.height
        crossExtent = max(crossExtent, fillsWidth ? min(width, size.width) : width)
        cursor = max(cursor, fillsHeight ? min(height, size.height) : height)
        count += 1
        return Rect(
            x: rect.x + Self.offset(width, in: basisWidth, alignment),
            y: rect.y + Self.offset(height, in: basisHeight, along),
            width: width, height: height)
    }

    /// Where a child `child` long sits in `basis` by `alignment`.
    static func offset(_ child: Double, in basis: Double, _ alignment: CrossAlignment) -> Double {
        switch alignment {
        case .start, .fill: 0
        case .center: ((basis - child) / 2).rounded()
        case .end: basis - child
        }
    }

    /// Where a container child (a stack, padding) of a layered frame starts, from the size it
    /// measured last frame: aligned as a leaf child is, the rest of the area left to it.
    func layeredOrigin(for size: Size) -> Rect {
        guard let along = layered, size.width > 0 || size.height > 0 else { return rect }
        let basisWidth = min(rect.width, max(memo.cross, size.width))
        let basisHeight =
            rect.height.isFinite ? min(rect.height, max(memo.main, size.height)) : max(memo.main, size.height)
        let dx = max(0, Self.offset(min(size.width, basisWidth), in: basisWidth, alignment))
        let dy = max(0, Self.offset(size.height, in: basisHeight, along))
        return Rect(x: rect.x + dx, y: rect.y + dy, width: max(0, rect.width - dx), height: max(0, rect.height - dy))
    }

    /// What this stack measured, for the memo.
    var measured: StackMemo {
        StackMemo(main: cursor, cross: crossExtent, fixedExtent: fixedExtent, flexCount: flexCount)
    }
    var measuredSize: Size { axis == .vertical ? Size(crossExtent, cursor) : Size(cursor, crossExtent) }
}

extension UI {
    /// Lays out `content` top to bottom.
    ///
    /// ```swift
    /// ui.vstack(spacing: 4, alignment: .center) {
    ///     ui.text("Title")
    ///     ui.text("Subtitle")
    /// }
    /// ```
    public func vstack(spacing: Double? = nil, alignment: HorizontalAlignment = .leading, _ content: () -> Void) {
        stack(.vertical, spacing: spacing ?? theme.spacing, alignment: CrossAlignment(alignment), content)
    }

    /// Lays out `content` left to right.
    ///
    /// ```swift
    /// ui.hstack {
    ///     ui.text("Name")
    ///     ui.spacer()
    ///     ui.button("Edit")
    /// }
    /// ```
    public func hstack(spacing: Double? = nil, alignment: VerticalAlignment = .center, _ content: () -> Void) {
        stack(.horizontal, spacing: spacing ?? theme.spacing, alignment: CrossAlignment(alignment), content)
    }

    /// Lays `content` out in layers, one over the other (SwiftUI's `ZStack`): each child placed by
    /// `alignment` in the area of the largest one, later ones drawn over earlier ones. The
    /// stack is as large as its largest child. Widgets and stacks align; wrap other content
    /// (padding, a region) in a `vstack` to align it.
    ///
    /// ```swift
    /// ui.zstack(alignment: .bottomTrailing) {
    ///     ui.asyncImage(photo.path, in: ui.allocate(Size(160, 120)))
    ///     ui.text("★ 4")
    /// }
    /// ```
    public func zstack(alignment: Alignment = .center, _ content: () -> Void) {
        let parent = layoutStack[layoutStack.count - 1]
        let id = WidgetID(parent: parent.id, index: parent.count)
        let memo = state(id, default: StackMemo())
        let size = child(
            at: stackRemainingRect, axis: .vertical, spacing: 0, alignment: CrossAlignment(alignment.horizontal),
            id: id,
            memo: memo, layered: CrossAlignment(alignment.vertical), alignsInLayers: true, content)
        _ = placeInStack(size)
    }

    /// `content`, with `overlay` laid over it by `alignment` in its area (SwiftUI's
    /// `.overlay(alignment:content:)`): a badge on an image, a border over a field.
    ///
    /// ```swift
    /// ui.overlay(alignment: .topTrailing) {
    ///     ui.button("Inbox")
    /// } overlay: {
    ///     ui.text("3", color: .white)
    /// }
    /// ```
    public func overlay(alignment: Alignment = .center, _ content: () -> Void, overlay: () -> Void) {
        zstack(alignment: alignment) {
            content()
            overlay()
        }
    }

    /// `content`, with `background` laid under it by `alignment` (SwiftUI's
    /// `.background(alignment:content:)`). A background meant to fill takes `content`'s size (a
    /// `frame()` with no size, or `ui.allocate` with flexible sides); as everything in an
    /// immediate-mode layout, a change of size shows in the frame after it.
    ///
    /// ```swift
    /// ui.background {
    ///     ui.padding(8) { ui.text("Saved") }
    /// } background: {
    ///     ui.drawList.addRoundedRect(ui.allocate(Size(0, 0), flexibleWidth: true, flexibleHeight: true), radius: 6, color: .green)
    /// }
    /// ```
    public func background(alignment: Alignment = .center, _ content: () -> Void, background: () -> Void) {
        zstack(alignment: alignment) {
            background()
            content()
        }
    }

    /// Insets `content` by `insets`.
    public func padding(_ insets: EdgeInsets = EdgeInsets(8), _ content: () -> Void) {
        let outer = stackRemainingRect
        let inner = outer.inset(by: insets)
        let size = child(at: inner, axis: .vertical, spacing: theme.spacing, alignment: .start, content)
        _ = placeInStack(
            Size(size.width + insets.horizontal, size.height + insets.vertical))
    }

    /// Pads `content` by `all` logical pixels on every side.
    public func padding(_ all: Double, _ content: () -> Void) { padding(EdgeInsets(all), content) }

    /// A box of fixed `width` and/or `height` (nil = fill what is available), holding `content`
    /// in a vertical stack.
    public func frame(
        width: Double? = nil, height: Double? = nil, alignment: HorizontalAlignment = .leading,
        _ content: () -> Void = {}
    ) {
        let top = layoutStack[layoutStack.count - 1]
        let available = stackRemainingRect
        let w = width ?? available.width
        let h = height ?? (available.height.isFinite ? available.height : 0)
        let flexMain = (top.axis == .vertical ? height == nil : width == nil) && available.height.isFinite
        let flexCross = top.axis == .vertical ? width == nil : height == nil
        // A flexible side is a share of what the stack's fixed children took last frame, with no
        // minimum: the whole remaining length as its minimum would leave nothing to the children
        // after it. In a stack's first frame, with nothing measured yet, it takes what remains.
        let size = flexMain && top.memo.flexCount > 0 ? (top.axis == .vertical ? Size(w, 0) : Size(0, h)) : Size(w, h)
        let rect = placeInStack(size, flexibleMain: flexMain, flexibleCross: flexCross)
        _ = child(at: rect, axis: .vertical, spacing: theme.spacing, alignment: CrossAlignment(alignment), content)
    }

    /// Flexible space along the enclosing stack's axis.
    public func spacer(minLength: Double = 0) {
        let axis = layoutStack[layoutStack.count - 1].axis
        let size = axis == .vertical ? Size(0, minLength) : Size(minLength, 0)
        _ = placeInStack(size, flexibleMain: true)
    }

    /// Lays out `content` in an absolute rectangle, outside the enclosing stack's flow.
    public func region(_ rect: Rect, _ content: () -> Void) {
        _ = child(at: rect, axis: .vertical, spacing: theme.spacing, alignment: .start, content)
    }

    /// Reserves room for a widget of `size` in the enclosing stack and returns its rectangle.
    public func allocate(_ size: Size, flexibleWidth: Bool = false, flexibleHeight: Bool = false) -> Rect {
        let axis = layoutStack[layoutStack.count - 1].axis
        return placeInStack(
            size, flexibleMain: axis == .vertical ? flexibleHeight : flexibleWidth,
            flexibleCross: axis == .vertical ? flexibleWidth : flexibleHeight)
    }

    /// Takes all the room left in the enclosing stack, for a container that fills it (a
    /// toolbar, a tab view, a navigation stack); `unboundedHeight` high where the height has no
    /// bound (inside a vertical scroll view).
    ///
    /// ```swift
    /// let canvas = ui.allocateRemaining(unboundedHeight: 240)
    /// ```
    public func allocateRemaining(unboundedHeight: Double) -> Rect {
        let available = availableRect
        return allocate(
            Size(available.width, available.height.isFinite ? available.height : unboundedHeight),
            flexibleWidth: true, flexibleHeight: available.height.isFinite)
    }

    /// Runs `body` with `collector` on top of the UI's `stack` of collectors, so the calls in
    /// it (`toolbarItem`, `tab`, `column`, `alternative`) add to it, and returns the collector:
    /// how a container learns its parts before it lays them out.
    func collect<Collector: AnyObject>(
        into collector: Collector, on stack: ReferenceWritableKeyPath<UI, [Collector]>,
        _ body: () -> Void
    ) -> Collector {
        self[keyPath: stack].append(collector)
        body()
        self[keyPath: stack].removeLast()
        return collector
    }

    /// The width available to the next widget.
    public var availableWidth: Double { stackRemainingRect.width }
    /// The area left to the next widget.
    public var availableRect: Rect { stackRemainingRect }

    private func stack(_ axis: Axis, spacing: Double, alignment: CrossAlignment, _ content: () -> Void) {
        let parent = layoutStack[layoutStack.count - 1]
        let id = WidgetID(parent: parent.id, index: parent.count)
        let memo = state(id, default: StackMemo())
        var origin = stackRemainingRect
        // Cross-align the whole stack inside its parent using last frame's size.
        let memoCross = axis == .vertical ? memo.cross : memo.main
        if parent.axis == .vertical, parent.alignment == .center || parent.alignment == .end, memoCross > 0 {
            let shift =
                parent.alignment == .center ? ((origin.width - memoCross) / 2).rounded() : origin.width - memoCross
            origin.x += max(0, shift)
            origin.width = min(origin.width, memoCross)
        }
        let size = child(
            at: origin, axis: axis, spacing: spacing, alignment: alignment, id: id, memo: memo, alignsInLayers: true,
            content)
        _ = placeInStack(size)
    }

    /// Runs `content` in a new layout frame over `rect`; returns the size it used.
    ///
    /// A frame opened with no `id` is named by its parent, the ID scope it is opened in
    /// (`withID`) and its place among the frames opened in a row under that scope: it is not
    /// placed in its parent first, so the parent's child count would give two of them the same
    /// name (the two panes of a split, every row of a list), and the stacks inside them would
    /// read and write each other's measurements. A lazy list's rows, each in a scope of its own,
    /// keep their names as they scroll.
    @discardableResult
    ///
    /// `alignsInLayers`: a stack, placed after it is laid out, which in a `zstack` starts where
    /// its last size aligns it (others are given their rectangle).
    func child(
        at rect: Rect, axis: Axis, spacing: Double, alignment: CrossAlignment, id: WidgetID? = nil,
        memo: StackMemo? = nil, layered: CrossAlignment? = nil, alignsInLayers: Bool = false, _ content: () -> Void
    ) -> Size {
        childFrame(
            at: rect, axis: axis, spacing: spacing, alignment: alignment, id: id, memo: memo, layered: layered,
            alignsInLayers: alignsInLayers, content
        ).measuredSize
    }

    /// `child`, returning the frame as `content` left it; `wrapSlot` makes it a wrapping row.
    func childFrame(
        at rect: Rect, axis: Axis, spacing: Double, alignment: CrossAlignment, id: WidgetID? = nil,
        memo: StackMemo? = nil, layered: CrossAlignment? = nil, alignsInLayers: Bool = false,
        wrapSlot: Int = -1, _ content: () -> Void
    ) -> LayoutFrame {
        let top = layoutStack.count - 1
        let scope = idStack[idStack.count - 1]
        if id == nil {
            if layoutStack[top].childScope == scope {
                layoutStack[top].childrenInScope += 1
            } else {
                layoutStack[top].childScope = scope
                layoutStack[top].childrenInScope = 0
            }
        }
        let parent = layoutStack[top]
        let frameID =
            id
            ?? WidgetID(
                parent: WidgetID(parent: parent.id, index: Int(truncatingIfNeeded: scope.raw)),
                index: -1 - parent.childrenInScope)
        let memo = memo ?? state(frameID, default: StackMemo())
        var rect = rect
        if alignsInLayers && parent.layered != nil {
            let last = axis == .vertical ? Size(memo.cross, memo.main) : Size(memo.main, memo.cross)
            rect = parent.layeredOrigin(for: last)
        }
        var frame = LayoutFrame(axis: axis, rect: rect, spacing: spacing, alignment: alignment, id: frameID, memo: memo)
        frame.layered = layered
        frame.wrapSlot = wrapSlot
        layoutStack.append(frame)
        content()
        let laidOut = layoutStack.removeLast()
        setState(frameID, laidOut.measured)
        return laidOut
    }
}
