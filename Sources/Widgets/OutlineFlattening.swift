/// What an outline knows about a row's children.
@usableFromInline
enum OutlineChildren<Node> {
    /// `children` has not been asked yet (the row was never drawn nor expanded).
    case unread
    case leaf
    case branch([Node])
}

/// One row of a flattened outline: a node, its depth, and whether it is expanded.
public struct OutlineRow<Node> {
    public var node: Node
    public var depth: Int
    public var isExpanded: Bool
    @usableFromInline var children: OutlineChildren<Node>

    @usableFromInline init(node: Node, depth: Int, isExpanded: Bool, children: OutlineChildren<Node>) {
        self.node = node
        self.depth = depth
        self.isExpanded = isExpanded
        self.children = children
    }
}

/// The rows an outline shows: every root, and the children of every expanded node, in
/// depth-first order. Kept between frames and updated in place when nodes expand or
/// collapse, so a frame costs O(visible rows), never O(tree).
///
/// `children` is asked for a node only when the node is expanded or its row is drawn (to
/// know whether it gets a disclosure chevron), and once at most: a collapsed subtree is never
/// read, whatever its size. Pure logic: tested without SDL.
///
/// ```swift
/// var rows = OutlineFlattening(roots: tree, children: { $0.children }, expanded: [rootID])
/// rows.setExpanded(at: 3, true, expanded: &expandedIDs)
/// ```
public struct OutlineFlattening<Node: Identifiable> {
    /// The rows in display order.
    public var rows: [OutlineRow<Node>] { flat }
    @usableFromInline var flat: [OutlineRow<Node>] = []
    /// IDs of the roots, to notice when the app's data changes.
    @usableFromInline var rootIDs: [Node.ID] = []
    @usableFromInline var children: (Node) -> [Node]?

    @inlinable
    public init(roots: [Node], children: @escaping (Node) -> [Node]?, expanded: Set<Node.ID>) {
        self.children = children
        rebuild(roots: roots, expanded: expanded)
    }

    public var count: Int { flat.count }

    /// Flattens from scratch (new data); reads children of expanded nodes only.
    @inlinable
    public mutating func rebuild(roots: [Node], expanded: Set<Node.ID>) {
        rootIDs = roots.map(\.id)
        var out: [OutlineRow<Node>] = []
        appendRows(of: roots, depth: 0, expanded: expanded, into: &out)
        flat = out
    }

    /// True when `roots` are not the roots this flattening was built from.
    @inlinable
    public func rootsDiffer(from roots: [Node]) -> Bool {
        roots.count != rootIDs.count || !zip(roots, rootIDs).allSatisfy { $0.id == $1 }
    }

    /// Appends `nodes` and, below each expanded one, its visible descendants.
    @inlinable
    func appendRows(of nodes: [Node], depth: Int, expanded: Set<Node.ID>, into out: inout [OutlineRow<Node>]) {
        for node in nodes {
            guard expanded.contains(node.id) else {
                out.append(OutlineRow(node: node, depth: depth, isExpanded: false, children: .unread))
                continue
            }
            guard let kids = children(node), !kids.isEmpty else {
                out.append(OutlineRow(node: node, depth: depth, isExpanded: false, children: .leaf))
                continue
            }
            out.append(OutlineRow(node: node, depth: depth, isExpanded: true, children: .branch(kids)))
            appendRows(of: kids, depth: depth + 1, expanded: expanded, into: &out)
        }
    }

    /// The children of row `index`, asking `children` the first time.
    @inlinable
    mutating func resolveChildren(at index: Int) -> [Node]? {
        switch flat[index].children {
        case .leaf: return nil
        case .branch(let kids): return kids
        case .unread:
            let kids = children(flat[index].node)
            flat[index].children = kids.map { $0.isEmpty ? .leaf : .branch($0) } ?? .leaf
            return kids?.isEmpty == false ? kids : nil
        }
    }

    /// Whether row `index` can expand (reads its children the first time; call it for drawn rows only).
    @inlinable
    public mutating func isBranch(at index: Int) -> Bool { resolveChildren(at: index) != nil }

    /// One past the last row of the subtree under row `index`.
    @inlinable
    public func subtreeEnd(at index: Int) -> Int {
        let depth = flat[index].depth
        var end = index + 1
        while end < flat.count && flat[end].depth > depth { end += 1 }
        return end
    }

