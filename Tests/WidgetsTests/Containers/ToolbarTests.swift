import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Toolbars: items at their placements, items that react to the selection, the "…" menu of
/// the items a narrow window has no room for; EditButton and the edit mode lists honour.
final class ToolbarTests: XCTestCase {
    private typealias Item = ToolbarLayout.Item

    func testItemsSitAtTheirPlacementsAndLeaveLowestPriorityFirst() {
        let items = [
            Item(placement: .navigation, priority: 0, width: 100), Item(placement: .principal, priority: 0, width: 60),
            Item(placement: .secondaryAction, priority: 0, width: 80),
            Item(placement: .primaryAction, priority: 0, width: 50),
            Item(placement: .secondaryAction, priority: -1, width: 70),
        ]
        let wide = ToolbarLayout(items: items, width: 1000, spacing: 10, overflowWidth: 30)
        XCTAssertFalse(wide.hasOverflow)
        XCTAssertEqual(wide.positions[0], 0, "navigation at the leading edge")
        XCTAssertEqual(wide.positions[3], 950, "the primary action at the trailing edge")
        XCTAssertEqual(wide.positions[4], 870, "secondary actions before it, in the order built")
        XCTAssertEqual(wide.positions[2], 780)
        XCTAssertEqual(wide.positions[1], 470, "the principal item centred")

        // 100 + 60 + 80 + 50 + 70 + 4 gaps = 400: at 330, the "…" takes 40 and items leave.
        let narrow = ToolbarLayout(items: items, width: 330, spacing: 10, overflowWidth: 30)
        XCTAssertTrue(narrow.hasOverflow)
        XCTAssertNil(narrow.positions[4], "the lowest priority first")
        XCTAssertNil(narrow.positions[2], "then a secondary action before the principal item")
        XCTAssertEqual(narrow.positions[3], 330 - 40 - 50, "the primary action stays, before the \"…\"")
        XCTAssertEqual(narrow.positions[1], 135, "the principal item centred between what is left")
        let narrower = ToolbarLayout(items: items, width: 200, spacing: 10, overflowWidth: 30)
        XCTAssertNil(narrower.positions[1], "the principal item leaves before the primary action")
        XCTAssertEqual(narrower.positions[3], 200 - 40 - 50)
        let narrowest = ToolbarLayout(items: items, width: 150, spacing: 10, overflowWidth: 30)
        XCTAssertEqual(narrowest.positions[0], 0, "navigation stays longest")
        XCTAssertEqual(narrowest.positions.compactMap { $0 }.count, 1)
        // The principal item is pushed aside by the edges' items, never under them.
        let crowded = ToolbarLayout(
            items: [
                Item(placement: .navigation, priority: 0, width: 300),
                Item(placement: .principal, priority: 0, width: 100),
            ],
            width: 500, spacing: 10, overflowWidth: 30)
        XCTAssertEqual(crowded.positions[1], 310)
    }

    func testTheBarReactsToTheSelectionAndANarrowWindowMovesItemsIntoItsMenu() throws {
        try onMain {
            let h = try Harness(width: 640, height: 300)
            var selected = 0, inverted = 0, added = 0
            var status = "Synced"
            let build: (UI) -> Void = { ui in
                ui.toolbar {
                    if ui.button("Select") { selected += 1 }
                } items: {
                    ui.toolbarItem(placement: .navigation) {
                        ui.text(selected == 0 ? "12 files" : "\(selected) selected")
                    }
                    if selected > 0 {
                        ui.toolbarItem(placement: .secondaryAction, priority: -1) {
                            if ui.button("Invert") { inverted += 1 }
                        }
                    }
                    ui.toolbarItem(placement: .primaryAction) { if ui.button("Add", icon: .plus) { added += 1 } }
                    ui.toolbarItem(placement: .status) { ui.text(status) }
                }
            }
            h.frames(3, build)
            let add = try XCTUnwrap(h.rect(ofText: "Add"))
            XCTAssertGreaterThan(add.minX, 560, "at the trailing edge: \(add)")
            XCTAssertLessThan(add.maxY, 40, "in the top bar")
            let files = try XCTUnwrap(h.rect(ofText: "12 files"))
            XCTAssertLessThan(files.minX, 20)
            let synced = try XCTUnwrap(h.rect(ofText: "Synced"))
            XCTAssertGreaterThan(synced.minY, 260, "the status in the bottom bar")
            XCTAssertEqual(synced.midX, 320, accuracy: 2, "centred")
            XCTAssertNil(h.rect(ofText: "Invert"), "no selection: no selection actions")
            let select = try XCTUnwrap(h.rect(ofText: "Select"))
            XCTAssertGreaterThan(select.minY, 38, "the content under the top bar")
            try h.click(on: "Select", build)
            h.frames(2, build)
            XCTAssertNotNil(h.rect(ofText: "1 selected"), "the bar follows the selection")
            try h.click(on: "Invert", build)
            XCTAssertEqual(inverted, 1)
            status = "Offline"
            h.frame(build)
            XCTAssertNotNil(h.rect(ofText: "Offline"))

            // 240 px wide: Invert (the lowest priority) goes into "…"; Add stays.
            h.host.window.setSize(width: 240, height: 300)
            h.frames(4, build)
            XCTAssertNil(h.rect(ofText: "Invert"), "moved into the menu")
            XCTAssertNotNil(h.rect(ofText: "Add"), "the primary action stays: \(h.drawnText)")
            let more = try XCTUnwrap(h.rect(ofText: "…"))
            XCTAssertGreaterThan(more.minX, h.rect(ofText: "Add")!.maxX, "\"…\" at the very end")
            h.click(at: Point(more.midX, more.midY), build)
            h.frame(build)
            let item = try XCTUnwrap(h.rect(ofText: "Invert", in: .popup), "in the open menu: \(h.drawnText)")
            h.click(at: Point(item.midX, item.midY), build)
            h.frame(build)
            XCTAssertEqual(inverted, 2, "chosen from the menu, it does what the button does")
            XCTAssertFalse(h.ui.hasOpenPopup, "and the menu closes")
            XCTAssertEqual(added, 0)
        }
    }

