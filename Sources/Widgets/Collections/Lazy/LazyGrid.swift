import Render2D
import Imaging
import Profiling

/// A column (of a vertical grid) or row (of a horizontal one), as SwiftUI's `GridItem`.
///
/// ```swift
/// [GridItem(.adaptive(minimum: 180), spacing: 8)]                 // as many ≥ 180 pt columns as fit
/// [GridItem(.fixed(60)), GridItem(.flexible(minimum: 100))]        // a 60 pt column, the rest flexible
/// ```
public struct GridItem: Sendable, Equatable {
    /// The spacing between a grid's tracks and rows when none is given: 8 points.
    ///
    /// ```swift
    /// ui.lazyVGrid("photos", columns: [GridItem(.adaptive(minimum: 120))], spacing: GridItem.defaultSpacing, count: 100) { _, _ in }
    /// ```
    public static let defaultSpacing = 8.0

    /// How wide a column (or tall a row) is.
    public enum Size: Sendable, Equatable {
        /// Exactly this many points.
        case fixed(Double)
        /// A share of the space left by fixed items, between `minimum` and `maximum`.
        case flexible(minimum: Double = 10, maximum: Double = .infinity)
        /// As many tracks of at least `minimum` as fit in a share of the space, sharing it up to `maximum` each.
        case adaptive(minimum: Double, maximum: Double = .infinity)
    }

    /// How the item's size is decided.
    public var size: Size
    /// Space after this item (to the next column); nil = the default 8.
    public var spacing: Double?
    /// Where a cell's layout-built content sits across the column when it is narrower.
    public var alignment: HorizontalAlignment

    /// An item of `size`, followed by `spacing` (nil: the default), with its cells' content aligned by `alignment`.
    public init(_ size: Size = .flexible(), spacing: Double? = nil, alignment: HorizontalAlignment = .center) {
        self.size = size
        self.spacing = spacing
        self.alignment = alignment
    }
}

