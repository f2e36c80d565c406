import Render2D
import Imaging
import Profiling

/// A column of a `ui.table`: a title, what each cell shows, whether and how it sorts, and
/// its width. Named and shaped as SwiftUI's `TableColumn`.
///
/// ```swift
/// TableColumn("Name", value: \File.name)                                   // text, sortable
/// TableColumn("Size", value: \File.size) { formatBytes($0.size) }           // formatted, sortable
/// TableColumn("Rating", value: \File.rating) { ui, file in stars(ui, file) } // any widgets
/// TableColumn("Tags") { ui, file in ui.text(file.tags.joined(separator: ", ")) } // not sortable
/// ```
public struct TableColumn<Row> {
    /// How a column's width is decided.
    public enum Width: Sendable, Equatable {
        /// Always this width.
        case fixed(Double)
        /// Between `min` and `max`, starting at `ideal`, sharing the table's spare width.
        case flexible(min: Double, ideal: Double, max: Double)
    }

    /// The header's title.
    public let title: String
    /// Identifies the column in sort orders and saved widths (the title unless given).
    public let id: String
    @usableFromInline let text: ((Row) -> String)?
    @usableFromInline let content: (@MainActor (UI, Row) -> Void)?
    /// The descriptor a header click puts in the sort order; nil = not sortable.
    public let sortDescriptor: KeyComparator<Row>?
    /// How the column's width is decided (`width(_:)`, `width(min:ideal:max:)`).
    public var widthRule: Width { storedWidthRule }
    /// How the cells' text aligns (`alignment(_:)`).
    public var alignment: TextAlignment { storedAlignment }
    /// Names the column in a `TableColumnCustomization`: only such columns can be hidden or
    /// moved by the user.
    public var customizationID: String? { storedCustomizationID }
    /// Whether the column shows before the user says otherwise.
    public var defaultVisibility: Visibility { storedDefaultVisibility }
    // What the modifiers set: internal, and usable from their inlined code.
    @usableFromInline var storedWidthRule = Width.flexible(min: 40, ideal: 140, max: .infinity)
    @usableFromInline var storedAlignment = TextAlignment.leading
    @usableFromInline var storedCustomizationID: String?
    @usableFromInline var storedDefaultVisibility = Visibility.automatic
    /// Receives a cell's edited text (`editable(_:)`); nil: the column is not editable.
    @usableFromInline var onCommit: ((Row, String) -> Void)?
    /// Draws something before each cell's text or content (a tree table's indentation and
    /// chevron) in the given rectangle and returns the width it took; it stays while the cell
    /// is edited.
    @usableFromInline var leadingAccessory: (@MainActor (UI, Row, Rect) -> Double)?

    @inlinable
    init(title: String, id: String?, text: ((Row) -> String)?, content: (@MainActor (UI, Row) -> Void)?,
         sort: SortKey<Row>?, sortInPlace: KeyInPlace? = nil) {
        self.title = title
        self.id = id ?? title
        self.text = text
        self.content = content
        self.sortDescriptor = sort.map { KeyComparator(id: id ?? title, order: .forward, key: $0, keyInPlace: sortInPlace) }
    }

    /// A sortable text column showing a string property.
    @inlinable public init(_ title: String, id: String? = nil, value: KeyPath<Row, String> & Sendable) {
        let reader = KeyPathReader(value)
        self.init(title: title, id: id, text: { reader.read($0) }, content: nil, sort: .string { reader.read($0) },
                  sortInPlace: reader.inPlace { .string($0) })
    }

    /// A column sorted by an integer property and shown as `text` formats it.
    @inlinable public init<Value: BinaryInteger & Sendable>(_ title: String, id: String? = nil, value: KeyPath<Row, Value> & Sendable,
                                                 text: @escaping (Row) -> String) {
        let reader = KeyPathReader(value)
        self.init(title: title, id: id, text: text, content: nil, sort: .integer { Int64(clamping: reader.read($0)) },
                  sortInPlace: reader.inPlace { read in .integer { Int64(clamping: read($0)) } })
    }

    /// A column sorted by a `Double` property and shown as `text` formats it.
    @inlinable public init(_ title: String, id: String? = nil, value: KeyPath<Row, Double> & Sendable, text: @escaping (Row) -> String) {
        let reader = KeyPathReader(value)
        self.init(title: title, id: id, text: text, content: nil, sort: .double { reader.read($0) }, sortInPlace: reader.inPlace { .double($0) })
    }

    /// A column sorted by any `Comparable` property, with custom cell content.
    @inlinable public init<Value: Comparable & Sendable>(_ title: String, id: String? = nil, value: KeyPath<Row, Value> & Sendable,
                                              content: @escaping @MainActor (UI, Row) -> Void) {
        self.init(title: title, id: id, text: nil, content: content,
                  sort: KeyComparator(comparable: value, id: id ?? title).key)
    }

    /// A column of non-`Comparable` values, sorted by `sortUsing`, with custom cell content.
    @inlinable public init(_ title: String, id: String? = nil, sortUsing key: SortKey<Row>, content: @escaping @MainActor (UI, Row) -> Void) {
        self.init(title: title, id: id, text: nil, content: content, sort: key)
    }

    /// A column sorted by `sortUsing`, showing `text`: for a key that is not a stored property
    /// (a key path to a computed property is projected at run time, hundreds of instructions
    /// a cell).
    ///
    /// ```swift
    /// TableColumn("Kind", sortUsing: .string { $0.kind }) { $0.kind }
    /// ```
    @inlinable public init(_ title: String, id: String? = nil, sortUsing key: SortKey<Row>, text: @escaping (Row) -> String) {
        self.init(title: title, id: id, text: text, content: nil, sort: key)
    }

    /// A column that does not sort, with custom cell content.
    @inlinable public init(_ title: String, id: String? = nil, content: @escaping @MainActor (UI, Row) -> Void) {
        self.init(title: title, id: id, text: nil, content: content, sort: nil)
    }

    /// A column that does not sort, showing `text`.
    @inlinable public init(_ title: String, id: String? = nil, text: @escaping (Row) -> String) {
        self.init(title: title, id: id, text: text, content: nil, sort: nil)
    }

    /// A fixed width.
    @inlinable public func width(_ width: Double) -> TableColumn { with { $0.storedWidthRule = .fixed(max(0, width)) } }

    /// A width the user may resize between `min` and `max`, starting at `ideal`.
    @inlinable public func width(min: Double = 40, ideal: Double? = nil, max: Double = .infinity) -> TableColumn {
        with { $0.storedWidthRule = .flexible(min: min, ideal: Swift.max(min, ideal ?? Swift.max(min, 140)), max: Swift.max(min, max)) }
    }

    /// Lets the user hide and move the column, under this stable name in the table's
    /// `TableColumnCustomization` (SwiftUI's `customizationID(_:)`).
    @inlinable public func customizationID(_ id: String) -> TableColumn { with { $0.storedCustomizationID = id } }

    /// Whether the column shows until the user chooses (`.hidden`: listed in the header's
    /// menu, unchecked). SwiftUI's `defaultVisibility(_:)`.
    @inlinable public func defaultVisibility(_ visibility: Visibility) -> TableColumn { with { $0.storedDefaultVisibility = visibility } }

    /// Lets the user edit the column's text in place: F2 (or a click on the cell of the row
    /// already selected, as in Finder) opens a text field in the cell; Return commits, calling
    /// `commit` with the row and the new text, Escape cancels, Tab commits and moves to the next
    /// editable cell, a click elsewhere commits. For columns that show text.
    ///
    /// ```swift
    /// TableColumn("Name", value: \File.name).editable { file, name in rename(file, to: name) }
    /// ```
    @inlinable public func editable(_ commit: @escaping (Row, String) -> Void) -> TableColumn { with { $0.onCommit = commit } }

    /// Where cell text sits (numbers read best trailing).
    @inlinable public func alignment(_ alignment: TextAlignment) -> TableColumn { with { $0.storedAlignment = alignment } }

    /// A copy with `change` applied: every modifier above (inlinable, as they are, so that
    /// a column built every frame is copied by the app's specialized code, not generically).
    @inlinable func with(_ change: (inout TableColumn) -> Void) -> TableColumn {
        var copy = self
        change(&copy)
        return copy
    }
}

