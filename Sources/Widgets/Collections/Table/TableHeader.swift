import Render2D
import Imaging
import Profiling

// `@inlinable` in the table's files is measured, not habit: it lets the app's module
// specialize the table for its row type. Unspecialized, generic row access cost about 40 % of
// a table frame, a third of a 1,000-column frame went to generic metadata lookups, and making
// `arrange` inlinable took `bench table --columns 1000` from 3.20 M to 1.79 M instructions a
// frame (callgrind). The figures it keeps: `bench table` work p50 and `bench table --columns 1000`.

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

extension UI {
    /// The header: titles that sort on click (shift adds a key), resize dividers, the columns
    /// scrolled with the body (frozen ones stay), headers dragged to reorder customizable
    /// columns, and a context menu listing them with checkmarks to hide or show each. What
    /// needs the row type (the sort order, the customization) is done here, in the app's
    /// specialized code; the drawing in `drawHeaderCells`, which is not generic.
    @inlinable
    func drawHeader<Row, ID>(
        _ header: Rect, columns: [TableColumn<Row>], declared: [TableColumn<Row>], strip: ColumnStrip,
        offset: Double, sortOrder: Binding<[KeyComparator<Row>]>?, isSorting: Bool,
        customization: Binding<TableColumnCustomization<Row>>?, memo: StateBox<TableMemo<ID>>,
        userWidths: StateBox<[String: Double]>
    ) {
        let sortKeys = (sortOrder?.wrappedValue ?? []).map { (id: $0.id, order: $0.order) }
        let hasCustomizable = customization != nil && declared.contains { $0.customizationID != nil }
        var columnDrag = memo.value.columnDrag, resizeStart = memo.value.resizeStart
        // Only the columns in view: a table of a thousand columns reads a dozen here.
        var visible: [(index: Int, column: HeaderColumn)] = []
        for c in strip.visibleColumns(offset: offset, width: header.width) {
            visible.append((c, HeaderColumn(columns[c])))
        }  // (a loop: see `tableBody`)
        let actions = drawHeaderCells(
            header, visible: visible, strip: strip, offset: offset,
            sortKeys: sortKeys, isSorting: isSorting, canReorder: customization != nil,
            hasCustomizable: hasCustomizable, columnDrag: &columnDrag,
            resizeStart: &resizeStart, userWidths: userWidths)
        memo.value.columnDrag = columnDrag
        memo.value.resizeStart = resizeStart
        if let click = actions.sortClick, let descriptor = columns[click.column].sortDescriptor, let sortOrder {
            sortOrder.wrappedValue = SortOrderRules.click(
                descriptor, in: sortOrder.wrappedValue, addingKey: click.addingKey)
        }
        guard let customization else { return }
        reorderColumns(
            header, columns: columns, declared: declared, strip: strip, offset: offset,
            customization: customization, memo: memo)
        if hasCustomizable {
            columnsMenu(declared: declared, customization: customization, opening: actions.menuRequested)
        }
    }

    /// The header's cells of the `visible` columns (with their indices), dividers and sort
    /// cue; returns the click that sorts, if any, and whether the columns menu was asked for.
    @usableFromInline
    func drawHeaderCells(
        _ header: Rect, visible: [(index: Int, column: HeaderColumn)], strip: ColumnStrip, offset: Double,
        sortKeys: [(id: String, order: SortDirection)], isSorting: Bool, canReorder: Bool, hasCustomizable: Bool,
        columnDrag: inout String?, resizeStart: inout Double,
        userWidths: StateBox<[String: Double]>
    ) -> HeaderActions {
        drawList.addRect(header, color: theme.surface)
        drawList.addRect(Rect(x: header.x, y: header.maxY - 1, width: header.width, height: 1), color: theme.separator)
        let bold = font(size: theme.fontSize - 1, weight: .bold)
        let scrolledClip = Rect(
            x: header.x + strip.frozenWidth, y: header.y, width: max(0, header.width - strip.frozenWidth),
            height: header.height)
        let dragging = columnDrag
        var dividers: [Interaction] = []
        var actions = HeaderActions()
        // Past the last column, a right-click opens the columns menu too (registered first: the cells are on top).
        actions.menuRequested = hasCustomizable && interact(id("header.empty"), rect: header).secondaryClicked
        for pass in [false, true] {  // scrolled columns (clipped), then frozen ones over them
            if !pass { drawList.pushClip(scrolledClip) }
            for (c, column) in visible where (c < strip.frozen) == pass {
                let width = strip.starts[c + 1] - strip.starts[c]
                let cell = Rect(
                    x: header.x + strip.screenX(c, offset: offset), y: header.y, width: width, height: header.height - 1
                )
                let r = interact(id("header." + column.id), rect: cell)
                if r.secondaryClicked { actions.menuRequested = true }
                if r.isActive && input.pointer.isDragging && canReorder, let cid = column.customizationID,
                    dragging == nil
                {
                    columnDrag = cid  // a drag past the slop moves the column instead of sorting
                }
                if pass { drawList.addRect(cell, color: theme.surface) }
                if r.isHovered && column.isSortable { drawList.addRect(cell, color: theme.control.opacity(0.6)) }
                if column.customizationID != nil && column.customizationID == dragging {
                    drawList.addRect(cell, color: theme.accent.opacity(0.18))
                }
                if r.clicked && columnDrag == nil && column.isSortable {
                    actions.sortClick = (c, input.modifiers.contains(.shift))
                }
                drawHeaderTitle(
                    column, in: cell, sortRank: sortKeys.firstIndex { $0.id == column.id }, sortKeys: sortKeys,
                    bold: bold)
                if let handle = headerDivider(
                    column, cell: cell, width: width, resizeStart: &resizeStart, userWidths: userWidths)
                {
                    dividers.append(handle)
                }
            }
            if !pass { drawList.popClip() }
        }
        // A divider's reach overlaps the next header cell: claim presses after every cell.
        for handle in dividers { claimSplitterPress(handle) }
        if isSorting {
            requestRedraw()  // the dots pulse; the sort's end wakes the loop by itself
            // Progress cue: a pulsing dot train while a background sort runs.
            let phase = time.truncatingRemainder(dividingBy: 0.9) / 0.9
            for k in 0..<3 {
                let alpha = 0.3 + 0.7 * max(0, 1 - abs(phase * 3 - Double(k) - 0.5))
                drawList.addCircle(
                    center: Point(header.maxX - 40 + Double(k) * 10, header.midY), radius: 3,
                    color: theme.accent.opacity(alpha))
            }
        }
        return actions
    }

