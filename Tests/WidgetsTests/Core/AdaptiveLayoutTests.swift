import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Rows of columns that wrap instead of squeezing, and ViewThatFits.
final class AdaptiveLayoutTests: XCTestCase {
    func testColumnsShareTheSpareWidthByTheirIdealsAndWrapBelowTheirMinimums() {
        let wide = ColumnLayout(
            minimums: [300, 200, 100], ideals: [400, nil, 100], width: 1000, spacing: 10, overflow: .wrap)
        XCTAssertEqual(wide.placements.map(\.line), [0, 0, 0])
        XCTAssertEqual(
            wide.placements.map(\.width), [400, 480, 100], "the first up to its ideal, the open one takes the rest")
        XCTAssertEqual(wide.placements.map(\.x), [0, 410, 900])
        let narrow = ColumnLayout(
            minimums: [300, 200, 100], ideals: [400, nil, 100], width: 520, spacing: 10, overflow: .wrap)
        XCTAssertEqual(narrow.placements.map(\.line), [0, 0, 1], "the third goes onto the next line")
        XCTAssertEqual(narrow.placements[0].width + narrow.placements[1].width + 10, 520, accuracy: 1e-9)
        XCTAssertEqual(narrow.placements[2].width, 520, "alone on its line, it takes the width")
        let tiny = ColumnLayout(minimums: [300, 200], ideals: [nil, nil], width: 150, spacing: 10, overflow: .wrap)
        XCTAssertEqual(tiny.placements.map(\.width), [300, 200], "never below the minimum, even past the edge")
        let running = ColumnLayout(
            minimums: [300, 200, 100], ideals: [nil, nil, nil], width: 400, spacing: 10, overflow: .overflow)
        XCTAssertEqual(running.placements.map(\.line), [0, 0, 0], "overflow: one line")
        XCTAssertEqual(running.placements.map(\.x), [0, 310, 520])
    }

    func testViewThatFitsBuildsTheFirstAlternativeThatFitsAndOnlyThatOne() throws {
        try onMain {
            let h = try Harness(width: 900, height: 400)
            var built: [String] = []
            let build: (UI) -> Void = { ui in
                built = []
                ui.viewThatFits {
                    ui.alternative {
                        built.append("wide")
                        ui.columns(overflow: .overflow) {
                            ui.column(minWidth: 400) { ui.text("left") }
                            ui.column(minWidth: 400) { ui.text("right") }
                        }
                    }
                    ui.alternative(minWidth: 300) {
                        built.append("medium")
                        ui.text("one column")
                    }
                    ui.alternative {
                        built.append("narrow")
                        ui.text("tabs")
                    }
                }
            }
            h.frames(3, build)
            XCTAssertEqual(built, ["wide"], "400 + 16 + 400 fit in 900")
            XCTAssertNotNil(h.rect(ofText: "right"))
            h.host.window.setSize(width: 600, height: 400)
            h.frames(3, build)
            XCTAssertEqual(built, ["medium"], "its columns' minimum, learnt when it was built, no longer fits")
            h.host.window.setSize(width: 200, height: 400)
            h.frames(3, build)
            XCTAssertEqual(built, ["narrow"], "the last one is the fallback")
            h.host.window.setSize(width: 1000, height: 400)
            h.frames(3, build)
            XCTAssertEqual(built, ["wide"])
            // Its columns as laid out, against their minimums.
            XCTAssertEqual(h.ui.columnReports.map(\.width), [400 + 92, 400 + 92], "the spare 1000 − 16 − 800 shared")
        }
    }
}