/// Builds the column list of a table from `TableColumn` expressions, `if` and `for`.
/// Inlinable, so it is specialized for the app's row type: unspecialized, a table of 1,000
/// columns spent a third of its frame looking up generic metadata here.
@resultBuilder
public enum TableColumnBuilder<Row> {
    /// One column.
    @inlinable public static func buildExpression(_ column: TableColumn<Row>) -> [TableColumn<Row>] { [column] }
    /// A whole array of columns at once (`columns` made elsewhere): no per-column work.
    @inlinable public static func buildExpression(_ columns: [TableColumn<Row>]) -> [TableColumn<Row>] { columns }
    /// The columns in the order written.
    @inlinable public static func buildBlock(_ parts: [TableColumn<Row>]...) -> [TableColumn<Row>] {
        parts.count == 1 ? parts[0] : Array(parts.joined())
    }
    /// Columns written under an `if`.
    @inlinable public static func buildOptional(_ part: [TableColumn<Row>]?) -> [TableColumn<Row>] { part ?? [] }
    /// Columns written in an `if`'s first branch.
    @inlinable public static func buildEither(first: [TableColumn<Row>]) -> [TableColumn<Row>] { first }
    /// Columns written in an `if`'s `else` branch.
    @inlinable public static func buildEither(second: [TableColumn<Row>]) -> [TableColumn<Row>] { second }
    /// Columns written in a `for` loop.
    @inlinable public static func buildArray(_ parts: [[TableColumn<Row>]]) -> [TableColumn<Row>] {
        var columns: [TableColumn<Row>] = []
        columns.reserveCapacity(parts.count)
        for part in parts { columns.append(contentsOf: part) }
        return columns
    }
}

/// Pure column-width math: user widths where set, ideal otherwise; the flexible columns the
/// user has not sized share what is left of `available` (up to their maximum) or, when the
/// table is too narrow, give up width in proportion to what they have above their minimum.
/// What is still too wide scrolls sideways.
public enum TableColumnLayout {
    /// The width of each of `columns` in a table `available` wide, given the widths the user dragged (by column ID).
    @inlinable // specialized for the row type: 1,000 columns a frame cost little
    public static func widths<Row>(_ columns: [TableColumn<Row>], userWidths: [String: Double], available: Double) -> [Double] {
        // The user's widths, looked up once per column (none when the user has sized none).
        let userWidth: [Double?] = userWidths.isEmpty ? Array(repeating: nil, count: columns.count) : columns.map { userWidths[$0.id] }
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

/// Row geometry of tables and lists, pure arithmetic on `Double` offsets (a million rows
/// of 24 pt is beyond exact `Float`). Section headers take one row slot each, before their
/// section's rows: `sectionStarts` are the data-row indices where sections begin. Slots are
/// `rowHeight` tall, or, with `extents`, as measured (prefix sums: O(log n) either way).
public struct RowGeometry: Sendable {
    /// The height of a row (and of a section header) without measured extents.
    public var rowHeight: Double
    /// How many data rows.
    public var rowCount: Int
    /// The data-row indices where sections begin.
    public var sectionStarts: [Int]
    /// Measured slot heights, when some slot is not `rowHeight` tall.
    public var extents: ItemExtents?

    /// Geometry of `rowCount` rows of `rowHeight`, in sections starting at `sectionStarts`, with measured `extents` if any.
    public init(rowHeight: Double, rowCount: Int, sectionStarts: [Int] = [], extents: ItemExtents? = nil) {
        self.rowHeight = max(1, rowHeight)
        self.rowCount = max(0, rowCount)
        self.sectionStarts = sectionStarts
        self.extents = extents?.count == rowCount + sectionStarts.count ? extents : nil
    }

    /// Slots: every row plus one per section header.
    public var slotCount: Int { rowCount + sectionStarts.count }
    /// The height of every slot together.
    public var contentHeight: Double { extents?.total ?? Double(slotCount) * rowHeight }

    /// Where slot `slot` starts, from the top of the content.
    public func slotOffset(_ slot: Int) -> Double { extents?.offset(of: slot) ?? Double(slot) * rowHeight }

    /// How tall slot `slot` is.
    public func slotHeight(_ slot: Int) -> Double {
        guard let extents, slot >= 0, slot < extents.count else { return rowHeight }
        return extents.length(of: slot)
    }

    /// The slot at content-space `y` (nil above or past the end).
    public func slot(atContentY y: Double) -> Int? {
        guard y >= 0, y < contentHeight else { return nil }
        return extents?.index(at: y) ?? Int((y / rowHeight).rounded(.down))
    }

    /// What occupies slot `slot`.
    public enum Slot: Equatable, Sendable {
        /// The header of a section.
        case header(section: Int)
        /// A data row, by its index.
        case row(Int)
    }

    /// The slots in or near a viewport of `height` scrolled to `offset` (`overscan` extra each side).
    public func visibleSlots(offset: Double, height: Double, overscan: Int = 1) -> Range<Int> {
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
    public func section(containingSlot slot: Int) -> Int? {
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
    public func slot(_ slot: Int) -> Slot {
        guard let s = section(containingSlot: slot) else { return .row(slot) }
        let headerSlot = sectionStarts[s] + s
        return slot == headerSlot ? .header(section: s) : .row(slot - s - 1)
    }

    /// The slot that shows data row `row`.
    public func slot(ofRow row: Int) -> Int {
        guard !sectionStarts.isEmpty else { return row }
        var lo = 0, hi = sectionStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if sectionStarts[mid] <= row { lo = mid } else { hi = mid - 1 }
        }
        return row + (sectionStarts[lo] <= row ? lo + 1 : 0)
    }

    /// The data row at content-space `y` (nil for a header or past the end).
    public func row(atContentY y: Double) -> Int? {
        guard let slot = slot(atContentY: y), case .row(let row) = self.slot(slot) else { return nil }
        return row
    }
}

/// A column resolved for one frame: where it is and how a row's cell is drawn, with the
/// row type erased so the per-cell loop runs no generic code (unspecialized generics cost
/// a metadata lookup per cell). A class, so that the per-cell loop takes one reference
/// instead of copying (and retaining) its closures and ID for every cell.
@usableFromInline
final class TableCellPlan {
    let x: Double
    let width: Double
    let alignment: TextAlignment
    /// A leading column that stays put while the others scroll sideways.
    let isFrozen: Bool
    let columnID: String
    /// The column's place among the shown columns (its cells' column to a screen reader).
    let column: Int
    let text: ((Int) -> String)?
    let content: ((Int) -> Void)?
    /// Draws before the cell's text in the rectangle given; returns the width taken.
    let accessory: ((Int, Rect) -> Double)?

    @usableFromInline
    init(x: Double, width: Double, alignment: TextAlignment, isFrozen: Bool, columnID: String, column: Int, text: ((Int) -> String)?,
         content: ((Int) -> Void)?, accessory: ((Int, Rect) -> Double)?) {
        self.x = x; self.width = width; self.alignment = alignment; self.isFrozen = isFrozen; self.columnID = columnID
        self.column = column; self.text = text; self.content = content; self.accessory = accessory
    }
}

/// A column as the header draws it, without the row type, so that the header's code is not
/// generic (unspecialized, it looked up the generic metadata of every column it touched).
@usableFromInline
struct HeaderColumn {
    @usableFromInline let id: String
    @usableFromInline let title: String
    @usableFromInline let alignment: TextAlignment
    @usableFromInline let isSortable: Bool
    @usableFromInline let customizationID: String?
    /// The widths a drag on its divider keeps to; nil for a fixed width.
    @usableFromInline let resizable: (min: Double, max: Double)?

    @inlinable
    init<Row>(_ column: TableColumn<Row>) {
        id = column.id
        title = column.title
        alignment = column.alignment
        isSortable = column.sortDescriptor != nil
        customizationID = column.customizationID
        if case .flexible(let lo, _, let hi) = column.widthRule { resizable = (lo, hi) } else { resizable = nil }
    }
}

/// What the user did to a table's header in a frame.
@usableFromInline
struct HeaderActions {
    /// A click on a sortable column's title, and whether shift was held (adds a key).
    @usableFromInline var sortClick: (column: Int, addingKey: Bool)?
    /// A right-click on the header: the columns menu.
    @usableFromInline var menuRequested = false
    @usableFromInline init() {}
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
        let leadingEdge = starts[c] - frozenWidth // the offset that puts its left edge at the frozen edge
        let trailingEdge = starts[c + 1] - width  // the offset that puts its right edge at the table's
        let wanted = leadingEdge < current ? leadingEdge : trailingEdge > current ? min(leadingEdge, trailingEdge) : current
        return min(max(0, wanted), max(0, contentWidth - width))
    }
}

/// Table state kept in the UI store.
@usableFromInline
struct TableMemo<ID: Hashable> {
    @usableFromInline var selection = SelectionModel<ID>()
    @usableFromInline var menuIDs: RowSelection<ID> = []
    @usableFromInline var resizeStart = 0.0
    @usableFromInline var menuRow: Int?
    @usableFromInline var panSelecting = false
    /// The customization ID of the header being dragged to a new place.
    @usableFromInline var columnDrag: String?
    @usableFromInline var typeAhead = TypeAhead()
    /// The cell being edited (`TableColumn.editable`), and a click-to-edit waiting out the
    /// double-click interval.
    @usableFromInline var editing: TableCellEdit<ID>?
    @usableFromInline var pendingEdit: (edit: TableCellEdit<ID>, due: Double)?
    @usableFromInline init() {}
}

/// How a cell edit ends: its text committed, committed with the next cell opened (Tab), or cancelled.
@usableFromInline
enum TableEditOutcome: Sendable { case commit, next, cancel }

/// A cell being edited: its row (by ID, and where it was), its column and the text so far.
@usableFromInline
struct TableCellEdit<ID: Hashable> {
    @usableFromInline var rowID: ID
    @usableFromInline var row: Int
    @usableFromInline var column: String
    @usableFromInline var draft: String
    /// The field takes keyboard focus the frame it first appears.
    @usableFromInline var needsFocus = true
    /// How editing ended this frame, if it did.
    @usableFromInline var outcome: TableEditOutcome?
    @usableFromInline init(rowID: ID, row: Int, column: String, draft: String) {
        self.rowID = rowID; self.row = row; self.column = column; self.draft = draft
    }
}

/// What the table showed this frame.
public struct TableInfo: Sendable {
    /// Indices of the rows built this frame.
    public var visibleRows: Range<Int>
    /// How far the body is scrolled.
    public var scrollOffset: Double
    /// The height of a row.
    public var rowHeight: Double
    /// The body's rectangle (below the header).
    public var bodyRect: Rect
    /// True when the compact (one column) layout was used.
    public var isCompact: Bool
    /// How far the columns are scrolled sideways.
    public var horizontalOffset = 0.0
    /// The IDs of the columns built this frame (frozen ones first).
    public var visibleColumns: [String] = []

    /// What a table showed.
    public init(visibleRows: Range<Int>, scrollOffset: Double, rowHeight: Double, bodyRect: Rect, isCompact: Bool) {
        self.visibleRows = visibleRows
        self.scrollOffset = scrollOffset
        self.rowHeight = rowHeight
        self.bodyRect = bodyRect
        self.isCompact = isCompact
    }
}

/// Rows grouped under a header that stays pinned while its rows scroll.
public struct TableSection<Row> {
    /// The section header's title.
    public var title: String
    /// The section's rows.
    public var rows: [Row]
    /// A section titled `title` holding `rows`.
    public init(_ title: String, rows: [Row]) { self.title = title; self.rows = rows }
}

/// A row given explicitly (SwiftUI's `TableRow`), optionally with its own context menu.
public struct TableRow<Row> {
    /// The row's value.
    public var value: Row
    @usableFromInline let contextMenu: (() -> Void)?
    /// The row `value`, with its own context menu if given.
    public init(_ value: Row, contextMenu: (() -> Void)? = nil) { self.value = value; self.contextMenu = contextMenu }
}

/// The rows of several sections as one collection (no copying; binary search per access).
public struct SectionedRows<Row>: RandomAccessCollection {
    @usableFromInline let sections: [TableSection<Row>]
    /// The global index of each section's first row.
    public let starts: [Int]
    public let endIndex: Int
    public var startIndex: Int { 0 }
    /// The rows of `sections`, one after another.
    public init(_ sections: [TableSection<Row>]) {
        self.sections = sections
        var starts: [Int] = [], total = 0
        for section in sections { starts.append(total); total += section.rows.count }
        self.starts = starts
        endIndex = total
    }
    @inlinable public subscript(position: Int) -> Row {
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= position { lo = mid } else { hi = mid - 1 }
        }
        return sections[lo].rows[position - starts[lo]]
    }
}

extension UI {
    /// SwiftUI's `Table` in immediate mode: a pinned header whose clicks edit `sortOrder`
    /// (the app sorts; `TableSorter` helps), virtualized rows (only the visible ones are
    /// built, so a million rows cost what forty do), selection by ID with mouse, keyboard
    /// and touch, a context menu for the selection, resizable columns, an edit mode with
    /// checkmarks for touch, and a one-column layout below `compactWidth`.
    ///
    /// ```swift
    /// ui.table("files", rows: sorter.view(of: files, sortedBy: order), selection: Binding(self, \.selection),
    ///          sortOrder: Binding(self, \.order), contextMenu: { ids in
    ///              if ui.menuItem("Delete \(ids.count)") { delete(ids) }
    ///          }) {
    ///     TableColumn("Name", value: \File.name)
    ///     TableColumn("Size", value: \File.size) { formatBytes($0.size) }.alignment(.trailing)
    /// }
    /// ```
    @inlinable @discardableResult
    public func table<Rows: RandomAccessCollection>(
        _ name: String, rows: Rows, selection: Binding<Set<Rows.Element.ID>>? = nil,
        sortOrder: Binding<[KeyComparator<Rows.Element>]>? = nil, isSorting: Bool = false,
        rowHeight: Double? = nil, compactWidth: Double = 360, editMode: Bool = false, frozenColumns: Int = 0,
        columnCustomization: Binding<TableColumnCustomization<Rows.Element>>? = nil,
        contextMenu: ((RowSelection<Rows.Element.ID>) -> Void)? = nil,
        primaryAction: ((RowSelection<Rows.Element.ID>) -> Void)? = nil,
        @TableColumnBuilder<Rows.Element> columns: () -> [TableColumn<Rows.Element>]
    ) -> TableInfo where Rows.Element: Identifiable, Rows.Index == Int {
        tableBody(name, rows: rows, mode: selection == nil ? .none : .multiple, selection: selection.map { .set($0) }, sortOrder: sortOrder,
                  isSorting: isSorting, rowHeight: rowHeight, compactWidth: compactWidth, editMode: editMode,
                  sectionTitles: [], sectionStarts: [], rowMenus: nil, frozenColumns: frozenColumns,
                  columnCustomization: columnCustomization, contextMenu: contextMenu, primaryAction: primaryAction, columns: columns())
    }

