import Render2D
import Imaging
import Profiling

/// A row of a tree table: a node, where it is shown, its depth, and whether it is expanded.
public struct TreeTableRow<Node: Identifiable>: Identifiable {
    /// The node.
    public var node: Node
    /// The row's place among the rows shown.
    public var index: Int
    /// How deep it is: 0 for a root.
    public var depth: Int
    /// Whether its children are shown.
    public var isExpanded: Bool
    public var id: Node.ID { node.id }
}

extension SortKey {
    /// The same key read through `transform` (a tree table's row to its node).
    func pullback<Outer>(_ transform: @escaping @Sendable (Outer) -> Row) -> SortKey<Outer> {
        switch self {
        case .string(let read): .string { read(transform($0)) }
        case .integer(let read): .integer { read(transform($0)) }
        case .double(let read): .double { read(transform($0)) }
        case .custom(let compare): .custom { compare(transform($0), transform($1)) }
        }
    }
}

/// A tree table's state kept between frames: the flattened rows (only expanded subtrees are
/// read; finding row i is a search over runs of siblings) and the order they were sorted in.
final class TreeTableState<Node: Identifiable> {
    var flattening: OutlineFlattening<Node>
    var order: [String]
    /// The app's roots, in its order, the flattening was built from.
    var appRoots: [Node.ID]
    /// A chevron click asks for an expansion change; it is applied after the table is drawn.
    var pendingToggle: (row: Int, expand: Bool, recursive: Bool)?

    init(flattening: OutlineFlattening<Node>, order: [String], appRoots: [Node.ID]) {
        self.flattening = flattening
        self.order = order
        self.appRoots = appRoots
    }
}

extension UI {
    /// A table of a tree (SwiftUI's `Table(_:children:)` with disclosure rows, Finder's list
    /// view): the first column shows each row's depth and a chevron; click it, or press → and
    /// ←, to expand and collapse (alt-click: the whole subtree). Only expanded subtrees are
    /// read and a frame costs O(visible rows) whatever the tree's size (`OutlineFlattening`).
    /// Sorting applies within each level: children are sorted as they are shown.
    ///
    /// ```swift
    /// ui.table("files", roots: folder.children, children: { $0.children }, expanded: Binding(self, \.open),
    ///          selection: Binding(self, \.selection), sortOrder: Binding(self, \.order)) {
    ///     TableColumn("Name", value: \FileNode.name)
    ///     TableColumn("Size", value: \FileNode.size) { formatBytes($0.size) }
    /// }
    /// ```
    @discardableResult
    public func table<Node: Identifiable & Sendable>(
        _ name: String, roots: [Node], children: @escaping (Node) -> [Node]?, expanded: Binding<Set<Node.ID>>,
        selection: Binding<Set<Node.ID>>? = nil, sortOrder: Binding<[KeyComparator<Node>]>? = nil,
        rowHeight: Double? = nil,
        contextMenu: ((RowSelection<Node.ID>) -> Void)? = nil, primaryAction: ((RowSelection<Node.ID>) -> Void)? = nil,
        @TableColumnBuilder<Node> columns: () -> [TableColumn<Node>]
    ) -> TableInfo {
        let declared = columns()
        let order = sortOrder?.wrappedValue ?? []
        let sort: ([Node]) -> [Node] = { nodes in order.isEmpty ? nodes : nodes.sorted(using: order) }
        let sortedChildren: (Node) -> [Node]? = { node in children(node).map(sort) }
        let orderKey = order.map { "\($0.id)\($0.order == .forward ? "+" : "-")" }
        let rootIDs = roots.map(\.id)
        let box = stateBox(
            WidgetID(parent: id(name), "tree"),
            TreeTableState(
                flattening: OutlineFlattening(
                    roots: sort(roots), children: sortedChildren,
                    expanded: expanded.wrappedValue), order: orderKey, appRoots: rootIDs))
        let state = box.value
        state.flattening.children = sortedChildren
        if state.order != orderKey || state.appRoots != rootIDs {
            // A new order re-sorts the roots and every expanded node's children.
            state.order = orderKey
            state.appRoots = rootIDs
            state.flattening.rebuild(roots: sort(roots), expanded: expanded.wrappedValue)
        }
        handleTreeKeys(name, state: state, selection: selection, expanded: expanded)
        let rows = TreeRows(state: state)
        // The columns read the row's node; the first also draws the depth and the chevron.
        let rowColumns = declared.enumerated().map { c, column in
            treeColumn(column, isFirst: c == 0, state: state)
        }
        let rowOrder: Binding<[KeyComparator<TreeTableRow<Node>>]>? = sortOrder.map { binding in
            Binding(
                get: {
                    binding.wrappedValue.map {
                        KeyComparator(
                            id: $0.id, order: $0.order, key: $0.key.pullback { (row: TreeTableRow<Node>) in row.node })
                    }
                },
                set: { newOrder in
                    binding.wrappedValue = newOrder.compactMap { key in
                        declared.first { $0.id == key.id }?.sortDescriptor.map {
                            var d = $0
                            d.order = key.order
                            return d
                        }
                    }
                })
        }
        let info = tableBody(
            TableRequest(
                name: name, rows: rows, columns: rowColumns, mode: selection == nil ? .none : .multiple,
                selection: selection.map { .set($0) }, sortOrder: rowOrder, rowHeight: rowHeight,
                compactWidth: 0, contextMenu: contextMenu, primaryAction: primaryAction,
                rowsInSortOrder: false))  // sorted within each level only
        if let toggle = state.pendingToggle {
            state.pendingToggle = nil
            state.flattening.setExpanded(
                at: toggle.row, toggle.expand, recursive: toggle.recursive, expanded: &expanded.wrappedValue)
            requestRedraw()
        }
        return info
    }

