import Render2D
import Imaging
import Profiling

// `@inlinable` in the table's files is measured, not habit: it lets the app's module
// specialize the table for its row type. Unspecialized, generic row access cost about 40 % of
// a table frame, a third of a 1,000-column frame went to generic metadata lookups, and making
// `arrange` inlinable took `bench table --columns 1000` from 3.20 M to 1.79 M instructions a
// frame (callgrind). The figures it keeps: `bench table` work p50 and `bench table --columns 1000`.

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
    init(
        title: String, id: String?, text: ((Row) -> String)?, content: (@MainActor (UI, Row) -> Void)?,
        sort: SortKey<Row>?, sortInPlace: KeyInPlace? = nil
    ) {
        self.title = title
        self.id = id ?? title
        self.text = text
        self.content = content
        self.sortDescriptor = sort.map {
            KeyComparator(id: id ?? title, order: .forward, key: $0, keyInPlace: sortInPlace)
        }
    }

    /// A sortable text column showing a string property.
    @inlinable public init(_ title: String, id: String? = nil, value: KeyPath<Row, String> & Sendable) {
        let reader = KeyPathReader(value)
        self.init(
            title: title, id: id, text: { reader.read($0) }, content: nil, sort: .string { reader.read($0) },
            sortInPlace: reader.inPlace { .string($0) })
    }

    /// A column sorted by an integer property and shown as `text` formats it.
    @inlinable public init<Value: BinaryInteger & Sendable>(
        _ title: String, id: String? = nil, value: KeyPath<Row, Value> & Sendable,
        text: @escaping (Row) -> String
    ) {
        let reader = KeyPathReader(value)
        self.init(
            title: title, id: id, text: text, content: nil, sort: .integer { Int64(clamping: reader.read($0)) },
            sortInPlace: reader.inPlace { read in .integer { Int64(clamping: read($0)) } })
    }

    /// A column sorted by a `Double` property and shown as `text` formats it.
    @inlinable public init(
        _ title: String, id: String? = nil, value: KeyPath<Row, Double> & Sendable, text: @escaping (Row) -> String
    ) {
        let reader = KeyPathReader(value)
        self.init(
            title: title, id: id, text: text, content: nil, sort: .double { reader.read($0) },
            sortInPlace: reader.inPlace { .double($0) })
    }

    /// A column sorted by any `Comparable` property, with custom cell content.
    @inlinable public init<Value: Comparable & Sendable>(
        _ title: String, id: String? = nil, value: KeyPath<Row, Value> & Sendable,
        content: @escaping @MainActor (UI, Row) -> Void
    ) {
        self.init(
            title: title, id: id, text: nil, content: content,
            sort: KeyComparator(comparable: value, id: id ?? title).key)
    }

    /// A column of non-`Comparable` values, sorted by `sortUsing`, with custom cell content.
    @inlinable public init(
        _ title: String, id: String? = nil, sortUsing key: SortKey<Row>, content: @escaping @MainActor (UI, Row) -> Void
    ) {
        self.init(title: title, id: id, text: nil, content: content, sort: key)
    }

    /// A column sorted by `sortUsing`, showing `text`: for a key that is not a stored property
    /// (a key path to a computed property is projected at run time, hundreds of instructions
    /// a cell).
    ///
    /// ```swift
    /// TableColumn("Kind", sortUsing: .string { $0.kind }) { $0.kind }
    /// ```
    @inlinable public init(
        _ title: String, id: String? = nil, sortUsing key: SortKey<Row>, text: @escaping (Row) -> String
    ) {
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
        with {
            $0.storedWidthRule = .flexible(
                min: min, ideal: Swift.max(min, ideal ?? Swift.max(min, 140)), max: Swift.max(min, max))
        }
    }

    /// Lets the user hide and move the column, under this stable name in the table's
    /// `TableColumnCustomization` (SwiftUI's `customizationID(_:)`).
    @inlinable public func customizationID(_ id: String) -> TableColumn { with { $0.storedCustomizationID = id } }

    /// Whether the column shows until the user chooses (`.hidden`: listed in the header's
    /// menu, unchecked). SwiftUI's `defaultVisibility(_:)`.
    @inlinable public func defaultVisibility(_ visibility: Visibility) -> TableColumn {
        with { $0.storedDefaultVisibility = visibility }
    }

    /// Lets the user edit the column's text in place: F2 (or a click on the cell of the row
    /// already selected, as in Finder) opens a text field in the cell; Return commits, calling
    /// `commit` with the row and the new text, Escape cancels, Tab commits and moves to the next
    /// editable cell, a click elsewhere commits. For columns that show text.
    ///
    /// ```swift
    /// TableColumn("Name", value: \File.name).editable { file, name in rename(file, to: name) }
    /// ```
    @inlinable public func editable(_ commit: @escaping (Row, String) -> Void) -> TableColumn {
        with { $0.onCommit = commit }
    }

    /// Where cell text sits (numbers read best trailing).
    @inlinable public func alignment(_ alignment: TextAlignment) -> TableColumn {
        with { $0.storedAlignment = alignment }
    }

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
    public init(_ title: String, rows: [Row]) {
        self.title = title
        self.rows = rows
    }
}

