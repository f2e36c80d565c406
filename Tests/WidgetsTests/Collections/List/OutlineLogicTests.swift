import XCTest
import Render2D
import Imaging
import Profiling
import DemoSupport
@testable import Widgets

/// A tree node for the outline tests; `children` nil = leaf.
struct TreeNode: Identifiable, Sendable {
    let id: Int
    var children: [TreeNode]?
}

/// A tree `fanout` wide per level, `levels` deep; IDs are unique, some branches are empty.
func makeTree(fanout: [Int]) -> [TreeNode] {
    var next = 0
    func level(_ depth: Int) -> [TreeNode] {
        (0..<fanout[depth]).map { i in
            next += 1
            let id = next
            if depth + 1 == fanout.count { return TreeNode(id: id, children: nil) }
            if i == 2 { return TreeNode(id: id, children: []) }  // an empty folder
            return TreeNode(id: id, children: level(depth + 1))
        }
    }
    return level(0)
}

/// The reference: a plain recursive walk of what should be visible.
func referenceRows(_ nodes: [TreeNode], expanded: Set<Int>, depth: Int = 0) -> [(Int, Int)] {
    nodes.flatMap { node -> [(Int, Int)] in
        var rows = [(node.id, depth)]
        if expanded.contains(node.id), let kids = node.children {
            rows += referenceRows(kids, expanded: expanded, depth: depth + 1)
        }
        return rows
    }
}

final class OutlineLogicTests: XCTestCase {
    private func assertMatchesReference(
        _ flat: OutlineFlattening<TreeNode>, _ tree: [TreeNode], _ expanded: Set<Int>,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let got = flat.allRows().map { ($0.node.id, $0.depth) }
        let want = referenceRows(tree, expanded: expanded)
        XCTAssertEqual(got.map(\.0), want.map(\.0), file: file, line: line)
        XCTAssertEqual(got.map(\.1), want.map(\.1), file: file, line: line)
    }

    func testRandomExpandAndCollapseMatchesAFullWalk() {
        let tree = makeTree(fanout: [6, 5, 4, 3])
        var allBranches: [Int] = []
        func collect(_ nodes: [TreeNode]) {
            for n in nodes {
                if let k = n.children {
                    allBranches.append(n.id)
                    collect(k)
                }
            }
        }
        collect(tree)
        var rng = SplitMix64(seed: 42)
        var expanded: Set<Int> = []
        var flat = OutlineFlattening(roots: tree, children: { $0.children }, expanded: expanded)
        for step in 0..<400 {
            if step % 3 == 0 {
                // The app edits the set directly: a batch of changes applied at once.
                for _ in 0..<rng.next(below: 6) {
                    let id = allBranches[rng.next(below: allBranches.count)]
                    if expanded.contains(id) { expanded.remove(id) } else { expanded.insert(id) }
                }
                flat.apply(expanded: expanded)
            } else if flat.count > 0 {
                // The user clicks a visible row's chevron (alt-click sometimes).
                let index = rng.next(below: flat.count)
                let recursive = rng.next() % 7 == 0
                flat.setExpanded(at: index, !flat.row(at: index).isExpanded, recursive: recursive, expanded: &expanded)
            }
            assertMatchesReference(flat, tree, expanded)
            if flat.count != referenceRows(tree, expanded: expanded).count { return }
        }
    }

    func testChildrenAreReadOnlyForExpandedOrDrawnNodes() {
        let tree = makeTree(fanout: [10, 10, 10, 10])
        var reads: [Int] = []
        var expanded: Set<Int> = [tree[0].id]
        var flat = OutlineFlattening(
            roots: tree,
            children: {
                reads.append($0.id)
                return $0.children
            }, expanded: expanded)
        XCTAssertEqual(reads, [tree[0].id], "building reads only the expanded root")
        XCTAssertEqual(flat.count, 20)

        // Drawing rows 0..<5 asks whether they are branches: one read each, cached.
        reads = []
        for i in 0..<5 { _ = flat.isBranch(at: i) }
        for i in 0..<5 { _ = flat.isBranch(at: i) }
        XCTAssertEqual(
            reads,
            [tree[0].children![0].id, tree[0].children![1].id, tree[0].children![2].id, tree[0].children![3].id],
            "row 0 was read when built; rows 1-4 once each")

        // Expanding reads the expanded node itself, nothing below it.
        reads = []
        flat.setExpanded(at: 1, true, expanded: &expanded)
        XCTAssertEqual(reads, [tree[0].children![0].id])
        XCTAssertEqual(flat.count, 30)

        // Collapsing never reads; a collapsed subtree of 1,110 nodes was never touched.
        reads = []
        flat.setExpanded(at: 0, false, expanded: &expanded)
        XCTAssertEqual(reads, [])
        XCTAssertEqual(flat.count, 10)
        XCTAssertTrue(
            expanded.contains(tree[0].children![0].id), "a nested expansion is remembered while its parent is collapsed"
        )
    }

    func testWithAnExpandabilityHintDrawnRowsAreNotReadAtAll() {
        let tree = makeTree(fanout: [3, 4, 2])
        var reads: [Int] = []
        var expanded: Set<Int> = []
        var flat = OutlineFlattening(
            roots: tree,
            children: {
                reads.append($0.id)
                return $0.children
            }, expanded: expanded)
        flat.isExpandable = { _ in true }  // a file system: any folder may have subfolders
        for i in 0..<flat.count { XCTAssertTrue(flat.isBranch(at: i)) }
        XCTAssertEqual(reads, [], "drawing reads nothing")
        flat.setExpanded(at: 2, true, expanded: &expanded)  // root 2 is the empty folder
        XCTAssertEqual(reads, [tree[2].id], "expanding reads the folder")
        XCTAssertFalse(flat.isBranch(at: 2), "found empty: no chevron any more")
        XCTAssertEqual(flat.count, 3)
    }