    /// A table whose selection stays ranges at any size (`RowSelection`): select-all, shift
    /// ranges and inversions on a million rows cost O(1), and counts need no set.
    ///
    /// ```swift
    /// var selection = RowSelection<File.ID>()
    /// ui.table("files", rows: rows, selection: Binding(self, \.selection)) { ... }
    /// ui.text("\(selection.count) selected")
    /// ```
    @inlinable @discardableResult
    public func table<Rows: RandomAccessCollection>(
        _ name: String, rows: Rows, selection: Binding<RowSelection<Rows.Element.ID>>,
        sortOrder: Binding<[KeyComparator<Rows.Element>]>? = nil, isSorting: Bool = false,
        rowHeight: Double? = nil, editMode: Bool = false, frozenColumns: Int = 0,
        columnCustomization: Binding<TableColumnCustomization<Rows.Element>>? = nil,
        contextMenu: ((RowSelection<Rows.Element.ID>) -> Void)? = nil,
        primaryAction: ((RowSelection<Rows.Element.ID>) -> Void)? = nil,
        @TableColumnBuilder<Rows.Element> columns: () -> [TableColumn<Rows.Element>]
    ) -> TableInfo where Rows.Element: Identifiable, Rows.Index == Int {
        tableBody(name, rows: rows, mode: .multiple, selection: .rows(selection), sortOrder: sortOrder, isSorting: isSorting,
                  rowHeight: rowHeight, compactWidth: 360, editMode: editMode, sectionTitles: [], sectionStarts: [], rowMenus: nil,
                  frozenColumns: frozenColumns, columnCustomization: columnCustomization, contextMenu: contextMenu,
                  primaryAction: primaryAction, columns: columns())
    }

