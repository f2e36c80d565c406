// `@inlinable` here is measured: lists and outlines are specialized for the app's element
// type. Without it (this file, List.swift, Outline.swift and OutlineFlattening.swift), `bench
// outline` (a million nodes) went from 0.245 to 0.435 ms work p50 and 0.138 to 0.285 ms build
// (medians of 3 interleaved runs, release). The figure: `bench outline` work p50.

/// One row of a flattened outline: a node, its depth, and whether it is expanded.
public struct OutlineRow<Node> {
    /// The node.
    public var node: Node
    /// How deep it is: 0 for a root.
    public var depth: Int
    /// Whether its children are shown.
    public var isExpanded: Bool

    @usableFromInline init(node: Node, depth: Int, isExpanded: Bool) {
        self.node = node
        self.depth = depth
        self.isExpanded = isExpanded
    }
}

/// A run of consecutive siblings shown as consecutive rows. Only the last node of a run can
/// be expanded: its children's runs follow, then the rest of the siblings as a new run.
@usableFromInline
struct OutlineSegment<Node> {
    /// The sibling array (shared with the app's tree, never copied).
    @usableFromInline var nodes: [Node]
    @usableFromInline var start: Int
    @usableFromInline var end: Int
    @usableFromInline var depth: Int
    /// The row of `nodes[start]`.
    @usableFromInline var firstRow: Int
    @usableFromInline var lastIsExpanded: Bool

    @usableFromInline init(nodes: [Node], start: Int, end: Int, depth: Int, firstRow: Int, lastIsExpanded: Bool) {
        self.nodes = nodes
        self.start = start
        self.end = end
        self.depth = depth
        self.firstRow = firstRow
        self.lastIsExpanded = lastIsExpanded
    }

    @usableFromInline var count: Int { end - start }
}

/// The rows an outline shows: every root, and the children of every expanded node, in
/// depth-first order, kept between frames. Rows are not materialized: the view is a list of
/// runs of siblings, so expanding a node with 100 children inserts one run, and finding row
/// `i` is a binary search over runs. A frame costs O(visible rows), never O(tree).
///
/// `children` is asked for a node only when the node is expanded or its row is drawn (to
/// know whether it gets a disclosure chevron): a collapsed subtree is never read, whatever
/// its size. Pure logic: tested without SDL.
///
/// ```swift
/// var outline = OutlineFlattening(roots: tree, children: { $0.children }, expanded: [rootID])
/// outline.setExpanded(at: 3, true, expanded: &expandedIDs)
/// let row = outline.row(at: 4)
/// ```
public struct OutlineFlattening<Node: Identifiable> {
    @usableFromInline var segments: [OutlineSegment<Node>] = []
    @usableFromInline var roots: [Node] = []
    @usableFromInline var children: (Node) -> [Node]?
    /// Answers "may it have children?" without reading them (a folder: yes), so drawn rows
    /// are not read at all; a node found empty on expansion loses its chevron.
    @usableFromInline var isExpandable: ((Node) -> Bool)?
    /// The most nodes whose children one alt-click expansion reads, level by level: a huge tree
    /// (a file system) opens its upper levels in bounded time instead of holding the frame
    /// while every folder below is listed. 0 expands only the node (the app then opens the
    /// rest itself, off the frame: see `outlineGroup(_:childrenOf:...)`).
    public var recursiveExpansionLimit = 2_000
    /// Whether drawn nodes have children (so each is asked once).
    @usableFromInline var isBranchCache: [Node.ID: Bool] = [:]
    /// The number of rows shown.
    public var count: Int { rowCount }
    @usableFromInline var rowCount = 0

    /// The rows of `roots` with the nodes in `expanded` expanded; `children` is called only for expanded nodes (nil: a leaf).
    @inlinable
    public init(roots: [Node], children: @escaping (Node) -> [Node]?, expanded: Set<Node.ID>) {
        self.children = children
        rebuild(roots: roots, expanded: expanded)
    }

    /// Flattens `roots` with the nodes in `expanded` open; reads children of expanded nodes only.
    /// Costs O(rows shown) set lookups and O(expanded nodes) children reads.
    @inlinable
    public mutating func rebuild(roots: [Node], expanded: Set<Node.ID>) {
        self.roots = roots
        var out: [OutlineSegment<Node>] = []
        var row = 0
        appendSegments(of: roots, from: 0, depth: 0, expanded: expanded, into: &out, row: &row)
        segments = out
        rowCount = row
    }