/// Grid track math, pure and SwiftUI's: fixed items take their size; the rest of the
/// length (after spacing) is shared equally by flexible and adaptive items, flexible ones
/// clamped to their bounds (the leftover going to the others); an adaptive item fits as many
/// tracks of at least `minimum` as its share allows, sharing it equally up to `maximum`.
package enum GridLayout {
    /// A column (or row) laid out: where it starts, how long it is, and how its content aligns.
    package struct Track: Sendable, Equatable {
        /// Where the track starts along the grid's cross axis.
        package var offset: Double
        /// The track's length.
        package var length: Double
        /// Where content narrower than the track sits in it.
        package var alignment: HorizontalAlignment
    }

    /// The spacing between tracks and rows when none is given.
    package static let defaultSpacing = GridItem.defaultSpacing

    /// The tracks (columns of a vertical grid) `items` resolve to across `length`.
    package static func tracks(_ items: [GridItem], length: Double) -> [Track] {
        guard !items.isEmpty else { return [] }
        let available = max(0, length)
        let gaps = items.dropLast().reduce(0) { $0 + ($1.spacing ?? defaultSpacing) }
        var shares = [Double?](repeating: nil, count: items.count)
        var remaining = available - gaps
        for (i, item) in items.enumerated() {
            if case .fixed(let w) = item.size {
                shares[i] = max(0, w)
                remaining -= max(0, w)
            }
        }
        // Flexible items clamped by their bounds are settled first; the rest share what is left.
        var open = Set(items.indices.filter { shares[$0] == nil })
        var settled = true
        while settled && !open.isEmpty {
            settled = false
            let share = max(0, remaining) / Double(open.count)
            for i in open.sorted() {
                guard case .flexible(let lo, let hi) = items[i].size else { continue }
                let clamped = min(max(share, lo), hi)
                if clamped != share {
                    shares[i] = clamped
                    remaining -= clamped
                    open.remove(i)
                    settled = true
                }
            }
        }
        let share = open.isEmpty ? 0 : max(0, remaining) / Double(open.count)
        var tracks: [Track] = []
        var x = 0.0
        for (i, item) in items.enumerated() {
            let gap = item.spacing ?? defaultSpacing
            switch item.size {
            case .adaptive(let lo, let hi):
                let count = min(maxTracks, max(1, whole((share + gap) / (max(1, lo) + gap), .down)))
                let width = min(hi, max(0, (share - Double(count - 1) * gap) / Double(count)))
                for _ in 0..<count {
                    tracks.append(Track(offset: x, length: width, alignment: item.alignment))
                    x += width + gap
                }
                // An adaptive item narrower than its share (capped by maximum) leaves the rest empty.
                x += max(0, share - (Double(count) * width + Double(count - 1) * gap))
            default:
                let width = shares[i] ?? share
                tracks.append(Track(offset: x, length: width, alignment: item.alignment))
                x += width + gap
            }
        }
        return tracks
    }

    /// The most tracks a grid lays out: a pixel each across the widest window.
    static let maxTracks = 16_384

    /// `value` rounded by `rule`, as an Int: NaN is 0, and what lies past Int's range is clamped.
    static func whole(_ value: Double, _ rule: FloatingPointRoundingRule) -> Int {
        let rounded = value.rounded(rule)
        guard !rounded.isNaN else { return 0 }
        if rounded >= 0x1p63 { return .max }
        if rounded < -0x1p63 { return .min }
        return Int(rounded)
    }

    /// The item `rows` rows of `columns` after item `start`, at most `limit`: never overflows.
    static func item(_ start: Int, plusRows rows: Int, columns: Int, atMost limit: Int) -> Int {
        let (span, spanOverflows) = max(0, rows).multipliedReportingOverflow(by: columns)
        let (item, itemOverflows) = start.addingReportingOverflow(span)
        return spanOverflows || itemOverflows ? limit : min(limit, item)
    }

    /// The rows `count` items fill, `columns` (at least 1) to a row: never overflows.
    static func rows(of count: Int, columns: Int) -> Int {
        count / columns + (count % columns == 0 ? 0 : 1)
    }

    /// The tracks `items` resolve to `across` the grid (its scroll bar's gutter already taken
    /// off), a track's length, and a cell's length along the scroll axis: `trackCross` of the
    /// track's length, or square.
    package static func shape(_ items: [GridItem], across: Double, trackCross: ((Double) -> Double)?) -> (
        tracks: [Track], trackLength: Double, lineLength: Double
    ) {
        let tracks = tracks(items, length: across.isFinite ? across : 0)
        let trackLength = tracks.first?.length ?? max(0, across.isFinite ? across : 0)
        // A row height that is not a number, or infinite, is the track's length (square cells).
        let line = trackCross?(trackLength) ?? trackLength
        return (tracks, trackLength, max(1, line.isFinite ? line : trackLength.isFinite ? trackLength : 1))
    }

    /// Rows of a vertical grid: `count` items in rows of `columns`, `rowLength` tall, `spacing` apart.
    package struct Rows: Sendable, Equatable {
        /// How many items.
        package var count: Int
        /// How many items a row holds.
        package var columns: Int
        /// The height of a row.
        package var rowLength: Double
        /// The space between rows.
        package var spacing: Double

        /// Rows of `count` items, `columns` to a row, `rowLength` tall and `spacing` apart.
        package init(count: Int, columns: Int, rowLength: Double, spacing: Double) {
            self.count = max(0, count)
            self.columns = max(1, columns)
            self.rowLength = max(1, rowLength)
            self.spacing = max(0, spacing)
        }

        /// How many rows the items fill.
        package var rowCount: Int { GridLayout.rows(of: count, columns: columns) }
        /// The distance from one row's start to the next's.
        package var pitch: Double { rowLength + spacing }
        /// The height of all the rows, without trailing spacing.
        package var contentLength: Double { rowCount == 0 ? 0 : Double(rowCount) * pitch - spacing }

        /// Items in rows overlapping `offset ..< offset + viewport`.
        package func visibleItems(offset: Double, viewport: Double) -> Range<Int> {
            guard count > 0, viewport > 0 else { return 0..<0 }
            let firstRow = max(0, GridLayout.whole(max(0, offset) / pitch, .down))
            let lastRow = min(rowCount - 1, GridLayout.whole((max(0, offset) + viewport) / pitch, .down))
            guard lastRow >= firstRow else { return 0..<0 }
            return (firstRow * columns)..<GridLayout.item(0, plusRows: lastRow + 1, columns: columns, atMost: count)
        }

        /// The offset that puts item `index`'s row at the top.
        package func offset(ofItem index: Int) -> Double { Double(max(0, index) / columns) * pitch }
    }

    /// Sections of a vertical grid, as SwiftUI's `LazyVGrid { Section(header:) { … } }` lays
    /// them out: each a header `headerLength` tall, then its items in rows of `columns` (a
    /// section's last row may be short), items numbered across sections. Where a section or an
    /// item lies comes from prefix sums by binary search: O(log sections), never a walk.
    ///
    /// ```swift
    /// let layout = GridLayout.Sections(counts: [3, 10], columns: 4, rowLength: 100, spacing: 8, headerLength: 30)
    /// layout.offset(ofItem: 3)          // 30 + 2 × 108 + 30: the second section's first row
    /// layout.visibleItems(offset: 0, viewport: 200)
    /// ```
    package struct Sections: Sendable, Equatable, LazyGridGeometry {
        /// How many items each section holds.
        package let counts: [Int]
        /// How many items a row holds.
        package let columns: Int
        /// The height of a row.
        package let rowLength: Double
        /// The space between rows (and after a section's last row).
        package let spacing: Double
        /// The height of a section's header (0: none).
        package let headerLength: Double
        /// Where each section starts, and (last) where the content ends with its trailing spacing: `counts.count + 1` offsets.
        package let sectionOffsets: [Double]
        /// The number of each section's first item, and (last) the item count: `counts.count + 1` numbers.
        package let sectionStarts: [Int]

        /// Sections holding `counts` items, `columns` to a row, rows `rowLength` tall and `spacing` apart, under headers `headerLength` tall.
        package init(counts: [Int], columns: Int, rowLength: Double, spacing: Double, headerLength: Double = 0) {
            // Counts past Int.max items in all are cut: a grid never holds more.
            var total = 0
            self.counts = counts.map { count in
                let kept = min(max(0, count), Int.max - total)
                total += kept
                return kept
            }
            self.columns = max(1, columns)
            self.rowLength = max(1, rowLength)
            self.spacing = max(0, spacing)
            self.headerLength = max(0, headerLength)
            var offsets = [0.0], starts = [0]
            offsets.reserveCapacity(counts.count + 1)
            starts.reserveCapacity(counts.count + 1)
            let pitch = self.rowLength + self.spacing
            for count in self.counts {
                offsets.append(
                    offsets.last! + self.headerLength + Double(GridLayout.rows(of: count, columns: self.columns))
                        * pitch)
                starts.append(starts.last! + count)
            }
            sectionOffsets = offsets
            sectionStarts = starts
        }

        /// The items of every section.
        package var count: Int { sectionStarts.last ?? 0 }
        /// The distance from one row's start to the next's.
        package var pitch: Double { rowLength + spacing }
        var endsWithRow: Bool { (counts.last ?? 0) > 0 }
        /// The section holding item `index` (clamped to the items).
        package func section(ofItem index: Int) -> Int {
            sectionStarts.dropLast().lastIndex(atMost: min(max(0, index), max(0, count - 1)))
        }

        /// Which column item `index` is in.
        package func column(ofItem index: Int) -> Int { (index - sectionStarts[section(ofItem: index)]) % columns }

        /// Where item `index`'s row starts along the grid.
        package func offset(ofItem index: Int) -> Double {
            let s = section(ofItem: index)
            return sectionOffsets[s] + headerLength + Double((max(0, index) - sectionStarts[s]) / columns) * pitch
        }

        /// The item whose row is at `offset` (the first item of the row; the section's first
        /// when `offset` is on its header, the next section's when in the gap after a row).
        package func item(atOffset offset: Double) -> Int {
            guard count > 0 else { return 0 }
            let s = section(atOffset: offset)
            let row = max(0, GridLayout.whole((offset - sectionOffsets[s] - headerLength) / pitch, .down))
            return min(
                count - 1,
                GridLayout.item(sectionStarts[s], plusRows: row, columns: columns, atMost: sectionStarts[s + 1]))
        }

        /// Items in rows overlapping `offset ..< offset + viewport`.
        package func visibleItems(offset: Double, viewport: Double) -> Range<Int> {
            guard count > 0, viewport > 0 else { return 0..<0 }
            let top = max(0, offset), bottom = top + viewport
            // The first row reaching below the top, and the last row starting above the bottom.
            let s = section(atOffset: top)
            let into = top - sectionOffsets[s] - headerLength
            // A row whose end is above the top (the top is in the spacing after it) is not visible.
            let row = into <= 0 ? 0 : GridLayout.whole(into / pitch, .down)
            let firstRow = into - Double(row) * pitch >= rowLength ? row &+ 1 : row
            let first = GridLayout.item(
                sectionStarts[s], plusRows: firstRow, columns: columns, atMost: sectionStarts[s + 1])
            let e = section(atOffset: bottom)
            let below = bottom - sectionOffsets[e] - headerLength
            let end =
                below <= 0
                ? sectionStarts[e]
                : GridLayout.item(
                    sectionStarts[e], plusRows: GridLayout.whole(below / pitch, .up), columns: columns,
                    atMost: sectionStarts[e + 1])
            return first..<max(first, min(count, end))
        }
    }
}