    /// A table with single selection (`ID?`), as SwiftUI's `Table(_:selection:)` with an optional binding.
    @inlinable @discardableResult
    public func table<Rows: RandomAccessCollection>(
        _ name: String, rows: Rows, selection: Binding<Rows.Element.ID?>,
        sortOrder: Binding<[KeyComparator<Rows.Element>]>? = nil, isSorting: Bool = false,
        rowHeight: Double? = nil, compactWidth: Double = 360,
        contextMenu: ((RowSelection<Rows.Element.ID>) -> Void)? = nil,
        @TableColumnBuilder<Rows.Element> columns: () -> [TableColumn<Rows.Element>]
    ) -> TableInfo where Rows.Element: Identifiable, Rows.Index == Int {
        let asSet = Binding<Set<Rows.Element.ID>>(get: { selection.wrappedValue.map { [$0] } ?? [] },
                                                   set: { selection.wrappedValue = $0.first })
        return tableBody(name, rows: rows, mode: .single, selection: .set(asSet), sortOrder: sortOrder, isSorting: isSorting,
                         rowHeight: rowHeight, compactWidth: compactWidth, editMode: false, sectionTitles: [], sectionStarts: [],
                         rowMenus: nil, frozenColumns: 0, columnCustomization: nil, contextMenu: contextMenu, primaryAction: nil,
                         columns: columns())
    }

    /// A table of rows grouped in sections whose headers stay pinned while their rows scroll.
    @inlinable @discardableResult
    public func table<Row: Identifiable>(
        _ name: String, sections: [TableSection<Row>], selection: Binding<Set<Row.ID>>? = nil,
        sortOrder: Binding<[KeyComparator<Row>]>? = nil, rowHeight: Double? = nil, compactWidth: Double = 360,
        editMode: Bool = false, contextMenu: ((RowSelection<Row.ID>) -> Void)? = nil,
        @TableColumnBuilder<Row> columns: () -> [TableColumn<Row>]
    ) -> TableInfo {
        let rows = SectionedRows(sections)
        return tableBody(name, rows: rows, mode: selection == nil ? .none : .multiple, selection: selection.map { .set($0) }, sortOrder: sortOrder,
                         isSorting: false, rowHeight: rowHeight, compactWidth: compactWidth, editMode: editMode,
                         sectionTitles: sections.map(\.title), sectionStarts: rows.starts, rowMenus: nil,
                         frozenColumns: 0, columnCustomization: nil, contextMenu: contextMenu, primaryAction: nil, columns: columns())
    }

    /// A table of explicit rows (SwiftUI's `Table(of:columns:rows:)`), for constant data;
    /// a row's own context menu replaces the table's for that row.
    @inlinable @discardableResult
    public func table<Row: Identifiable>(
        _ name: String, of: Row.Type, rows: [TableRow<Row>], selection: Binding<Set<Row.ID>>? = nil,
        rowHeight: Double? = nil, compactWidth: Double = 360, contextMenu: ((RowSelection<Row.ID>) -> Void)? = nil,
        @TableColumnBuilder<Row> columns: () -> [TableColumn<Row>]
    ) -> TableInfo {
        tableBody(name, rows: rows.map(\.value), mode: selection == nil ? .none : .multiple, selection: selection.map { .set($0) },
                  sortOrder: nil,
                  isSorting: false, rowHeight: rowHeight, compactWidth: compactWidth, editMode: false, sectionTitles: [],
                  sectionStarts: [], rowMenus: rows.map(\.contextMenu), frozenColumns: 0, columnCustomization: nil,
                  contextMenu: contextMenu, primaryAction: nil, columns: columns())
    }

    /// The widths the user gave the columns of table `name` (by column ID), to save them.
    public func tableColumnWidths(_ name: String) -> [String: Double] {
        stateBox(WidgetID(parent: id(name), "widths"), [String: Double]()).value
    }

    /// Restores saved column widths of table `name` (applied when the table is next built).
    public func setTableColumnWidths(_ name: String, _ widths: [String: Double]) {
        stateBox(WidgetID(parent: id(name), "widths"), [String: Double]()).value = widths
    }

    /// Scrolls the table `name` so its body's top is `offset` points down.
    public func scrollTable(_ name: String, toOffset offset: Double, horizontal: Double = 0) {
        withID(id(name)) { scrollTo("body", offset: Point(horizontal, offset)) }
    }

    /// Scrolls table `name` (in the current ID scope) to the row whose ID is `id` when it is
    /// next built, as SwiftUI's `ScrollViewReader.scrollTo(_:anchor:)`: its top, centre or bottom
    /// at the viewport's, or (nil) just into view.
    ///
    /// ```swift
    /// if ui.button("Show the newest") { ui.scrollTable("files", toRow: newest.id, anchor: .center) }
    /// ```
    public func scrollTable(_ name: String, toRow id: some Hashable, anchor: ScrollAnchor? = nil) {
        pendingRowScrolls[self.id(name)] = (AnyHashable(id), anchor)
    }

    /// Scrolls table `name` to a cell when it is next built: the row whose ID is `row` as
    /// `scrollTable(_:toRow:anchor:)` does, and across to the column whose ID is `column` (its
    /// title unless it was given one), brought whole into view past the frozen columns.
    ///
    /// ```swift
    /// ui.scrollTable("sales", toRow: match.id, column: "Region", anchor: .center)
    /// ```
    public func scrollTable(_ name: String, toRow row: some Hashable, column: String, anchor: ScrollAnchor? = nil) {
        pendingRowScrolls[self.id(name)] = (AnyHashable(row), anchor)
        pendingColumnScrolls[self.id(name)] = column
    }

