import Render2D
import Imaging
import Profiling

/// Where a lazy grid's items and section headers lie: along the scroll axis (offsets), and
/// across it (each item's cell). The uniform grid's columns and the justified grid's rows
/// both answer it, so one lazy grid draws either.
protocol LazyGridGeometry {
    /// The items of every section.
    var count: Int { get }
    /// The height of a section's header (0: none).
    var headerLength: Double { get }
    /// Where each section starts, and (last) where the content ends with its trailing spacing.
    var sectionOffsets: [Double] { get }
    /// The space after a row.
    var spacing: Double { get }
    /// Where item `index`'s row starts along the grid.
    func offset(ofItem index: Int) -> Double
    /// The first item of the row at `offset` (the section's first on its header).
    func item(atOffset offset: Double) -> Int
    /// Items in rows overlapping `offset ..< offset + viewport`.
    func visibleItems(offset: Double, viewport: Double) -> Range<Int>
    /// Whether the last section has rows (then the content ends with their trailing spacing).
    var endsWithRow: Bool { get }
}

extension LazyGridGeometry {
    /// The height of everything, without the last row's trailing spacing.
    var contentLength: Double {
        let end = sectionOffsets.last ?? 0
        return endsWithRow ? end - spacing : end
    }

    /// The section at `offset` along the grid: the last one starting at or before it.
    func section(atOffset offset: Double) -> Int { sectionOffsets.dropLast().lastIndex(atMost: offset) }

    /// Sections whose headers overlap `offset ..< offset + viewport`.
    func visibleSections(offset: Double, viewport: Double) -> Range<Int> {
        guard sectionOffsets.count > 1, viewport > 0 else { return 0..<0 }
        return section(atOffset: max(0, offset))..<(section(atOffset: max(0, offset) + viewport) + 1)
    }

    /// Where section `s`'s header is drawn when pinned and the grid is scrolled to `offset`.
    func pinnedHeaderOffset(of s: Int, scrolledTo offset: Double) -> Double {
        min(max(offset, sectionOffsets[s]), sectionOffsets[s + 1] - headerLength)
    }
}

extension ArraySlice where Element: Comparable {
    /// The last index (from 0) whose value is at most `limit`, the slice ascending: the last of
    /// equal values (an empty section shares its offset with the next). 0 when none is.
    func lastIndex(atMost limit: Element) -> Int {
        var lo = 0, hi = count  // the first index whose value passes `limit`
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[startIndex + mid] <= limit { lo = mid + 1 } else { hi = mid }
        }
        return Swift.max(0, lo - 1)
    }
}

/// A justified layout, as Google Photos and Flickr lay out photos: rows of equal height
/// across the width, each item at its own aspect ratio, uncropped. A row takes items until
/// they fill the width at about `rowHeight`, then scales to fit it exactly; a section's last
/// row keeps `rowHeight` (it is not stretched). Built once in O(items) when its inputs change;
/// every query after is a binary search, so a frame costs O(visible).
///
/// ```swift
/// let layout = JustifiedLayout(aspectRatios: [1.5, 0.67, 1.5, 1], sections: [4], width: 600, rowHeight: 160, spacing: 8)
/// layout.frame(ofItem: 1)      // its cell: x, y, width and height
/// layout.visibleItems(offset: 0, viewport: 400)
/// ```
public struct JustifiedLayout: Sendable, LazyGridGeometry {
    /// How many items.
    public let count: Int
    /// The width the rows fill.
    public let width: Double
    /// The height rows aim at.
    public let rowHeight: Double
    /// The space between items and after each row.
    public let spacing: Double
    /// The height of a section's header (0: none).
    public let headerLength: Double
    /// Where each section starts, and (last) where the content ends with its trailing spacing.
    public let sectionOffsets: [Double]
    /// The number of each section's first item, and (last) the item count.
    public let sectionStarts: [Int]
    /// Each row's first item, and (last) the item count.
    private let rowStarts: [Int32]
    /// Where each row starts along the grid.
    private let rowOffsets: [Double]
    private let rowHeights: [Float]
    /// Each item's place and width across its row.
    private let itemX: [Float]
    private let itemWidth: [Float]

    /// The aspect ratio an item whose ratio is not a finite positive number is laid out at,
    /// and the bounds a ratio is kept in (a 1:50 strip still gets a visible cell).
    public static let defaultAspectRatio = 1.5
    static let aspectBounds = 0.2...5.0