/// Which way a scroll view last moved.
public enum ScrollDirection: Sendable, Equatable {
    /// Towards the end (down, or right).
    case forward
    /// Towards the start.
    case backward
}

/// What to load beyond the visible items: a window `ahead` screens ahead in the scroll
/// direction, then `behind` screens behind, in priority order. Pure arithmetic.
package enum PrefetchWindow {
    /// The item ranges to prefetch, most urgent first (never overlapping `visible`).
    package static func ranges(
        visible: Range<Int>, count: Int, direction: ScrollDirection, ahead: Double = 1.5,
        behind: Double = 0.5
    ) -> [Range<Int>] {
        guard !visible.isEmpty, count > 0 else { return [] }
        let screen = visible.count
        let aheadCount = Int((Double(screen) * ahead).rounded(.up)),
            behindCount = Int((Double(screen) * behind).rounded(.up))
        let after =
            visible.upperBound..<min(count, visible.upperBound + (direction == .forward ? aheadCount : behindCount))
        let before =
            max(0, visible.lowerBound - (direction == .forward ? behindCount : aheadCount))..<visible.lowerBound
        return direction == .forward ? [after, before] : [before, after]
    }
}

/// How fast a scroll offset moves: the distance covered over the last `window` seconds,
/// per second. Pure: fed the offset and the time of each frame.
///
/// ```swift
/// var motion = ScrollMotion()
/// let speed = motion.speed(offset: 1200, time: ui.time) // points per second
/// ```
package struct ScrollMotion: Sendable {
    /// The stretch of time the speed is measured over, in seconds.
    package var window = 0.15
    private var samples: [(time: Double, offset: Double)] = []
    /// No motion yet.
    package init() {}

    /// The speed after a frame at `time` showed `offset`, in points per second (0 once the
    /// offset has not changed for `window` seconds).
    package mutating func speed(offset: Double, time: Double) -> Double {
        if let last = samples.last, time < last.time { samples.removeAll() }  // the clock went back: start again
        samples.append((time, offset))
        // Keep the newest sample at or before the window's start, so a frame after a pause still sees the pause.
        while samples.count > 2 && samples[1].time <= time - window { samples.removeFirst() }
        guard let first = samples.first, time - first.time > 0.001 else { return 0 }
        let span = max(time - first.time, window)
        var distance = 0.0
        for k in 1..<samples.count { distance += abs(samples[k].offset - samples[k - 1].offset) }
        return distance / span
    }
}