    /// The implementation behind every `table` form; inlinable so it is specialized for the
    /// app's row type (unspecialized, generic row access cost ~40 % of a table frame).
    @inlinable
    func tableBody<Rows: RandomAccessCollection>(
        _ name: String, rows: Rows, mode: SelectionMode, selection: SelectionBinding<Rows.Element.ID>?,
        sortOrder: Binding<[KeyComparator<Rows.Element>]>?, isSorting: Bool, rowHeight: Double?, compactWidth: Double,
        editMode: Bool, sectionTitles: [String], sectionStarts: [Int], rowMenus: [(() -> Void)?]?, frozenColumns: Int,
        columnCustomization: Binding<TableColumnCustomization<Rows.Element>>?,
        contextMenu: ((RowSelection<Rows.Element.ID>) -> Void)?, primaryAction: ((RowSelection<Rows.Element.ID>) -> Void)?,
        rowsInSortOrder: Bool = true, columns declaredColumns: [TableColumn<Rows.Element>]
    ) -> TableInfo where Rows.Element: Identifiable, Rows.Index == Int {
        typealias ID = Rows.Element.ID
        let tid = id(name)
        profiler?.beginScope("table", name)
        defer { profiler?.endScope() }
        let available = availableRect
        let rect = allocate(Size(available.width, available.height.isFinite ? available.height : 300),
                            flexibleWidth: true, flexibleHeight: available.height.isFinite)
        let memo = stateBox(WidgetID(parent: tid, "memo"), TableMemo<ID>())
        let userWidths = stateBox(WidgetID(parent: tid, "widths"), [String: Double]())
        selection?.read(into: &memo.value.selection)
        let selectionAsRead = memo.value.selection.selected
        let isCompact = rect.width < compactWidth
        let shown = (columnCustomization?.wrappedValue ?? TableColumnCustomization()).arrange(declaredColumns)
        let columns = isCompact ? Array(shown.prefix(1)) : shown
        let rowH = rowHeight ?? theme.rowHeight
        let headerH = min(theme.rowHeight + 4, rect.height)
        let header = Rect(x: rect.x, y: rect.y, width: rect.width, height: headerH)
        let body = Rect(x: rect.x, y: header.maxY, width: rect.width, height: max(0, rect.height - headerH))
        noteLandmark(.tableHeader, name, header)
        noteLandmark(.tableRows, name, body)
        let checkWidth = editMode ? 32.0 : 0
        let widths = isCompact ? [rect.width - checkWidth]
            : TableColumnLayout.widths(columns, userWidths: userWidths.value, available: rect.width - checkWidth)
        let strip = ColumnStrip(widths: widths, leading: checkWidth, frozen: isCompact ? 0 : frozenColumns)
        let count = rows.count
        let base = rows.startIndex
        let idAt: (Int) -> ID = { rows[base + $0].id }
        let order = RowOrder(rows)
        memo.value.selection.selected.follow(order) // ranges follow their rows through a new sort
        let geometry = RowGeometry(rowHeight: rowH, rowCount: count, sectionStarts: sectionStarts)
        var info = TableInfo(visibleRows: 0..<0, scrollOffset: 0, rowHeight: rowH, bodyRect: body, isCompact: isCompact)

        var keyboardMenuAnchor: Point?
        drawList.pushClip(rect)
        withID(tid) {
            // Body: one interaction for all rows; cell widgets built later win their own clicks.
            let bodyID = id("bodyInput")
            let focused = focusID == bodyID
            let r = interact(bodyID, rect: body, sense: [.click, .focus])
            if editMode && mode == .multiple { twoFingerSelect(bodyID, body: body, geometry: geometry, memo: memo, idAt: idAt) }
            if let request = pendingRowScrolls.removeValue(forKey: tid), let row = Self.firstShownRow(of: request.id, in: rows) {
                let offset = scrollOffset("body")
                let target = ScrollAnchor.offset(showing: Double(geometry.slot(ofRow: row)) * rowH, length: rowH, viewport: body.height,
                                                 current: offset.y, anchor: request.anchor)
                scrollTo("body", offset: Point(offset.x, target))
            }
            if let column = pendingColumnScrolls.removeValue(forKey: tid), let c = columns.firstIndex(where: { $0.id == column }) {
                let offset = scrollOffset("body")
                scrollTo("body", offset: Point(strip.offset(showing: c, current: offset.x, width: body.width), offset.y))
            }
            var offsetX = 0.0
            let axes: ScrollAxes = strip.contentWidth > body.width + 0.5 ? .both : .vertical
            let listed = isAccessibilityEnabled && openAccessibilityTable(
                bodyID, name: name, frame: rect, rows: count, columns: columns.map { ($0.title, id("header." + $0.id)) }, multiple: mode == .multiple,
                headers: strip.visibleColumns(offset: scrollOffset("body").x, width: body.width).map { c in
                    (c, Rect(x: body.x + strip.screenX(c, offset: scrollOffset("body").x), y: header.y, width: widths[c], height: header.height))
                },
                cellText: { r, c in r < count && c < columns.count ? columns[c].text?(rows[base + r]) ?? "" : "" })
            defer { if listed { closeAccessibilityContainer() } }
            virtualScrollView("body", contentSize: Size(max(body.width, strip.contentWidth), geometry.contentHeight), viewport: body,
                              axes: axes) { scroll in
                let offset = scroll.offset.y
                offsetX = axes == .both ? scroll.offset.x : 0
                info.scrollOffset = offset
                info.horizontalOffset = offsetX
                func row(atY y: Double) -> Int? { geometry.row(atContentY: y - body.y + offset) }
                let selectedBefore = memo.value.selection.selected
                // Selection input, applied before drawing so this frame shows it. In edit mode a
                // click toggles like ctrl-click; a click on empty space clears the selection.
                if r.clicked {
                    if let i = row(atY: input.pointer.pressPosition.y) {
                        let modifiers = editMode ? input.modifiers.union(.command) : input.modifiers
                        memo.value.selection.click(index: i, modifiers: modifiers, mode: mode, rows: order)
                    } else if input.modifiers.isEmpty && !editMode {
                        memo.value.selection.selected.removeAll()
                    }
                }
                if r.secondaryClicked {
                    let i = row(atY: input.pointer.position.y)
                    memo.value.menuIDs = memo.value.selection.contextMenuTarget(index: i, mode: mode, rows: order)
                    memo.value.menuRow = i
                }
                if focused && contextMenu != nil && menuKeyPressed() {
                    // The Menu key or Shift+F10: the menu of the current row, under it.
                    let i = memo.value.selection.cursorHint.flatMap { $0 < count ? $0 : nil }
                    memo.value.menuIDs = memo.value.selection.contextMenuTarget(index: i, mode: mode, rows: order)
                    memo.value.menuRow = i
                    let y = body.y + (i.map { geometry.slotOffset(geometry.slot(ofRow: $0)) + rowH } ?? 0) - offset
                    keyboardMenuAnchor = Point(body.x + 24, min(max(y, body.y), body.maxY))
                }
                if r.doubleClicked, let primaryAction, row(atY: input.pointer.pressPosition.y) != nil {
                    primaryAction(memo.value.selection.selected)
                }
                if focused && !hasOpenPopup { // (an open menu takes the keys)
                    let page = Int(body.height / rowH)
                    let reveal = { (target: Int) in
                        let y = body.y + Double(geometry.slot(ofRow: target)) * rowH - offset
                        self.scrollToVisible(Rect(x: body.x, y: y, width: body.width, height: rowH))
                    }
                    for press in input.keys {
                        if press.key == .returnKey, let primaryAction, !memo.value.selection.selected.isEmpty {
                            primaryAction(memo.value.selection.selected)
                        } else if let target = memo.value.selection.key(press.key, modifiers: press.modifiers, mode: mode, pageSize: page,
                                                                        rows: order) {
                            reveal(target)
                        }
                    }
                    let typed = TypeAhead.typedText(input.keys, continuing: !memo.value.typeAhead.typed.isEmpty)
                    if !typed.isEmpty && mode != .none {
                        let prefix = memo.value.typeAhead.add(typed, at: time)
                        // Sorted by a text column: found by binary search on that text.
                        var sortedText: ((Int) -> String)?
                        var reverse = false
                        if !isSorting, rowsInSortOrder, let primary = sortOrder?.wrappedValue.first, case .string(let read) = primary.key {
                            sortedText = { read(rows[base + $0]) }
                            reverse = primary.order == .reverse
                        }
                        // Otherwise the first column with text is scanned (its string sort key, or what it shows).
                        let shownText = columns.lazy.compactMap { column -> ((Rows.Element) -> String)? in
                            if case .string(let read)? = column.sortDescriptor?.key { return read }
                            return column.text
                        }.first
                        if sortedText != nil || shownText != nil,
                           let target = TypeAhead.firstMatch(prefix, count: count, sortedText: sortedText, reverse: reverse,
                                                             after: memo.value.selection.cursorHint,
                                                             text: { i in shownText.map { $0(rows[base + i]) } ?? "" }) {
                            memo.value.selection.click(index: target, modifiers: [], mode: mode, rows: order)
                            reveal(target)
                        }
                    }
                }
                // Editable cells: F2, or a click on the cell of the row already selected alone
                // (once the double-click interval has passed without a second click).
                // A loop, not `contains { … }`: a closure written here is main-actor code, and it
                // checked the executor on every call (a thousand a frame in a wide table).
                var hasEditable = false
                for c in columns.indices where columns[c].onCommit != nil { hasEditable = true; break }
                let editable = hasEditable ? columns.filter { $0.onCommit != nil && $0.text != nil } : []
                if !editable.isEmpty && !editMode {
                    if input.pointer.pressed && !r.clicked { memo.value.pendingEdit = nil }
                    let x = input.pointer.pressPosition.x - body.x
                    if r.clicked, input.pointer.clickCount == 1, input.modifiers.isEmpty, let i = row(atY: input.pointer.pressPosition.y),
                       selectedBefore.count == 1, selectedBefore.contains(row: i, id: idAt(i)), memo.value.editing == nil,
                       let column = strip.visibleColumns(offset: offsetX, width: body.width).first(where: { c in
                           x >= strip.screenX(c, offset: offsetX) && x < strip.screenX(c, offset: offsetX) + widths[c]
                       }).map({ columns[$0] }), column.onCommit != nil, let text = column.text {
                        let due = time + input.settings.doubleClickInterval
                        memo.value.pendingEdit = (TableCellEdit(rowID: idAt(i), row: i, column: column.id, draft: text(rows[base + i])), due)
                        requestRedraw(after: input.settings.doubleClickInterval)
                    } else if r.clicked && input.pointer.clickCount > 1 {
                        memo.value.pendingEdit = nil // it was a double-click
                    }
                    if let pending = memo.value.pendingEdit {
                        if time >= pending.due {
                            memo.value.editing = pending.edit
                            memo.value.pendingEdit = nil
                        } else {
                            requestRedraw(after: pending.due - time)
                        }
                    }
                    if focused, input.keys.contains(where: { $0.key == .f2 }), let i = memo.value.selection.cursorHint, i < count,
                       let text = editable[0].text {
                        memo.value.editing = TableCellEdit(rowID: idAt(i), row: i, column: editable[0].id, draft: text(rows[base + i]))
                    }
                }
                let editor = { (cell: Rect) in
                    guard var edit = memo.value.editing else { return }
                    self.withID("edit") {
                        let id = self.id("field")
                        if edit.needsFocus {
                            // Opens with the text selected: typing replaces it, arrows keep it.
                            self.focus(id)
                            edit.needsFocus = false
                            let field = self.stateBox(id, TextEditState())
                            field.value.anchor = 0
                            field.value.caret = edit.draft.unicodeScalars.count
                        } else {
                            self.finishEditing(&edit, fieldFocused: self.focusID == id)
                        }
                        self.pane(cell) { self.textField("", text: &edit.draft, width: cell.width, id: "field") }
                    }
                    memo.value.editing = edit
                }
                let slots = geometry.visibleSlots(offset: offset, height: body.height)
                let hovered = r.isHovered ? row(atY: input.pointer.position.y) : nil
                let selected = memo.value.selection.selected
                let isSelected: (Int) -> Bool = { selected.contains(row: $0, id: rows[base + $0].id) }
                // Only the columns in view are planned (frozen ones always): a thousand columns
                // cost what the visible dozen do.
                let visible = strip.visibleColumns(offset: offsetX, width: body.width)
                var plans: [TableCellPlan] = []
                plans.reserveCapacity(visible.count)
                // `if let`, not `Optional.map`: a closure written here is main-actor code, and
                // `map` (not isolated) would check the executor on every call.
                for c in visible {
                    let column = columns[c]
                    var text: ((Int) -> String)?, content: ((Int) -> Void)?, accessory: ((Int, Rect) -> Double)?
                    if let format = column.text { text = { format(rows[base + $0]) } }
                    if let build = column.content { content = { build(self, rows[base + $0]) } }
                    if let draw = column.leadingAccessory { accessory = { draw(self, rows[base + $0], $1) } }
                    plans.append(TableCellPlan(x: body.x + strip.screenX(c, offset: offsetX), width: widths[c], alignment: column.alignment,
                                               isFrozen: c < strip.frozen, columnID: column.id, column: c, text: text, content: content,
                                               accessory: accessory))
                    info.visibleColumns.append(column.id)
                }
                let scrolledClip = Rect(x: body.x + strip.frozenWidth, y: body.y, width: max(0, body.width - strip.frozenWidth), height: body.height)
                let editingCell = memo.value.editing.flatMap { edit in
                    // Where the edited row is now (rows may have been re-sorted meanwhile).
                    edit.row < count && idAt(edit.row) == edit.rowID ? (edit.row, edit.column)
                        : Self.firstShownRow(of: AnyHashable(edit.rowID), in: rows).map { ($0, edit.column) }
                }
                if let editingCell { memo.value.editing?.row = editingCell.0 } else { memo.value.editing = nil } // its row is gone
                info.visibleRows = drawRows(slots, geometry: geometry, sectionTitles: sectionTitles, plans: plans, body: body,
                                            scrolledClip: scrolledClip, offset: offset, hovered: hovered, focused: focused,
                                            editMode: editMode, isSelected: selected.isEmpty ? nil : isSelected,
                                            editing: editingCell, editor: editor)
                if listed, mode != .none {
                    // A screen reader's click on a row selects it, as a click does.
                    for i in info.visibleRows where accessibilityActivated(accessibilityRowID(i, in: bodyID)) {
                        memo.value.selection.click(index: i, modifiers: [], mode: mode, rows: order)
                        requestRedraw()
                    }
                }
                // The edit's outcome: commit or cancel, and maybe the next cell (Tab).
                if var edit = memo.value.editing, let outcome = edit.outcome {
                    let row = edit.row
                    if outcome != .cancel, row < count, let column = columns.first(where: { $0.id == edit.column }) {
                        column.onCommit?(rows[base + row], edit.draft)
                    }
                    memo.value.editing = nil
                    focus(bodyID)
                    if outcome == .next {
                        // The next editable cell: to the right in this row, else the first in the next row.
                        let ids = editable.map(\.id)
                        let next = ids.firstIndex(of: edit.column).map { $0 + 1 } ?? ids.count
                        let (nextRow, nextColumn) = next < ids.count ? (row, ids[next]) : (row + 1, ids.first ?? "")
                        if nextRow < count, let text = editable.first(where: { $0.id == nextColumn })?.text {
                            edit = TableCellEdit(rowID: idAt(nextRow), row: nextRow, column: nextColumn, draft: text(rows[base + nextRow]))
                            memo.value.editing = edit
                            memo.value.selection.click(index: nextRow, modifiers: [], mode: mode, rows: order)
                            let y = body.y + Double(geometry.slot(ofRow: nextRow)) * rowH - offset
                            scrollToVisible(Rect(x: body.x, y: y, width: body.width, height: rowH))
                            requestRedraw()
                        }
                    }
                }
            }
            if r.secondaryClicked {
                if let i = memo.value.menuRow, let menus = rowMenus, i < menus.count, menus[i] != nil {
                    openPopup("rowMenu")
                } else if contextMenu != nil {
                    openPopup("menu")
                }
            }
            if let anchor = keyboardMenuAnchor { openPopup("menu", at: anchor) }
            if let contextMenu {
                let ids = memo.value.menuIDs
                popup("menu") { contextMenu(ids) }
            }
            if let menus = rowMenus, let i = memo.value.menuRow, i < menus.count, let menu = menus[i] {
                popup("rowMenu", menu)
            }
            drawHeader(header, columns: columns, declared: declaredColumns, strip: strip, offset: offsetX, sortOrder: sortOrder,
                       isSorting: isSorting, customization: columnCustomization, memo: memo, userWidths: userWidths)
        }
        drawList.popClip()
        selection?.write(&memo.value.selection, readAs: selectionAsRead)
        return info
    }

