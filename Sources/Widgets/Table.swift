import Render2D

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
    public enum Width: Sendable, Equatable {
        case fixed(Double)
        case flexible(min: Double, ideal: Double, max: Double)
    }

    public let title: String
    /// Identifies the column in sort orders and saved widths (the title unless given).
    public let id: String
    @usableFromInline let text: ((Row) -> String)?
    @usableFromInline let content: (@MainActor (UI, Row) -> Void)?
    /// The descriptor a header click puts in the sort order; nil = not sortable.
    public let sortDescriptor: SortDescriptor<Row>?
    public internal(set) var widthRule = Width.flexible(min: 40, ideal: 140, max: .infinity)
    public internal(set) var alignment = TextAlignment.leading

    @usableFromInline
    init(title: String, id: String?, text: ((Row) -> String)?, content: (@MainActor (UI, Row) -> Void)?,
         sort: SortKey<Row>?) {
        self.title = title
        self.id = id ?? title
        self.text = text
        self.content = content
        self.sortDescriptor = sort.map { SortDescriptor(id: id ?? title, key: $0) }
    }

    /// A sortable text column showing a string property.
    @inlinable public init(_ title: String, id: String? = nil, value: KeyPath<Row, String> & Sendable) {
        self.init(title: title, id: id, text: { $0[keyPath: value] }, content: nil, sort: .string { $0[keyPath: value] })
    }

    /// A column sorted by an integer property and shown as `text` formats it.
    @inlinable public init<Value: BinaryInteger & Sendable>(_ title: String, id: String? = nil, value: KeyPath<Row, Value> & Sendable,
                                                 text: @escaping (Row) -> String) {
        self.init(title: title, id: id, text: text, content: nil, sort: .integer { Int64(clamping: $0[keyPath: value]) })
    }

    /// A column sorted by a `Double` property and shown as `text` formats it.
    @inlinable public init(_ title: String, id: String? = nil, value: KeyPath<Row, Double> & Sendable, text: @escaping (Row) -> String) {
        self.init(title: title, id: id, text: text, content: nil, sort: .double { $0[keyPath: value] })
    }

    /// A column sorted by any `Comparable` property, with custom cell content.
    @inlinable public init<Value: Comparable & Sendable>(_ title: String, id: String? = nil, value: KeyPath<Row, Value> & Sendable,
                                              content: @escaping @MainActor (UI, Row) -> Void) {
        self.init(title: title, id: id, text: nil, content: content,
                  sort: SortDescriptor(comparable: value, id: id ?? title).key)
    }

    /// A column of non-`Comparable` values, sorted by `sortUsing`, with custom cell content.
    @inlinable public init(_ title: String, id: String? = nil, sortUsing key: SortKey<Row>, content: @escaping @MainActor (UI, Row) -> Void) {
        self.init(title: title, id: id, text: nil, content: content, sort: key)
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
    public func width(_ width: Double) -> TableColumn {
        var copy = self
        copy.widthRule = .fixed(max(0, width))
        return copy
    }

    /// A width the user may resize between `min` and `max`, starting at `ideal`.
    public func width(min: Double = 40, ideal: Double? = nil, max: Double = .infinity) -> TableColumn {
        var copy = self
        copy.widthRule = .flexible(min: min, ideal: Swift.max(min, ideal ?? Swift.max(min, 140)), max: Swift.max(min, max))
        return copy
    }

    /// Where cell text sits (numbers read best trailing).
    public func alignment(_ alignment: TextAlignment) -> TableColumn {
        var copy = self
        copy.alignment = alignment
        return copy
    }
}

/// Builds the column list of a table from `TableColumn` expressions, `if` and `for`.
@resultBuilder
public enum TableColumnBuilder<Row> {
    public static func buildExpression(_ column: TableColumn<Row>) -> [TableColumn<Row>] { [column] }
    public static func buildBlock(_ parts: [TableColumn<Row>]...) -> [TableColumn<Row>] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [TableColumn<Row>]?) -> [TableColumn<Row>] { part ?? [] }
    public static func buildEither(first: [TableColumn<Row>]) -> [TableColumn<Row>] { first }
    public static func buildEither(second: [TableColumn<Row>]) -> [TableColumn<Row>] { second }
    public static func buildArray(_ parts: [[TableColumn<Row>]]) -> [TableColumn<Row>] { parts.flatMap { $0 } }
}

