import Render2D
import Imaging
import Profiling

/// Item lengths of a lazy stack, estimated until measured, with prefix sums in a Fenwick
/// tree: the offset of item i, the item at an offset and an update are all O(log n), so
/// 100,000 variable-height rows cost what 100 do. Pure logic.
public struct ItemExtents: Sendable, Equatable {
    public private(set) var count = 0
    /// The length assumed for an item until it is measured.
    public private(set) var estimate: Double
    private var lengths: [Double] = []
    private var measured: [Bool] = []
    private var tree: [Double] = [0]

    /// Lengths of `count` items, each `estimate` until measured.
    public init(count: Int, estimate: Double) {
        self.estimate = max(1, estimate)
        resize(to: count)
    }

    /// Keeps the measurements of the first `count` items (items appended get the estimate).
    public mutating func resize(to newCount: Int) {
        let n = max(0, newCount)
        guard n != count else { return }
        lengths = Array(lengths.prefix(n)) + Array(repeating: estimate, count: max(0, n - lengths.count))
        measured = Array(measured.prefix(n)) + Array(repeating: false, count: max(0, n - measured.count))
        count = n
        // O(n) build of the tree.
        tree = [0] + lengths
        var i = 1
        while i <= n {
            let parent = i + (i & -i)
            if parent <= n { tree[parent] += tree[i] }
            i += 1
        }
    }

    /// Item `index`'s length: measured, or the estimate.
    public func length(of index: Int) -> Double { lengths[index] }
    /// Whether item `index` has been measured.
    public func isMeasured(_ index: Int) -> Bool { measured[index] }

    /// Records item `index`'s real length; returns the change.
    @discardableResult
    public mutating func setLength(_ length: Double, of index: Int) -> Double {
        let delta = max(0, length) - lengths[index]
        measured[index] = true
        guard delta != 0 else { return 0 }
        lengths[index] += delta
        var i = index + 1
        while i <= count {
            tree[i] += delta
            i += i & -i
        }
        return delta
    }

    /// Where item `index` starts (the sum of the lengths before it, without spacing).
    public func offset(of index: Int) -> Double {
        var sum = 0.0, i = min(index, count)
        while i > 0 {
            sum += tree[i]
            i -= i & -i
        }
        return sum
    }

    /// The sum of every item's length.
    public var total: Double { offset(of: count) }

    /// The item covering `position` (the last item past the end), found by descending the tree.
    public func index(at position: Double) -> Int {
        guard count > 0 else { return 0 }
        var index = 0, remaining = position
        var step = 1
        while step * 2 <= count { step *= 2 }
        while step > 0 {
            let next = index + step
            if next <= count && tree[next] <= remaining {
                index = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return min(index, count - 1)
    }
}

/// What stays pinned at the top of a lazy stack's viewport while the content scrolls
/// (SwiftUI's `PinnedScrollableViews`).
public struct PinnedScrollableViews: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Section headers: the top section's stays until the next pushes it away.
    public static let sectionHeaders = PinnedScrollableViews(rawValue: 1)
}

/// Lazy stack state: the items' lengths.
struct LazyStackMemo {
    var extents: ItemExtents
    var isHorizontal = false
}

/// What a lazy stack built this frame.
public struct LazyStackInfo: Sendable {
    /// The items built this frame.
    public var built: Range<Int>
    /// The length of all the items and their spacing (some of it estimated).
    public var contentLength: Double
    /// How far the stack is scrolled.
    public var scrollOffset: Double
}

extension UI {
    /// A scrolling column that builds only the items in or near view (SwiftUI's
    /// `ScrollView { LazyVStack }`). Items may be any height: each starts at
    /// `estimatedHeight`, is measured when built, and corrections above the viewport shift
    /// the scroll offset with them, so what you are looking at does not jump.
    ///
    /// ```swift
    /// ui.lazyVStack("feed", count: posts.count, estimatedHeight: 80) { ui, i in
    ///     ui.text(posts[i].title)
    ///     if posts[i].hasImage { ui.frame(height: 200) {} }
    /// }
    /// ```
    @discardableResult
    public func lazyVStack(
        _ name: String, count: Int, estimatedHeight: Double = 44, spacing: Double = 8,
        content: (UI, Int) -> Void
    ) -> LazyStackInfo {
        lazyStack(name, vertical: true, count: count, estimate: estimatedHeight, spacing: spacing, content: content)
    }