    /// The first row (in shown order) whose ID is `id`, found by a scan (once per scroll
    /// request: IDs are the app's, in no order the table knows). Rows shown through a
    /// permutation of an array (a `SortedView`, as `TableSorter` hands them out) are read in
    /// the order they are stored, and each match is then found in the permutation: read in
    /// shown order, a million shuffled rows miss the cache on nearly every row.
    @inlinable
    nonisolated static func firstShownRow<Rows: RandomAccessCollection>(of id: AnyHashable, in rows: Rows) -> Int?
    where Rows.Element: Identifiable, Rows.Index == Int {
        // (Past `Int32.max` rows a storage index would not fit the permutation's type: read in shown order.)
        guard let sorted = rows as? SortedView<[Rows.Element]>, let permutation = sorted.permutation,
              sorted.base.count <= Int(Int32.max) else {
            let base = rows.startIndex
            return firstRow(of: id, in: 0..<rows.count) { rows[base + $0].id }
        }
        let stored = sorted.base
        var matches: [Int32] = []
        var next = 0
        while let i = firstRow(of: id, in: next..<stored.count, idAt: { stored[$0].id }) {
            matches.append(Int32(truncatingIfNeeded: i)) // below `Int32.max`: checked above
            next = i + 1
        }
        if matches.count <= 1 { return matches.first.flatMap { permutation.firstIndex(of: $0) } }
        let wanted = Set(matches) // one ID on several rows: the first of them as shown
        return permutation.firstIndex { wanted.contains($0) }
    }

    /// The first row of `rows` whose ID is `id`. An ID of the rows' own type is compared as
    /// that type: boxing every row's ID as well took 3.6 times as long.
    @inlinable
    nonisolated static func firstRow<ID: Hashable>(of id: AnyHashable, in rows: Range<Int>, idAt: (Int) -> ID) -> Int? {
        if let target = id.base as? ID { return rows.first { idAt($0) == target } }
        return rows.first { AnyHashable(idAt($0)) == id }
    }

