import Render2D
import Imaging
import Profiling

/// Row geometry of tables and lists, pure arithmetic on `Double` offsets (a million rows
/// of 24 pt is beyond exact `Float`). Section headers take one row slot each, before their
/// section's rows: `sectionStarts` are the data-row indices where sections begin. Slots are
/// `rowHeight` tall, or, with `extents`, as measured (prefix sums: O(log n) either way).
@usableFromInline package struct RowGeometry: Sendable {
    /// The height of a row (and of a section header) without measured extents.
    @usableFromInline package var rowHeight: Double
    /// How many data rows.
    @usableFromInline package var rowCount: Int
    /// The data-row indices where sections begin.
    @usableFromInline package var sectionStarts: [Int]
    /// Measured slot heights, when some slot is not `rowHeight` tall.
    @usableFromInline package var extents: ItemExtents?

    /// Geometry of `rowCount` rows of `rowHeight`, in sections starting at `sectionStarts`, with measured `extents` if any.
    @usableFromInline package init(
        rowHeight: Double, rowCount: Int, sectionStarts: [Int] = [], extents: ItemExtents? = nil
    ) {
        self.rowHeight = max(1, rowHeight)
        self.rowCount = max(0, rowCount)
        self.sectionStarts = sectionStarts
        self.extents = extents?.count == rowCount + sectionStarts.count ? extents : nil
    }

    /// Slots: every row plus one per section header.
    @usableFromInline package var slotCount: Int { rowCount + sectionStarts.count }
    /// The height of every slot together.
    @usableFromInline package var contentHeight: Double { extents?.total ?? Double(slotCount) * rowHeight }

    /// Where slot `slot` starts, from the top of the content.
    @usableFromInline package func slotOffset(_ slot: Int) -> Double {
        extents?.offset(of: slot) ?? Double(slot) * rowHeight
    }

    /// How tall slot `slot` is.
    @usableFromInline package func slotHeight(_ slot: Int) -> Double {
        guard let extents, slot >= 0, slot < extents.count else { return rowHeight }
        return extents.length(of: slot)
    }

    /// The slot at content-space `y` (nil above or past the end).
    @usableFromInline package func slot(atContentY y: Double) -> Int? {
        guard y >= 0, y < contentHeight else { return nil }
        return extents?.index(at: y) ?? Int((y / rowHeight).rounded(.down))
    }

    /// What occupies slot `slot`.
    @usableFromInline package enum Slot: Equatable, Sendable {
        /// The header of a section.
        case header(section: Int)
        /// A data row, by its index.
        case row(Int)
    }

    /// The slots in or near a viewport of `height` scrolled to `offset` (`overscan` extra each side).
    @usableFromInline package func visibleSlots(offset: Double, height: Double, overscan: Int = 1) -> Range<Int> {
        guard slotCount > 0, height > 0 else { return 0..<0 }
        if let extents {
            let first = max(0, extents.index(at: max(0, offset)) - overscan)
            let last = min(slotCount, extents.index(at: max(0, offset) + height) + 1 + overscan)
            return first..<max(first, last)
        }
        let first = max(0, Int((max(0, offset) / rowHeight).rounded(.down)) - overscan)
        let last = min(slotCount, Int(((max(0, offset) + height) / rowHeight).rounded(.up)) + overscan)
        return first..<max(first, last)
    }

    /// The section whose header is at or before `slot` (nil without sections).
    @usableFromInline package func section(containingSlot slot: Int) -> Int? {
        guard !sectionStarts.isEmpty else { return nil }
        // The header of section s sits at slot sectionStarts[s] + s.
        var lo = 0, hi = sectionStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if sectionStarts[mid] + mid <= slot { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// What occupies slot `slot`.
    @usableFromInline package func slot(_ slot: Int) -> Slot {
        guard let s = section(containingSlot: slot) else { return .row(slot) }
        let headerSlot = sectionStarts[s] + s
        return slot == headerSlot ? .header(section: s) : .row(slot - s - 1)
    }

    /// The slot that shows data row `row`.
    @usableFromInline package func slot(ofRow row: Int) -> Int {
        guard !sectionStarts.isEmpty else { return row }
        var lo = 0, hi = sectionStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if sectionStarts[mid] <= row { lo = mid } else { hi = mid - 1 }
        }
        return row + (sectionStarts[lo] <= row ? lo + 1 : 0)
    }

    /// The data row at content-space `y` (nil for a header or past the end).
    @usableFromInline package func row(atContentY y: Double) -> Int? {
        guard let slot = slot(atContentY: y), case .row(let row) = self.slot(slot) else { return nil }
        return row
    }
}