    /// A lazy column of sections, each a header and its items, as SwiftUI's
    /// `LazyVStack(pinnedViews:) { Section(header:) { ... } }`. With `.sectionHeaders` pinned,
    /// the header of the section at the top stays at the top while its items scroll under
    /// it, and the next header pushes it away. Sections cost nothing until built: the slot of
    /// any item comes from the section starts by binary search.
    ///
    /// ```swift
    /// ui.lazyVStack("mail", sections: days.map(\.messages.count), pinnedViews: .sectionHeaders,
    ///               header: { ui, s in ui.text(days[s].title, font: ui.font(size: 13, weight: .bold)) }) { ui, s, i in
    ///     ui.text(days[s].messages[i].subject)
    /// }
    /// ```
    @discardableResult
    public func lazyVStack(
        _ name: String, sections counts: [Int], estimatedHeight: Double = 44, spacing: Double = 8,
        pinnedViews: PinnedScrollableViews = [], header: (UI, Int) -> Void,
        content: (UI, _ section: Int, _ item: Int) -> Void
    ) -> LazyStackInfo {
        var starts: [Int] = [], total = 0
        for count in counts {
            starts.append(total)
            total += max(0, count)
        }
        let slots = RowGeometry(rowHeight: 1, rowCount: total, sectionStarts: starts)
        return lazyStack(
            name, vertical: true, count: slots.slotCount, estimate: estimatedHeight, spacing: spacing,
            sections: slots, pinsHeaders: pinnedViews.contains(.sectionHeaders)
        ) { ui, slot in
            switch slots.slot(slot) {
            case .header(let section): header(ui, section)
            case .row(let row):
                let section = slots.section(containingSlot: slot) ?? 0
                content(ui, section, row - starts[section])
            }
        }
    }

    /// A scrolling row that builds only the items in or near view (SwiftUI's `LazyHStack`).
    @discardableResult
    public func lazyHStack(
        _ name: String, count: Int, estimatedWidth: Double = 120, spacing: Double = 8,
        content: (UI, Int) -> Void
    ) -> LazyStackInfo {
        lazyStack(name, vertical: false, count: count, estimate: estimatedWidth, spacing: spacing, content: content)
    }

    /// The collection form: items keep their widget state by `id`.
    @discardableResult
    public func lazyVStack<Items: RandomAccessCollection>(
        _ name: String, items: Items, estimatedHeight: Double = 44,
        spacing: Double = 8, content: (UI, Items.Element) -> Void
    ) -> LazyStackInfo
    where Items.Element: Identifiable, Items.Index == Int {
        let base = items.startIndex
        return lazyVStack(name, count: items.count, estimatedHeight: estimatedHeight, spacing: spacing) { ui, i in
            let item = items[base + i]
            ui.withID(index: item.id.hashValue) { content(ui, item) }
        }
    }

    /// Scrolls the lazy stack `name` (in the current ID scope) to item `index` when it is next
    /// built (by its measured or estimated position): at the viewport's top (leading), centre
    /// or bottom (trailing), or (nil) just into view, as `ScrollViewReader.scrollTo(_:anchor:)`.
    ///
    /// ```swift
    /// ui.scrollLazyStack("messages", toItem: messages.count - 1, anchor: .bottom)
    /// ```
    public func scrollLazyStack(_ name: String, toItem index: Int, anchor: ScrollAnchor? = .top) {
        pendingItemScrolls[id(name)] = (index, anchor)
    }

    /// Scrolls the lazy stack `name` to the item of `items` whose ID is `id` (found by a scan).
    public func scrollLazyStack<Items: RandomAccessCollection>(
        _ name: String, to id: Items.Element.ID, in items: Items,
        anchor: ScrollAnchor? = .top
    ) where Items.Element: Identifiable {
        if let index = items.firstIndex(where: { $0.id == id }) {
            scrollLazyStack(name, toItem: items.distance(from: items.startIndex, to: index), anchor: anchor)
        }
    }

    /// The item `scrollLazyStack(_:toItem:anchor:)` asked for, scrolled to.
    private func applyStackScrollRequest(
        _ sid: WidgetID, vertical: Bool, viewport: Double, spacing: Double, memo: StateBox<LazyStackMemo>
    ) {
        let count = memo.value.extents.count
        guard let request = pendingItemScrolls.removeValue(forKey: sid), count > 0 else { return }
        let index = min(max(0, request.index), count - 1)
        let current = vertical ? scrollOffset("scroll").y : scrollOffset("scroll").x
        let target = ScrollAnchor.offset(
            showing: memo.value.extents.offset(of: index),
            length: memo.value.extents.length(of: index) - spacing,
            viewport: viewport, current: current, anchor: request.anchor)
        scrollTo("scroll", offset: vertical ? Point(0, target) : Point(target, 0))
    }

    /// Builds item `i` with its top-left corner at `origin`, `across` wide (tall, horizontal)
    /// and as long as it measures itself; returns that length.
    private func buildStackItem(
        _ i: Int, at origin: Point, across: Double, vertical: Bool, content: (UI, Int) -> Void
    ) -> Double {
        let slot =
            vertical
            ? Rect(x: origin.x, y: origin.y, width: across, height: .infinity)
            : Rect(x: origin.x, y: origin.y, width: .infinity, height: across)
        let size = withID(index: i) {
            accessibilityItem(i, id: id("accessibility item"), at: origin) {
                child(at: slot, axis: vertical ? .vertical : .horizontal, spacing: theme.spacing, alignment: .start) {
                    content(self, i)
                }
            }
        }
        return vertical ? size.height : size.width
    }

    /// The section whose header is pinned when slot `top` is at the top, and that header's slot.
    private static func pinnedSlot(_ slots: RowGeometry, top: Int) -> (section: Int, slot: Int)? {
        slots.section(containingSlot: top).map { (section: $0, slot: slots.sectionStarts[$0] + $0) }
    }