/// Pure column-width math: user widths where set, ideal otherwise, and the flexible
/// columns share what is left of `available` (up to their maximum).
public enum TableColumnLayout {
    public static func widths<Row>(_ columns: [TableColumn<Row>], userWidths: [String: Double], available: Double) -> [Double] {
        var widths = columns.map { column -> Double in
            switch column.widthRule {
            case .fixed(let w): return w
            case .flexible(let lo, let ideal, let hi): return min(max(userWidths[column.id] ?? ideal, lo), hi)
            }
        }
        // Spare room goes to flexible columns the user has not sized, left to right up to their maximum.
        var spare = available - widths.reduce(0, +)
        if spare > 0 {
            for (i, column) in columns.enumerated() where spare > 0 && userWidths[column.id] == nil {
                if case .flexible(_, _, let hi) = column.widthRule {
                    let grow = min(spare, hi - widths[i])
                    widths[i] += grow
                    spare -= grow
                }
            }
        }
        return widths
    }
}

/// A column resolved for one frame: where it is and how a row's cell is drawn, with the
/// row type erased so the per-cell loop runs no generic code (unspecialized generics cost
/// a metadata lookup per cell).
@usableFromInline
struct TableCellPlan {
    let x: Double
    let width: Double
    let alignment: TextAlignment
    let text: ((Int) -> String)?
    let content: ((Int) -> Void)?

    @usableFromInline
    init(x: Double, width: Double, alignment: TextAlignment, text: ((Int) -> String)?, content: ((Int) -> Void)?) {
        self.x = x; self.width = width; self.alignment = alignment; self.text = text; self.content = content
    }
}

/// Table state kept in the UI store.
@usableFromInline
struct TableMemo<ID: Hashable> {
    @usableFromInline var selection = SelectionModel<ID>()
    @usableFromInline var userWidths: [String: Double] = [:]
    @usableFromInline var menuIDs: Set<ID> = []
    @usableFromInline var resizeStart = 0.0
    @usableFromInline init() {}
}

/// What the table showed this frame.
public struct TableInfo: Sendable {
    /// Indices of the rows built this frame.
    public var visibleRows: Range<Int>
    public var scrollOffset: Double
    public var rowHeight: Double
    /// The body's rectangle (below the header).
    public var bodyRect: Rect
    /// True when the compact (one column) layout was used.
    public var isCompact: Bool

    public init(visibleRows: Range<Int>, scrollOffset: Double, rowHeight: Double, bodyRect: Rect, isCompact: Bool) {
        self.visibleRows = visibleRows
        self.scrollOffset = scrollOffset
        self.rowHeight = rowHeight
        self.bodyRect = bodyRect
        self.isCompact = isCompact
    }
}