/// Grid state: the scroll direction and the item kept in place across relayouts.
struct LazyGridMemo {
    var motion = ScrollMotion()
    var lastOffset = 0.0
    var direction = ScrollDirection.forward
    /// What the last layout was made for: a change of it (a resize, a zoom) keeps the top item in place.
    var shape: GridShape?
    /// Item index and its distance from the viewport top, to keep in view when columns change
    /// (set by a pinch: the item under the fingers).
    var anchor: (item: Int, screenY: Double)?
    /// The first visible item and its distance from the viewport top, as last drawn.
    var topItem: (item: Int, screenY: Double)?
    var pinchStart: (distance: Double, zoom: Double)?
    var isHorizontal = false
    /// The last layout, kept while its inputs stay the same (its prefix sums are O(sections) to build).
    var lastLayout: GridLayout.Sections?

    /// The layout of `counts`, reused when nothing changed.
    mutating func layout(_ counts: [Int], columns: Int, rowLength: Double, spacing: Double, headerLength: Double)
        -> GridLayout.Sections
    {
        if let last = lastLayout, last.columns == max(1, columns), last.rowLength == max(1, rowLength),
            last.spacing == max(0, spacing),
            last.headerLength == max(0, headerLength), last.counts == counts
        {
            return last
        }
        let fresh = GridLayout.Sections(
            counts: counts, columns: columns, rowLength: rowLength, spacing: spacing, headerLength: headerLength)
        lastLayout = fresh
        return fresh
    }
}

/// What a grid's layout depends on besides its items: its tracks and their length across, and
/// the length of a line of cells along (a justified grid's aimed row height).
struct GridShape: Equatable {
    var tracks: Int
    var trackLength: Double
    var lineLength: Double

    /// Whether a layout for `other` lays the items out elsewhere.
    func differs(from other: GridShape) -> Bool {
        tracks != other.tracks || abs(trackLength - other.trackLength) > 0.5 || abs(lineLength - other.lineLength) > 0.5
    }
}

/// An item's cell across the grid: where it starts and how wide it is, how long it is along,
/// and where layout-built content narrower than it sits.
struct GridCell {
    var across: Double
    var width: Double
    var length: Double
    var alignment: HorizontalAlignment
}

/// What a lazy grid showed this frame.
public struct LazyGridInfo: Sendable {
    /// The items built this frame.
    public var visible: Range<Int>
    /// Items to load ahead of the scroll, most urgent first (see `PrefetchWindow`).
    public var prefetch: [Range<Int>]
    /// Which way the grid scrolled last.
    public var direction: ScrollDirection
    /// How many columns (rows, for a horizontal grid) it laid out.
    public var columns: Int
    /// The size of a cell.
    public var cellSize: Size
    /// How far the grid is scrolled.
    public var scrollOffset: Double
    /// The grid's visible rectangle.
    public var viewport: Rect
    /// Where its sections and items lie (one section without a header for a grid built
    /// without sections); nil for a justified grid.
    package var layout: GridLayout.Sections?
    /// Where a justified grid's rows and items lie (`lazyJustifiedGrid`); nil for the others.
    public var justified: JustifiedLayout?
    /// The sections whose headers it drew.
    public var visibleSections: Range<Int> = 0..<0
    /// How fast it scrolls, in points per second (`ScrollMotion`).
    public var scrollSpeed = 0.0
    /// Whether it scrolls too fast for sharp thumbnails: faster than
    /// `LazyGridInfo.fastScreensPerSecond` viewports a second. Its cells then ask `ui.images`
    /// only for embedded thumbnails (`ImagePipeline.defersSharpTier`), and it draws again once
    /// the scroll settles.
    public var isScrollingFast = false
    /// Viewports a second above which a grid counts as flung or scrubbed.
    public static let fastScreensPerSecond = 3.0