    /// Where the pinned header goes along the content: at the top, or pushed up by the next
    /// section's header as it arrives. Fills the background under it (`backing` is the content's
    /// origin and the header's breadth) so the items scrolling under it do not show through.
    private func pinnedHeaderPosition(
        _ pinned: (section: Int, slot: Int), slots: RowGeometry, offset: Double, spacing: Double, memo: LazyStackMemo,
        backing: Rect
    ) -> Double {
        let next =
            pinned.section + 1 < slots.sectionStarts.count
            ? slots.sectionStarts[pinned.section + 1] + pinned.section + 1 : memo.extents.count
        let height = memo.extents.length(of: pinned.slot) - spacing
        let y = min(max(offset, memo.extents.offset(of: pinned.slot)), memo.extents.offset(of: next) - spacing - height)
        drawList.addRect(
            Rect(x: backing.x, y: backing.y + y, width: backing.width, height: height), color: theme.background)
        return y
    }

    /// `sections`: which slots are section headers; `pinsHeaders`: the top section's header
    /// is built at the top of the viewport instead of in the flow.
    private func lazyStack(
        _ name: String, vertical: Bool, count: Int, estimate: Double, spacing: Double,
        sections: RowGeometry? = nil, pinsHeaders: Bool = false, content: (UI, Int) -> Void
    ) -> LazyStackInfo {
        return widget("lazy stack", name) { sid, rect in
            let memo = stateBox(
                WidgetID(parent: sid, "memo"),
                LazyStackMemo(extents: ItemExtents(count: count, estimate: estimate + spacing)))
            memo.value.extents.resize(to: count)
            memo.value.isHorizontal = !vertical
            let viewport = vertical ? rect.height : rect.width
            let across = (vertical ? rect.width : rect.height) - theme.scrollbarWidth
            var info = LazyStackInfo(built: 0..<0, contentLength: 0, scrollOffset: 0)
            var listed = false
            withID(sid) {
                applyStackScrollRequest(sid, vertical: vertical, viewport: viewport, spacing: spacing, memo: memo)
                let total = memo.value.extents.total
                let contentSize =
                    vertical ? Size(rect.width, max(0, total - spacing)) : Size(max(0, total - spacing), rect.height)
                var drift = 0.0
                listed = openAccessibilityContainer(
                    WidgetID(parent: sid, "scroll"), role: .list, name: name, frame: rect,
                    collection: AccessibilityCollection(rows: count))
                virtualScrollView(
                    "scroll", contentSize: contentSize, viewport: rect, axes: vertical ? .vertical : .horizontal,
                    focusable: true
                ) { scroll in
                    let offset = vertical ? scroll.offset.y : scroll.offset.x
                    info.scrollOffset = offset
                    guard count > 0 else { return }
                    @MainActor func build(_ i: Int, at position: Double) -> Double {
                        let origin =
                            vertical
                            ? Point(rect.x, rect.y + position - offset) : Point(rect.x + position - offset, rect.y)
                        let length =
                            buildStackItem(i, at: origin, across: across, vertical: vertical, content: content)
                            + spacing
                        memo.value.extents.setLength(length, of: i)
                        return length
                    }
                    // The item at the top anchors the layout: items below follow it, the one above
                    // (overscan, off screen) is measured too, and its correction moves the offset
                    // rather than what is on screen.
                    let top = memo.value.extents.index(at: offset)
                    let topStart = memo.value.extents.offset(of: top)
                    // The pinned header: the top section's, built last (over its items) at the top.
                    let pinned = pinsHeaders ? sections.flatMap { Self.pinnedSlot($0, top: top) } : nil
                    if top > 0 && top - 1 != pinned?.slot {
                        _ = build(top - 1, at: topStart - memo.value.extents.length(of: top - 1))
                    }
                    var i = top, position = topStart
                    while i < count && position - offset < viewport + estimate {  // about one item of overscan below
                        position += i == pinned?.slot ? memo.value.extents.length(of: i) : build(i, at: position)
                        i += 1
                    }
                    info.built = max(0, top - 1)..<i
                    if let pinned, let slots = sections {
                        let y = pinnedHeaderPosition(
                            pinned, slots: slots, offset: offset, spacing: spacing, memo: memo.value,
                            backing: Rect(x: rect.x, y: rect.y - offset, width: across, height: 0))
                        _ = build(pinned.slot, at: y)
                    }
                    drift = memo.value.extents.offset(of: top) - topStart
                }
                // (Outside the scroll view's own ID scope, where "scroll" names it.)
                if drift != 0 {
                    // From where the scroll view is now: a key may have moved it after the items were built.
                    let now = vertical ? scrollOffset("scroll").y : scrollOffset("scroll").x
                    scrollTo("scroll", offset: vertical ? Point(0, now + drift) : Point(now + drift, 0))
                }
                info.contentLength = max(0, memo.value.extents.total - spacing)
            }
            if listed { closeAccessibilityContainer() }
            return info
        }
    }
}