    /// Items of `aspectRatios` (width / height) in `sections` (counts; nil: one section), in
    /// rows `width` wide aiming at `rowHeight`, `spacing` apart, under headers `headerLength` tall.
    public init(
        aspectRatios: [Double], sections: [Int]? = nil, width: Double, rowHeight: Double, spacing: Double = 8,
        headerLength: Double = 0
    ) {
        let count = min(aspectRatios.count, Int(Int32.max - 1))
        self.count = count
        self.width = width.isFinite ? max(1, width) : 1
        self.rowHeight = rowHeight.isFinite ? max(1, rowHeight) : 1
        self.spacing = spacing.isFinite ? max(0, spacing) : 0
        self.headerLength = headerLength.isFinite ? max(0, headerLength) : 0
        let counts = Self.sectionCounts(sections, count: count)
        var starts = [0], offsets = [0.0]
        var rowStarts: [Int32] = [], rowOffsets: [Double] = [], rowHeights: [Float] = []
        var itemX = [Float](repeating: 0, count: count), itemWidth = [Float](repeating: 0, count: count)
        func ratio(_ i: Int) -> Double {
            let a = aspectRatios[i]
            return a.isFinite && a > 0
                ? min(max(a, Self.aspectBounds.lowerBound), Self.aspectBounds.upperBound) : Self.defaultAspectRatio
        }
        for sectionCount in counts {
            let start = starts.last!, end = start + sectionCount
            var y = offsets.last! + self.headerLength
            var i = start
            while i < end {
                let (j, sum) = Self.rowBreak(
                    from: i, end: end, ratio: ratio, width: self.width, rowHeight: self.rowHeight, spacing: self.spacing
                )
                let n = j - i
                var height = max(1, (self.width - Double(n - 1) * self.spacing) / sum)
                if j == end && height > self.rowHeight { height = self.rowHeight }  // a short last row is not stretched
                var x = 0.0
                for k in i..<j {
                    let w = ratio(k) * height
                    itemX[k] = Float(x)
                    itemWidth[k] = Float(w)
                    x += w + self.spacing
                }
                rowStarts.append(Int32(i))
                rowOffsets.append(y)
                rowHeights.append(Float(height))
                y += height + self.spacing
                i = j
            }
            starts.append(end)
            offsets.append(y)
        }
        rowStarts.append(Int32(count))
        rowOffsets.append(offsets.last!)
        self.sectionStarts = starts
        self.sectionOffsets = offsets
        self.rowStarts = rowStarts
        self.rowOffsets = rowOffsets
        self.rowHeights = rowHeights
        self.itemX = itemX
        self.itemWidth = itemWidth
    }

    /// The items of each section: sections covering more or fewer items than there are are
    /// cut, and the last takes the difference.
    private static func sectionCounts(_ sections: [Int]?, count: Int) -> [Int] {
        var counts = (sections ?? [count]).map { max(0, $0) }
        guard counts.reduce(0, +) != count else { return counts }
        var left = count
        counts = counts.map { c in
            defer { left -= min(c, left) }
            return min(c, left)
        }
        if left > 0 { counts.append(left) }
        return counts
    }

    /// Where the row starting at item `i` ends (before `end` at most), and the sum of its
    /// aspect ratios: items are taken while the row, at the height aimed at, is narrower than
    /// the width; the item that crosses it joins if that leaves the row nearer that height.
    private static func rowBreak(
        from i: Int, end: Int, ratio: (Int) -> Double, width: Double, rowHeight: Double, spacing: Double
    ) -> (end: Int, sum: Double) {
        var sum = 0.0, j = i
        while j < end {
            let next = sum + ratio(j)
            let gaps = Double(j - i) * spacing
            if next * rowHeight + gaps >= width {
                let without = j > i ? (width - Double(j - i - 1) * spacing) / sum : .infinity
                let with = (width - gaps) / next
                if abs(with - rowHeight) <= abs(without - rowHeight) {
                    sum = next
                    j += 1
                }
                break
            }
            sum = next
            j += 1
        }
        return (j, sum)
    }

    /// How many rows it has.
    public var rowCount: Int { rowHeights.count }

    var endsWithRow: Bool { (sectionStarts.last ?? 0) > (sectionStarts.dropLast().last ?? 0) }

    /// The row holding item `index` (clamped to the items).
    public func row(ofItem index: Int) -> Int {
        rowStarts.dropLast().lastIndex(atMost: Int32(min(max(0, index), max(0, count - 1))))
    }

    /// The items of row `row`.
    public func items(inRow row: Int) -> Range<Int> { Int(rowStarts[row])..<Int(rowStarts[row + 1]) }

    /// Where item `index`'s row starts along the grid.
    public func offset(ofItem index: Int) -> Double { count == 0 ? 0 : rowOffsets[row(ofItem: index)] }

    /// The first item of the row at `offset` (the section's first on its header).
    public func item(atOffset offset: Double) -> Int {
        guard count > 0 else { return 0 }
        let s = section(atOffset: offset)
        if offset < sectionOffsets[s] + headerLength { return min(count - 1, sectionStarts[s]) }
        return Int(rowStarts[rowOffsets.dropLast().lastIndex(atMost: offset)])
    }

    /// Items in rows overlapping `offset ..< offset + viewport`.
    public func visibleItems(offset: Double, viewport: Double) -> Range<Int> {
        guard count > 0, viewport > 0 else { return 0..<0 }
        let top = max(0, offset), bottom = top + viewport
        var first = rowOffsets.dropLast().lastIndex(atMost: top)
        if rowOffsets[first] + Double(rowHeights[first]) <= top { first += 1 }  // the top is in the gap after it
        let last = rowOffsets.dropLast().lastIndex(atMost: bottom)
        guard first < rowCount, last >= first else { return 0..<0 }
        return Int(rowStarts[first])..<Int(rowStarts[last + 1])
    }