    /// The row of the parent of row `index` (nil for a root).
    public func parent(of index: Int) -> Int? {
        let depth = flat[index].depth
        guard depth > 0 else { return nil }
        var i = index - 1
        while i >= 0 && flat[i].depth >= depth { i -= 1 }
        return i >= 0 ? i : nil
    }

    /// Expands or collapses row `index`, updating `expanded` (the IDs of expanded nodes) and
    /// splicing the rows in or out. `recursive` applies the same to every descendant (alt-click),
    /// reading the whole subtree when expanding.
    @inlinable
    public mutating func setExpanded(at index: Int, _ expand: Bool, recursive: Bool = false, expanded: inout Set<Node.ID>) {
        guard index >= 0, index < flat.count, let kids = resolveChildren(at: index) else { return }
        if recursive {
            if expand { markSubtree(kids, into: &expanded) } else { unmarkSubtree(kids, from: &expanded) }
        }
        if expand { expanded.insert(flat[index].node.id) } else { expanded.remove(flat[index].node.id) }
        let end = flat[index].isExpanded ? subtreeEnd(at: index) : index + 1
        var inserted: [OutlineRow<Node>] = []
        if expand { appendRows(of: kids, depth: flat[index].depth + 1, expanded: expanded, into: &inserted) }
        flat[index].isExpanded = expand
        flat.replaceSubrange((index + 1)..<end, with: inserted)
    }

    @inlinable
    func markSubtree(_ nodes: [Node], into expanded: inout Set<Node.ID>) {
        for node in nodes {
            if let kids = children(node), !kids.isEmpty {
                expanded.insert(node.id)
                markSubtree(kids, into: &expanded)
            }
        }
    }

    /// Forgets the expansion of every node below `nodes` that the outline has read (it only
    /// reads expanded subtrees, so nothing expanded is missed).
    @inlinable
    func unmarkSubtree(_ nodes: [Node], from expanded: inout Set<Node.ID>) {
        for node in nodes where expanded.remove(node.id) != nil {
            if let kids = children(node) { unmarkSubtree(kids, from: &expanded) }
        }
    }

    /// Applies expansion changes made outside the outline (the app edited its set): one pass
    /// over the current rows that splices in the children of newly expanded nodes and drops
    /// the subtrees of newly collapsed ones. `changed` holds the IDs whose state differs.
    @inlinable
    public mutating func sync(expanded: Set<Node.ID>, changed: Set<Node.ID>) {
        guard !changed.isEmpty else { return }
        var out: [OutlineRow<Node>] = []
        out.reserveCapacity(flat.count)
        var i = 0
        while i < flat.count {
            if case .leaf = flat[i].children {} else if changed.contains(flat[i].node.id) {
                let wanted = expanded.contains(flat[i].node.id)
                if wanted != flat[i].isExpanded {
                    let end = flat[i].isExpanded ? subtreeEnd(at: i) : i + 1
                    if wanted, let kids = resolveChildren(at: i) {
                        flat[i].isExpanded = true
                        out.append(flat[i])
                        appendRows(of: kids, depth: flat[i].depth + 1, expanded: expanded, into: &out)
                    } else {
                        flat[i].isExpanded = false
                        out.append(flat[i])
                    }
                    i = end
                    continue
                }
            }
            out.append(flat[i])
            i += 1
        }
        flat = out
    }
}

/// What an arrow key does in an outline (the Finder / Explorer rules).
public enum OutlineArrowAction: Equatable, Sendable {
    case expand, collapse, select(Int), none

    /// Right on a collapsed branch expands it, on an expanded one moves to its first child;
    /// Left on an expanded branch collapses it, elsewhere moves to the parent.
    public static func forKey(right: Bool, index: Int, isBranch: Bool, isExpanded: Bool, rowCount: Int,
                              parent: () -> Int?) -> OutlineArrowAction {
        if right {
            guard isBranch else { return .none }
            if !isExpanded { return .expand }
            return index + 1 < rowCount ? .select(index + 1) : .none
        }
        if isBranch && isExpanded { return .collapse }
        return parent().map { .select($0) } ?? .none
    }
}