    /// → expands the selected row (or moves into it when it is open); ← collapses it (or
    /// moves to its parent), as in Finder and GTK's tree views. Alt applies to the subtree.
    private func handleTreeKeys<Node: Identifiable>(
        _ name: String, state: TreeTableState<Node>, selection: Binding<Set<Node.ID>>?,
        expanded: Binding<Set<Node.ID>>
    ) {
        let tid = id(name)
        guard let selection, focusID == WidgetID(parent: tid, "bodyInput"), selection.wrappedValue.count == 1,
            let selected = selection.wrappedValue.first
        else { return }
        let cursor = stateBox(WidgetID(parent: tid, "memo"), TableMemo<Node.ID>()).value.selection.cursorHint
        for press in input.keys where press.key == .left || press.key == .right {
            let flattening = state.flattening
            // The selected row: where the table's cursor is, else found by a scan of the rows shown.
            let row: Int
            if let cursor, cursor < flattening.count, flattening.node(at: cursor).id == selected {
                row = cursor
            } else if let found = (0..<flattening.count).first(where: { flattening.node(at: $0).id == selected }) {
                row = found
            } else {
                return
            }
            let shown = flattening.row(at: row)
            let recursive = press.modifiers.contains(.alt)
            if press.key == .right {
                if shown.isExpanded && !recursive {
                    if row + 1 < flattening.count { selection.wrappedValue = [flattening.node(at: row + 1).id] }
                } else if state.flattening.isBranch(at: row) {
                    state.flattening.setExpanded(at: row, true, recursive: recursive, expanded: &expanded.wrappedValue)
                }
            } else if shown.isExpanded {
                state.flattening.setExpanded(at: row, false, recursive: recursive, expanded: &expanded.wrappedValue)
            } else if let parent = flattening.parent(of: row) {
                selection.wrappedValue = [flattening.node(at: parent).id]
            }
        }
    }

    /// `column` reading a tree row's node; the first column is indented by depth behind a chevron.
    private func treeColumn<Node: Identifiable & Sendable>(
        _ column: TableColumn<Node>, isFirst: Bool,
        state: TreeTableState<Node>
    ) -> TableColumn<TreeTableRow<Node>> {
        let sort = column.sortDescriptor?.key.pullback { (row: TreeTableRow<Node>) in row.node }
        var mapped = TableColumn(
            title: column.title, id: column.id, text: column.text.map { text in { text($0.node) } },
            content: column.content.map { content in { ui, row in content(ui, row.node) } }, sort: sort)
        mapped.onCommit = column.onCommit.map { commit in { row, text in commit(row.node, text) } }
        if isFirst {
            mapped.leadingAccessory = { ui, row, cell in ui.disclosure(row, state: state, in: cell) }
        }
        switch column.widthRule {  // the same rule, of the row type's `Width`
        case .fixed(let width): mapped.storedWidthRule = .fixed(width)
        case .flexible(let lo, let ideal, let hi): mapped.storedWidthRule = .flexible(min: lo, ideal: ideal, max: hi)
        }
        mapped.storedAlignment = column.alignment
        return mapped
    }

    /// The start of a tree row's first cell: indentation and a chevron that expands or
    /// collapses the row (alt-click: its subtree). Returns the width taken.
    private func disclosure<Node: Identifiable>(_ row: TreeTableRow<Node>, state: TreeTableState<Node>, in cell: Rect)
        -> Double
    {
        let indent = 16.0 * Double(row.depth)
        let chevron = Rect(x: cell.x + 6 + indent, y: cell.midY - 8, width: 16, height: 16)
        if state.flattening.isBranch(at: row.index) {
            let r = interact(id("chevron"), rect: chevron.insetBy(dx: -4, dy: -4))
            drawIcon(row.isExpanded ? .chevronDown : .chevronRight, in: chevron, color: theme.secondaryText)
            if r.clicked { state.pendingToggle = (row.index, !row.isExpanded, input.modifiers.contains(.alt)) }
        }
        return chevron.maxX - cell.x
    }
}

/// The rows a tree table shows, read from its flattening on demand.
struct TreeRows<Node: Identifiable>: RandomAccessCollection, RowOrderIdentifying {
    /// The flattening's runs as this frame shows them: a snapshot, so an order kept by a
    /// selection still reads the rows it was made from after rows expand or collapse.
    let segments: [OutlineSegment<Node>]
    let endIndex: Int
    var startIndex: Int { 0 }
    init(state: TreeTableState<Node>) {
        segments = state.flattening.segments
        endIndex = state.flattening.count
    }
    subscript(position: Int) -> TreeTableRow<Node> {
        let row = OutlineFlattening<Node>.row(at: position, in: segments)
        return TreeTableRow(node: row.node, index: position, depth: row.depth, isExpanded: row.isExpanded)
    }
    var rowOrderToken: RowOrderToken? {
        RowOrderToken(count: endIndex, storage: segments.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) })
    }
}
