import Render2D
import Imaging
import Profiling

// How tables report themselves: the table with its whole size, the headers in view, and the
// rows and cells built this frame. Cells scrolled away are made when a screen reader asks for
// them (`accessibilityCellText`), never a million at once.
extension UI {
    /// The node ID of row `row` of the table whose body is `table`.
    @usableFromInline
    func accessibilityRowID(_ row: Int, in table: WidgetID) -> WidgetID {
        WidgetID(parent: WidgetID(parent: table, "rows"), index: row)
    }

    /// Reports a table of `rows` × `columns.count` and its headers in view, and makes it the
    /// parent of the rows reported next. `columns`: each column's title and its header's
    /// widget ID (a screen reader's click on it sorts, as a click does). `cellText` answers for
    /// cells not built this frame.
    @usableFromInline
    func openAccessibilityTable(
        _ id: WidgetID, name: String, frame: Rect, rows: Int, columns: [(title: String, header: WidgetID)],
        multiple: Bool, headers: [(column: Int, frame: Rect)], cellText: @escaping (Int, Int) -> String
    ) -> Bool {
        let titles = columns.map(\.title)
        guard
            openAccessibilityContainer(
                id, role: .table, name: name, frame: frame,
                states: controlStates(multiple ? [.managesDescendants, .multiselectable] : .managesDescendants),
                collection: AccessibilityCollection(rows: rows, columns: titles.count, columnTitles: titles))
        else { return false }
        accessibilityCellText[id] = cellText
        for (column, headerFrame) in headers where column < columns.count {
            _ = reportAccessibility(
                columns[column].header, role: .columnHeader, name: titles[column], frame: headerFrame,
                states: [.enabled, .sensitive], actions: [.click], value: "", range: nil, text: nil, collection: nil,
                cell: (-1, column))
        }
        return true
    }

    /// Reports the rows drawn (a table row each, under the table); returns each row's node.
    func reportTableRows(_ rows: [(row: Int, rect: Rect)], isSelected: ((Int) -> Bool)?) -> [Int: Int] {
        guard let table = accessibility.parents.last, let tableID = Optional(accessibility.tree.nodes[table].id) else {
            return [:]
        }
        var nodes: [Int: Int] = [:]
        nodes.reserveCapacity(rows.count)
        for (row, rect) in rows {
            var states: AccessibilityStates = [.enabled, .sensitive, .selectable, .focusable]
            if isSelected?(row) == true { states.insert(.selected) }
            nodes[row] = reportAccessibility(
                accessibilityRowID(row, in: tableID), role: .tableRow, name: "", frame: rect, states: states,
                actions: [.click], value: "", range: nil, text: nil, collection: nil, cell: (row, 0))
        }
        return nodes
    }

    /// Reports a cell of a drawn row, and makes it the parent of the widgets it builds.
    func openAccessibilityCell(row: Int, column: Int, text: String, frame: Rect, rowNode: Int?) -> Int? {
        guard let rowNode else { return nil }
        let rowID = accessibility.tree.nodes[rowNode].id
        accessibility.parents.append(rowNode)
        guard
            let node = reportAccessibility(
                WidgetID(parent: rowID, index: column), role: .tableCell, name: text, frame: frame,
                states: [.enabled, .sensitive, .selectable], actions: [], value: "", range: nil,
                text: text.isEmpty ? nil : AccessibilityText(text), collection: nil, cell: (row, column))
        else {
            accessibility.parents.removeLast()
            return nil
        }
        accessibility.parents.append(node)
        return node
    }

    /// Ends a cell: a cell of widgets is named after its first named one, and a row after its first cell.
    func closeAccessibilityCell(_ node: Int) {
        accessibility.parents.removeLast()  // the cell
        let rowNode = accessibility.parents.removeLast()
        nameAfterChildren(node)
        let name = accessibility.tree.nodes[node].name
        if let column = accessibility.tree.nodes[node].cell?.column, column == 0 {
            accessibility.tree.update(rowNode) { $0.name = name }
        }
    }
}
