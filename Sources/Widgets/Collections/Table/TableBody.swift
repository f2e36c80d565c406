import Render2D
import Imaging
import Profiling

// `@inlinable` in the table's files is measured, not habit: it lets the app's module
// specialize the table for its row type. Unspecialized, generic row access cost about 40 % of
// a table frame, a third of a 1,000-column frame went to generic metadata lookups, and making
// `arrange` inlinable took `bench table --columns 1000` from 3.20 M to 1.79 M instructions a
// frame (callgrind). The figures it keeps: `bench table` work p50 and `bench table --columns 1000`.

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
    init(
        x: Double, width: Double, alignment: TextAlignment, isFrozen: Bool, columnID: String, column: Int,
        text: ((Int) -> String)?,
        content: ((Int) -> Void)?, accessory: ((Int, Rect) -> Double)?
    ) {
        self.x = x
        self.width = width
        self.alignment = alignment
        self.isFrozen = isFrozen
        self.columnID = columnID
        self.column = column
        self.text = text
        self.content = content
        self.accessory = accessory
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

/// Everything a `ui.table` form asks of one table frame. The public entry points fill it in;
/// `tableBody` builds it.
@usableFromInline
struct TableRequest<Rows: RandomAccessCollection> where Rows.Element: Identifiable, Rows.Index == Int {
    @usableFromInline typealias Row = Rows.Element
    @usableFromInline let name: String
    @usableFromInline let rows: Rows
    @usableFromInline let columns: [TableColumn<Row>]
    @usableFromInline let mode: SelectionMode
    @usableFromInline let selection: SelectionBinding<Row.ID>?
    @usableFromInline let sortOrder: Binding<[KeyComparator<Row>]>?
    /// A sort is under way off the frame's thread: the rows are in their old order.
    @usableFromInline let isSorting: Bool
    @usableFromInline let rowHeight: Double?
    /// Narrower than this, the table shows its first column only (SwiftUI's compact width).
    @usableFromInline let compactWidth: Double
    @usableFromInline let editMode: Bool
    @usableFromInline let sectionTitles: [String]
    @usableFromInline let sectionStarts: [Int]
    /// A row's own context menu, by row (`TableRow.contextMenu`), replacing the table's.
    @usableFromInline let rowMenus: [(() -> Void)?]?
    @usableFromInline let frozenColumns: Int
    @usableFromInline let columnCustomization: Binding<TableColumnCustomization<Row>>?
    @usableFromInline let contextMenu: ((RowSelection<Row.ID>) -> Void)?
    @usableFromInline let primaryAction: ((RowSelection<Row.ID>) -> Void)?
    /// Whether `rows` are in `sortOrder`'s order (type-ahead then searches by bisection).
    @usableFromInline let rowsInSortOrder: Bool

    @inlinable
    init(
        name: String, rows: Rows, columns: [TableColumn<Row>], mode: SelectionMode = .none,
        selection: SelectionBinding<Row.ID>? = nil,
        sortOrder: Binding<[KeyComparator<Row>]>? = nil, isSorting: Bool = false, rowHeight: Double? = nil,
        compactWidth: Double = 360,
        editMode: Bool = false, sections: (titles: [String], starts: [Int]) = ([], []),
        rowMenus: [(() -> Void)?]? = nil,
        frozenColumns: Int = 0, columnCustomization: Binding<TableColumnCustomization<Row>>? = nil,
        contextMenu: ((RowSelection<Row.ID>) -> Void)? = nil, primaryAction: ((RowSelection<Row.ID>) -> Void)? = nil,
        rowsInSortOrder: Bool = true
    ) {
        self.name = name
        self.rows = rows
        self.columns = columns
        self.mode = mode
        self.selection = selection
        self.sortOrder = sortOrder
        self.isSorting = isSorting
        self.rowHeight = rowHeight
        self.compactWidth = compactWidth
        self.editMode = editMode
        (sectionTitles, sectionStarts) = sections
        self.rowMenus = rowMenus
        self.frozenColumns = frozenColumns
        self.columnCustomization = columnCustomization
        self.contextMenu = contextMenu
        self.primaryAction = primaryAction
        self.rowsInSortOrder = rowsInSortOrder
    }
}

/// A table frame laid out: where its header and body are, the columns shown and their
/// widths, and its rows' geometry; then, inside the body's scroll view, how far it is scrolled.
@usableFromInline
struct TableFrame<Rows: RandomAccessCollection> where Rows.Element: Identifiable, Rows.Index == Int {
    @usableFromInline let rect: Rect
    @usableFromInline let header: Rect
    @usableFromInline let body: Rect
    @usableFromInline let isCompact: Bool
    @usableFromInline let columns: [TableColumn<Rows.Element>]
    @usableFromInline let widths: [Double]
    @usableFromInline let strip: ColumnStrip
    @usableFromInline let geometry: RowGeometry
    @usableFromInline let order: RowOrder<Rows.Element.ID>
    /// The body's scroll offsets, set inside its scroll view.
    @usableFromInline var offset = 0.0
    @usableFromInline var offsetX = 0.0

    @usableFromInline
    init(
        rect: Rect, header: Rect, body: Rect, isCompact: Bool, columns: [TableColumn<Rows.Element>], widths: [Double],
        strip: ColumnStrip, geometry: RowGeometry, order: RowOrder<Rows.Element.ID>
    ) {
        self.rect = rect
        self.header = header
        self.body = body
        self.isCompact = isCompact
        self.columns = columns
        self.widths = widths
        self.strip = strip
        self.geometry = geometry
        self.order = order
    }

    @inlinable var rowHeight: Double { geometry.rowHeight }
    @inlinable var count: Int { geometry.rowCount }

    /// The data row under window `y`, if any.
    @inlinable func row(atY y: Double) -> Int? { geometry.row(atContentY: y - body.y + offset) }

    /// The row's rectangle in the window, as scrolled now.
    @inlinable func rowRect(_ row: Int) -> Rect {
        Rect(
            x: body.x, y: body.y + Double(geometry.slot(ofRow: row)) * rowHeight - offset, width: body.width,
            height: rowHeight)
    }
}

// How a table frame flows (`tableBody`), each phase a function below:
//
//   0. opening      `widget`: the table's ID, its profiler scope, all the room offered;
//   1. layout       `tableFrame`: split header from body, arrange and measure the
//                   columns, and build the rows' geometry;
//   2. requests     `applyTableScrollRequests`: `scrollTable(_:toRow:)` calls since last frame;
//   3. a11y         `openAccessibilityTable` while a screen reader listens;
//   4. the body, in one scroll view that knows only the content's size:
//        a. pointer     `tableSelectionInput`: clicks select, right-click aims the menu;
//        b. keys        `tableKeyboard`: arrows, Return and type-ahead while focused;
//        c. editing     `tableEditTriggers`: F2 or a slow second click opens a cell's field;
//        d. drawing     `drawTableBody`: plan the visible columns, draw the visible rows;
//        e. commit      `finishTableEdit`: the field's text to the app, Tab to the next cell;
//   5. menus        `tableMenus`: the table's and the rows' context menus;
//   6. header       `drawHeader` (TableHeader.swift): sorting, resizing, reordering.
//
// The selection is read from the app's binding before 1 and written back after 6. Every phase
// is inlinable, so the whole frame is specialized for the app's row type.
extension UI {
    /// The implementation behind every `table` form; inlinable so it is specialized for the
    /// app's row type (unspecialized, generic row access cost ~40 % of a table frame).
    @inlinable
    func tableBody<Rows>(_ request: TableRequest<Rows>) -> TableInfo {
        widget("table", request.name) { tid, rect in tableBody(request, id: tid, rect: rect) }
    }

    /// `tableBody` in the table's ID and rectangle.
    @inlinable
    func tableBody<Rows>(_ request: TableRequest<Rows>, id tid: WidgetID, rect: Rect) -> TableInfo {
        let memo = stateBox(WidgetID(parent: tid, "memo"), TableMemo<Rows.Element.ID>())
        let userWidths = stateBox(WidgetID(parent: tid, "widths"), [String: Double]())
        request.selection?.read(into: &memo.value.selection)
        let selectionAsRead = memo.value.selection.selected
        var frame = tableFrame(request, rect: rect, userWidths: userWidths.value)
        memo.value.selection.selected.follow(frame.order)  // ranges follow their rows through a new sort
        var info = TableInfo(
            visibleRows: 0..<0, scrollOffset: 0, rowHeight: frame.rowHeight, bodyRect: frame.body,
            isCompact: frame.isCompact)
        var keyboardMenuAnchor: Point?
        drawList.pushClip(frame.rect)
        withID(tid) {
            // Body: one interaction for all rows; cell widgets built later win their own clicks.
            let bodyID = id("bodyInput")
            let focused = focusID == bodyID
            let r = interact(bodyID, rect: frame.body, sense: [.click, .focus])
            if request.editMode && request.mode == .multiple {
                let rows = request.rows, base = rows.startIndex
                twoFingerSelect(
                    bodyID, body: frame.body, geometry: frame.geometry, memo: memo, idAt: { rows[base + $0].id })
            }
            applyTableScrollRequests(tid, request, frame)
            let listed = isAccessibilityEnabled && openTableAccessibility(bodyID, request, frame)
            defer { if listed { closeAccessibilityContainer() } }
            let axes: ScrollAxes = frame.strip.contentWidth > frame.body.width + 0.5 ? .both : .vertical
            let content = Size(max(frame.body.width, frame.strip.contentWidth), frame.geometry.contentHeight)
            virtualScrollView("body", contentSize: content, viewport: frame.body, axes: axes) { scroll in
                frame.offset = scroll.offset.y
                frame.offsetX = axes == .both ? scroll.offset.x : 0
                info.scrollOffset = frame.offset
                info.horizontalOffset = frame.offsetX
                let selectedBefore = memo.value.selection.selected
                // Selection input, applied before drawing so this frame shows it.
                keyboardMenuAnchor = tableSelectionInput(r, focused: focused, request, frame, memo: memo)
                // (an open menu takes the keys)
                if focused && !hasOpenPopup { tableKeyboard(request, frame, memo: memo) }
                let editable = tableEditTriggers(
                    r, focused: focused, selectedBefore: selectedBefore, request, frame, memo: memo)
                info.visibleRows = drawTableBody(r, focused: focused, request, frame, memo: memo, info: &info)
                if listed, request.mode != .none {
                    // A screen reader's click on a row selects it, as a click does.
                    for i in info.visibleRows where accessibilityActivated(accessibilityRowID(i, in: bodyID)) {
                        memo.value.selection.click(index: i, modifiers: [], mode: request.mode, rows: frame.order)
                        requestRedraw()
                    }
                }
                finishTableEdit(bodyID, editable: editable, request, frame, memo: memo)
            }
            tableMenus(r, keyboardAnchor: keyboardMenuAnchor, request, memo: memo)
            drawHeader(
                frame.header, columns: frame.columns, declared: request.columns, strip: frame.strip,
                offset: frame.offsetX,
                sortOrder: request.sortOrder, isSorting: request.isSorting, customization: request.columnCustomization,
                memo: memo, userWidths: userWidths)
        }
        drawList.popClip()
        request.selection?.write(&memo.value.selection, readAs: selectionAsRead)
        return info
    }

    /// Phase 1: lays the table out in `rect`: header and body, the columns shown (the first
    /// only when compact) and their widths, and the rows' geometry.
    @inlinable
    func tableFrame<Rows>(_ request: TableRequest<Rows>, rect: Rect, userWidths: [String: Double]) -> TableFrame<Rows> {
        let isCompact = rect.width < request.compactWidth
        let shown = (request.columnCustomization?.wrappedValue ?? TableColumnCustomization()).arrange(request.columns)
        let columns = isCompact ? Array(shown.prefix(1)) : shown
        let rowH = request.rowHeight ?? theme.rowHeight
        let headerH = min(theme.rowHeight + 4, rect.height)
        let header = Rect(x: rect.x, y: rect.y, width: rect.width, height: headerH)
        let body = Rect(x: rect.x, y: header.maxY, width: rect.width, height: max(0, rect.height - headerH))
        noteLandmark(.tableHeader, request.name, header)
        noteLandmark(.tableRows, request.name, body)
        let checkWidth = request.editMode ? 32.0 : 0
        let widths =
            isCompact
            ? [rect.width - checkWidth]
            : TableColumnLayout.widths(columns, userWidths: userWidths, available: rect.width - checkWidth)
        let strip = ColumnStrip(widths: widths, leading: checkWidth, frozen: isCompact ? 0 : request.frozenColumns)
        let geometry = RowGeometry(rowHeight: rowH, rowCount: request.rows.count, sectionStarts: request.sectionStarts)
        return TableFrame(
            rect: rect, header: header, body: body, isCompact: isCompact, columns: columns, widths: widths,
            strip: strip, geometry: geometry, order: RowOrder(request.rows))
    }

    /// Phase 2: the row and column `scrollTable` asked for since the last frame, brought into view.
    @inlinable
    func applyTableScrollRequests<Rows>(_ tid: WidgetID, _ request: TableRequest<Rows>, _ frame: TableFrame<Rows>) {
        if let scroll = pendingRowScrolls.removeValue(forKey: tid),
            let row = Self.firstShownRow(of: scroll.id, in: request.rows)
        {
            let offset = scrollOffset("body")
            let target = ScrollAnchor.offset(
                showing: Double(frame.geometry.slot(ofRow: row)) * frame.rowHeight, length: frame.rowHeight,
                viewport: frame.body.height, current: offset.y, anchor: scroll.anchor)
            scrollTo("body", offset: Point(offset.x, target))
        }
        if let column = pendingColumnScrolls.removeValue(forKey: tid),
            let c = frame.columns.firstIndex(where: { $0.id == column })
        {
            let offset = scrollOffset("body")
            scrollTo(
                "body",
                offset: Point(frame.strip.offset(showing: c, current: offset.x, width: frame.body.width), offset.y))
        }
    }

    /// Phase 3: the table as a screen reader sees it, its cells read on demand. True when open.
    @inlinable
    func openTableAccessibility<Rows>(_ bodyID: WidgetID, _ request: TableRequest<Rows>, _ frame: TableFrame<Rows>)
        -> Bool
    {
        let rows = request.rows, base = rows.startIndex, count = frame.count, columns = frame.columns
        let offsetX = scrollOffset("body").x
        let headers = frame.strip.visibleColumns(offset: offsetX, width: frame.body.width).map { c in
            (
                c,
                Rect(
                    x: frame.body.x + frame.strip.screenX(c, offset: offsetX), y: frame.header.y,
                    width: frame.widths[c],
                    height: frame.header.height)
            )
        }
        return openAccessibilityTable(
            bodyID, name: request.name, frame: frame.rect, rows: count,
            columns: columns.map { ($0.title, id("header." + $0.id)) }, multiple: request.mode == .multiple,
            headers: headers,
            cellText: { r, c in r < count && c < columns.count ? columns[c].text?(rows[base + r]) ?? "" : "" })
    }

    /// Phase 4a: a click selects (in edit mode it toggles, as ctrl-click does; on empty space it
    /// clears), a right-click or the Menu key aims the context menu, a double-click or Return
    /// runs the primary action. Returns where a menu opened from the keyboard goes.
    @inlinable
    func tableSelectionInput<Rows>(
        _ r: Interaction, focused: Bool, _ request: TableRequest<Rows>, _ frame: TableFrame<Rows>,
        memo: StateBox<TableMemo<Rows.Element.ID>>
    ) -> Point? {
        let mode = request.mode
        var keyboardMenuAnchor: Point?
        if r.clicked {
            if let i = frame.row(atY: input.pointer.pressPosition.y) {
                let modifiers = request.editMode ? input.modifiers.union(.command) : input.modifiers
                memo.value.selection.click(index: i, modifiers: modifiers, mode: mode, rows: frame.order)
            } else if input.modifiers.isEmpty && !request.editMode {
                memo.value.selection.selected.removeAll()
            }
        }
        if r.secondaryClicked {
            let i = frame.row(atY: input.pointer.position.y)
            memo.value.menuIDs = memo.value.selection.contextMenuTarget(index: i, mode: mode, rows: frame.order)
            memo.value.menuRow = i
        }
        if focused && request.contextMenu != nil && menuKeyPressed() {
            // The Menu key or Shift+F10: the menu of the current row, under it.
            let i = memo.value.selection.cursorHint.flatMap { $0 < frame.count ? $0 : nil }
            memo.value.menuIDs = memo.value.selection.contextMenuTarget(index: i, mode: mode, rows: frame.order)
            memo.value.menuRow = i
            let y = i.map { frame.rowRect($0).maxY } ?? frame.body.y
            keyboardMenuAnchor = Point(frame.body.x + 24, min(max(y, frame.body.y), frame.body.maxY))
        }
        if r.doubleClicked, let primaryAction = request.primaryAction,
            frame.row(atY: input.pointer.pressPosition.y) != nil
        {
            primaryAction(memo.value.selection.selected)
        }
        return keyboardMenuAnchor
    }

    /// Phase 4b, while the body has focus: arrows, Page Up/Down, Home and End move the
    /// selection and scroll it into view; Return runs the primary action; typed letters jump
    /// to the next row whose text starts with them (by bisection when sorted by that text).
    @inlinable
    func tableKeyboard<Rows>(
        _ request: TableRequest<Rows>, _ frame: TableFrame<Rows>, memo: StateBox<TableMemo<Rows.Element.ID>>
    ) {
        let rows = request.rows, base = rows.startIndex, mode = request.mode
        let page = Int(frame.body.height / frame.rowHeight)
        for press in input.keys {
            if press.key == .returnKey, let primaryAction = request.primaryAction,
                !memo.value.selection.selected.isEmpty
            {
                primaryAction(memo.value.selection.selected)
            } else if let target = memo.value.selection.key(
                press.key, modifiers: press.modifiers, mode: mode, pageSize: page,
                rows: frame.order)
            {
                scrollToVisible(frame.rowRect(target))
            }
        }
        let typed = TypeAhead.typedText(input.keys, continuing: !memo.value.typeAhead.typed.isEmpty)
        guard !typed.isEmpty && mode != .none else { return }
        let prefix = memo.value.typeAhead.add(typed, at: time)
        // Sorted by a text column: found by binary search on that text.
        var sortedText: ((Int) -> String)?
        var reverse = false
        if !request.isSorting, request.rowsInSortOrder, let primary = request.sortOrder?.wrappedValue.first,
            case .string(let read) = primary.key
        {
            sortedText = { read(rows[base + $0]) }
            reverse = primary.order == .reverse
        }
        // Otherwise the first column with text is scanned (its string sort key, or what it shows).
        let shownText = frame.columns.lazy.compactMap { column -> ((Rows.Element) -> String)? in
            if case .string(let read)? = column.sortDescriptor?.key { return read }
            return column.text
        }.first
        if sortedText != nil || shownText != nil,
            let target = TypeAhead.firstMatch(
                prefix, count: frame.count, sortedText: sortedText, reverse: reverse,
                after: memo.value.selection.cursorHint,
                text: { i in shownText.map { $0(rows[base + i]) } ?? "" })
        {
            memo.value.selection.click(index: target, modifiers: [], mode: mode, rows: frame.order)
            scrollToVisible(frame.rowRect(target))
        }
    }

    /// Phase 4c: opens a cell's field on F2, or on a click on a cell of the row already
    /// selected alone once the double-click interval has passed without a second click.
    /// Returns the editable columns (those with `editable` and text).
    @inlinable
    func tableEditTriggers<Rows>(
        _ r: Interaction, focused: Bool, selectedBefore: RowSelection<Rows.Element.ID>,
        _ request: TableRequest<Rows>, _ frame: TableFrame<Rows>,
        memo: StateBox<TableMemo<Rows.Element.ID>>
    ) -> [TableColumn<Rows.Element>] {
        let rows = request.rows, base = rows.startIndex, columns = frame.columns
        // A loop, not `contains { … }`: a closure written here is main-actor code, and it
        // checked the executor on every call (a thousand a frame in a wide table).
        var hasEditable = false
        for c in columns.indices where columns[c].onCommit != nil {
            hasEditable = true
            break
        }
        let editable = hasEditable ? columns.filter { $0.onCommit != nil && $0.text != nil } : []
        guard !editable.isEmpty && !request.editMode else { return editable }
        if input.pointer.pressed && !r.clicked { memo.value.pendingEdit = nil }
        let x = input.pointer.pressPosition.x - frame.body.x
        let strip = frame.strip, offsetX = frame.offsetX
        if r.clicked, input.pointer.clickCount == 1, input.modifiers.isEmpty,
            let i = frame.row(atY: input.pointer.pressPosition.y),
            selectedBefore.count == 1, selectedBefore.contains(row: i, id: rows[base + i].id),
            memo.value.editing == nil,
            let column = strip.visibleColumns(offset: offsetX, width: frame.body.width).first(where: { c in
                x >= strip.screenX(c, offset: offsetX) && x < strip.screenX(c, offset: offsetX) + frame.widths[c]
            }).map({ columns[$0] }), column.onCommit != nil, let text = column.text
        {
            let due = time + input.settings.doubleClickInterval
            memo.value.pendingEdit = (
                TableCellEdit(rowID: rows[base + i].id, row: i, column: column.id, draft: text(rows[base + i])), due
            )
            requestRedraw(after: input.settings.doubleClickInterval)
        } else if r.clicked && input.pointer.clickCount > 1 {
            memo.value.pendingEdit = nil  // it was a double-click
        }
        if let pending = memo.value.pendingEdit {
            if time >= pending.due {
                memo.value.editing = pending.edit
                memo.value.pendingEdit = nil
            } else {
                requestRedraw(after: pending.due - time)
            }
        }
        if focused, input.keys.contains(where: { $0.key == .f2 }), let i = memo.value.selection.cursorHint,
            i < frame.count,
            let text = editable[0].text
        {
            memo.value.editing = TableCellEdit(
                rowID: rows[base + i].id, row: i, column: editable[0].id, draft: text(rows[base + i]))
        }
        return editable
    }

    /// Phase 4d: plans the columns in view (frozen ones always: a thousand columns cost what
    /// the visible dozen do), finds the edited cell's row again, and draws the visible rows.
    /// Returns the data rows drawn.
    @inlinable
    func drawTableBody<Rows>(
        _ r: Interaction, focused: Bool, _ request: TableRequest<Rows>, _ frame: TableFrame<Rows>,
        memo: StateBox<TableMemo<Rows.Element.ID>>, info: inout TableInfo
    ) -> Range<Int> {
        let rows = request.rows, base = rows.startIndex, count = frame.count, body = frame.body, strip = frame.strip
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
        let slots = frame.geometry.visibleSlots(offset: frame.offset, height: body.height)
        let hovered = r.isHovered ? frame.row(atY: input.pointer.position.y) : nil
        let selected = memo.value.selection.selected
        let isSelected: (Int) -> Bool = { selected.contains(row: $0, id: rows[base + $0].id) }
        let visible = strip.visibleColumns(offset: frame.offsetX, width: body.width)
        var plans: [TableCellPlan] = []
        plans.reserveCapacity(visible.count)
        // `if let`, not `Optional.map`: a closure written here is main-actor code, and
        // `map` (not isolated) would check the executor on every call.
        for c in visible {
            let column = frame.columns[c]
            var text: ((Int) -> String)?, content: ((Int) -> Void)?, accessory: ((Int, Rect) -> Double)?
            if let format = column.text { text = { format(rows[base + $0]) } }
            if let build = column.content { content = { build(self, rows[base + $0]) } }
            if let draw = column.leadingAccessory { accessory = { draw(self, rows[base + $0], $1) } }
            plans.append(
                TableCellPlan(
                    x: body.x + strip.screenX(c, offset: frame.offsetX), width: frame.widths[c],
                    alignment: column.alignment, isFrozen: c < strip.frozen, columnID: column.id, column: c,
                    text: text, content: content, accessory: accessory))
            info.visibleColumns.append(column.id)
        }
        let scrolledClip = Rect(
            x: body.x + strip.frozenWidth, y: body.y, width: max(0, body.width - strip.frozenWidth), height: body.height
        )
        let editingCell = memo.value.editing.flatMap { edit in
            // Where the edited row is now (rows may have been re-sorted meanwhile).
            edit.row < count && rows[base + edit.row].id == edit.rowID
                ? (edit.row, edit.column)
                : Self.firstShownRow(of: AnyHashable(edit.rowID), in: rows).map { ($0, edit.column) }
        }
        // its row is gone
        if let editingCell { memo.value.editing?.row = editingCell.0 } else { memo.value.editing = nil }
        return drawRows(
            slots, geometry: frame.geometry, sectionTitles: request.sectionTitles, plans: plans, body: body,
            scrolledClip: scrolledClip, offset: frame.offset, hovered: hovered, focused: focused,
            editMode: request.editMode, isSelected: selected.isEmpty ? nil : isSelected,
            editing: editingCell, editor: editor)
    }

    /// Phase 4e: how the cell's edit ended this frame: its text committed to the app or
    /// dropped, and on Tab the next editable cell opened (to the right, else the next row's first).
    @inlinable
    func finishTableEdit<Rows>(
        _ bodyID: WidgetID, editable: [TableColumn<Rows.Element>], _ request: TableRequest<Rows>,
        _ frame: TableFrame<Rows>, memo: StateBox<TableMemo<Rows.Element.ID>>
    ) {
        guard var edit = memo.value.editing, let outcome = edit.outcome else { return }
        let rows = request.rows, base = rows.startIndex, row = edit.row
        if outcome != .cancel, row < frame.count, let column = frame.columns.first(where: { $0.id == edit.column }) {
            column.onCommit?(rows[base + row], edit.draft)
        }
        memo.value.editing = nil
        focus(bodyID)
        guard outcome == .next else { return }
        let ids = editable.map(\.id)
        let next = ids.firstIndex(of: edit.column).map { $0 + 1 } ?? ids.count
        let (nextRow, nextColumn) = next < ids.count ? (row, ids[next]) : (row + 1, ids.first ?? "")
        guard nextRow < frame.count, let text = editable.first(where: { $0.id == nextColumn })?.text else { return }
        edit = TableCellEdit(
            rowID: rows[base + nextRow].id, row: nextRow, column: nextColumn, draft: text(rows[base + nextRow]))
        memo.value.editing = edit
        memo.value.selection.click(index: nextRow, modifiers: [], mode: request.mode, rows: frame.order)
        scrollToVisible(frame.rowRect(nextRow))
        requestRedraw()
    }

    /// Phase 5: the context menus: a row's own (`TableRow.contextMenu`) when it has one, else
    /// the table's, opened by a right-click or (at `keyboardAnchor`) by the Menu key.
    @inlinable
    func tableMenus<Rows>(
        _ r: Interaction, keyboardAnchor: Point?, _ request: TableRequest<Rows>,
        memo: StateBox<TableMemo<Rows.Element.ID>>
    ) {
        let rowMenus = request.rowMenus
        if r.secondaryClicked {
            if let i = memo.value.menuRow, let menus = rowMenus, i < menus.count, menus[i] != nil {
                openPopup("rowMenu")
            } else if request.contextMenu != nil {
                openPopup("menu")
            }
        }
        if let anchor = keyboardAnchor { openPopup("menu", at: anchor) }
        if let contextMenu = request.contextMenu {
            let ids = memo.value.menuIDs
            popup("menu") { contextMenu(ids) }
        }
        if let menus = rowMenus, let i = memo.value.menuRow, i < menus.count, let menu = menus[i] {
            popup("rowMenu", menu)
        }
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
        guard let sorted = rows as? SortedView<[Rows.Element]>, let order = sorted.order,
            sorted.base.count <= Int(Int32.max)
        else {
            let base = rows.startIndex
            return firstRow(of: id, in: 0..<rows.count) { rows[base + $0].id }
        }
        let stored = sorted.base
        var matches: [Int32] = []
        var next = 0
        while let i = firstRow(of: id, in: next..<stored.count, idAt: { stored[$0].id }) {
            matches.append(Int32(truncatingIfNeeded: i))  // below `Int32.max`: checked above
            next = i + 1
        }
        return order.withUnsafeBufferPointer { shown in
            if matches.count <= 1 { return matches.first.flatMap { shown.firstIndex(of: $0) } }
            let wanted = Set(matches)  // one ID on several rows: the first of them as shown
            return shown.firstIndex { wanted.contains($0) }
        }
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
    func twoFingerSelect<ID: Hashable>(
        _ bodyID: WidgetID, body: Rect, geometry: RowGeometry, memo: StateBox<TableMemo<ID>>,
        idAt: (Int) -> ID
    ) {
        let fingers = input.fingers
        guard fingers.count >= 2 else {
            memo.value.panSelecting = false
            return
        }
        let center = fingers.values.reduce(Point.zero) { $0 + $1 } * (1 / Double(fingers.count))
        guard memo.value.panSelecting || body.contains(center) else { return }
        memo.value.panSelecting = true
        activeID = bodyID  // two fingers select rather than scroll
        let scrollOffset = scrollOffset("body").y
        if let row = geometry.row(atContentY: center.y - body.y + scrollOffset), row < geometry.rowCount {
            memo.value.selection.selected.insert(idAt(row), at: row)
        }
    }
}
