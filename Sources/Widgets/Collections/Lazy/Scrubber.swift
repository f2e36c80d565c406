import Render2D
import Imaging
import Profiling

/// Where a labelled stretch of a scrubber's items begins: a month of photos, a letter of names.
public struct ScrubberMark: Sendable, Equatable {
    /// The first item of the stretch.
    public var item: Int
    /// What the rail shows there ("May", "2024").
    public var label: String
    /// What the bubble beside the thumb shows while scrubbing through the stretch ("May 2024").
    public var title: String
    /// A major mark (a year) is labelled before minor ones (months), and in bold.
    public var isMajor: Bool

    /// A mark at `item`, showing `label` on the rail and `title` while scrubbed through.
    public init(item: Int, label: String, title: String? = nil, isMajor: Bool = false) {
        self.item = item
        self.label = label
        self.title = title ?? label
        self.isMajor = isMajor
    }
}

/// Scrubber geometry, pure: a position along the rail stands for an item number, so each
/// stretch takes rail in proportion to how many items it holds (a month of 2,000 photos
/// twenty times what a month of 100 takes), whatever the items' pixel heights.
///
/// ```swift
/// let rail = ScrubberLayout(count: 100_000, length: 600)
/// rail.item(atPosition: 300)          // 50,000
/// rail.position(ofItem: 25_000)       // 150
/// ```
public struct ScrubberLayout: Sendable, Equatable {
    /// How many items the rail stands for.
    public var count: Int
    /// The rail's length in points.
    public var length: Double

    /// A rail `length` long over `count` items.
    public init(count: Int, length: Double) {
        self.count = max(0, count)
        self.length = max(0, length)
    }

    /// Where item `index` is along the rail.
    public func position(ofItem index: Int) -> Double {
        guard count > 1 else { return 0 }
        return length * Double(min(max(0, index), count - 1)) / Double(count - 1)
    }

    /// The item at `position` along the rail (clamped to the items).
    public func item(atPosition position: Double) -> Int {
        guard count > 1, length > 0, position.isFinite else { return 0 }
        return min(count - 1, max(0, Int((position / length * Double(count - 1)).rounded())))
    }

    /// The marks to label, none closer than `spacing` to another: every major mark that fits,
    /// then the minor ones in the room left. In rail order.
    public func labelled(_ marks: [ScrubberMark], spacing: Double) -> [ScrubberMark] {
        var taken: [Double] = []  // positions labelled so far, sorted
        var chosen: [ScrubberMark] = []
        func fits(_ y: Double) -> Bool {
            var lo = 0, hi = taken.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if taken[mid] < y { lo = mid + 1 } else { hi = mid }
            }
            return (lo == taken.count || taken[lo] - y >= spacing) && (lo == 0 || y - taken[lo - 1] >= spacing)
        }
        for major in [true, false] {
            for mark in marks where mark.isMajor == major {
                let y = position(ofItem: mark.item)
                guard fits(y) else { continue }
                taken.insert(y, at: taken.firstIndex { $0 > y } ?? taken.count)
                chosen.append(mark)
            }
        }
        return chosen.sorted { $0.item < $1.item }
    }
}

/// A scrubber's per-widget state: the item it last asked to show, so holding still asks nothing.
struct ScrubberMemo {
    var requested: Int?
}

