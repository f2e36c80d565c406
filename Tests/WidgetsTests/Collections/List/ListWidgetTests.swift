import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Lists, outlines, sections, swipe actions and reordering in the real renderer, driven by
/// injected SDL events. Harness: 640×480; plain rows are 24 pt, so row i's centre is at
/// y = 24 i + 12, and a row at depth d has its chevron centred at x = 16 + 16 d.
final class ListWidgetTests: XCTestCase {
    final class Model {
        var tree = makeTree(fanout: [3, 4, 5])
        var selection: Set<Int> = []
        var expanded: Set<Int> = []
        var info: ListInfo?
        var menus: [Set<Int>] = []
        var actions: [String] = []
        var moves: [(Int, Int)] = []
        var items = (0..<6).map { TreeNode(id: 100 + $0, children: nil) }
    }

    private static let altKey = Key(rawValue: 226 | (1 << 30))
    private static let shiftKey = Key(rawValue: 225 | (1 << 30))
    private static func rowY(_ i: Int) -> Double { 24 * Double(i) + 12 }

    @MainActor
    private static func outline(_ m: Model) -> (UI) -> Void {
        { ui in
            m.info = ui.list(
                "tree", m.tree, children: \.children, selection: Binding(m, \.selection),
                expanded: Binding(m, \.expanded),
                contextMenu: { ids in
                    m.menus.append(ids)
                    ui.menuItem("Delete \(ids.count)")
                }
            ) {
                ListRowContent("Node \($0.id)", icon: .folder)
            }
        }
    }

    func testRowsOfWidgetsTakeTheirMeasuredHeightsAndKeepTheirPlaceWhileMeasured() throws {
        try onMain {
            let h = try Harness()
            struct Note: Identifiable { let id: Int }
            let notes = (0..<300).map(Note.init)
            var selection: Set<Int> = []
            var top: [Int: Double] = [:]
            var info: ListInfo?
            let height = { (i: Int) in 24 + Double(i % 3) * 20 }  // 24, 44, 64, ...
            let build: (UI) -> Void = { ui in
                top = [:]
                info = ui.list("notes", notes, selection: Binding(get: { selection }, set: { selection = $0 })) {
                    ui, note in
                    ui.frame(height: height(note.id)) {
                        top[note.id] = ui.availableRect.minY
                        ui.drawList.addRect(
                            ui.availableRect.insetBy(dx: 0, dy: 2), color: note.id % 2 == 0 ? .red : .blue)
                    }
                }
            }
            h.frames(2, build)
            XCTAssertEqual(try XCTUnwrap(top[1]) - XCTUnwrap(top[0]), 24)
            XCTAssertEqual(try XCTUnwrap(top[2]) - XCTUnwrap(top[1]), 44)
            XCTAssertEqual(try XCTUnwrap(top[3]) - XCTUnwrap(top[2]), 64, "each row as tall as its content")
            XCTAssertLessThan(info!.visibleRows.count, 20, "only the rows in view are built")
            // The bottom of the tall row 2 belongs to row 2.
            h.click(at: Point(200, try XCTUnwrap(top[2]) + 58), build)
            XCTAssertEqual(selection, [2])
            h.shot("list-variable-rows", build)
            XCTAssertGreaterThan(
                h.countPixels(
                    in: Rect(x: 300, y: try XCTUnwrap(top[2]) + 50, width: 10, height: 10), where: { $0 == .red }), 50)
            // Far into unmeasured rows, the row scrolled to stays put while rows around it are measured.
            h.ui.scrollList("notes", toRow: 200, anchor: .top)
            h.frame(build)
            let first = try XCTUnwrap(top[200])
            for _ in 0..<3 {
                h.frame(build)
                XCTAssertEqual(try XCTUnwrap(top[200]), first, accuracy: 0.5)
            }
            XCTAssertEqual(try XCTUnwrap(top[201]) - first, height(200))
            // Wheel back up into rows measured for the first time: once the wheel's glide ends,
            // nothing on screen moves while they are measured.
            h.inject.mouseMove(to: Point(200, 200))
            h.inject.wheel(dy: 2)
            h.frames(12, build)
            let row = try XCTUnwrap(top.keys.sorted().dropFirst(2).first)
            XCTAssertLessThan(row, 200, "scrolled up")
            let before = try XCTUnwrap(top[row])
            h.frames(2, build)
            XCTAssertEqual(try XCTUnwrap(top[row]), before, accuracy: 0.5)
        }
    }