    /// The items a vertical grid of `count` items shows first (scrolled to its top) in a
    /// `viewport` with `theme`'s scroll bar, and the size of each cell: what the first frame of
    /// `lazyVGrid(_:columns:spacing:count:rowHeight:zoom:cell:)` builds, worked out before there
    /// is a window. An app can start loading those cells' images while its window and renderer
    /// are made (`ThumbnailLoader.requestFirstScreen`).
    ///
    /// ```swift
    /// let first = LazyGridInfo.firstScreen(columns: [GridItem(.adaptive(minimum: 180), spacing: 8)], spacing: 8,
    ///                                      count: photos.count, viewport: Size(1280, 800))
    /// let spec = ImageFraming.thumbnailSpec(for: first.cellSize, scale: 1, mode: .fill)
    /// ```
    public static func firstScreen(
        columns: [GridItem], spacing: Double = GridItem.defaultSpacing, count: Int, viewport: Size,
        rowHeight: ((Double) -> Double)? = nil, theme: Theme = .light
    ) -> (visible: Range<Int>, cellSize: Size) {
        let (tracks, trackLength, lineLength) = GridLayout.shape(
            columns, across: viewport.width - theme.scrollbarWidth, trackCross: rowHeight)
        let rows = GridLayout.Sections(
            counts: [count], columns: tracks.count, rowLength: lineLength, spacing: spacing.isFinite ? spacing : 0,
            headerLength: 0)
        let height = viewport.height.isFinite ? viewport.height : 0
        return (rows.visibleItems(offset: 0, viewport: height), Size(trackLength, lineLength))
    }
}

extension UI {
    /// A scrolling grid that builds only the cells in view (SwiftUI's `ScrollView { LazyVGrid }`):
    /// `columns` as `GridItem`s, rows `rowHeight` tall (default: square cells), `spacing` between
    /// rows. When the columns change (resize, zoom), the item at the top stays in view. With
    /// `zoom`, a two-finger pinch or ctrl+wheel scales it (the app multiplies its cell size
    /// by it), anchored at the pinch.
    ///
    /// ```swift
    /// ui.lazyVGrid("photos", columns: [GridItem(.adaptive(minimum: 180), spacing: 8)], count: photos.count) { ui, i, rect in
    ///     ui.drawList.addRect(rect, color: .gray)
    /// }
    /// ```
    @discardableResult
    public func lazyVGrid(
        _ name: String, columns: [GridItem], spacing: Double = GridItem.defaultSpacing, count: Int,
        rowHeight: ((Double) -> Double)? = nil, zoom: Binding<Double>? = nil,
        cell: (UI, Int, Rect) -> Void
    ) -> LazyGridInfo {
        lazyGrid(
            name, items: columns, vertical: true, spacing: spacing, sections: [count], headerLength: 0,
            pinsHeaders: false,
            trackCross: rowHeight, zoom: zoom, header: { _, _, _ in }, cell: cell)
    }

    /// A grid of sections, each a header and its items, as SwiftUI's
    /// `LazyVGrid(columns:spacing:pinnedViews:) { Section(header:) { … } }`: `sections` says
    /// how many items each holds, items are numbered across sections (the cells of section 1
    /// start after section 0's). With `.sectionHeaders` pinned, the header of the section at
    /// the top stays there while its items scroll under it (draw it opaque) until the next
    /// header pushes it away. Where anything lies comes from prefix sums (`GridLayout.Sections`):
    /// a frame costs O(visible) however many items and sections there are.
    ///
    /// ```swift
    /// ui.lazyVGrid("photos", columns: [GridItem(.adaptive(minimum: 120))], sections: months.map(\.photos.count),
    ///              pinnedViews: .sectionHeaders) { ui, month, rect in
    ///     ui.drawList.addRect(rect, color: ui.theme.background)
    ///     ui.font(size: 15, weight: .bold).draw(months[month].title, in: rect, color: ui.theme.text, into: &ui.drawList)
    /// } cell: { ui, item, rect in
    ///     ui.asyncImage(photos[item].path, in: rect)
    /// }
    /// ```
    @discardableResult
    public func lazyVGrid(
        _ name: String, columns: [GridItem], spacing: Double = GridItem.defaultSpacing, sections: [Int],
        headerHeight: Double = 32, pinnedViews: PinnedScrollableViews = [], rowHeight: ((Double) -> Double)? = nil,
        zoom: Binding<Double>? = nil, header: (UI, _ section: Int, Rect) -> Void,
        cell: (UI, _ item: Int, Rect) -> Void
    ) -> LazyGridInfo {
        lazyGrid(
            name, items: columns, vertical: true, spacing: spacing, sections: sections, headerLength: headerHeight,
            pinsHeaders: pinnedViews.contains(.sectionHeaders), trackCross: rowHeight, zoom: zoom, header: header,
            cell: cell)
    }

