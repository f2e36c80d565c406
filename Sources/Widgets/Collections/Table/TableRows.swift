import Render2D
import Imaging
import Profiling

extension UI {
    /// The visible slots: section headers (the top one pinned), row backgrounds (alternating,
    /// hover, selection), edit-mode checkmarks and cells: the scrolled columns clipped to
    /// `scrolledClip`, then the frozen ones. Not generic. Returns the data rows drawn.
    @usableFromInline
    func drawRows(
        _ slots: Range<Int>, geometry: RowGeometry, sectionTitles: [String], plans: [TableCellPlan], body: Rect,
        scrolledClip: Rect, offset: Double, hovered: Int?, focused: Bool, editMode: Bool,
        isSelected: ((Int) -> Bool)?, editing: (row: Int, column: String)?, editor: (Rect) -> Void
    ) -> Range<Int> {
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
                    drawIcon(
                        .checkmark, in: Rect(x: mark.x - 6, y: mark.y - 6, width: 12, height: 12), color: theme.onAccent
                    )
                } else {
                    drawList.addCircleBorder(center: mark, radius: 8, color: theme.border, thickness: 1.5)
                }
            }
            drawn.append((i, rowRect, selected && focused && !editMode ? theme.onAccent : theme.text))
        }
        let rowNodes =
            isAccessibilityEnabled ? reportTableRows(drawn.map { ($0.row, $0.rect) }, isSelected: isSelected) : [:]
        var scrolled: [TableCellPlan] = [], frozen: [TableCellPlan] = []  // (a loop: see the plans in `tableBody`)
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
    func drawCells(
        _ drawn: [(row: Int, rect: Rect, textColor: Color)], plans: [TableCellPlan], rowHeight: Double,
        editing: (row: Int, column: String)?, editor: (Rect) -> Void, rowNodes: [Int: Int]
    ) {
        let font = self.font
        for (i, rowRect, textColor) in drawn {
            for plan in plans {
                var cell = Rect(x: plan.x, y: rowRect.y, width: plan.width, height: rowHeight)
                let isEditing = editing.map { $0.row == i && $0.column == plan.columnID } ?? false
                let string = isEditing ? nil : plan.text?(i)  // read once: for the screen and the screen reader
                let cellNode =
                    rowNodes.isEmpty
                    ? nil
                    : openAccessibilityCell(
                        row: i, column: plan.column, text: string ?? "", frame: cell,
                        rowNode: rowNodes[i])
                defer { if let cellNode { closeAccessibilityCell(cellNode) } }
                if let accessory = plan.accessory {
                    let taken = withID(index: i) { accessory(i, cell) }
                    cell = Rect(x: cell.x + taken, y: cell.y, width: max(0, cell.width - taken), height: cell.height)
                }
                if isEditing {
                    editor(cell)
                } else if let string {
                    font.draw(
                        string, in: cell.insetBy(dx: 8, dy: 0), alignment: plan.alignment, color: textColor,
                        truncation: truncation, into: &drawList)
                } else if let content = plan.content {
                    withID(index: i) { pane(cell.insetBy(dx: 6, dy: 0)) { content(i) } }
                }
            }
        }
    }

    /// Section headers in their slots, and the top section's header pinned to the body's top
    /// (pushed up by the next header as it arrives).
    func drawSectionHeaders(_ slots: Range<Int>, geometry: RowGeometry, titles: [String], body: Rect, offset: Double) {
        let bold = font(size: theme.fontSize - 1, weight: .bold)
        func headerBar(_ section: Int, y: Double) {
            let rect = Rect(
                x: body.x, y: y, width: body.width,
                height: geometry.slotHeight(geometry.sectionStarts[section] + section))
            drawList.addRect(rect, color: theme.surface.mix(theme.background, 0.5))
            drawList.addRect(Rect(x: rect.x, y: rect.maxY - 1, width: rect.width, height: 1), color: theme.separator)
            bold.draw(
                section < titles.count ? titles[section] : "", in: rect.insetBy(dx: 8, dy: 0),
                color: theme.secondaryText,
                truncation: truncation, into: &drawList)
        }
        for slot in slots {
            if case .header(let s) = geometry.slot(slot) {
                headerBar(s, y: body.y + geometry.slotOffset(slot) - offset)
            }
        }
        guard let topSlot = geometry.slot(atContentY: max(0, offset)),
            let section = geometry.section(containingSlot: topSlot)
        else { return }
        var y = body.y
        if section + 1 < geometry.sectionStarts.count {
            let nextHeaderY = body.y + geometry.slotOffset(geometry.sectionStarts[section + 1] + section + 1) - offset
            y = min(y, nextHeaderY - geometry.slotHeight(geometry.sectionStarts[section] + section))
        }
        headerBar(section, y: y)
    }
}