    /// Re-flattens after the app changed `expanded` (or the tree below the roots).
    @inlinable
    public mutating func apply(expanded: Set<Node.ID>) { rebuild(roots: roots, expanded: expanded) }

    /// True when `roots` are not the roots this flattening was built from.
    @inlinable
    public func rootsDiffer(from roots: [Node]) -> Bool {
        roots.count != self.roots.count || !zip(roots, self.roots).allSatisfy { $0.id == $1.id }
    }

    /// Runs for `nodes[from...]` at `depth`, recursing into expanded nodes.
    @inlinable
    func appendSegments(
        of nodes: [Node], from: Int, depth: Int, expanded: Set<Node.ID>,
        into out: inout [OutlineSegment<Node>], row: inout Int
    ) {
        var runStart = from
        for k in from..<nodes.count where expanded.contains(nodes[k].id) {
            guard let kids = children(nodes[k]), !kids.isEmpty else { continue }
            out.append(
                OutlineSegment(
                    nodes: nodes, start: runStart, end: k + 1, depth: depth, firstRow: row, lastIsExpanded: true))
            row += k + 1 - runStart
            appendSegments(of: kids, from: 0, depth: depth + 1, expanded: expanded, into: &out, row: &row)
            runStart = k + 1
        }
        if runStart < nodes.count {
            out.append(
                OutlineSegment(
                    nodes: nodes, start: runStart, end: nodes.count, depth: depth, firstRow: row, lastIsExpanded: false)
            )
            row += nodes.count - runStart
        }
    }

    /// The run holding `row` and the node's index in the run's sibling array.
    @inlinable
    func locate(_ row: Int) -> (segment: Int, index: Int) { Self.locate(row, in: segments) }