    /// The collection form: cells get their element and keep state by its `id`.
    @discardableResult
    public func lazyVGrid<Items: RandomAccessCollection>(
        _ name: String, columns: [GridItem], spacing: Double = GridItem.defaultSpacing, items: Items,
        rowHeight: ((Double) -> Double)? = nil, zoom: Binding<Double>? = nil, cell: (UI, Items.Element, Rect) -> Void
    ) -> LazyGridInfo where Items.Element: Identifiable, Items.Index == Int {
        let base = items.startIndex
        return lazyVGrid(name, columns: columns, spacing: spacing, count: items.count, rowHeight: rowHeight, zoom: zoom)
        { ui, i, rect in
            let item = items[base + i]
            ui.withID(index: item.id.hashValue) { cell(ui, item, rect) }
        }
    }

    /// A horizontally scrolling grid (SwiftUI's `ScrollView(.horizontal) { LazyHGrid }`):
    /// `rows` as `GridItem`s across the height, columns `columnWidth` wide (default: square).
    @discardableResult
    public func lazyHGrid(
        _ name: String, rows: [GridItem], spacing: Double = GridItem.defaultSpacing, count: Int,
        columnWidth: ((Double) -> Double)? = nil, cell: (UI, Int, Rect) -> Void
    ) -> LazyGridInfo {
        lazyGrid(
            name, items: rows, vertical: false, spacing: spacing, sections: [count], headerLength: 0,
            pinsHeaders: false,
            trackCross: columnWidth, zoom: nil, header: { _, _, _ in }, cell: cell)
    }

    /// The ID that holds the keyboard for grid `name` (its Tab stop). Keys an app handles for
    /// the grid itself, such as moving a selection, are read while it has focus and consumed,
    /// so the grid does not also scroll with them.
    ///
    /// ```swift
    /// if ui.focusID == ui.gridFocusID("photos") { for press in ui.input.keys where moveSelection(press) { ui.consumeKey(press.key) } }
    /// ```
    public func gridFocusID(_ name: String) -> WidgetID { WidgetID(parent: id(name), "scroll") }

    /// Scrolls the lazy grid `name` (in the current ID scope) to item `index` when it is next
    /// built: its line at the viewport's top, centre or bottom, or (nil) just into view
    /// (SwiftUI's `ScrollViewReader.scrollTo(_:anchor:)`).
    ///
    /// ```swift
    /// ui.scrollGrid("photos", toItem: photos.count - 1, anchor: .bottom)
    /// ```
    public func scrollGrid(_ name: String, toItem index: Int, anchor: ScrollAnchor? = nil) {
        pendingItemScrolls[id(name)] = (index, anchor)
    }

    /// Scrolls the lazy grid `name` to the item of `items` whose ID is `id` (found by a scan).
    public func scrollGrid<Items: RandomAccessCollection>(
        _ name: String, to id: Items.Element.ID, in items: Items,
        anchor: ScrollAnchor? = nil
    ) where Items.Element: Identifiable {
        if let index = items.firstIndex(where: { $0.id == id }) {
            scrollGrid(name, toItem: items.distance(from: items.startIndex, to: index), anchor: anchor)
        }
    }

    /// Scrolls the lazy grid `name` so its content is `offset` points along (down or right).
    public func scrollGrid(_ name: String, toOffset offset: Double) {
        let gid = id(name)
        let horizontal = stateBox(WidgetID(parent: gid, "memo"), LazyGridMemo()).value.isHorizontal
        withID(gid) { scrollTo("scroll", offset: horizontal ? Point(offset, 0) : Point(0, offset)) }
    }

    /// The uniform grids: "tracks" run across the scroll axis (columns of a vertical grid),
    /// "lines" of cells follow one another along it.
    private func lazyGrid(
        _ name: String, items: [GridItem], vertical: Bool, spacing: Double, sections: [Int], headerLength: Double,
        pinsHeaders: Bool, trackCross: ((Double) -> Double)?, zoom: Binding<Double>?, header: (UI, Int, Rect) -> Void,
        cell: (UI, Int, Rect) -> Void
    ) -> LazyGridInfo {
        let available = availableRect
        let (tracks, trackLength, lineLength) = GridLayout.shape(
            items,
            across: (vertical ? available.width : (available.height.isFinite ? available.height : 300))
                - theme.scrollbarWidth,
            trackCross: trackCross)
        let memo = stateBox(WidgetID(parent: id(name), "memo"), LazyGridMemo())
        let lines = memo.value.layout(
            sections, columns: tracks.count, rowLength: lineLength, spacing: spacing, headerLength: headerLength)
        var info = lazyGrid(
            name, vertical: vertical, spacing: spacing, geometry: lines,
            shape: GridShape(tracks: tracks.count, trackLength: trackLength, lineLength: lineLength),
            cellSize: vertical ? Size(trackLength, lineLength) : Size(lineLength, trackLength),
            pinsHeaders: pinsHeaders,
            zoom: zoom, header: header,
            cell: { i in
                let track = tracks[lines.column(ofItem: i)]
                return GridCell(
                    across: track.offset, width: track.length, length: lineLength, alignment: track.alignment)
            }, content: cell)
        info.columns = tracks.count
        info.layout = lines
        return info
    }

