import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Tooltips, scrolling APIs, IME composition and double clicks through real SDL events.
final class InteractionTests: XCTestCase {
    func testTooltipAppearsAfterResting() throws {
        try onMain {
            let h = try Harness()
            let build: (UI) -> Void = { ui in
                let rect = ui.allocate(Size(40, 40))
                ui.drawList.addRect(rect, color: .red)
                ui.tooltip("A helpful tip", for: ui.interact(ui.id("target"), rect: rect))
            }
            let tipArea = Rect(x: 42, y: 42, width: 90, height: 20)
            h.inject.mouseMove(to: Point(20, 20))
            h.frames(3, build)
            XCTAssertEqual(h.countPixels(in: tipArea, differingFrom: h.ui.theme.background), 0, "not yet")
            h.wait(0.6)
            h.frames(2, build)
            XCTAssertGreaterThan(h.countPixels(in: tipArea, differingFrom: h.ui.theme.background), 300, "tooltip shown")
            h.inject.mouseMove(to: Point(300, 300))
            h.frames(2, build)
            XCTAssertEqual(
                h.countPixels(in: tipArea, differingFrom: h.ui.theme.background), 0, "gone when the pointer leaves")
        }
    }

    func testHorizontalAndProgrammaticScrolling() throws {
        try onMain {
            let h = try Harness()
            var info: ScrollViewInfo?
            var scrollToRow: Int?
            let build: (UI) -> Void = { ui in
                info = ui.scrollView("strip", axes: .horizontal, height: 60) {
                    ui.hstack { for i in 0..<50 { ui.button("Chip \(i)") } }
                }
                ui.scrollView("rows", height: 200) {
                    for i in 0..<200 {
                        let rect = ui.allocate(Size(100, 20))
                        if i == scrollToRow { ui.scrollToVisible(rect) }
                    }
                }
            }
            h.frames(2, build)
            XCTAssertGreaterThan(info!.contentSize.width, 2000)
            h.inject.mouseMove(to: Point(100, 30))
            h.inject.key(.f12, down: false, modifiers: .shift)  // shift held
            h.inject.wheel(dy: -2)
            h.frames(2, build)
            XCTAssertEqual(info!.offset.x, 96, accuracy: 0.5, "shift+wheel scrolls sideways")
            h.inject.wheel(dx: 1, dy: 0)
            h.frames(2, build)
            XCTAssertEqual(info!.offset.x, 144, accuracy: 0.5, "a horizontal wheel scrolls sideways too")
            h.ui.scrollTo("strip", offset: Point(1e12, 0))
            h.frames(2, build)
            XCTAssertEqual(
                info!.offset.x, info!.contentSize.width - info!.viewport.width, accuracy: 0.5, "clamped to the end")
            h.ui.scrollTo("strip", offset: Point(.nan, 0))
            h.frames(2, build)
            XCTAssertEqual(info!.offset.x, 0, "NaN offsets reset")
            scrollToRow = 150
            h.frames(3, build)
            scrollToRow = nil
            var rows: ScrollViewInfo?
            h.frame { ui in
                build(ui)
                rows = ui.scrollView("rows", height: 200) { for _ in 0..<200 { _ = ui.allocate(Size(100, 20)) } }
            }
            let rowTop = 150.0 * (20 + h.ui.theme.spacing)
            XCTAssertLessThanOrEqual(rows!.offset.y, rowTop)
            XCTAssertGreaterThanOrEqual(rows!.offset.y + rows!.viewport.height, rowTop + 20, "row 150 is in view")
        }
    }

    func testIMECompositionShowsUntilCommitted() throws {
        try onMain {
            let h = try Harness()
            var text = ""
            let build: (UI) -> Void = { ui in ui.textField("Name", text: &text, width: 300) }
            h.frame(build)
            h.click(at: Point(100, 13), build)
            h.inject.composition("にほ")
            h.frames(2, build)
            XCTAssertEqual(h.ui.input.composition, "にほ")
            XCTAssertEqual(text, "", "pre-edit text is not committed")
            XCTAssertGreaterThan(
                h.countPixels(in: Rect(x: 8, y: 2, width: 40, height: 22), differingFrom: h.ui.theme.surface), 10,
                "the composition is drawn")
            h.inject.text("日本")
            h.frames(2, build)
            XCTAssertEqual(text, "日本")
            XCTAssertEqual(h.ui.input.composition, "")
        }
    }

    func testDoubleClickIsReportedOnce() throws {
        try onMain {
            let h = try Harness()
            var doubles = 0, singles = 0
            let build: (UI) -> Void = { ui in
                let rect = ui.allocate(Size(100, 40))
                let r = ui.interact(ui.id("row"), rect: rect)
                if r.clicked { singles += 1 }
                if r.doubleClicked { doubles += 1 }
            }
            h.frame(build)
            h.click(at: Point(20, 20), build)
            h.click(at: Point(21, 20), build)
            XCTAssertEqual(singles, 2)
            XCTAssertEqual(doubles, 1)
            h.wait(1)
            h.click(at: Point(20, 20), build)
            XCTAssertEqual(doubles, 1, "a late second click is a single click")
        }
    }
}
