import Render2D
import Imaging
import Profiling

// `@inlinable` here is measured: lists and outlines are specialized for the app's element
// type. Without it (this file, List.swift, Outline.swift and OutlineFlattening.swift), `bench
// outline` (a million nodes) went from 0.245 to 0.435 ms work p50 and 0.138 to 0.285 ms build
// (medians of 3 interleaved runs, release). The figure: `bench outline` work p50.

/// Per-outline state in the UI store: the flattened rows and the expanded IDs they reflect.
@usableFromInline
struct OutlineGroupMemo<Node: Identifiable> {
    @usableFromInline var flattening: OutlineFlattening<Node>?
    @usableFromInline var expanded: Set<Node.ID> = []
    @usableFromInline var revision = 0
    @usableFromInline init() {}
}

extension UI {
    /// Hierarchical rows (SwiftUI's `OutlineGroup`) inside a `list`, or a list of their own
    /// elsewhere: a chevron on every node with children, indentation per level. Click the
    /// chevron or double-click the row to expand; alt-click expands or collapses the whole
    /// subtree; Right/Left expand, collapse and move between parent and child.
    ///
    /// Expansion is kept by the UI, or by the app when it passes `expanded` (a set of node
    /// IDs it may edit: the outline applies the difference incrementally). Children are read
    /// only for expanded and drawn nodes. Nodes are kept by ID between frames: bump `revision`
    /// whenever a node's content changes (its title, its children), a root's included; a change
    /// in the roots' IDs (one added, removed or moved) is noticed without it.
    ///
    /// ```swift
    /// ui.outlineGroup(canvases, children: \.children) { ListRowContent($0.name, icon: .folder) }
    /// ```
    @inlinable
    public func outlineGroup<Node: Identifiable>(
        _ roots: [Node], children: KeyPath<Node, [Node]?>, expanded: Binding<Set<Node.ID>>? = nil, revision: Int = 0,
        swipeActions: ((Node) -> [SwipeAction])? = nil, row: @escaping (Node) -> ListRowContent
    ) {
        outlineRows(
            roots, children: { $0[keyPath: children] }, expanded: expanded, revision: revision,
            swipeActions: swipeActions
        ) {
            .content(row($0))
        }
    }

    /// An outline whose rows are any widgets.
    @inlinable
    public func outlineGroup<Node: Identifiable>(
        _ roots: [Node], children: KeyPath<Node, [Node]?>, expanded: Binding<Set<Node.ID>>? = nil, revision: Int = 0,
        swipeActions: ((Node) -> [SwipeAction])? = nil, rowContent: @escaping (UI, Node) -> Void
    ) {
        outlineRows(
            roots, children: { $0[keyPath: children] }, expanded: expanded, revision: revision,
            swipeActions: swipeActions
        ) { node in
            .widgets { rowContent(self, node) }
        }
    }

    /// An outline whose children come from a closure (a file system, a database): it is
    /// called only for nodes that are drawn or expanded, or, with `isExpandable` (which says
    /// whether a node may have children without reading them), only for expanded ones.
    /// `expandAllLimit` bounds the nodes one alt-click reads in the frame (0: it expands only
    /// the node, and an app whose children are slow to read opens the rest in the background).
    @inlinable
    public func outlineGroup<Node: Identifiable>(
        _ roots: [Node], childrenOf children: @escaping (Node) -> [Node]?, isExpandable: ((Node) -> Bool)? = nil,
        expanded: Binding<Set<Node.ID>>? = nil, revision: Int = 0, expandAllLimit: Int = 2_000,
        swipeActions: ((Node) -> [SwipeAction])? = nil, row: @escaping (Node) -> ListRowContent
    ) {
        outlineRows(
            roots, children: children, isExpandable: isExpandable, expanded: expanded, revision: revision,
            expandAllLimit: expandAllLimit, swipeActions: swipeActions
        ) { .content(row($0)) }
    }