    /// Every lazy grid: the items of `geometry` in a virtual scroll view, only those in view
    /// built, each in its `cell`; headers over them (pinned with `pinsHeaders`).
    func lazyGrid<Geometry: LazyGridGeometry>(
        _ name: String, vertical: Bool, spacing: Double, geometry lines: Geometry, shape: GridShape,
        cellSize: Size, pinsHeaders: Bool, zoom: Binding<Double>?, header: (UI, Int, Rect) -> Void,
        cell: (Int) -> GridCell, content: (UI, Int, Rect) -> Void
    ) -> LazyGridInfo {
        return widget("grid", name) { gid, rect in
            let memo = stateBox(WidgetID(parent: gid, "memo"), LazyGridMemo())
            memo.value.isHorizontal = !vertical
            let across = vertical ? rect.width - theme.scrollbarWidth : rect.height - theme.scrollbarWidth
            let count = lines.count
            let viewportLength = vertical ? rect.height : rect.width
            var info = LazyGridInfo(
                visible: 0..<0, prefetch: [], direction: memo.value.direction, columns: 0, cellSize: cellSize,
                scrollOffset: 0, viewport: rect, layout: nil)
            withID(gid) {
                let scrollName = "scroll"
                keepGridAnchored(
                    gid, vertical: vertical, lines: lines, shape: shape, viewportLength: viewportLength, memo: memo,
                    cell: cell)
                // A zoom changes the app's columns next frame; the anchor set here is used then.
                if let zoom { handlePinchZoom(zoom, rect: rect, vertical: vertical, lines: lines, memo: memo) }
                let contentSize =
                    vertical ? Size(rect.width, lines.contentLength) : Size(lines.contentLength, rect.height)
                let listed = openAccessibilityContainer(
                    WidgetID(parent: gid, scrollName), role: .list, name: name, frame: rect,
                    states: controlStates(.managesDescendants),
                    collection: AccessibilityCollection(rows: count))
                defer { if listed { closeAccessibilityContainer() } }
                // A Tab stop: focused, the arrows and Page Up/Down scroll it (an app's selection keys come first).
                virtualScrollView(
                    scrollName, contentSize: contentSize, viewport: rect, axes: vertical ? .vertical : .horizontal,
                    focusable: true
                ) { scroll in
                    let offset = vertical ? scroll.offset.y : scroll.offset.x
                    if offset != memo.value.lastOffset {
                        memo.value.direction = offset > memo.value.lastOffset ? .forward : .backward
                    }
                    memo.value.lastOffset = offset
                    info.scrollOffset = offset
                    info.scrollSpeed = memo.value.motion.speed(offset: offset, time: time)
                    info.isScrollingFast = info.scrollSpeed > viewportLength * LazyGridInfo.fastScreensPerSecond
                    // Cells passed over in a fling cost no sharp decode; a frame after the scroll
                    // settles asks for the sharp thumbnails of the cells it settled on.
                    let deferred = images?.defersSharpTier ?? false
                    if info.isScrollingFast {
                        images?.defersSharpTier = true
                        requestRedraw(after: memo.value.motion.window + 0.01)
                    }
                    defer { images?.defersSharpTier = deferred }
                    info.direction = memo.value.direction
                    info.visible = lines.visibleItems(offset: offset, viewport: viewportLength)
                    info.prefetch = PrefetchWindow.ranges(
                        visible: info.visible, count: count, direction: memo.value.direction)
                    if let first = info.visible.first {
                        memo.value.topItem = (first, lines.offset(ofItem: first) - offset)
                    }
                    for i in info.visible {
                        let along = lines.offset(ofItem: i) - offset
                        buildGridCell(
                            gid, i, place: cell(i), along: along, in: rect, vertical: vertical, content: content)
                    }
                    guard lines.headerLength > 0 else { return }
                    info.visibleSections = lines.visibleSections(offset: offset, viewport: viewportLength)
                    buildGridHeaders(
                        gid, sections: info.visibleSections, rect: rect, across: across, offset: offset,
                        vertical: vertical,
                        lines: lines, pinsHeaders: pinsHeaders, header: header)
                }
            }
            return info
        }
    }