    /// Edit mode on a touch screen: two fingers dragging over rows select every row they pass.
    @usableFromInline
    func twoFingerSelect<ID: Hashable>(_ bodyID: WidgetID, body: Rect, geometry: RowGeometry, memo: StateBox<TableMemo<ID>>,
                                       idAt: (Int) -> ID) {
        let fingers = input.fingers
        guard fingers.count >= 2 else { memo.value.panSelecting = false; return }
        let center = fingers.values.reduce(Point.zero) { $0 + $1 } * (1 / Double(fingers.count))
        guard memo.value.panSelecting || body.contains(center) else { return }
        memo.value.panSelecting = true
        activeID = bodyID // two fingers select rather than scroll
        let scrollOffset = scrollOffset("body").y
        if let row = geometry.row(atContentY: center.y - body.y + scrollOffset), row < geometry.rowCount {
            memo.value.selection.selected.insert(idAt(row), at: row)
        }
    }

    /// The visible slots: section headers (the top one pinned), row backgrounds (alternating,
    /// hover, selection), edit-mode checkmarks and cells: the scrolled columns clipped to
    /// `scrolledClip`, then the frozen ones. Not generic. Returns the data rows drawn.
    @usableFromInline
    func drawRows(_ slots: Range<Int>, geometry: RowGeometry, sectionTitles: [String], plans: [TableCellPlan], body: Rect,
                  scrolledClip: Rect, offset: Double, hovered: Int?, focused: Bool, editMode: Bool,
                  isSelected: ((Int) -> Bool)?, editing: (row: Int, column: String)?, editor: (Rect) -> Void) -> Range<Int> {
        let rowH = geometry.rowHeight
        var drawn: [(row: Int, rect: Rect, textColor: Color)] = []
        drawn.reserveCapacity(slots.count)
        for slot in slots {
            let rowRect = Rect(x: body.x, y: body.y + Double(slot) * rowH - offset, width: body.width, height: rowH)
            guard case .row(let i) = geometry.slot(slot) else { continue }
            let selected = isSelected?(i) ?? false
            if selected && !editMode {
                drawList.addRect(rowRect, color: focused ? theme.accent : theme.controlPressed)
            } else if i == hovered {
                drawList.addRect(rowRect, color: theme.selection.opacity(0.45))
            } else if i % 2 == 1 {
                drawList.addRect(rowRect, color: theme.control.opacity(0.45))
            }
            if editMode {
                let mark = Point(rowRect.x + 16, rowRect.midY)
                if selected {
                    drawList.addCircle(center: mark, radius: 8, color: theme.accent)
                    drawIcon(.checkmark, in: Rect(x: mark.x - 6, y: mark.y - 6, width: 12, height: 12), color: theme.onAccent)
                } else {
                    drawList.addCircleBorder(center: mark, radius: 8, color: theme.border, thickness: 1.5)
                }
            }
            drawn.append((i, rowRect, selected && focused && !editMode ? theme.onAccent : theme.text))
        }
        let rowNodes = isAccessibilityEnabled ? reportTableRows(drawn.map { ($0.row, $0.rect) }, isSelected: isSelected) : [:]
        var scrolled: [TableCellPlan] = [], frozen: [TableCellPlan] = [] // (a loop: see the plans in `tableBody`)
        for plan in plans {
            if plan.isFrozen { frozen.append(plan) } else { scrolled.append(plan) }
        }
        if !scrolled.isEmpty {
            drawList.pushClip(scrolledClip)
            drawCells(drawn, plans: scrolled, rowHeight: rowH, editing: editing, editor: editor, rowNodes: rowNodes)
            drawList.popClip()
        }
        drawCells(drawn, plans: frozen, rowHeight: rowH, editing: editing, editor: editor, rowNodes: rowNodes)
        if !sectionTitles.isEmpty && !slots.isEmpty {
            drawSectionHeaders(slots, geometry: geometry, titles: sectionTitles, body: body, offset: offset)
        }
        guard let first = drawn.first?.row, let last = drawn.last?.row else { return 0..<0 }
        return first..<(last + 1)
    }

    /// The cells of `plans` in each drawn row: text drawn directly, widgets in their own pane,
    /// the cell being edited by `editor`.
    func drawCells(_ drawn: [(row: Int, rect: Rect, textColor: Color)], plans: [TableCellPlan], rowHeight: Double,
                   editing: (row: Int, column: String)?, editor: (Rect) -> Void, rowNodes: [Int: Int]) {
        let font = self.font
        for (i, rowRect, textColor) in drawn {
            for plan in plans {
                var cell = Rect(x: plan.x, y: rowRect.y, width: plan.width, height: rowHeight)
                let isEditing = editing.map { $0.row == i && $0.column == plan.columnID } ?? false
                let string = isEditing ? nil : plan.text?(i) // read once: for the screen and the screen reader
                let cellNode = rowNodes.isEmpty ? nil : openAccessibilityCell(row: i, column: plan.column, text: string ?? "", frame: cell,
                                                                              rowNode: rowNodes[i])
                defer { if let cellNode { closeAccessibilityCell(cellNode) } }
                if let accessory = plan.accessory {
                    let taken = withID(index: i) { accessory(i, cell) }
                    cell = Rect(x: cell.x + taken, y: cell.y, width: max(0, cell.width - taken), height: cell.height)
                }
                if isEditing {
                    editor(cell)
                } else if let string {
                    font.draw(string, in: cell.insetBy(dx: 8, dy: 0), alignment: plan.alignment, color: textColor, into: &drawList)
                } else if let content = plan.content {
                    withID(index: i) { pane(cell.insetBy(dx: 6, dy: 0)) { content(i) } }
                }
            }
        }
    }

    /// Reads how an edit ends from this frame's keys (Return commits, Escape cancels, Tab
    /// commits and moves on) or from the field losing focus (a click elsewhere commits).
    @usableFromInline
    func finishEditing<ID>(_ edit: inout TableCellEdit<ID>, fieldFocused: Bool) {
        for press in input.keys {
            switch press.key {
            case .returnKey: edit.outcome = .commit
            case .escape: edit.outcome = .cancel
            case .tab:
                edit.outcome = .next
                consumeKey(.tab) // the next cell, not the next widget
            default: continue
            }
            return
        }
        if !fieldFocused { edit.outcome = .commit }
    }

    /// Section headers in their slots, and the top section's header pinned to the body's top
    /// (pushed up by the next header as it arrives).
    func drawSectionHeaders(_ slots: Range<Int>, geometry: RowGeometry, titles: [String], body: Rect, offset: Double) {
        let bold = font(size: theme.fontSize - 1, weight: .bold)
        func headerBar(_ section: Int, y: Double) {
            let rect = Rect(x: body.x, y: y, width: body.width, height: geometry.slotHeight(geometry.sectionStarts[section] + section))
            drawList.addRect(rect, color: theme.surface.mix(theme.background, 0.5))
            drawList.addRect(Rect(x: rect.x, y: rect.maxY - 1, width: rect.width, height: 1), color: theme.separator)
            bold.draw(section < titles.count ? titles[section] : "", in: rect.insetBy(dx: 8, dy: 0), color: theme.secondaryText,
                      into: &drawList)
        }
        for slot in slots {
            if case .header(let s) = geometry.slot(slot) { headerBar(s, y: body.y + geometry.slotOffset(slot) - offset) }
        }
        guard let topSlot = geometry.slot(atContentY: max(0, offset)), let section = geometry.section(containingSlot: topSlot) else { return }
        var y = body.y
        if section + 1 < geometry.sectionStarts.count {
            let nextHeaderY = body.y + geometry.slotOffset(geometry.sectionStarts[section + 1] + section + 1) - offset
            y = min(y, nextHeaderY - geometry.slotHeight(geometry.sectionStarts[section] + section))
        }
        headerBar(section, y: y)
    }