/// A row given explicitly (SwiftUI's `TableRow`), optionally with its own context menu.
public struct TableRow<Row> {
    /// The row's value.
    public var value: Row
    @usableFromInline let contextMenu: (() -> Void)?
    /// The row `value`, with its own context menu if given.
    public init(_ value: Row, contextMenu: (() -> Void)? = nil) {
        self.value = value
        self.contextMenu = contextMenu
    }
}

/// The rows of several sections as one collection (no copying; binary search per access).
@usableFromInline package struct SectionedRows<Row>: RandomAccessCollection {
    @usableFromInline let sections: [TableSection<Row>]
    /// The global index of each section's first row.
    @usableFromInline package let starts: [Int]
    @usableFromInline package let endIndex: Int
    @usableFromInline package var startIndex: Int { 0 }
    /// The rows of `sections`, one after another.
    @usableFromInline package init(_ sections: [TableSection<Row>]) {
        self.sections = sections
        var starts: [Int] = [], total = 0
        for section in sections {
            starts.append(total)
            total += section.rows.count
        }
        self.starts = starts
        endIndex = total
    }
    @inlinable package subscript(position: Int) -> Row {
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
        tableBody(
            TableRequest(
                name: name, rows: rows, columns: columns(), mode: selection == nil ? .none : .multiple,
                selection: selection.map { .set($0) }, sortOrder: sortOrder, isSorting: isSorting, rowHeight: rowHeight,
                compactWidth: compactWidth, editMode: editMode, frozenColumns: frozenColumns,
                columnCustomization: columnCustomization, contextMenu: contextMenu, primaryAction: primaryAction))
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
        tableBody(
            TableRequest(
                name: name, rows: rows, columns: columns(), mode: .multiple, selection: .rows(selection),
                sortOrder: sortOrder, isSorting: isSorting, rowHeight: rowHeight, editMode: editMode,
                frozenColumns: frozenColumns, columnCustomization: columnCustomization, contextMenu: contextMenu,
                primaryAction: primaryAction))
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
        let asSet = Binding<Set<Rows.Element.ID>>(
            get: { selection.wrappedValue.map { [$0] } ?? [] },
            set: { selection.wrappedValue = $0.first })
        return tableBody(
            TableRequest(
                name: name, rows: rows, columns: columns(), mode: .single, selection: .set(asSet),
                sortOrder: sortOrder, isSorting: isSorting, rowHeight: rowHeight, compactWidth: compactWidth,
                contextMenu: contextMenu))
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
        return tableBody(
            TableRequest(
                name: name, rows: rows, columns: columns(), mode: selection == nil ? .none : .multiple,
                selection: selection.map { .set($0) }, sortOrder: sortOrder, rowHeight: rowHeight,
                compactWidth: compactWidth, editMode: editMode, sections: (sections.map(\.title), rows.starts),
                contextMenu: contextMenu))
    }

    /// A table of explicit rows (SwiftUI's `Table(of:columns:rows:)`), for constant data;
    /// a row's own context menu replaces the table's for that row.
    @inlinable @discardableResult
    public func table<Row: Identifiable>(
        _ name: String, of: Row.Type, rows: [TableRow<Row>], selection: Binding<Set<Row.ID>>? = nil,
        rowHeight: Double? = nil, compactWidth: Double = 360, contextMenu: ((RowSelection<Row.ID>) -> Void)? = nil,
        @TableColumnBuilder<Row> columns: () -> [TableColumn<Row>]
    ) -> TableInfo {
        tableBody(
            TableRequest(
                name: name, rows: rows.map(\.value), columns: columns(), mode: selection == nil ? .none : .multiple,
                selection: selection.map { .set($0) }, rowHeight: rowHeight, compactWidth: compactWidth,
                rowMenus: rows.map(\.contextMenu), contextMenu: contextMenu))
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
}
