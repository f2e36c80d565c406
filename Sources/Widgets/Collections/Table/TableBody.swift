import Render2D
import Imaging
import Profiling

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

extension UI {
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
}