extension UI {
    /// SwiftUI's `Table` in immediate mode: a pinned header whose clicks edit `sortOrder`
    /// (the app sorts; `TableSorter` helps), virtualized rows (only the visible ones are
    /// built, so a million rows cost what forty do), selection by ID with mouse, keyboard
    /// and touch, a context menu for the selection, resizable columns, and a one-column
    /// layout below `compactWidth`.
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
        sortOrder: Binding<[SortDescriptor<Rows.Element>]>? = nil, isSorting: Bool = false,
        rowHeight: Double? = nil, compactWidth: Double = 360,
        contextMenu: ((Set<Rows.Element.ID>) -> Void)? = nil,
        @TableColumnBuilder<Rows.Element> columns: () -> [TableColumn<Rows.Element>]
    ) -> TableInfo where Rows.Element: Identifiable, Rows.Index == Int {
        tableBody(name, rows: rows, mode: selection == nil ? .none : .multiple, selection: selection, sortOrder: sortOrder,
                  isSorting: isSorting, rowHeight: rowHeight, compactWidth: compactWidth, contextMenu: contextMenu,
                  columns: columns())
    }

    /// A table with single selection (`ID?`), as SwiftUI's `Table(_:selection:)` with an optional binding.
    @inlinable @discardableResult
    public func table<Rows: RandomAccessCollection>(
        _ name: String, rows: Rows, selection: Binding<Rows.Element.ID?>,
        sortOrder: Binding<[SortDescriptor<Rows.Element>]>? = nil, isSorting: Bool = false,
        rowHeight: Double? = nil, compactWidth: Double = 360,
        contextMenu: ((Set<Rows.Element.ID>) -> Void)? = nil,
        @TableColumnBuilder<Rows.Element> columns: () -> [TableColumn<Rows.Element>]
    ) -> TableInfo where Rows.Element: Identifiable, Rows.Index == Int {
        let asSet = Binding<Set<Rows.Element.ID>>(get: { selection.wrappedValue.map { [$0] } ?? [] },
                                                   set: { selection.wrappedValue = $0.first })
        return tableBody(name, rows: rows, mode: .single, selection: asSet, sortOrder: sortOrder, isSorting: isSorting,
                         rowHeight: rowHeight, compactWidth: compactWidth, contextMenu: contextMenu, columns: columns())
    }

    /// Scrolls the table `name` so its body's top is `offset` points down.
    public func scrollTable(_ name: String, toOffset offset: Double) {
        withID(id(name)) { scrollTo("body", offset: Point(0, offset)) }
    }

    /// The implementation of both `table` forms; inlinable so it is specialized for the
    /// app's row type (unspecialized, generic row access cost ~40 % of a table frame).
    @inlinable
    func tableBody<Rows: RandomAccessCollection>(
        _ name: String, rows: Rows, mode: SelectionMode, selection: Binding<Set<Rows.Element.ID>>?,
        sortOrder: Binding<[SortDescriptor<Rows.Element>]>?, isSorting: Bool, rowHeight: Double?, compactWidth: Double,
        contextMenu: ((Set<Rows.Element.ID>) -> Void)?, columns allColumns: [TableColumn<Rows.Element>]
    ) -> TableInfo where Rows.Element: Identifiable, Rows.Index == Int {
        typealias ID = Rows.Element.ID
        let tid = id(name)
        let available = availableRect
        let rect = allocate(Size(available.width, available.height.isFinite ? available.height : 300),
                            flexibleWidth: true, flexibleHeight: available.height.isFinite)
        let memo = stateBox(WidgetID(parent: tid, "memo"), TableMemo<ID>())
        if let selection { memo.value.selection.selected = selection.wrappedValue }
        let isCompact = rect.width < compactWidth
        let columns = isCompact ? Array(allColumns.prefix(1)) : allColumns
        let rowH = rowHeight ?? theme.rowHeight
        let headerH = min(theme.rowHeight + 4, rect.height)
        let header = Rect(x: rect.x, y: rect.y, width: rect.width, height: headerH)
        let body = Rect(x: rect.x, y: header.maxY, width: rect.width, height: max(0, rect.height - headerH))
        let widths = isCompact ? [rect.width] : TableColumnLayout.widths(columns, userWidths: memo.value.userWidths, available: rect.width)
        let count = rows.count
        let base = rows.startIndex
        let idAt: (Int) -> ID = { rows[base + $0].id }
        var info = TableInfo(visibleRows: 0..<0, scrollOffset: 0, rowHeight: rowH, bodyRect: body, isCompact: isCompact)

        drawList.pushClip(rect)
        withID(tid) {
            // Body: one interaction for all rows; cell widgets built later win their own clicks.
            let bodyID = id("bodyInput")
            let focused = focusID == bodyID
            let r = interact(bodyID, rect: body, sense: [.click, .focus])
            virtualScrollView("body", contentSize: Size(rect.width, Double(count) * rowH), viewport: body) { scroll in
                let offset = scroll.offset.y
                info.scrollOffset = offset
                func rowIndex(atY y: Double) -> Int? {
                    let i = Int(((y - body.y + offset) / rowH).rounded(.down))
                    return i >= 0 && i < count ? i : nil
                }
                // Selection input, applied before drawing so this frame shows it. A click on
                // empty space below the rows clears the selection.
                if r.clicked {
                    if let i = rowIndex(atY: input.pointer.pressPosition.y) {
                        memo.value.selection.click(index: i, modifiers: input.modifiers, mode: mode, count: count, idAt: idAt)
                    } else if input.modifiers.isEmpty {
                        memo.value.selection.selected = []
                    }
                }
                if r.secondaryClicked {
                    let i = rowIndex(atY: input.pointer.position.y)
                    memo.value.menuIDs = memo.value.selection.contextMenuTarget(index: i, mode: mode, count: count, idAt: idAt)
                }
                if focused {
                    let page = Int(body.height / rowH)
                    for press in input.keys {
                        if let target = memo.value.selection.key(press.key, modifiers: press.modifiers, mode: mode, pageSize: page,
                                                                 count: count, idAt: idAt) {
                            scrollToVisible(Rect(x: body.x, y: body.y + Double(target) * rowH - offset, width: body.width, height: rowH))
                        }
                    }
                }
                // Visible rows, plus one of overscan each side.
                let first = max(0, Int((offset / rowH).rounded(.down)) - 1)
                let last = min(count, Int(((offset + body.height) / rowH).rounded(.up)) + 1)
                info.visibleRows = first..<max(first, last)
                let hovered = r.isHovered ? rowIndex(atY: input.pointer.position.y) : nil
                let selectedSet = memo.value.selection.selected
                let isSelected: (Int) -> Bool = { selectedSet.contains(rows[base + $0].id) }
                var plans: [TableCellPlan] = []
                plans.reserveCapacity(columns.count)
                var x = body.x
                for c in columns.indices {
                    let column = columns[c]
                    let text = column.text.map { format in { (i: Int) in format(rows[base + i]) } }
                    let content = column.content.map { build in { (i: Int) in build(self, rows[base + i]) } }
                    plans.append(TableCellPlan(x: x, width: widths[c], alignment: column.alignment, text: text, content: content))
                    x += widths[c]
                }
                drawRows(info.visibleRows, plans: plans, body: body, offset: offset, rowHeight: rowH, hovered: hovered,
                         focused: focused, isSelected: selectedSet.isEmpty ? nil : isSelected)
            }
            if r.secondaryClicked, contextMenu != nil { openPopup("menu") }
            if let contextMenu {
                let ids = memo.value.menuIDs
                popup("menu") { contextMenu(ids) }
            }
            drawHeader(header, columns: columns, widths: widths, sortOrder: sortOrder, isSorting: isSorting, memo: memo)
        }
        drawList.popClip()
        if let selection, selection.wrappedValue != memo.value.selection.selected {
            selection.wrappedValue = memo.value.selection.selected
        }
        return info
    }

    /// The visible rows: backgrounds (alternating, hover, selection) and cells. Not generic.
    @usableFromInline
    func drawRows(_ visible: Range<Int>, plans: [TableCellPlan], body: Rect, offset: Double, rowHeight rowH: Double,
                          hovered: Int?, focused: Bool, isSelected: ((Int) -> Bool)?) {
        let font = self.font
        for i in visible {
            let rowRect = Rect(x: body.x, y: body.y + Double(i) * rowH - offset, width: body.width, height: rowH)
            let selected = isSelected?(i) ?? false
            if selected {
                drawList.addRect(rowRect, color: focused ? theme.accent : theme.controlPressed)
            } else if i == hovered {
                drawList.addRect(rowRect, color: theme.selection.opacity(0.45))
            } else if i % 2 == 1 {
                drawList.addRect(rowRect, color: theme.control.opacity(0.45))
            }
            let textColor = selected && focused ? theme.onAccent : theme.text
            for plan in plans {
                let cell = Rect(x: plan.x, y: rowRect.y, width: plan.width, height: rowH)
                if let text = plan.text {
                    font.draw(text(i), in: cell.insetBy(dx: 8, dy: 0), alignment: plan.alignment, color: textColor, into: &drawList)
                } else if let content = plan.content {
                    withID(index: i) { pane(cell.insetBy(dx: 6, dy: 0)) { content(i) } }
                }
            }
        }
    }

    @usableFromInline
    func drawHeader<Row, ID>(_ header: Rect, columns: [TableColumn<Row>], widths: [Double],
                                     sortOrder: Binding<[SortDescriptor<Row>]>?, isSorting: Bool, memo: StateBox<TableMemo<ID>>) {
        drawList.addRect(header, color: theme.surface)
        drawList.addRect(Rect(x: header.x, y: header.maxY - 1, width: header.width, height: 1), color: theme.separator)
        let bold = font(size: theme.fontSize - 1, weight: .bold)
        let order = sortOrder?.wrappedValue ?? []
        var x = header.x
        for (c, column) in columns.enumerated() {
            let cell = Rect(x: x, y: header.y, width: widths[c], height: header.height - 1)
            x += widths[c]
            let r = interact(id("header." + column.id), rect: cell)
            if r.isHovered && column.sortDescriptor != nil { drawList.addRect(cell, color: theme.control.opacity(0.6)) }
            if r.clicked, let descriptor = column.sortDescriptor, let sortOrder {
                sortOrder.wrappedValue = SortOrderRules.click(descriptor, in: sortOrder.wrappedValue, addingKey: input.modifiers.contains(.shift))
            }
            var textRect = cell.insetBy(dx: 8, dy: 0)
            if let rank = order.firstIndex(where: { $0.id == column.id }) {
                // Direction chevron, and the key's priority when it is not the primary one.
                let icon: Icon = order[rank].order == .forward ? .chevronUp : .chevronDown
                let iconRect = Rect(x: cell.maxX - 20, y: cell.midY - 7, width: 14, height: 14)
                icon.draw(in: iconRect, color: rank == 0 ? theme.accent : theme.secondaryText, into: &drawList)
                if rank > 0 {
                    font(size: 10).draw("\(rank + 1)", at: Point(iconRect.x - 8, cell.midY - 7), color: theme.secondaryText, into: &drawList)
                }
                textRect.width -= 24
            }
            bold.draw(column.title, in: textRect, alignment: column.alignment, color: theme.secondaryText, into: &drawList)
            // Divider: drag to resize the column on its left.
            let divider = Rect(x: cell.maxX - 1, y: cell.y + 5, width: 1, height: cell.height - 10)
            drawList.addRect(divider, color: theme.separator)
            if case .flexible(let lo, _, let hi) = column.widthRule {
                let handle = splitterHandle(id("divider." + column.id), splitter: divider, horizontal: true, styling: SplitStyling())
                if handle.pressed { memo.value.resizeStart = widths[c] }
                if handle.isActive && input.pointer.isDragging {
                    let width = memo.value.resizeStart + input.pointer.position.x - input.pointer.pressPosition.x
                    memo.value.userWidths[column.id] = min(max(width, lo), hi)
                }
                if handle.doubleClicked { memo.value.userWidths[column.id] = nil }
                claimSplitterPress(handle)
            }
        }
        if isSorting {
            // Progress cue: a pulsing dot train while a background sort runs.
            let phase = time.truncatingRemainder(dividingBy: 0.9) / 0.9
            for k in 0..<3 {
                let alpha = 0.3 + 0.7 * max(0, 1 - abs(phase * 3 - Double(k) - 0.5))
                drawList.addCircle(center: Point(header.maxX - 40 + Double(k) * 10, header.midY), radius: 3, color: theme.accent.opacity(alpha))
            }
        }
    }
}