    /// Nested rows of widgets keep their trailing text: every row's cell frame had the same
    /// name, so a child row (a narrower cell) laid out its spacer from another row's measurements
    /// and cut its value to "…".
    func testNestedOutlineRowsOfWidgetsShowTheirTrailingText() throws {
        try onMain {
            struct Stat: Identifiable {
                let id: String
                let value: String
                var children: [Stat]?
            }
            let tree = [
                Stat(
                    id: "Minimum population", value: "City 1234",
                    children: [
                        Stat(id: "selected", value: "1500", children: nil),
                        Stat(id: "count", value: "6", children: nil),
                    ]),
                Stat(id: "Other", value: "9", children: nil),
            ]
            let h = try Harness(width: 300, height: 300)
            var expanded: Set<String> = ["Minimum population"]
            let build: (UI) -> Void = { ui in
                ui.list("stats", style: .sidebar) {
                    ui.outlineGroup(
                        tree, children: \.children, expanded: Binding(get: { expanded }, set: { expanded = $0 })
                    ) { ui, stat in
                        ui.hstack {
                            ui.text(stat.id)
                            ui.spacer()
                            ui.text(stat.value)
                        }
                    }
                }
            }
            h.frames(4, build)
            for text in ["Minimum population", "City 1234", "selected", "1500", "count", "6", "Other", "9"] {
                XCTAssertNotNil(h.rect(ofText: text), "\(text) is drawn whole: \(h.drawnText)")
            }
            let value = try XCTUnwrap(h.rect(ofText: "1500")), name = try XCTUnwrap(h.rect(ofText: "selected"))
            XCTAssertGreaterThan(value.minX, name.maxX + 20, "the value stands at the trailing edge")
        }
    }