    func testAltClickExpandsAndCollapsesAWholeSubtree() {
        let tree = makeTree(fanout: [3, 4, 5])
        var expanded: Set<Int> = []
        var flat = OutlineFlattening(roots: tree, children: { $0.children }, expanded: expanded)
        flat.setExpanded(at: 0, true, recursive: true, expanded: &expanded)
        // Root 0: 4 items, item 2 empty; 3 non-empty items × 5 leaves.
        XCTAssertEqual(flat.count, 3 + 4 + 15)
        assertMatchesReference(flat, tree, expanded)
        flat.setExpanded(at: 0, false, recursive: true, expanded: &expanded)
        XCTAssertEqual(expanded, [])
        XCTAssertEqual(flat.count, 3)
    }

    func testDataChangesAreNoticedByRootIDs() {
        let tree = makeTree(fanout: [4, 2])
        let flat = OutlineFlattening(roots: tree, children: { $0.children }, expanded: [])
        XCTAssertFalse(flat.rootsDiffer(from: tree))
        XCTAssertTrue(flat.rootsDiffer(from: Array(tree.dropLast())))
        XCTAssertTrue(flat.rootsDiffer(from: tree.reversed()))
    }

    func testArrowKeysFollowTheFinderRules() {
        let tree = makeTree(fanout: [2, 3, 2])
        var expanded: Set<Int> = [tree[0].id]
        var flat = OutlineFlattening(roots: tree, children: { $0.children }, expanded: expanded)
        func action(_ right: Bool, _ i: Int) -> OutlineArrowAction {
            let branch = flat.isBranch(at: i)
            return OutlineArrowAction.forKey(
                right: right, index: i, isBranch: branch, isExpanded: flat.row(at: i).isExpanded,
                rowCount: flat.count, parent: { flat.parent(of: i) })
        }
        XCTAssertEqual(action(true, 0), .select(1), "Right on an expanded branch goes to its first child")
        XCTAssertEqual(action(true, 1), .expand, "Right on a collapsed branch expands it")
        XCTAssertEqual(action(true, 3), .none, "row 3 is the empty folder: nothing to expand")
        XCTAssertEqual(action(false, 0), .collapse)
        XCTAssertEqual(action(false, 2), .select(0), "Left on a collapsed child goes to the parent")
        XCTAssertEqual(action(false, 4), .none, "Left on a collapsed root does nothing")
        flat.setExpanded(at: 1, true, expanded: &expanded)
        XCTAssertEqual(action(false, 2), .select(1), "Left on a leaf goes to its parent")
    }

    func testVisibleRangeAtAHundredThousandRowsIsArithmetic() {
        // 110,100 rows in two sections: the visible slots near the end come straight from the offset.
        let geometry = RowGeometry(rowHeight: 24, rowCount: 110_100, sectionStarts: [0, 10_100])
        let height = 776.0
        let offset = geometry.contentHeight - height
        let slots = geometry.visibleSlots(offset: offset, height: height, overscan: 0)
        XCTAssertEqual(slots.upperBound, geometry.slotCount)
        XCTAssertEqual(slots.lowerBound, Int((offset / 24).rounded(.down)), "the first slot comes from the offset")
        XCTAssertEqual(slots.count, 33, "776 px of 24 px rows ending on a row boundary")
        XCTAssertEqual(geometry.slot(slots.upperBound - 1), .row(110_099))
        XCTAssertEqual(geometry.slot(10_101), .header(section: 1))
    }
}

final class ExpandAllBoundTests: XCTestCase {
    struct Endless: Identifiable, Hashable { let id: Int }

    func testExpandAllOnAnEndlessTreeReadsABoundedNumberOfNodesShallowestFirst() {
        // Every node has 10 children, for ever (a file system seen through links that fan out).
        var reads = 0
        let ids = OutlineFlattening<Endless>.allBranchIDs(
            of: [Endless(id: 0)],
            children: { node in
                reads += 1
                return (1...10).map { Endless(id: node.id * 10 + $0) }
            }, limit: 5_000)
        XCTAssertLessThanOrEqual(reads, 5_000)
        XCTAssertTrue(ids.contains(0) && ids.contains(1) && ids.contains(11), "the upper levels are open")
        XCTAssertFalse(ids.contains(11_111), "not a deep path before the shallow ones")
    }

    /// Alt-click on a huge tree (a file system's) reads a bounded number of nodes' children in
    /// the frame, instead of listing every folder below: an endless tree used to hang it.
    func testAltClickOnAnEndlessTreeReadsABoundedNumberOfNodes() {
        var reads = 0
        var expanded: Set<Int> = []
        var flat = OutlineFlattening<Endless>(
            roots: [Endless(id: 0)],
            children: { node in
                reads += 1
                return (1...10).map { Endless(id: node.id &* 10 &+ $0) }
            }, expanded: expanded)
        flat.setExpanded(at: 0, true, recursive: true, expanded: &expanded)
        // Each read once to find it has children, and the open ones once more to lay them out.
        XCTAssertLessThanOrEqual(reads, 2 * flat.recursiveExpansionLimit + 10, "bounded")
        XCTAssertGreaterThan(expanded.count, 100, "and what was read is open")
        XCTAssertGreaterThan(flat.count, 100)
    }
}