    /// The header: titles that sort on click (shift adds a key), resize dividers, the columns
    /// scrolled with the body (frozen ones stay), headers dragged to reorder customizable
    /// columns, and a context menu listing them with checkmarks to hide or show each. What
    /// needs the row type (the sort order, the customization) is done here, in the app's
    /// specialized code; the drawing in `drawHeaderCells`, which is not generic.
    @inlinable
    func drawHeader<Row, ID>(_ header: Rect, columns: [TableColumn<Row>], declared: [TableColumn<Row>], strip: ColumnStrip,
                             offset: Double, sortOrder: Binding<[KeyComparator<Row>]>?, isSorting: Bool,
                             customization: Binding<TableColumnCustomization<Row>>?, memo: StateBox<TableMemo<ID>>,
                             userWidths: StateBox<[String: Double]>) {
        let sortKeys = (sortOrder?.wrappedValue ?? []).map { (id: $0.id, order: $0.order) }
        let hasCustomizable = customization != nil && declared.contains { $0.customizationID != nil }
        var columnDrag = memo.value.columnDrag, resizeStart = memo.value.resizeStart
        // Only the columns in view: a table of a thousand columns reads a dozen here.
        var visible: [(index: Int, column: HeaderColumn)] = []
        for c in strip.visibleColumns(offset: offset, width: header.width) { visible.append((c, HeaderColumn(columns[c]))) } // (a loop: see `tableBody`)
        let actions = drawHeaderCells(header, visible: visible, strip: strip, offset: offset,
                                      sortKeys: sortKeys, isSorting: isSorting, canReorder: customization != nil,
                                      hasCustomizable: hasCustomizable, columnDrag: &columnDrag,
                                      resizeStart: &resizeStart, userWidths: userWidths)
        memo.value.columnDrag = columnDrag
        memo.value.resizeStart = resizeStart
        if let click = actions.sortClick, let descriptor = columns[click.column].sortDescriptor, let sortOrder {
            sortOrder.wrappedValue = SortOrderRules.click(descriptor, in: sortOrder.wrappedValue, addingKey: click.addingKey)
        }
        guard let customization else { return }
        reorderColumns(header, columns: columns, declared: declared, strip: strip, offset: offset,
                       customization: customization, memo: memo)
        if hasCustomizable { columnsMenu(declared: declared, customization: customization, opening: actions.menuRequested) }
    }

    /// The header's cells of the `visible` columns (with their indices), dividers and sort
    /// cue; returns the click that sorts, if any, and whether the columns menu was asked for.
    @usableFromInline
    func drawHeaderCells(_ header: Rect, visible: [(index: Int, column: HeaderColumn)], strip: ColumnStrip, offset: Double,
                         sortKeys: [(id: String, order: SortDirection)], isSorting: Bool, canReorder: Bool, hasCustomizable: Bool,
                         columnDrag: inout String?, resizeStart: inout Double,
                         userWidths: StateBox<[String: Double]>) -> HeaderActions {
        drawList.addRect(header, color: theme.surface)
        drawList.addRect(Rect(x: header.x, y: header.maxY - 1, width: header.width, height: 1), color: theme.separator)
        let bold = font(size: theme.fontSize - 1, weight: .bold)
        let scrolledClip = Rect(x: header.x + strip.frozenWidth, y: header.y, width: max(0, header.width - strip.frozenWidth), height: header.height)
        let dragging = columnDrag
        var dividers: [Interaction] = []
        var actions = HeaderActions()
        // Past the last column, a right-click opens the columns menu too (registered first: the cells are on top).
        actions.menuRequested = hasCustomizable && interact(id("header.empty"), rect: header).secondaryClicked
        for pass in [false, true] { // scrolled columns (clipped), then frozen ones over them
            if !pass { drawList.pushClip(scrolledClip) }
            for (c, column) in visible where (c < strip.frozen) == pass {
                let width = strip.starts[c + 1] - strip.starts[c]
                let cell = Rect(x: header.x + strip.screenX(c, offset: offset), y: header.y, width: width, height: header.height - 1)
                let r = interact(id("header." + column.id), rect: cell)
                if r.secondaryClicked { actions.menuRequested = true }
                if r.isActive && input.pointer.isDragging && canReorder, let cid = column.customizationID, dragging == nil {
                    columnDrag = cid // a drag past the slop moves the column instead of sorting
                }
                if pass { drawList.addRect(cell, color: theme.surface) }
                if r.isHovered && column.isSortable { drawList.addRect(cell, color: theme.control.opacity(0.6)) }
                if column.customizationID != nil && column.customizationID == dragging {
                    drawList.addRect(cell, color: theme.accent.opacity(0.18))
                }
                if r.clicked && columnDrag == nil && column.isSortable {
                    actions.sortClick = (c, input.modifiers.contains(.shift))
                }
                var textRect = cell.insetBy(dx: 8, dy: 0)
                if let rank = sortKeys.firstIndex(where: { $0.id == column.id }) {
                    // Direction chevron, and the key's priority when it is not the primary one.
                    let icon: Icon = sortKeys[rank].order == .forward ? .chevronUp : .chevronDown
                    let iconRect = Rect(x: cell.maxX - 20, y: cell.midY - 7, width: 14, height: 14)
                    drawIcon(icon, in: iconRect, color: rank == 0 ? theme.accent : theme.secondaryText)
                    if rank > 0 {
                        font(size: 10).draw("\(rank + 1)", at: Point(iconRect.x - 8, cell.midY - 7), color: theme.secondaryText, into: &drawList)
                    }
                    textRect.width -= 24
                }
                bold.draw(column.title, in: textRect, alignment: column.alignment, color: theme.secondaryText, into: &drawList)
                // Divider: drag to resize the column on its left.
                let divider = Rect(x: cell.maxX - 1, y: cell.y + 5, width: 1, height: cell.height - 10)
                drawList.addRect(divider, color: theme.separator)
                if let range = column.resizable {
                    let handle = splitterHandle(id("divider." + column.id), splitter: divider, horizontal: true, styling: SplitStyling())
                    if handle.pressed { resizeStart = width }
                    if handle.isActive && input.pointer.isDragging {
                        let newWidth = resizeStart + input.pointer.position.x - input.pointer.pressPosition.x
                        userWidths.value[column.id] = min(max(newWidth, range.min), range.max)
                    }
                    if handle.doubleClicked { userWidths.value[column.id] = nil }
                    dividers.append(handle)
                }
            }
            if !pass { drawList.popClip() }
        }
        // A divider's reach overlaps the next header cell: claim presses after every cell.
        for handle in dividers { claimSplitterPress(handle) }
        if isSorting {
            requestRedraw() // the dots pulse; the sort's end wakes the loop by itself
            // Progress cue: a pulsing dot train while a background sort runs.
            let phase = time.truncatingRemainder(dividingBy: 0.9) / 0.9
            for k in 0..<3 {
                let alpha = 0.3 + 0.7 * max(0, 1 - abs(phase * 3 - Double(k) - 0.5))
                drawList.addCircle(center: Point(header.maxX - 40 + Double(k) * 10, header.midY), radius: 3, color: theme.accent.opacity(alpha))
            }
        }
        return actions
    }

    /// The header's context menu: the customizable columns with checkmarks, to hide or show each.
    @usableFromInline
    func columnsMenu<Row>(declared: [TableColumn<Row>], customization: Binding<TableColumnCustomization<Row>>, opening: Bool) {
        if opening { openPopup("columns") }
        popup("columns") {
            let customizable = declared.filter { $0.customizationID != nil }
            let shownCount = customizable.filter { customization.wrappedValue.isVisible($0) }.count
            for column in customizable {
                let isShown = customization.wrappedValue.isVisible(column)
                // The last shown column stays: a table needs one.
                if menuItem(column.title, icon: isShown ? .checkmark : nil), !(isShown && shownCount == 1) {
                    customization.wrappedValue[visibility: column.customizationID!] = isShown ? .hidden : .visible
                }
            }
        }
    }

    /// While a header is dragged: a marker where it would land; on release, the move.
    @usableFromInline
    func reorderColumns<Row, ID>(_ header: Rect, columns: [TableColumn<Row>], declared: [TableColumn<Row>], strip: ColumnStrip,
                                 offset: Double, customization: Binding<TableColumnCustomization<Row>>, memo: StateBox<TableMemo<ID>>) {
        guard let dragged = memo.value.columnDrag else { return }
        // The customizable column whose middle is right of the pointer takes the dragged one before it.
        let x = input.pointer.position.x - header.x
        let target = columns.indices.first { c in
            columns[c].customizationID != nil && strip.screenX(c, offset: offset) + (strip.starts[c + 1] - strip.starts[c]) / 2 > x
        }
        let markerX = header.x + (target.map { strip.screenX($0, offset: offset) } ?? min(strip.contentWidth - offset, header.width))
        drawList.addRect(Rect(x: markerX - 1, y: header.y + 2, width: 3, height: header.height - 4), color: theme.accent)
        requestRedraw()
        guard !input.pointer.isDown else { return }
        memo.value.columnDrag = nil
        let declaredIDs = declared.compactMap(\.customizationID)
        customization.wrappedValue.move(dragged, before: target.flatMap { columns[$0].customizationID }, declared: declaredIDs)
    }
}