    @inlinable
    func outlineRows<Node: Identifiable>(
        _ roots: [Node], children: @escaping (Node) -> [Node]?, isExpandable: ((Node) -> Bool)? = nil,
        expanded binding: Binding<Set<Node.ID>>?, revision: Int, expandAllLimit: Int = 2_000,
        swipeActions: ((Node) -> [SwipeAction])?, body: @escaping (Node) -> ListRowBody
    ) {
        profiler?.beginScope("outline", "")
        defer { profiler?.endScope() }
        guard !listStack.isEmpty else {
            list("outline") {
                outlineRows(
                    roots, children: children, isExpandable: isExpandable, expanded: binding, revision: revision,
                    expandAllLimit: expandAllLimit, swipeActions: swipeActions, body: body)
            }
            return
        }
        let box = stateBox(id("outline\(listStack[listStack.count - 1].sources.count)"), OutlineGroupMemo<Node>())
        var wanted = binding?.wrappedValue ?? box.value.expanded
        let command = pendingOutlineCommand
        switch command {
        case .expandAll?: wanted = OutlineFlattening.allBranchIDs(of: roots, children: children)
        case .collapseAll?: wanted = []
        case nil: break
        }
        if box.value.flattening == nil || box.value.revision != revision
            || box.value.flattening!.rootsDiffer(from: roots)
        {
            box.value.flattening = OutlineFlattening(roots: roots, children: children, expanded: wanted)
            box.value.flattening!.isExpandable = isExpandable
            box.value.flattening!.recursiveExpansionLimit = expandAllLimit
        } else {
            box.value.flattening!.children = children
            // The app (or expand/collapse all) edited the set: re-flatten, reading only expanded nodes.
            if wanted != box.value.expanded { box.value.flattening!.apply(expanded: wanted) }
        }
        box.value.expanded = wanted
        box.value.revision = revision
        if command != nil { binding?.wrappedValue = wanted }

        let setExpanded = { (row: Int, expand: Bool, recursive: Bool) in
            var ids = box.value.expanded
            box.value.expanded = []  // keeps `ids` uniquely referenced: no copy of the set
            box.value.flattening?.setExpanded(at: row, expand, recursive: recursive, expanded: &ids)
            box.value.expanded = ids
            binding?.wrappedValue = ids
        }
        let disclosure = { (row: Int) -> RowDisclosure in
            guard box.value.flattening!.isBranch(at: row) else { return .none }
            return box.value.flattening!.row(at: row).isExpanded ? .expanded : .collapsed
        }
        registerRows(
            ListRowSource(
                count: { box.value.flattening?.count ?? 0 },
                id: { AnyHashable(box.value.flattening!.node(at: $0).id) },
                body: { body(box.value.flattening!.node(at: $0)) },
                swipeActions: swipeActions.map { actions in { actions(box.value.flattening!.node(at: $0)) } },
                move: nil,
                hierarchy: (
                    depth: { box.value.flattening!.row(at: $0).depth }, disclosure: disclosure,
                    setExpanded: setExpanded,
                    parent: { box.value.flattening!.parent(of: $0) }
                )))
    }

    /// A titled group of rows inside a `list` (SwiftUI's `Section`); several outlines can
    /// share a list, one per section. Outside a list it is a titled group of controls.
    ///
    /// A section is identified by `id` when given, else by its title and how many sections of
    /// that title came before it in the list: two sections titled "Photos" collapse separately
    /// and their rows never share IDs. Give an `id` when sections can move.
    ///
    /// ```swift
    /// ui.section("Favorites") { ui.forEach(favorites) { ListRowContent($0.name, icon: .star) } }
    /// ui.section(album.title, id: album.id) { ... }
    /// ```
    public func section(_ title: String, id explicitID: (any Hashable)? = nil, _ content: () -> Void) {
        if let collector = listStack.last {
            let label: String
            if let explicitID {
                label = "section-id:\(AnyHashable(explicitID))"
            } else {
                let earlier = collector.sections.lazy.filter { $0.title == title }.count
                label = earlier == 0 ? title : "\(title)#\(earlier + 1)"
            }
            let sectionID = id(label)
            collector.sections.append((title, sectionID, collector.sources.count))
            withID(sectionID) { content() }
        } else {
            vstack(spacing: 4) {
                text(
                    title.uppercased(), color: theme.secondaryText, font: font(size: theme.fontSize - 3, weight: .bold))
                withID(title) { content() }
            }
        }
    }
}