    /// A finger's tap: down, a frame, up, two frames.
    @MainActor private static func tap(_ h: Harness, at p: Point, _ build: (UI) -> Void) {
        h.inject.finger(7, .down, at: p)
        h.frame(build)
        h.inject.finger(7, .up, at: p)
        h.frames(2, build)
    }

    func testTouchTapsTheOverflowMenuATabAndARowsDeleteButton() throws {
        try onMain {
            struct Task: Identifiable { let id: Int }
            let h = try Harness(width: 220, height: 400)
            var tab = 0, shared = 0
            var tasks = (1...3).map { Task(id: $0) }
            let build: (UI) -> Void = { ui in
                ui.toolbar {
                    ui.tabView(selection: Binding(get: { tab }, set: { tab = $0 })) {
                        ui.tab("One", value: 0) { ui.text("first page") }
                        ui.tab("Tasks", value: 1) {
                            ui.list("tasks", editMode: true) {
                                ui.forEach(tasks, onDelete: { for i in $0.reversed() { tasks.remove(at: i) } }) {
                                    ListRowContent("Task \($0.id)")
                                }
                            }
                        }
                    }
                } items: {
                    ui.toolbarItem(placement: .navigation, priority: 1) { ui.text("A long toolbar title") }
                    ui.toolbarItem(placement: .secondaryAction) { if ui.button("Share") { shared += 1 } }
                }
            }
            h.frames(3, build)
            let more = try XCTUnwrap(h.rect(ofText: "…"), "Share went into the menu: \(h.drawnText)")
            Self.tap(h, at: Point(more.midX, more.midY), build)
            let share = try XCTUnwrap(h.rect(ofText: "Share", in: .popup))
            Self.tap(h, at: Point(share.midX, share.midY), build)
            XCTAssertEqual(shared, 1, "a tap on the menu's item")
            let tasksTab = try XCTUnwrap(h.rect(ofText: "Tasks"))
            Self.tap(h, at: Point(tasksTab.midX, tasksTab.midY), build)
            XCTAssertEqual(tab, 1, "a tap on a tab")
            let second = try XCTUnwrap(h.rect(ofText: "Task 2"))
            Self.tap(h, at: Point(18, second.midY), build)
            XCTAssertEqual(tasks.map(\.id), [1, 3], "a tap on a row's delete button")
        }
    }

    func testEditButtonSwitchesTheModeAndAListInItDeletesAndPicksByTapping() throws {
        try onMain {
            struct Task: Identifiable {
                let id: Int
                let name: String
            }
            let h = try Harness(width: 500, height: 400)
            var mode = EditMode.inactive
            var tasks = (1...5).map { Task(id: $0, name: "Task \($0)") }
            var selection = Set<Int>()
            let build: (UI) -> Void = { ui in
                ui.vstack {
                    ui.editButton(Binding(get: { mode }, set: { mode = $0 }))
                    ui.list(
                        "tasks", selection: Binding(get: { selection }, set: { selection = $0 }),
                        editMode: mode.isEditing
                    ) {
                        ui.forEach(tasks, onDelete: { offsets in for i in offsets.reversed() { tasks.remove(at: i) } })
                        { ListRowContent($0.name) }
                    }
                }
            }
            h.frames(2, build)
            XCTAssertNil(h.rect(ofText: "Done"))
            try h.click(on: "Task 2", build)
            try h.click(on: "Task 4", build)
            XCTAssertEqual(selection, [4], "a plain click picks one row")
            try h.click(on: "Edit", build)
            XCTAssertEqual(mode, .active)
            XCTAssertNotNil(h.rect(ofText: "Done"), "it reads Done while editing")
            try h.click(on: "Task 2", build)
            XCTAssertEqual(selection, [2, 4], "in edit mode a tap adds a row")
            try h.click(on: "Task 4", build)
            XCTAssertEqual(selection, [2], "and removes one")
            // The red button at the leading edge of Task 3 deletes it.
            let row = try XCTUnwrap(h.rect(ofText: "Task 3"))
            XCTAssertGreaterThan(row.minX, 30, "the title moved aside for the button")
            XCTAssertGreaterThan(
                h.countPixels(in: Rect(x: 8, y: row.midY - 10, width: 20, height: 20)) { $0.r > 180 && $0.g < 120 },
                100,
                "a red button")
            h.click(at: Point(18, row.midY), build)
            h.frame(build)
            XCTAssertEqual(tasks.map(\.id), [1, 2, 4, 5])
            XCTAssertEqual(selection, [2], "deleting is not selecting")
            try h.click(on: "Done", build)
            XCTAssertEqual(mode, .inactive)
            let plain = try XCTUnwrap(h.rect(ofText: "Task 4"))
            XCTAssertLessThan(plain.minX, 30, "out of edit mode, no delete buttons")
            h.click(at: Point(18, plain.midY), build)
            XCTAssertEqual(tasks.count, 4)
        }
    }
}