    /// A header cell's title, and for a sort key its direction chevron and, when it is not the
    /// primary one, its priority.
    private func drawHeaderTitle(
        _ column: HeaderColumn, in cell: Rect, sortRank: Int?, sortKeys: [(id: String, order: SortDirection)],
        bold: Font
    ) {
        var textRect = cell.insetBy(dx: 8, dy: 0)
        if let rank = sortRank {
            let icon: Icon = sortKeys[rank].order == .forward ? .chevronUp : .chevronDown
            let iconRect = Rect(x: cell.maxX - 20, y: cell.midY - 7, width: 14, height: 14)
            drawIcon(icon, in: iconRect, color: rank == 0 ? theme.accent : theme.secondaryText)
            if rank > 0 {
                font(size: 10).draw(
                    "\(rank + 1)", at: Point(iconRect.x - 8, cell.midY - 7), color: theme.secondaryText, into: &drawList
                )
            }
            textRect.width -= 24
        }
        bold.draw(column.title, in: textRect, alignment: column.alignment, color: theme.secondaryText, into: &drawList)
    }

    /// The divider at a header cell's trailing edge; for a resizable column, a handle that a
    /// drag resizes the column with and a double click gives back its own width. Returns it.
    private func headerDivider(
        _ column: HeaderColumn, cell: Rect, width: Double, resizeStart: inout Double,
        userWidths: StateBox<[String: Double]>
    ) -> Interaction? {
        let divider = Rect(x: cell.maxX - 1, y: cell.y + 5, width: 1, height: cell.height - 10)
        drawList.addRect(divider, color: theme.separator)
        guard let range = column.resizable else { return nil }
        let handle = splitterHandle(
            id("divider." + column.id), splitter: divider, horizontal: true, styling: SplitStyling())
        if handle.pressed { resizeStart = width }
        if handle.isActive && input.pointer.isDragging {
            let newWidth = resizeStart + input.pointer.position.x - input.pointer.pressPosition.x
            userWidths.value[column.id] = min(max(newWidth, range.min), range.max)
        }
        if handle.doubleClicked { userWidths.value[column.id] = nil }
        return handle
    }

    /// While a header is dragged: a marker where it would land; on release, the move.
    @usableFromInline
    func reorderColumns<Row, ID>(
        _ header: Rect, columns: [TableColumn<Row>], declared: [TableColumn<Row>], strip: ColumnStrip,
        offset: Double, customization: Binding<TableColumnCustomization<Row>>, memo: StateBox<TableMemo<ID>>
    ) {
        guard let dragged = memo.value.columnDrag else { return }
        // The customizable column whose middle is right of the pointer takes the dragged one before it.
        let x = input.pointer.position.x - header.x
        let target = columns.indices.first { c in
            columns[c].customizationID != nil
                && strip.screenX(c, offset: offset) + (strip.starts[c + 1] - strip.starts[c]) / 2 > x
        }
        let markerX =
            header.x
            + (target.map { strip.screenX($0, offset: offset) } ?? min(strip.contentWidth - offset, header.width))
        drawList.addRect(
            Rect(x: markerX - 1, y: header.y + 2, width: 3, height: header.height - 4), color: theme.accent)
        requestRedraw()
        guard !input.pointer.isDown else { return }
        memo.value.columnDrag = nil
        let declaredIDs = declared.compactMap(\.customizationID)
        customization.wrappedValue.move(
            dragged, before: target.flatMap { columns[$0].customizationID }, declared: declaredIDs)
    }
}