    @inlinable
    static func locate(_ row: Int, in segments: [OutlineSegment<Node>]) -> (segment: Int, index: Int) {
        var lo = 0, hi = segments.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].firstRow <= row { lo = mid } else { hi = mid - 1 }
        }
        return (lo, segments[lo].start + row - segments[lo].firstRow)
    }

    @inlinable
    func isExpanded(segment s: Int, index: Int) -> Bool { segments[s].lastIsExpanded && index == segments[s].end - 1 }

    /// The node shown at `row`.
    @inlinable
    public func node(at row: Int) -> Node {
        let (s, i) = locate(row)
        return segments[s].nodes[i]
    }

    /// The node, depth and expansion of `row`.
    @inlinable
    public func row(at row: Int) -> OutlineRow<Node> { Self.row(at: row, in: segments) }

    /// The row `row` of the flattening whose runs are `segments` (a snapshot of them).
    @inlinable
    static func row(at row: Int, in segments: [OutlineSegment<Node>]) -> OutlineRow<Node> {
        let (s, i) = locate(row, in: segments)
        let run = segments[s]
        return OutlineRow(node: run.nodes[i], depth: run.depth, isExpanded: run.lastIsExpanded && i == run.end - 1)
    }

    /// Every row, materialized (for tests and debugging: O(rows)).
    public func allRows() -> [OutlineRow<Node>] { (0..<count).map { row(at: $0) } }

    /// Whether `row` can expand (asks `children` the first time; call it for drawn rows only).
    @inlinable
    public mutating func isBranch(at row: Int) -> Bool {
        let (s, i) = locate(row)
        if isExpanded(segment: s, index: i) { return true }
        let node = segments[s].nodes[i]
        if let known = isBranchCache[node.id] { return known }
        let branch = isExpandable?(node) ?? (children(node)?.isEmpty == false)
        if isBranchCache.count > 100_000 { isBranchCache.removeAll(keepingCapacity: true) }
        isBranchCache[node.id] = branch
        return branch
    }

    /// The row of the parent of `row` (nil for a root): the last node of the nearest earlier
    /// run one level up.
    public func parent(of row: Int) -> Int? {
        let (s, _) = locate(row)
        let depth = segments[s].depth
        guard depth > 0 else { return nil }
        var p = s - 1
        while p >= 0 && segments[p].depth != depth - 1 { p -= 1 }
        return p >= 0 ? segments[p].firstRow + segments[p].count - 1 : nil
    }

    /// Expands or collapses `row`, updating `expanded` (the IDs of expanded nodes) and the runs.
    /// `recursive` applies the same to every descendant (alt-click), reading the whole subtree
    /// when expanding.
    @inlinable
    public mutating func setExpanded(at row: Int, _ expand: Bool, recursive: Bool = false, expanded: inout Set<Node.ID>)
    {
        guard row >= 0, row < count else { return }
        var (s, i) = locate(row)
        let node = segments[s].nodes[i]
        if !expand && !recursive {
            // A plain collapse reads nothing.
            expanded.remove(node.id)
            if isExpanded(segment: s, index: i) {
                collapseRuns(after: s)
                renumber(from: s)
            }
            return
        }
        guard let kids = children(node), !kids.isEmpty else {
            isBranchCache[node.id] = false
            return
        }
        if recursive {
            if expand {
                if recursiveExpansionLimit > 0 {
                    expanded.formUnion(Self.allBranchIDs(of: kids, children: children, limit: recursiveExpansionLimit))
                }
            } else {
                unmarkSubtree(kids, from: &expanded)
            }
        }
        if expand { expanded.insert(node.id) } else { expanded.remove(node.id) }
        if isExpanded(segment: s, index: i) { collapseRuns(after: s) }
        if expand {
            // Split the run after the node, and put the children's runs in between.
            let seg = segments[s]
            var inserted: [OutlineSegment<Node>] = []
            var nextRow = row + 1
            appendSegments(of: kids, from: 0, depth: seg.depth + 1, expanded: expanded, into: &inserted, row: &nextRow)
            if i + 1 < seg.end {
                inserted.append(
                    OutlineSegment(
                        nodes: seg.nodes, start: i + 1, end: seg.end, depth: seg.depth, firstRow: nextRow,
                        lastIsExpanded: seg.lastIsExpanded))
            }
            segments[s].end = i + 1
            segments[s].lastIsExpanded = true
            segments.insert(contentsOf: inserted, at: s + 1)
            s += inserted.count
        }
        renumber(from: s)
    }

    /// Removes the runs of the expanded last node of run `s` and joins its following siblings back on.
    @inlinable
    mutating func collapseRuns(after s: Int) {
        let depth = segments[s].depth
        var t = s + 1
        while t < segments.count && segments[t].depth > depth { t += 1 }
        segments[s].lastIsExpanded = false
        if t < segments.count && segments[t].depth == depth {
            // The next run at the same depth continues the same sibling array.
            segments[s].end = segments[t].end
            segments[s].lastIsExpanded = segments[t].lastIsExpanded
            t += 1
        }
        segments.removeSubrange((s + 1)..<t)
    }

    /// Recomputes `firstRow` from run `s` on, and the row count.
    @inlinable
    mutating func renumber(from s: Int) {
        var row = segments[s].firstRow
        for k in s..<segments.count {
            segments[k].firstRow = row
            row += segments[k].count
        }
        rowCount = row
    }

    /// Forgets the expansion of every node below `nodes` whose parent chain is expanded
    /// (the outline reads only expanded subtrees).
    @inlinable
    func unmarkSubtree(_ nodes: [Node], from expanded: inout Set<Node.ID>) {
        for node in nodes where expanded.remove(node.id) != nil {
            if let kids = children(node) { unmarkSubtree(kids, from: &expanded) }
        }
    }

    /// The nodes with children: the expanded set of "expand all". Reads the tree level by
    /// level and stops after `limit` nodes, so a huge or endless tree (a file system, links
    /// that fan out) opens its upper levels in bounded time instead of hanging the frame.
    @inlinable
    public static func allBranchIDs(of roots: [Node], children: (Node) -> [Node]?, limit: Int = 100_000) -> Set<Node.ID>
    {
        var ids = Set<Node.ID>()
        var queue = roots
        var next = 0
        while next < queue.count && next < limit {
            let node = queue[next]
            next += 1
            if let kids = children(node), !kids.isEmpty {
                ids.insert(node.id)
                queue.append(contentsOf: kids.prefix(max(0, limit - queue.count)))
            }
        }
        return ids
    }
}

/// What an arrow key does in an outline (the Finder / Explorer rules).
public enum OutlineArrowAction: Equatable, Sendable {
    /// Expand the current row.
    case expand
    /// Collapse the current row.
    case collapse
    /// Move the selection to the row at this index.
    case select(Int)
    /// Nothing to do.
    case none

    /// Right on a collapsed branch expands it, on an expanded one moves to its first child;
    /// Left on an expanded branch collapses it, elsewhere moves to the parent.
    public static func forKey(
        right: Bool, index: Int, isBranch: Bool, isExpanded: Bool, rowCount: Int,
        parent: () -> Int?
    ) -> OutlineArrowAction {
        if right {
            guard isBranch else { return .none }
            if !isExpanded { return .expand }
            return index + 1 < rowCount ? .select(index + 1) : .none
        }
        if isBranch && isExpanded { return .collapse }
        return parent().map { .select($0) } ?? .none
    }
}