extension UI {
    /// A date rail along a lazy grid's or stack's edge (Google Photos', Apple Photos'): labels
    /// for `marks` spaced by how many items each stretch holds, a thumb at `position` (the first
    /// item in view), and a bubble naming the stretch while it is dragged. Dragging it (mouse
    /// or finger) or clicking anywhere on it, a label included, returns the item to jump to;
    /// focused (a click gives it focus), Page Up and Page Down go to the previous and next mark,
    /// Home and End to the first and last item. Call it before building the grid, and scroll
    /// the grid to what it returns: the jump shows in the same frame.
    ///
    /// ```swift
    /// let rail = Rect(x: area.maxX - 60, y: area.y, width: 60, height: area.height)
    /// if let item = ui.scrubber("dates", in: rail, count: photos.count, position: lastInfo?.visible.lowerBound ?? 0, marks: months) {
    ///     ui.scrollGrid("photos", toItem: item, anchor: .top)
    /// }
    /// ```
    public func scrubber(_ name: String, in rect: Rect, count: Int, position: Int, marks: [ScrubberMark]) -> Int? {
        let sid = id(name)
        let memo = stateBox(sid, ScrubberMemo())
        let inset = 10.0  // room for the thumb and the first and last labels
        let rail = ScrubberLayout(count: count, length: max(0, rect.height - 2 * inset))
        let labelled = rail.labelled(marks, spacing: theme.fontSize + 4)
        let r = interact(sid, rect: rect, sense: [.click, .drag, .focus])
        if r.isHovered || r.isActive { setCursor(.pointingHand) }
        if isAccessibilityEnabled {
            let here = labelled.last { $0.item <= position }?.label ?? ""
            accessibilityElement(
                sid, role: .slider, name: name, frame: rect, states: controlStates(.vertical), value: here,
                range: AccessibilityRange(
                    current: Double(position), minimum: 0, maximum: Double(max(0, count - 1)), step: 1))
        }
        var target: Int?
        if r.isActive, count > 0 {
            let y = input.pointer.position.y - rect.y - inset
            // On a label: exactly its first item (rounding must not land in the stretch before).
            if let mark = labelled.first(where: { abs(rail.position(ofItem: $0.item) - y) <= theme.fontSize / 2 + 1 }) {
                target = mark.item
            } else {
                target = rail.item(atPosition: y)
            }
        }
        if focusID == sid, count > 0 {
            for press in input.keys {
                let current = target ?? memo.value.requested ?? position
                switch press.key {
                case .pageDown: target = marks.first { $0.item > current }?.item ?? count - 1
                case .pageUp: target = marks.last { $0.item < current }?.item ?? 0
                case .home: target = 0
                case .end: target = count - 1
                default: break
                }
            }
        }
        if !r.isActive && focusID != sid { memo.value.requested = nil }

        // The rail, its labels, the thumb, and (while dragged) the bubble.
        drawList.addRoundedRect(
            Rect(x: rect.maxX - 5, y: rect.y + inset, width: 2, height: rail.length), radius: 1, color: theme.border)
        let small = font(size: theme.fontSize - 2), bold = font(size: theme.fontSize - 2, weight: .bold)
        for mark in labelled {
            let y = rect.y + inset + rail.position(ofItem: mark.item)
            (mark.isMajor ? bold : small).draw(
                mark.label, in: Rect(x: rect.x, y: y - 8, width: rect.width - 10, height: 16), alignment: .trailing,
                color: mark.isMajor ? theme.text : theme.secondaryText, into: &drawList)
        }
        let shown = target ?? (r.isActive ? memo.value.requested : nil) ?? position
        let thumbY = rect.y + inset + rail.position(ofItem: shown)
        drawList.addRoundedRect(
            Rect(x: rect.maxX - 10, y: thumbY - 9, width: 12, height: 18), radius: 6,
            color: r.isActive || r.isHovered ? theme.accent : theme.accent.opacity(0.7))
        if focusID == sid {
            drawList.addRectBorder(
                rect.insetBy(dx: 1, dy: 1), radius: 4, color: theme.accent.opacity(0.5), thickness: 2)
        }
        if r.isActive, let stretch = marks.last(where: { $0.item <= shown }) {
            inOverlay {
                let width = font.measure(stretch.title) + 20
                let bubble = Rect(x: rect.x - width - 6, y: thumbY - 14, width: width, height: 28)
                drawList.addRoundedRect(bubble, radius: 14, color: theme.accent)
                font.draw(stretch.title, in: bubble, alignment: .center, color: .white, into: &drawList)
            }
        }
        guard let target, target != memo.value.requested else { return nil }
        memo.value.requested = target
        return target
    }
}
