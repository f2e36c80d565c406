import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// ZStack, overlay and background: children layered in one area, placed by an alignment in
/// both directions, later ones drawn over earlier ones; pure placement and pixels.
final class ZStackTests: XCTestCase {
    func testALayeredFramePlacesEachChildByTheAlignmentInTheLargestOnesArea() {
        var frame = LayoutFrame(
            axis: .vertical, rect: Rect(x: 10, y: 20, width: 400, height: 300), spacing: 8, alignment: .end,
            memo: StackMemo(main: 100, cross: 200))
        frame.layered = .end  // bottom trailing
        let big = frame.place(Size(200, 100))
        let badge = frame.place(Size(20, 10))
        XCTAssertEqual(big, Rect(x: 10, y: 20, width: 200, height: 100))
        XCTAssertEqual(
            badge, Rect(x: 10 + 180, y: 20 + 90, width: 20, height: 10), "in the big one's bottom-right corner")
        XCTAssertEqual(frame.measuredSize, Size(200, 100), "as large as its largest child")
        XCTAssertEqual(frame.remainingRect, frame.rect, "every child gets the whole area")
        frame.alignment = .center
        frame.layered = .start
        XCTAssertEqual(frame.place(Size(20, 10)), Rect(x: 10 + 90, y: 20, width: 20, height: 10), "top centre")
        frame.alignment = .fill
        frame.layered = .fill
        XCTAssertEqual(
            frame.place(Size(0, 0)), Rect(x: 10, y: 20, width: 200, height: 100), "a filling child takes the area")
    }

    func testOverlayDrawsOverTheContentAndBackgroundUnderItAlignedByTheirAlignment() throws {
        try onMain {
            let h = try Harness()
            let build: (UI) -> Void = { ui in
                ui.padding(20) {
                    ui.vstack(spacing: 20) {
                        ui.overlay(alignment: .topTrailing) {
                            ui.drawList.addRect(ui.allocate(Size(120, 80)), color: .blue)
                        } overlay: {
                            ui.drawList.addRect(ui.allocate(Size(20, 20)), color: .red)
                        }
                        ui.background(alignment: .center) {
                            ui.vstack { ui.drawList.addRect(ui.allocate(Size(60, 30)), color: .green) }
                        } background: {
                            ui.drawList.addRect(
                                ui.allocate(Size(0, 0), flexibleWidth: true, flexibleHeight: true).insetBy(
                                    dx: -6, dy: -6),
                                color: .black)
                        }
                        ui.zstack(alignment: .bottom) {
                            ui.drawList.addRect(ui.allocate(Size(100, 60)), color: .blue)
                            ui.vstack { ui.text("Caption") }
                        }
                    }
                }
            }
            h.frames(3, build)  // settled: the sizes measured in the first frame align the rest
            // The red badge over the blue box's top-right corner; blue elsewhere.
            XCTAssertEqual(
                h.pixels.pixel(x: 20 + 110, y: 20 + 10), .red, "the overlay, in the top-right corner, drawn over")
            XCTAssertEqual(h.pixels.pixel(x: 20 + 10, y: 20 + 10), .blue)
            XCTAssertEqual(h.pixels.pixel(x: 20 + 110, y: 20 + 70), .blue)
            // The black background around the green content, under it.
            let top = 20.0 + 80 + 20
            XCTAssertEqual(h.pixels.pixel(x: 20 + 30, y: Int(top) + 15), .green, "the content over its background")
            XCTAssertEqual(
                h.pixels.pixel(x: 20 + 62, y: Int(top) + 15), .black, "the background, as large as the content and more"
            )
            // The caption at the bottom centre of the blue box.
            let caption = try XCTUnwrap(h.rect(ofText: "Caption"))
            let box = Rect(x: 20, y: top + 30 + 20, width: 100, height: 60)
            XCTAssertEqual(caption.midX, box.midX, accuracy: 2, "centred across")
            XCTAssertEqual(caption.maxY, box.maxY, accuracy: 4, "at the bottom")
        }
    }
}
