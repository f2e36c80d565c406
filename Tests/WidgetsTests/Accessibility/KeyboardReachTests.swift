import XCTest
import Render2D
import Imaging
import Profiling
import DemoSupport
import TesseraTesting
@testable import Widgets

/// What a screen-reader user, or anyone without a pointer, needs: Tab reaches every
/// collection and scrolling view from the control before it, and the keys then work inside.
final class KeyboardReachTests: XCTestCase {
    struct Item: Identifiable, Sendable {
        let id: Int
        var children: [Item]? = nil
    }

    /// A button, then `widget`: Tab twice lands on the widget (the first Tab focuses the button).
    @MainActor static func tabIn(_ h: Harness, _ build: @escaping (UI) -> Void) -> (UI) -> Void {
        let wrapped = { (ui: UI) in
            ui.vstack {
                ui.button("Before")
                build(ui)
            }
        }
        h.frames(2, wrapped)
        h.press(.tab, wrapped)
        XCTAssertEqual(h.ui.focusID, h.ui.id("Before"), "the first Tab focuses the control before")
        h.press(.tab, wrapped)
        return wrapped
    }

    func testTabReachesATableAndTheArrowsSelect() throws {
        try onMain {
            let h = try Harness()
            let rows = (0..<1000).map { Item(id: $0) }
            var selection = Set<Int>()
            let build = Self.tabIn(h) { ui in
                _ = ui.table("t", rows: rows, selection: Binding(get: { selection }, set: { selection = $0 })) {
                    [TableColumn("Name") { "row \($0.id)" }]
                }
            }
            XCTAssertTrue(try h.find(.table, "t").states.contains(.focused), "Tab landed on the table")
            h.press(.down, build)
            h.press(.down, build)
            XCTAssertEqual(selection, [1])
        }
    }

    func testTabReachesAListAndAnOutline() throws {
        try onMain {
            let h = try Harness()
            let items = (0..<50).map { Item(id: $0) }
            var selection = Set<Int>()
            let build = Self.tabIn(h) { ui in
                _ = ui.list("l", items, selection: Binding(get: { selection }, set: { selection = $0 })) {
                    ListRowContent("item \($0.id)")
                }
            }
            XCTAssertTrue(try h.find(.list, "l").states.contains(.focused))
            h.press(.down, build)
            XCTAssertEqual(selection, [0])

            let tree = [Item(id: 1, children: [Item(id: 2), Item(id: 3)]), Item(id: 4)]
            var picked = Set<Int>()
            let h2 = try Harness()
            let outline = Self.tabIn(h2) { ui in
                _ = ui.list("o", tree, children: \.children, selection: Binding(get: { picked }, set: { picked = $0 }))
                { ListRowContent("n\($0.id)") }
            }
            XCTAssertTrue(try h2.find(.tree, "o").states.contains(.focused))
            h2.press(.down, outline)
            h2.press(.right, outline)  // opens the selected row
            XCTAssertEqual(picked, [1])
            XCTAssertTrue(try h2.find(.treeItem, "n1").states.contains(.expanded))
            XCTAssertNoThrow(try h2.find(.treeItem, "n2"), "its children are rows now")
            let row = try h2.find(.treeItem, "n1")
            XCTAssertEqual(row.actions, [.click, .expandOrCollapse])
            h2.toggleExpansion(row, outline)
            XCTAssertTrue(
                try h2.find(.treeItem, "n1").states.contains(.collapsed),
                "the screen reader's expand or contract closed it")
            XCTAssertTrue(h2.findAll(.treeItem, "n2").isEmpty)
            XCTAssertEqual(picked, [1], "without changing the selection")
        }
    }

    func testTabReachesAGridAScrollViewAndALazyStackAndTheKeysScrollThem() throws {
        try onMain {
            try Self.check("grid", offset: { ui in ui.withID("g") { ui.scrollOffset("scroll").y } }) { ui in
                _ = ui.lazyVGrid("g", columns: [GridItem(), GridItem()], count: 400) { ui, i, rect in
                    ui.drawList.addRect(rect, color: .black)
                }
            }
            try Self.check("scroll view", offset: { $0.scrollOffset("s").y }) { ui in
                ui.scrollView("s") { for i in 0..<200 { ui.text("line \(i)") } }
            }
            try Self.check("lazy stack", offset: { ui in ui.withID("v") { ui.scrollOffset("scroll").y } }) { ui in
                _ = ui.lazyVStack("v", count: 300, estimatedHeight: 30) { ui, i in ui.text("item \(i)") }
            }
        }
    }

    /// Tabs into `widget`, then Page Down, Down, End and Home scroll it.
    @MainActor static func check(
        _ name: String, offset: @escaping @MainActor (UI) -> Double, _ widget: @escaping (UI) -> Void
    ) throws {
        let h = try Harness(width: 400, height: 300)
        let build = Self.tabIn(h, widget)
        XCTAssertEqual(offset(h.ui), 0, name)
        h.press(.pageDown, build)
        let paged = offset(h.ui)
        XCTAssertGreaterThan(paged, 100, "\(name): Page Down scrolls a page")
        h.press(.down, build)
        XCTAssertGreaterThan(offset(h.ui), paged, "\(name): Down scrolls a line")
        h.press(.end, build)
        let end = offset(h.ui)
        XCTAssertGreaterThan(end, paged, "\(name): End goes to the end")
        h.press(.home, build)
        XCTAssertEqual(offset(h.ui), 0, "\(name): Home goes back to the top")
    }

    func testTabReachesAColorWellAndSpaceOpensIt() throws {
        try onMain {
            let h = try Harness()
            var color = Color(hex: 0x3478F6)
            let build = Self.tabIn(h) { ui in ui.colorWell("Tint", color: &color) }
            XCTAssertTrue(try h.find(.colorChooser, "Tint").states.contains(.focused))
            h.press(.space, build)
            XCTAssertNoThrow(try h.find(.slider, "Opacity"), "the picker opened")
        }
    }
}
