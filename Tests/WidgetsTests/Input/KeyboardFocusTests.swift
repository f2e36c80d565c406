import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Keyboard focus in the real renderer: Tab and Shift-Tab walk the controls in build order,
/// Space activates, arrows adjust, and a focus ring shows only when focus came from the keyboard.
final class KeyboardFocusTests: XCTestCase {
    final class Form {
        var pressesA = 0, pressesB = 0
        var isOn = false
        var volume = 50.0
        var name = ""
        var mode = 0
    }

    @MainActor
    private static func build(_ m: Form) -> (UI) -> Void {
        { ui in
            ui.padding(20) {
                ui.vstack(spacing: 12) {
                    if ui.button("Alpha") { m.pressesA += 1 }
                    ui.toggle("Wi-Fi", isOn: &m.isOn)
                    ui.slider("Volume", value: &m.volume, in: 0...100, step: 5)
                    ui.textField("Name", text: &m.name, id: "name")
                    ui.picker(
                        "Mode", selection: &m.mode, options: [("One", 0), ("Two", 1), ("Three", 2)], style: .segmented)
                    if ui.button("Beta") { m.pressesB += 1 }
                }
            }
        }
    }

    func testTabWalksTheControlsSpaceActivatesArrowsAdjustAndTheRingFollowsTheKeyboard() throws {
        try onMain {
            let h = try Harness()
            let m = Form()
            let build = Self.build(m)
            h.frames(2, build)
            XCTAssertNil(h.ui.focusID)
            let tab = { (shift: Bool) in
                h.inject.tap(.tab, modifiers: shift ? .shift : [])
                h.frames(2, build)
            }
            tab(false)
            XCTAssertEqual(h.ui.focusID, h.ui.id("Alpha"), "Tab focuses the first control")
            XCTAssertTrue(h.ui.isFocusVisible)
            let alpha = try XCTUnwrap(h.ui.focusChain.first { $0.id == h.ui.id("Alpha") }).rect
            let ring = Rect(x: alpha.minX - 3, y: alpha.midY - 4, width: 3, height: 8)
            XCTAssertGreaterThan(
                h.countPixels(in: ring, differingFrom: h.ui.theme.background, tolerance: 40), 8,
                "a focus ring at its left edge")
            h.shot("keyboard-focus-ring", build)
            h.inject.tap(.space)
            h.frames(2, build)
            XCTAssertEqual(m.pressesA, 1, "Space presses the focused button")

            tab(false)
            h.inject.tap(.space)
            h.frames(2, build)
            XCTAssertTrue(m.isOn, "Space flips the focused toggle")
            tab(false)
            h.inject.tap(.right)
            h.frames(2, build)
            XCTAssertEqual(m.volume, 55, "Right nudges the focused slider by its step")
            tab(false)
            XCTAssertEqual(h.ui.focusID, h.ui.id("name"))
            h.inject.text("Ada")
            h.frames(2, build)
            XCTAssertEqual(m.name, "Ada", "typing goes to the focused field")
            tab(false)
            h.inject.tap(.right)
            h.inject.tap(.right)
            h.frames(2, build)
            XCTAssertEqual(m.mode, 2, "Right moves the focused picker along its segments")
            XCTAssertEqual(m.name, "Ada", "Tab left the field without typing into it")
            tab(false)
            h.inject.tap(.returnKey)
            h.frames(2, build)
            XCTAssertEqual(m.pressesB, 1, "Return presses the focused button too")
            tab(false)
            XCTAssertEqual(h.ui.focusID, h.ui.id("Alpha"), "Tab wraps around")
            tab(true)
            XCTAssertEqual(h.ui.focusID, h.ui.id("Beta"), "Shift-Tab goes back")

            // A click focuses without a ring, as on every platform.
            h.click(at: Point(alpha.midX, alpha.midY), build)
            h.frames(2, build)
            XCTAssertEqual(m.pressesA, 2)
            XCTAssertEqual(h.ui.focusID, h.ui.id("Alpha"))
            XCTAssertFalse(h.ui.isFocusVisible)
            XCTAssertEqual(
                h.countPixels(in: ring, differingFrom: h.ui.theme.background, tolerance: 40), 0, "no ring after a click"
            )
        }
    }

    func testTheMenuKeyOpensATablesMenuThatTheArrowsReturnAndEscapeDrive() throws {
        try onMain {
            let h = try Harness()
            let items = makeItems(30)
            var selection: Set<Int> = []
            var menus: [Set<Int>] = []
            var chosen: [String] = []
            let build: (UI) -> Void = { ui in
                ui.table(
                    "t", rows: items, selection: Binding(get: { selection }, set: { selection = $0 }),
                    contextMenu: { ids in
                        menus.append(Set(ids))
                        for title in ["Open", "Rename", "Delete"] where ui.menuItem(title) { chosen.append(title) }
                    }
                ) {
                    TableColumn("Name", value: \Item.name)
                }
            }
            h.frame(build)
            h.click(at: Point(100, 28 + 24 * 2 + 12), build)  // row 2: the table has focus
            XCTAssertEqual(selection, [2])
            h.inject.tap(.menu)
            h.frames(3, build)
            XCTAssertTrue(h.ui.hasOpenPopup, "the Menu key opens the context menu")
            XCTAssertEqual(menus.last, [2], "for the current row")
            h.inject.tap(.down)
            h.inject.tap(.down)
            h.frames(2, build)
            h.shot("keyboard-menu", build)
            XCTAssertEqual(selection, [2], "the arrows move in the menu, not in the table behind it")
            h.inject.tap(.returnKey)
            h.frames(2, build)
            XCTAssertEqual(chosen, ["Rename"], "Return chooses the highlighted item")
            XCTAssertFalse(h.ui.hasOpenPopup)
            h.inject.tap(.f10, modifiers: .shift)
            h.frames(3, build)
            XCTAssertTrue(h.ui.hasOpenPopup, "Shift+F10 opens it too")
            h.inject.tap(.up)
            h.inject.tap(.space)
            h.frames(2, build)
            XCTAssertEqual(chosen, ["Rename", "Delete"], "Up from nothing wraps to the last item")
            h.inject.tap(.menu)
            h.frames(3, build)
            h.inject.tap(.escape)
            h.frames(2, build)
            XCTAssertFalse(h.ui.hasOpenPopup, "Escape closes it")
            XCTAssertEqual(chosen.count, 2)
        }
    }

    func testFocusOutlivesScrollingTheFocusedRowAwayAndTheNextKeyBringsItBack() throws {
        try onMain {
            let h = try Harness()
            let items = makeItems(5_000)
            var selection: Set<Int> = []
            var info: TableInfo?
            let build: (UI) -> Void = { ui in
                info = ui.table("t", rows: items, selection: Binding(get: { selection }, set: { selection = $0 })) {
                    TableColumn("Name", value: \Item.name)
                }
            }
            h.frame(build)
            h.click(at: Point(100, 28 + 24 * 3 + 12), build)
            XCTAssertEqual(selection, [3])
            h.ui.scrollTable("t", toOffset: 24 * 2_000)
            h.frames(2, build)
            XCTAssertFalse(info!.visibleRows.contains(3), "the focused row scrolled away and is not built")
            h.inject.tap(.down)
            h.frames(3, build)
            XCTAssertEqual(selection, [4], "the table kept focus and its place")
            XCTAssertTrue(info!.visibleRows.contains(4), "and the row came back into view: \(info!.visibleRows)")
        }
    }
}
