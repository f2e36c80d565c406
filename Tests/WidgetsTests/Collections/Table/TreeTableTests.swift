import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// The tree table (`ui.table(_:roots:children:expanded:)`) in the real renderer, over a tree
/// of 1,010,100 nodes made on demand: the chevron, arrows and alt-click expand and collapse,
/// only expanded subtrees are read, and sorting applies within each level. Harness: 640×480,
/// header 28 pt, rows 24 pt.
final class TreeTableTests: XCTestCase {
    struct Node: Identifiable, Sendable {
        let path: [Int]
        var id: [Int] { path }
        var name: String {
            (["Group", "Item", "Leaf"][path.count - 1]) + " " + path.map(String.init).joined(separator: ".")
        }
        var size: Int { path.reduce(0) { $0 * 100 + $1 } }
    }

    final class Model {
        var expanded: Set<[Int]> = []
        var selection: Set<[Int]> = []
        var order: [KeyComparator<Node>] = []
        let reads = Locked(0)
        var info: TableInfo?
        var drawn: [String] = []
    }

    @MainActor
    private static func build(_ m: Model) -> (UI) -> Void {
        let roots = (0..<100).map { Node(path: [$0]) }
        let reads = m.reads
        return { ui in
            m.drawn = []
            m.info = ui.table(
                "tree", roots: roots,
                children: { node in
                    reads.withLock { $0 += 1 }
                    return node.path.count < 3 ? (0..<100).map { Node(path: node.path + [$0]) } : nil
                }, expanded: Binding(m, \.expanded), selection: Binding(m, \.selection), sortOrder: Binding(m, \.order)
            ) {
                TableColumn("Name", value: \Node.name)
                TableColumn("Size", value: \Node.size) { node in
                    m.drawn.append(node.name)
                    return "\(node.size)"
                }
            }
        }
    }

    private static func rowY(_ i: Int) -> Double { 28 + 24 * Double(i) + 12 }
    private static func chevronX(depth: Int) -> Double { 6 + 16 * Double(depth) + 8 }