    /// Item `i` in its cell, `along` the scroll axis from the grid's start. Layout-built
    /// content sits in its cell by the item's alignment (across the column of a vertical
    /// grid); the rectangle is the whole cell for content drawn directly.
    private func buildGridCell(
        _ gid: WidgetID, _ i: Int, place: GridCell, along: Double, in rect: Rect, vertical: Bool,
        content: (UI, Int, Rect) -> Void
    ) {
        let cellRect =
            vertical
            ? Rect(x: rect.x + place.across, y: rect.y + along, width: place.width, height: place.length)
            : Rect(x: rect.x + along, y: rect.y + place.across, width: place.length, height: place.width)
        _ = accessibilityItem(i, id: WidgetID(parent: WidgetID(parent: gid, "items"), index: i), at: cellRect.origin) {
            _ = child(
                at: cellRect, axis: vertical ? .vertical : .horizontal, spacing: theme.spacing,
                alignment: CrossAlignment(place.alignment), id: WidgetID(parent: gid, index: i)
            ) { content(self, i, cellRect) }
            return cellRect.size
        }
    }

    /// After a relayout (a resize, a zoom) the anchored item stays where it was on screen;
    /// then an item `scrollGrid(_:toItem:)` asked for is scrolled to.
    private func keepGridAnchored<Geometry: LazyGridGeometry>(
        _ gid: WidgetID, vertical: Bool, lines: Geometry, shape: GridShape,
        viewportLength: Double, memo: StateBox<LazyGridMemo>,
        cell: (Int) -> GridCell
    ) {
        let scrollName = "scroll"
        let offsetNow = vertical ? scrollOffset(scrollName).y : scrollOffset(scrollName).x
        if let last = memo.value.shape, last.differs(from: shape), let anchor = memo.value.anchor ?? memo.value.topItem
        {
            let target = lines.offset(ofItem: anchor.item) - anchor.screenY
            scrollTo(scrollName, offset: vertical ? Point(0, max(0, target)) : Point(max(0, target), 0))
        }
        memo.value.anchor = nil
        memo.value.shape = shape
        if let request = pendingItemScrolls.removeValue(forKey: gid), lines.count > 0 {
            let item = min(max(0, request.index), lines.count - 1)
            let target = ScrollAnchor.offset(
                showing: lines.offset(ofItem: item), length: cell(item).length,
                viewport: viewportLength, current: offsetNow, anchor: request.anchor)
            scrollTo(scrollName, offset: vertical ? Point(0, target) : Point(target, 0))
        }
    }

    /// Section headers over the cells; a pinned one at the top, over the items scrolling under it.
    private func buildGridHeaders<Geometry: LazyGridGeometry>(
        _ gid: WidgetID, sections: Range<Int>, rect: Rect, across: Double,
        offset: Double, vertical: Bool, lines: Geometry, pinsHeaders: Bool,
        header: (UI, Int, Rect) -> Void
    ) {
        let pinned = pinsHeaders ? lines.section(atOffset: max(0, offset)) : nil
        for s in sections {
            let along =
                (s == pinned ? lines.pinnedHeaderOffset(of: s, scrolledTo: max(0, offset)) : lines.sectionOffsets[s])
                - offset
            let headerRect =
                vertical
                ? Rect(x: rect.x, y: rect.y + along, width: across, height: lines.headerLength)
                : Rect(x: rect.x + along, y: rect.y, width: lines.headerLength, height: across)
            _ = child(
                at: headerRect, axis: .horizontal, spacing: theme.spacing, alignment: .center,
                id: WidgetID(parent: WidgetID(parent: gid, "header"), index: s)
            ) { header(self, s, headerRect) }
        }
    }

    /// Two-finger pinch (and ctrl+wheel) scales `zoom`; the item under the pinch centre is
    /// anchored so it stays under the fingers when the columns change.
    private func handlePinchZoom(
        _ zoom: Binding<Double>, rect: Rect, vertical: Bool, lines: some LazyGridGeometry, memo: StateBox<LazyGridMemo>
    ) {
        let fingers = Array(input.fingers.values)
        var center: Point?
        if fingers.count >= 2 {
            let a = fingers[0], b = fingers[1]
            let distance = max(1, ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot())
            let mid = Point((a.x + b.x) / 2, (a.y + b.y) / 2)
            if rect.contains(mid) || memo.value.pinchStart != nil {
                if memo.value.pinchStart == nil { memo.value.pinchStart = (distance, zoom.wrappedValue) }
                activeID = WidgetID(parent: id("scroll"), "pinch")  // two fingers zoom rather than scroll
                let start = memo.value.pinchStart!
                zoom.wrappedValue = min(4, max(0.25, start.zoom * distance / start.distance))
                center = mid
            }
        } else if memo.value.pinchStart != nil {
            memo.value.pinchStart = nil
            activeID = nil
        }
        if input.modifiers.contains(.command) && input.wheel.y != 0 && isPointerOver(rect) {
            zoom.wrappedValue = min(4, max(0.25, zoom.wrappedValue * (input.wheel.y > 0 ? 1.1 : 1 / 1.1)))
            input.wheel.y = 0
            center = input.pointer.position
        }
        guard let center else { return }
        let offset = vertical ? scrollOffset("scroll").y : scrollOffset("scroll").x
        let along = (vertical ? center.y - rect.y : center.x - rect.x)
        let item = lines.item(atOffset: offset + along)
        memo.value.anchor = (item, lines.offset(ofItem: item) - offset)
    }
}