    func testAnOutlineOfWidgetRowsLaysOutChildrenAfterATallParent() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            let (first, second) = (m.tree[0].id, m.tree[1].id)
            var top: [Int: Double] = [:]
            let build: (UI) -> Void = { ui in
                top = [:]
                ui.list("tree", selection: Binding(m, \.selection)) {
                    ui.outlineGroup(m.tree, children: \.children, expanded: Binding(m, \.expanded)) { ui, node in
                        ui.frame(height: node.id == first ? 60 : 24) { top[node.id] = ui.availableRect.minY }
                    }
                }
            }
            h.frames(2, build)
            XCTAssertEqual(try XCTUnwrap(top[second]) - XCTUnwrap(top[first]), 60, "the tall first root")
            m.expanded = [first]
            h.frames(2, build)
            let child = try XCTUnwrap(m.tree[0].children?.first?.id)
            XCTAssertEqual(try XCTUnwrap(top[child]) - XCTUnwrap(top[first]), 60, "its first child right below it")
            XCTAssertEqual(
                try XCTUnwrap(top[second]) - XCTUnwrap(top[first]), 60 + 24 * 4, "the next root after its four children"
            )
        }
    }

    func testClickingAChevronExpandsAndShowsTheChildren() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            let build = Self.outline(m)
            h.frame(build)
            XCTAssertEqual(m.info?.rowCount, 3)
            let childRow = Rect(x: 30, y: 24, width: 200, height: 24)
            let beforeInk = h.countPixels(
                in: Rect(x: 0, y: 24, width: 640, height: 48), differingFrom: h.ui.theme.surface)
            h.click(at: Point(16, Self.rowY(0)), build)
            h.frame(build)
            XCTAssertEqual(m.expanded, [m.tree[0].id], "the chevron expands through the app's binding")
            XCTAssertEqual(m.info?.rowCount, 7, "root 0 shows its 4 children")
            XCTAssertEqual(m.selection, [], "a chevron click does not select")
            // Row 1 is now a child: indented one level, so its ink starts one indent further right
            // than the root's, and its label is drawn.
            let rootInk = try XCTUnwrap(
                h.inkBounds(in: Rect(x: 0, y: 5 * 24 + 2, width: 640, height: 20), differingFrom: h.ui.theme.surface))
            let childInk = try XCTUnwrap(
                h.inkBounds(in: Rect(x: 0, y: 26, width: 640, height: 20), differingFrom: h.ui.theme.surface))
            XCTAssertEqual(
                childInk.minX - rootInk.minX, 16, accuracy: 1, "one level of indentation (row 5 is the next root)")
            XCTAssertGreaterThan(childInk.width, 40, "chevron, icon and label")
            XCTAssertGreaterThan(h.countPixels(in: childRow, differingFrom: h.ui.theme.surface), 60)
            XCTAssertNotEqual(
                h.countPixels(in: Rect(x: 0, y: 24, width: 640, height: 48), differingFrom: h.ui.theme.surface),
                beforeInk)
            // Double-clicking a collapsed child row expands it too.
            h.inject.mouseMove(to: Point(200, Self.rowY(1)))
            h.frame(build)
            for clicks in 1...2 {
                h.inject.mouseButton(.left, down: true, at: Point(200, Self.rowY(1)), clicks: clicks)
                h.frame(build)
                h.inject.mouseButton(.left, down: false, at: Point(200, Self.rowY(1)), clicks: clicks)
                h.frame(build)
            }
            h.frame(build)
            XCTAssertEqual(m.info?.rowCount, 12, "the child's 5 leaves appear")
            XCTAssertEqual(m.selection, [m.tree[0].children![0].id])
        }
    }

    func testArrowKeysWalkTheTree() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            let build = Self.outline(m)
            h.frame(build)
            h.click(at: Point(200, Self.rowY(0)), build)  // select and focus root 0
            XCTAssertEqual(m.selection, [m.tree[0].id])
            @MainActor func press(_ key: Key) {
                h.inject.tap(key)
                h.frame(build)
                h.frame(build)
            }
            press(.right)
            XCTAssertEqual(m.info?.rowCount, 7, "Right expands")
            press(.right)
            XCTAssertEqual(m.selection, [m.tree[0].children![0].id], "Right again moves to the first child")
            press(.down)
            XCTAssertEqual(m.selection, [m.tree[0].children![1].id])
            press(.left)
            XCTAssertEqual(m.selection, [m.tree[0].id], "Left on a collapsed child moves to the parent")
            press(.left)
            XCTAssertEqual(m.info?.rowCount, 3, "Left on an expanded node collapses it")
            press(.down)
            XCTAssertEqual(m.selection, [m.tree[1].id])
        }
    }

    func testAltClickExpandsAndCollapsesAWholeSubtree() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            let build = Self.outline(m)
            h.frame(build)
            h.inject.key(Self.altKey, down: true, modifiers: .alt)
            h.click(at: Point(16, Self.rowY(0)), build)
            h.frame(build)
            XCTAssertEqual(
                m.info?.rowCount, 3 + 4 + 15, "root 0, its 4 children and the leaves of the 3 non-empty ones")
            h.click(at: Point(16, Self.rowY(0)), build)
            h.inject.key(Self.altKey, down: false)
            h.frame(build)
            XCTAssertEqual(m.info?.rowCount, 3)
            XCTAssertEqual(m.expanded, [], "alt-collapse forgets the nested expansions too")
        }
    }

    func testSelectionAndContextMenuWorkAsInTheTable() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            let build = Self.outline(m)
            h.frame(build)
            h.click(at: Point(200, Self.rowY(0)), build)
            h.inject.key(Self.shiftKey, down: true, modifiers: .shift)
            h.click(at: Point(200, Self.rowY(2)), build)
            h.inject.key(Self.shiftKey, down: false)
            h.frame(build)
            XCTAssertEqual(m.selection, Set(m.tree.map(\.id)), "shift-click selects the range")
            XCTAssertLessThan(
                h.countPixels(
                    in: Rect(x: 400, y: 2, width: 100, height: 68), differingFrom: h.ui.theme.accent, tolerance: 30),
                10,
                "the focused list draws its selected rows in the accent color")
            h.click(at: Point(200, Self.rowY(1)), button: .right, build)
            h.frame(build)
            XCTAssertEqual(m.menus.last, Set(m.tree.map(\.id)), "the menu applies to the whole selection")
            h.inject.tap(.escape)
            h.frame(build)
            h.click(at: Point(200, Self.rowY(1)), build)
            XCTAssertEqual(m.selection, [m.tree[1].id], "a plain click selects one")
        }
    }

    func testSidebarSectionHeadersCollapseTheirSection() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            var drawn: [Int] = []
            let build: (UI) -> Void = { ui in
                drawn = []
                m.info = ui.list("sidebar", selection: Binding(m, \.selection), style: .sidebar) {
                    ui.section("Library") {
                        ui.forEach(m.items.prefix(3)) {
                            drawn.append($0.id)
                            return ListRowContent("Item \($0.id)")
                        }
                    }
                    ui.section("Canvases") {
                        ui.outlineGroup(m.tree, children: \.children) {
                            drawn.append($0.id)
                            return ListRowContent("Node")
                        }
                    }
                }
            }
            h.frame(build)
            XCTAssertEqual(m.info?.rowCount, 6)
            XCTAssertEqual(drawn, [100, 101, 102] + m.tree.map(\.id))
            h.click(at: Point(100, 14), build)  // the "Library" header (sidebar rows are 28 pt)
            h.frame(build)
            XCTAssertEqual(m.info?.rowCount, 3, "Library's rows are hidden")
            XCTAssertEqual(drawn, m.tree.map(\.id))
            // Canvases' header moved up to the second slot; clicking it hides the outline too.
            h.click(at: Point(100, 28 + 14), build)
            h.frame(build)
            XCTAssertEqual(m.info?.rowCount, 0)
            h.click(at: Point(100, 14), build)
            h.frame(build)
            XCTAssertEqual(m.info?.rowCount, 3, "Library opens again")
        }
    }

    func testSectionsWithTheSameTitleCollapseSeparately() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            var drawn: [Int] = []
            let build: (UI) -> Void = { ui in
                drawn = []
                m.info = ui.list("albums", selection: Binding(m, \.selection), style: .sidebar) {
                    ui.section("Photos") {
                        ui.forEach(m.items.prefix(2)) {
                            drawn.append($0.id)
                            return ListRowContent("A \($0.id)")
                        }
                    }
                    ui.section("Photos") {
                        ui.forEach(m.items.dropFirst(2).prefix(3)) {
                            drawn.append($0.id)
                            return ListRowContent("B \($0.id)")
                        }
                    }
                }
            }
            h.frame(build)
            XCTAssertEqual(m.info?.rowCount, 5)
            h.click(at: Point(100, 14), build)  // the first "Photos" header
            h.frame(build)
            XCTAssertEqual(m.info?.rowCount, 3, "only the first section collapses")
            XCTAssertEqual(drawn, [102, 103, 104])
            // The second header is now in the second slot: collapsing it leaves nothing.
            h.click(at: Point(100, 28 + 14), build)
            h.frame(build)
            XCTAssertEqual(m.info?.rowCount, 0)
            h.click(at: Point(100, 14), build)
            h.frame(build)
            XCTAssertEqual(drawn, [100, 101], "the first opens alone")
        }
    }

    func testASwipeRevealsTheRowsActions() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            let build: (UI) -> Void = { ui in
                m.info = ui.list("swipe", selection: Binding(m, \.selection)) {
                    ui.forEach(
                        m.items,
                        swipeActions: { item in
                            [SwipeAction("Delete", isDestructive: true) { m.actions.append("delete \(item.id)") }]
                        }
                    ) { ListRowContent("Item \($0.id)") }
                }
            }
            h.frame(build)
            let destructive = h.ui.theme.destructive
            let actionArea = Rect(x: 580, y: 26, width: 50, height: 20)
            XCTAssertGreaterThan(h.countPixels(in: actionArea, differingFrom: destructive), 900, "nothing revealed yet")
            h.drag(from: Point(500, Self.rowY(1)), to: Point(380, Self.rowY(1)), build)
            h.frames(20, build)
            XCTAssertLessThan(
                h.countPixels(in: actionArea, differingFrom: destructive, tolerance: 40), 300,
                "the Delete action shows in red behind row 1")
            XCTAssertEqual(m.selection, [], "a swipe is not a click")
            h.click(at: Point(600, Self.rowY(1)), build)
            XCTAssertEqual(m.actions, ["delete 101"])
            h.frames(20, build)
            XCTAssertGreaterThan(
                h.countPixels(in: actionArea, differingFrom: destructive), 900, "the row closed after the action")

            // A touch swipe works the same way: a finger dragged left along row 2.
            let y = Self.rowY(2)
            h.inject.finger(1, .down, at: Point(520, y))
            h.frame(build)
            for step in 1...8 {
                h.inject.finger(1, .moved, at: Point(520 - Double(step) * 18, y), delta: Point(-18, 0))
                h.frame(build)
            }
            h.inject.finger(1, .up, at: Point(376, y))
            h.frames(20, build)
            XCTAssertLessThan(
                h.countPixels(in: actionArea.offsetBy(dx: 0, dy: 24), differingFrom: destructive, tolerance: 40), 300)
        }
    }

    func testAFullSwipePerformsTheFirstActionAndAShortOneOnlyOpens() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            let build: (UI) -> Void = { ui in
                m.info = ui.list("swipe") {
                    ui.forEach(
                        m.items,
                        swipeActions: { item in
                            [
                                SwipeAction("Archive") { m.actions.append("archive \(item.id)") },
                                SwipeAction("Delete", isDestructive: true) { m.actions.append("delete \(item.id)") },
                            ]
                        }
                    ) { ListRowContent("Item \($0.id)") }
                }
            }
            h.frame(build)
            h.drag(from: Point(600, Self.rowY(1)), to: Point(450, Self.rowY(1)), build)  // 150 pt: the actions open
            h.frames(20, build)
            XCTAssertEqual(m.actions, [], "a short swipe only reveals the actions")
            h.drag(from: Point(620, Self.rowY(3)), to: Point(120, Self.rowY(3)), steps: 12, build)  // 500 of 640 pt
            XCTAssertEqual(m.actions, ["archive 103"], "a full swipe performs the first action")
            h.frames(20, build)
            let accent = h.ui.theme.accent
            XCTAssertGreaterThan(
                h.countPixels(
                    in: Rect(x: 500, y: 24 * 3 + 2, width: 130, height: 20), differingFrom: accent, tolerance: 40),
                2000,
                "the row closed after it")
        }
    }

    func testLeadingActionsShowOnTheLeftAndAFullSwipeRightPerformsTheFirst() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            let build: (UI) -> Void = { ui in
                m.info = ui.list("mail") {
                    ui.forEach(
                        m.items,
                        swipeActions: { item in
                            [SwipeAction("Delete", isDestructive: true) { m.actions.append("delete \(item.id)") }]
                        },
                        leadingSwipeActions: { item in [SwipeAction("Read") { m.actions.append("read \(item.id)") }] }
                    ) {
                        ListRowContent("Item \($0.id)")
                    }
                }
            }
            h.frame(build)
            let accent = h.ui.theme.accent
            let left = Rect(x: 10, y: 24 + 2, width: 50, height: 20)
            XCTAssertGreaterThan(
                h.countPixels(in: left, differingFrom: accent, tolerance: 40), 900, "nothing revealed yet")
            h.drag(from: Point(100, Self.rowY(1)), to: Point(220, Self.rowY(1)), build)  // right: the leading action
            h.frames(20, build)
            XCTAssertLessThan(
                h.countPixels(in: left, differingFrom: accent, tolerance: 40), 300, "Read shows on the left of row 1")
            h.click(at: Point(30, Self.rowY(1)), build)
            XCTAssertEqual(m.actions, ["read 101"])
            h.frames(20, build)
            // A full swipe right performs it at once; a swipe left on the same list still shows Delete.
            h.drag(from: Point(20, Self.rowY(3)), to: Point(560, Self.rowY(3)), steps: 12, build)
            XCTAssertEqual(m.actions, ["read 101", "read 103"])
            h.frames(20, build)
            h.drag(from: Point(500, Self.rowY(4)), to: Point(380, Self.rowY(4)), build)
            h.frames(20, build)
            let destructive = h.ui.theme.destructive
            XCTAssertLessThan(
                h.countPixels(
                    in: Rect(x: 580, y: 24 * 4 + 2, width: 50, height: 20), differingFrom: destructive, tolerance: 40),
                300)
            // Swiping right on that open row closes it rather than opening the other side.
            h.drag(from: Point(300, Self.rowY(4)), to: Point(420, Self.rowY(4)), build)
            h.frames(20, build)
            XCTAssertGreaterThan(
                h.countPixels(
                    in: Rect(x: 580, y: 24 * 4 + 2, width: 50, height: 20), differingFrom: destructive, tolerance: 40),
                900)
            XCTAssertGreaterThan(
                h.countPixels(
                    in: Rect(x: 10, y: 24 * 4 + 2, width: 50, height: 20), differingFrom: accent, tolerance: 40), 900)
        }
    }

    func testEditModeReordersByTheHandle() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            let build: (UI) -> Void = { ui in
                ui.list("tasks", editMode: true) {
                    ui.forEach(
                        m.items,
                        onMove: {
                            m.moves.append(($0, $1))
                            m.items.insert(m.items.remove(at: $0), at: $1)
                        }
                    ) {
                        ListRowContent("Item \($0.id)")
                    }
                }
            }
            h.frame(build)
            // The handle is the 30 pt before the last 10 pt of the row.
            h.drag(from: Point(615, Self.rowY(0)), to: Point(615, Self.rowY(3)), build)
            h.frame(build)
            XCTAssertEqual(m.moves.map(\.0), [0])
            XCTAssertEqual(m.moves.map(\.1), [3])
            XCTAssertEqual(m.items.map(\.id), [101, 102, 103, 100, 104, 105])
        }
    }

    func testARowHeldNearTheBottomEdgeScrollsTheListWhileReordering() throws {
        try onMain {
            let h = try Harness()
            var items = Array(0..<200)
            var moves: [(Int, Int)] = []
            var info: ListInfo?
            let build: (UI) -> Void = { ui in
                info = ui.list("tasks", editMode: true) {
                    ui.forEach(
                        items.map { Item(id: $0, name: "", size: 0, score: 0) },
                        onMove: {
                            moves.append(($0, $1))
                            items.insert(items.remove(at: $0), at: $1)
                        }
                    ) {
                        ListRowContent("Task \($0.id)")
                    }
                }
            }
            h.frame(build)
            // Drag row 1's handle to 6 pt above the list's bottom edge and hold it there for a second.
            h.inject.mouseMove(to: Point(615, Self.rowY(1)))
            h.frame(build)
            h.inject.mouseButton(.left, down: true, at: Point(615, Self.rowY(1)))
            h.frame(build)
            for step in 1...8 {
                h.inject.mouseMove(to: Point(615, Self.rowY(1) + (474 - Self.rowY(1)) * Double(step) / 8), buttons: 1)
                h.frame(build)
            }
            let before = try XCTUnwrap(info?.scrollOffset)
            h.frames(60, build)  // the pointer does not move: the list keeps scrolling on its own
            let after = try XCTUnwrap(info?.scrollOffset)
            XCTAssertGreaterThan(after - before, 400, "about 750 pt a second that close to the edge")
            h.inject.mouseButton(.left, down: false, at: Point(615, 474))
            h.frame(build)
            XCTAssertEqual(moves.first?.0, 1)
            XCTAssertGreaterThan(moves.first?.1 ?? 0, 30, "dropped far below where the drag started")
            // Near the top edge it scrolls back up.
            let bottomOffset = try XCTUnwrap(info?.scrollOffset)
            h.inject.mouseMove(to: Point(615, 240))
            h.frame(build)
            h.inject.mouseButton(.left, down: true, at: Point(615, 240))
            h.frame(build)
            for step in 1...8 {
                h.inject.mouseMove(to: Point(615, 240 - 234 * Double(step) / 8), buttons: 1)
                h.frame(build)
            }
            h.frames(30, build)
            XCTAssertLessThan(try XCTUnwrap(info?.scrollOffset), bottomOffset - 200)
            h.inject.mouseButton(.left, down: false, at: Point(615, 6))
            h.frame(build)
        }
    }

    func testADisclosureGroupBuildsItsContentOnlyWhenOpen() throws {
        try onMain {
            let h = try Harness()
            var open = false
            var builds = 0
            let build: (UI) -> Void = { ui in
                ui.padding(10) {
                    ui.disclosureGroup("Fill", isExpanded: &open) {
                        builds += 1
                        ui.button("Inside")
                    }
                    ui.text("Below")
                }
            }
            h.frames(3, build)
            XCTAssertEqual(builds, 0, "collapsed content is never built")
            let contentArea = Rect(x: 60, y: 40, width: 80, height: 26)  // right of "Below", where the button appears
            XCTAssertEqual(h.countPixels(in: contentArea, differingFrom: h.ui.theme.background), 0)
            h.click(at: Point(60, 23), build)
            XCTAssertTrue(open)
            h.frames(15, build)
            XCTAssertGreaterThan(builds, 0)
            XCTAssertGreaterThan(
                h.countPixels(in: contentArea, differingFrom: h.ui.theme.background), 100, "the button is drawn")
            h.click(at: Point(60, 23), build)
            h.frames(15, build)
            builds = 0
            h.frames(2, build)
            XCTAssertFalse(open)
            XCTAssertEqual(builds, 0)
        }
    }

    func testFormPickersAndColorWell() throws {
        try onMain {
            let h = try Harness()
            var choice = 0
            var color = Color(hex: 0x0A7AFF)
            let build: (UI) -> Void = { ui in
                ui.padding(10) {
                    ui.form(labelWidth: 100) {
                        ui.picker("Align", selection: &choice, options: [("Left", 0), ("Center", 1), ("Right", 2)])
                        ui.colorWell("Fill", color: &color)
                    }
                }
            }
            h.frame(build)
            // Row 1: label column 10..110, the segmented control after it.
            let segments = h.ui.font.measure("Left") + 24
            h.click(at: Point(110 + segments + 10, 23), build)
            XCTAssertEqual(choice, 1, "clicking the second segment selects it")
            // Row 2 (y 10+26+6 = 42): the swatch opens the palette under it; its top-left swatch is red.
            h.click(at: Point(130, 55), build)
            h.frame(build)
            h.shot("colorwell", build)
            h.click(at: Point(110 + 5 + 10, 42 + 26 - 2 + 4 + 5 + 10), build)
            XCTAssertEqual(color, Color(hex: 0xFF3B30), "the first palette swatch is picked")
        }
    }

    func testWidgetRowsGetTheirOwnClicksAndExpandAllReadsTheTree() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            var pressed: [Int] = []
            var all = false
            let build: (UI) -> Void = { ui in
                m.info = ui.list("mixed", selection: Binding(m, \.selection)) {
                    ui.forEach(m.items.prefix(2)) { ui, item in
                        ui.hstack {
                            ui.text("Item \(item.id)")
                            if ui.button("Press", id: "press") { pressed.append(item.id) }
                        }
                    }
                    ui.outlineGroup(m.tree, children: \.children) { ListRowContent("Node \($0.id)") }
                }
                if all {
                    ui.expandAllOutlines(inList: "mixed")
                    all = false
                }
            }
            h.frame(build)
            let buttonX = 10 + h.ui.font.measure("Item 101") + 8 + 20
            h.click(at: Point(buttonX, Self.rowY(1)), build)
            XCTAssertEqual(pressed, [101], "the button in row 1 got the click")
            XCTAssertEqual(m.selection, [], "and the row did not")
            h.click(at: Point(400, Self.rowY(0)), build)
            XCTAssertEqual(m.selection, [100], "a click beside the widgets selects the row")
            all = true
            h.frames(2, build)
            XCTAssertEqual(
                m.info?.rowCount, 2 + 3 + 2 * 4 + 2 * 3 * 5,
                "expand all opens every branch: roots 0 and 1 (root 2 is an empty folder), 3 non-empty items each")
        }
    }

    func testEmptyListsAndATinyWindowDoNotBreak() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            let build: (UI) -> Void = { ui in
                ui.frame(width: 1, height: 1) {
                    m.info = ui.list("tiny", m.tree, children: \.children, selection: Binding(m, \.selection)) {
                        ListRowContent("\($0.id)")
                    }
                }
                ui.list("empty", selection: Binding(m, \.selection)) {
                    ui.section("Nothing") { ui.forEach([TreeNode]()) { ListRowContent("\($0.id)") } }
                    ui.section("Also nothing") {}
                }
            }
            h.frames(3, build)
            h.click(at: Point(0, 0), build)
            h.click(at: Point(300, 200), build)
            h.inject.tap(.down)
            h.inject.tap(.right)
            h.frames(3, build)
            XCTAssertEqual(m.info?.rowCount, 3)
            XCTAssertLessThanOrEqual(m.info?.visibleRows.count ?? 0, 2, "a 1x1 list builds one row and one of overscan")
        }
    }
}
