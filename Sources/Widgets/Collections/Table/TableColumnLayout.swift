import Render2D
import Imaging
import Profiling

// `@inlinable` in the table's files is measured, not habit: it lets the app's module
// specialize the table for its row type. Unspecialized, generic row access cost about 40 % of
// a table frame, a third of a 1,000-column frame went to generic metadata lookups, and making
// `arrange` inlinable took `bench table --columns 1000` from 3.20 M to 1.79 M instructions a
// frame (callgrind). The figures it keeps: `bench table` work p50 and `bench table --columns 1000`.

/// Pure column-width math: user widths where set, ideal otherwise; the flexible columns the
/// user has not sized share what is left of `available` (up to their maximum) or, when the
/// table is too narrow, give up width in proportion to what they have above their minimum.
/// What is still too wide scrolls sideways.
public enum TableColumnLayout {
    /// The width of each of `columns` in a table `available` wide, given the widths the user dragged (by column ID).
    @inlinable  // specialized for the row type: 1,000 columns a frame cost little
    public static func widths<Row>(_ columns: [TableColumn<Row>], userWidths: [String: Double], available: Double)
        -> [Double]
    {
        // The user's widths, looked up once per column (none when the user has sized none).
        let userWidth: [Double?] =
            userWidths.isEmpty ? Array(repeating: nil, count: columns.count) : columns.map { userWidths[$0.id] }
        var widths = [Double](repeating: 0, count: columns.count)
        for i in columns.indices {
            switch columns[i].widthRule {
            case .fixed(let w): widths[i] = w
            case .flexible(let lo, let ideal, let hi): widths[i] = min(max(userWidth[i] ?? ideal, lo), hi)
            }
        }
        var spare = available - widths.reduce(0, +)
        if spare > 0 {
            // Spare room goes to flexible columns the user has not sized, left to right up to their maximum.
            for i in columns.indices where spare > 0 && userWidth[i] == nil {
                if case .flexible(_, _, let hi) = columns[i].widthRule {
                    let grow = min(spare, hi - widths[i])
                    widths[i] += grow
                    spare -= grow
                }
            }
        } else if spare < 0 {
            var slack = 0.0
            var minimums = [Double](repeating: 0, count: columns.count)
            for i in columns.indices where userWidth[i] == nil {
                if case .flexible(let lo, _, _) = columns[i].widthRule {
                    minimums[i] = lo
                    slack += widths[i] - lo
                }
            }
            if slack > 0 {
                let fraction = min(1, -spare / slack)
                for i in columns.indices where userWidth[i] == nil {
                    if case .flexible = columns[i].widthRule { widths[i] -= (widths[i] - minimums[i]) * fraction }
                }
            }
        }
        return widths
    }
}

/// Where a table's columns stand across: the leading checkmark area, then the columns side
/// by side; the first `frozen` stay put, the rest scroll by the horizontal offset. Finding
/// the columns in view is a binary search over the running widths.
@usableFromInline
struct ColumnStrip {
    /// Each column's left edge from the table's left (the leading area included); one more
    /// entry: the right edge of the last.
    @usableFromInline let starts: [Double]
    @usableFromInline let frozen: Int

    @usableFromInline
    init(widths: [Double], leading: Double, frozen: Int) {
        var starts = [leading]
        starts.reserveCapacity(widths.count + 1)
        for w in widths { starts.append(starts[starts.count - 1] + w) }
        self.starts = starts
        self.frozen = min(max(0, frozen), widths.count)
    }

    @usableFromInline var contentWidth: Double { starts[starts.count - 1] }
    /// The width that stays put: the leading area and the frozen columns.
    @usableFromInline var frozenWidth: Double { starts[frozen] }

    /// Column `c`'s left edge from the table's left at horizontal offset `offset`.
    @usableFromInline func screenX(_ c: Int, offset: Double) -> Double { c < frozen ? starts[c] : starts[c] - offset }

    /// The frozen columns, then the scrolled ones that reach into `width` past the frozen ones.
    @usableFromInline func visibleColumns(offset: Double, width: Double) -> [Int] {
        var columns = Array(0..<frozen)
        // The first scrolled column whose right edge passes the frozen edge.
        var lo = frozen, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid + 1] - offset > frozenWidth { hi = mid } else { lo = mid + 1 }
        }
        var c = lo
        while c < starts.count - 1 && starts[c] - offset < width {
            columns.append(c)
            c += 1
        }
        return columns
    }

    /// The horizontal offset that brings column `c` whole into view (as much of it as fits,
    /// its leading edge first) past the frozen columns, moving no more than needed; a frozen
    /// column is always in view.
    @usableFromInline func offset(showing c: Int, current: Double, width: Double) -> Double {
        guard c >= frozen, c < starts.count - 1 else { return current }
        let leadingEdge = starts[c] - frozenWidth  // the offset that puts its left edge at the frozen edge
        let trailingEdge = starts[c + 1] - width  // the offset that puts its right edge at the table's
        let wanted =
            leadingEdge < current ? leadingEdge : trailingEdge > current ? min(leadingEdge, trailingEdge) : current
        return min(max(0, wanted), max(0, contentWidth - width))
    }
}