    /// The item of the row above (`by` -1) or below (+1) item `index`'s whose centre is nearest
    /// across to its centre: where ↑ and ↓ go. Item `index` itself at the first or last row.
    public func item(nearest index: Int, rowsAway by: Int) -> Int {
        guard count > 0 else { return 0 }
        let index = min(max(0, index), count - 1)
        let row = row(ofItem: index) + by
        guard row >= 0, row < rowCount else { return index }
        func distance(_ k: Int) -> Float { abs(itemX[k] + itemWidth[k] / 2 - (itemX[index] + itemWidth[index] / 2)) }
        return items(inRow: row).min { distance($0) < distance($1) } ?? index
    }

    /// Item `index`'s cell, from the grid's top left.
    public func frame(ofItem index: Int) -> Rect {
        let row = row(ofItem: index)
        return Rect(
            x: Double(itemX[index]), y: rowOffsets[row], width: Double(itemWidth[index]),
            height: Double(rowHeights[row]))
    }
}

extension UI {
    /// A scrolling grid laid out justified (`JustifiedLayout`), as Google Photos and Flickr show
    /// photos: rows of equal height, each item at its own aspect ratio and uncropped. It builds
    /// only the cells in view; with `sections`, each section starts on a new row under its
    /// header (pinned with `.sectionHeaders`). With `zoom`, a pinch or Ctrl+wheel scales the
    /// row height (`rowHeight × zoom`), the item under the pointer kept in place.
    /// `scrollGrid(_:toItem:)`, `prefetchImages` and a scrubber work as on `lazyVGrid`.
    ///
    /// ```swift
    /// ui.lazyJustifiedGrid("photos", aspectRatios: photos.map(\.aspectRatio), rowHeight: 180) { ui, i, rect in
    ///     ui.asyncImage(photos[i].path, in: rect)
    /// }
    /// ```
    @discardableResult
    public func lazyJustifiedGrid(
        _ name: String, aspectRatios: [Double], sections: [Int]? = nil, rowHeight: Double = 180,
        spacing: Double = GridItem.defaultSpacing, headerHeight: Double = 32,
        pinnedViews: PinnedScrollableViews = [], zoom: Binding<Double>? = nil,
        header: (UI, _ section: Int, Rect) -> Void = { _, _, _ in },
        cell: (UI, _ item: Int, Rect) -> Void
    ) -> LazyGridInfo {
        let gid = id(name)
        let available = availableRect
        let width = available.width - theme.scrollbarWidth
        let height = rowHeight * (zoom?.wrappedValue ?? 1)
        let headerLength = sections == nil ? 0 : headerHeight
        let memo = stateBox(WidgetID(parent: gid, "justified"), JustifiedMemo())
        let layout = memo.value.layout(
            aspectRatios, sections: sections, width: width, rowHeight: height, spacing: spacing,
            headerLength: headerLength)
        var info = lazyGrid(
            name, vertical: true, spacing: spacing, geometry: layout,
            shape: GridShape(tracks: 0, trackLength: width, lineLength: height),
            cellSize: Size(height * JustifiedLayout.defaultAspectRatio, height),
            pinsHeaders: pinnedViews.contains(.sectionHeaders),
            zoom: zoom, header: header,
            cell: { i in
                let frame = layout.frame(ofItem: i)
                return GridCell(across: frame.x, width: frame.width, length: frame.height, alignment: .center)
            }, content: cell)
        info.justified = layout
        if let first = info.visible.first { info.columns = layout.items(inRow: layout.row(ofItem: first)).count }
        return info
    }
}

/// A justified grid's last layout, kept while its inputs are the same. The aspect ratios are
/// compared by identity: the memo holds the array, so an app that changes its own copy gets
/// new storage (copy on write), and an unchanged one costs no comparison of a million ratios.
struct JustifiedMemo {
    private var ratios: [Double] = []
    private var inputs: (sections: [Int]?, width: Double, rowHeight: Double, spacing: Double, headerLength: Double)?
    private var last: JustifiedLayout?

    mutating func layout(
        _ aspectRatios: [Double], sections: [Int]?, width: Double, rowHeight: Double, spacing: Double,
        headerLength: Double
    ) -> JustifiedLayout {
        if let last, let inputs, inputs.sections == sections, inputs.width == width, inputs.rowHeight == rowHeight,
            inputs.spacing == spacing, inputs.headerLength == headerLength, Self.sameStorage(ratios, aspectRatios)
        {
            return last
        }
        let fresh = JustifiedLayout(
            aspectRatios: aspectRatios, sections: sections, width: width, rowHeight: rowHeight,
            spacing: spacing, headerLength: headerLength)
        ratios = aspectRatios
        inputs = (sections, width, rowHeight, spacing, headerLength)
        last = fresh
        return fresh
    }

    private static func sameStorage(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count
            && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }
}