    func testTheFirstColumnEditsBesideItsChevron() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            var commits: [String] = []
            let roots = (0..<5).map { Node(path: [$0]) }
            let build: (UI) -> Void = { ui in
                ui.table(
                    "tree", roots: roots,
                    children: { node in node.path.count < 2 ? (0..<3).map { Node(path: node.path + [$0]) } : nil },
                    expanded: Binding(m, \.expanded), selection: Binding(m, \.selection)
                ) {
                    TableColumn("Name", value: \Node.name).editable { node, text in
                        commits.append("\(node.path): \(text)")
                    }
                    TableColumn("Size", value: \Node.size) { "\($0.size)" }
                }
            }
            m.expanded = [[1]]
            h.frames(2, build)
            h.click(at: Point(200, Self.rowY(3)), build)  // Item 1.1, at depth 1
            XCTAssertEqual(m.selection, [[1, 1]])
            h.inject.key(.f2)
            h.frames(2, build)
            h.inject.text("Renamed")
            h.frame(build)
            h.shot("tree-table-editing", build)
            // The expanded Group 1 keeps its chevron; the field starts after the edited row's indentation.
            let groupChevron = Rect(x: 6, y: Self.rowY(1) - 8, width: 16, height: 16)
            XCTAssertGreaterThan(h.countPixels(in: groupChevron, differingFrom: h.ui.theme.surface), 8)
            let field = try XCTUnwrap(
                h.inkBounds(
                    in: Rect(x: 0, y: Self.rowY(3) - 12, width: 300, height: 24),
                    differingFrom: h.ui.theme.controlPressed))  // the selected row's background
            XCTAssertGreaterThanOrEqual(
                field.minX, 6 + 16 + 16, "the field sits past the depth-1 indentation and chevron: \(field)")
            h.inject.key(.returnKey)
            h.frames(2, build)
            XCTAssertEqual(commits, ["[1, 1]: Renamed"])
        }
    }

    func testTheChevronAndTheArrowsExpandAndCollapseReadingOnlyWhatIsOpened() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            let build = Self.build(m)
            h.frames(2, build)
            XCTAssertEqual(m.drawn.first, "Group 0")
            let readsAtStart = m.reads.withLock { $0 }
            XCTAssertLessThan(readsAtStart, 60, "only drawn rows are asked whether they have children")
            h.click(at: Point(Self.chevronX(depth: 0), Self.rowY(1)), build)  // Group 1's chevron
            h.frame(build)
            XCTAssertEqual(m.expanded, [[1]])
            XCTAssertEqual(Array(m.drawn.prefix(4)), ["Group 0", "Group 1", "Item 1.0", "Item 1.1"])
            XCTAssertLessThan(
                m.reads.withLock { $0 } - readsAtStart, 60, "one group's children, and the drawn rows' questions")

            // Arrows: select Group 3 (row 103 after Group 1's 100 items), → opens it, → moves in, ← back out, ← closes.
            h.click(at: Point(200, Self.rowY(0)), build)  // Group 0: focus and select
            h.inject.key(.down)
            h.frame(build)
            XCTAssertEqual(m.selection, [[1]])
            h.inject.key(.right)
            h.frame(build)
            XCTAssertEqual(m.selection, [[1, 0]], "→ on an open row moves to its first child")
            h.inject.key(.left)
            h.frame(build)
            XCTAssertEqual(m.selection, [[1]], "← on a child moves to its parent")
            h.inject.key(.left)
            h.frame(build)
            XCTAssertEqual(m.expanded, [], "← on an open row closes it")
            h.inject.key(.right)
            h.frame(build)
            XCTAssertEqual(m.expanded, [[1]], "→ opens it again")

            // Alt-click on Group 0's chevron opens its whole subtree: 100 items and 10,000 leaves.
            h.inject.key(Key(rawValue: 226 | (1 << 30)), down: true, modifiers: .alt)
            h.click(at: Point(Self.chevronX(depth: 0), Self.rowY(0)), build)
            h.inject.key(Key(rawValue: 226 | (1 << 30)), down: false)
            h.frame(build)
            XCTAssertEqual(m.expanded.count, 1 + 1 + 100, "Group 0, its 100 items, and Group 1")
            XCTAssertEqual(Array(m.drawn.prefix(3)), ["Group 0", "Item 0.0", "Leaf 0.0.0"])
            h.ui.scrollTable("tree", toOffset: 24 * 10_101)
            h.frames(2, build)
            XCTAssertEqual(
                m.drawn.dropFirst().first, "Group 1", "below Group 0's 10,100 rows (after one row of overscan)")
            XCTAssertLessThan(m.drawn.count, 30, "a frame draws the rows in view, not the tree")
        }
    }

    func testSortingAppliesWithinEachLevel() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            m.expanded = [[2]]
            let build = Self.build(m)
            h.frames(2, build)
            XCTAssertEqual(Array(m.drawn.prefix(5)), ["Group 0", "Group 1", "Group 2", "Item 2.0", "Item 2.1"])
            h.click(at: Point(100, 14), build)  // Name: ascending (natural order: as built)
            h.click(at: Point(100, 14), build)  // Name again: descending
            h.frame(build)
            XCTAssertEqual(m.order.first?.order, .reverse)
            XCTAssertEqual(
                Array(m.drawn.prefix(3)), ["Group 99", "Group 98", "Group 97"],
                "the roots sorted, by value: 99 before 10")
            h.ui.scrollTable("tree", toOffset: 24 * 97)
            h.frames(2, build)
            XCTAssertEqual(
                Array(m.drawn.dropFirst().prefix(4)), ["Group 2", "Item 2.99", "Item 2.98", "Item 2.97"],
                "Group 2's items sorted among themselves, under it (after one row of overscan)")
        }
    }

    func testTypeAheadScansATreeSortedOnlyWithinItsLevels() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            m.expanded = [[19], [5]]
            m.order = [KeyComparator(\Node.name, id: "Name", order: .reverse)]
            let build = Self.build(m)
            h.frames(2, build)
            h.click(at: Point(200, Self.rowY(0)), build)  // Group 99: selected, the table focused
            XCTAssertEqual(m.selection, [[99]])
            for c in "item 5.9" { h.inject.key(Key(c)) }
            h.frame(build)
            // Descending within each level: Group 99 … Group 19, its items 19.99 … 19.0, Group 18 … Group 5,
            // Item 5.99, 5.98, …, 5.90, 5.9: the first row after the selection starting with "item 5.9" is Item 5.99.
            XCTAssertEqual(m.selection, [[5, 99]], "found by a scan: the rows are not in one global order")
        }
    }
}
