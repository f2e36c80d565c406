import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// ProgressView: a determinate bar filled to its value, an indeterminate one that moves only
/// while it is on screen, both read by a screen reader as progress bars.
final class ProgressViewTests: XCTestCase {
    /// Whether `c` is (close to) `accent`, the bar's fill.
    static func isAccent(_ c: Color, _ accent: Color) -> Bool {
        abs(Int(c.r) - Int(accent.r)) < 30 && abs(Int(c.g) - Int(accent.g)) < 30 && abs(Int(c.b) - Int(accent.b)) < 30
    }

    func testADeterminateBarIsFilledToItsValueAndReadAsAPercentage() throws {
        try onMain {
            let h = try Harness()
            var value = 40.0
            let build: (UI) -> Void = { ui in
                ui.padding(20) { ui.progressView("Importing", value: value, total: 100, width: 200) }
            }
            h.frames(2, build)
            let bar = try h.find(.progressBar, "Importing")
            XCTAssertEqual(bar.value, "40 %")
            XCTAssertEqual(bar.range?.current ?? -1, 0.4, accuracy: 1e-9)
            let accent = h.ui.theme.accent
            let row = Rect(x: bar.frame.x, y: bar.frame.midY, width: bar.frame.width, height: 1)
            XCTAssertEqual(
                Double(h.countPixels(in: row) { Self.isAccent($0, accent) }), 80, accuracy: 3, "40 % of 200 px")
            XCTAssertNil(h.ui.redrawTime, "a determinate bar asks for no frames")
            value = .nan
            h.frame(build)
            XCTAssertEqual(try h.find(.progressBar, "Importing").value, "0 %", "not a number: empty, not a trap")
            value = 250
            h.frame(build)
            XCTAssertEqual(try h.find(.progressBar, "Importing").value, "100 %")
        }
    }

    func testAnIndeterminateBarMovesOnlyWhileItIsOnScreen() throws {
        try onMain {
            let h = try Harness()
            var offscreen = false
            let build: (UI) -> Void = { ui in
                ui.region(Rect(x: 20, y: offscreen ? 2_000 : 20, width: 300, height: 40)) { ui.progressView("Loading") }
            }
            h.frame(build)
            let bar = try h.find(.progressBar, "Loading")
            XCTAssertTrue(bar.states.contains(.busy) && bar.states.contains(.indeterminate))
            XCTAssertNotNil(h.ui.redrawTime, "on screen, it asks for the next frame")
            let accent = h.ui.theme.accent
            let row = Rect(x: bar.frame.x, y: bar.frame.midY, width: bar.frame.width, height: 1)
            @MainActor func segment() -> Int? {
                (0..<Int(row.width)).first { x in
                    h.countPixels(in: Rect(x: row.x + Double(x), y: row.y, width: 1, height: 1)) {
                        Self.isAccent($0, accent)
                    } > 0
                }
            }
            h.wait(0.3)
            h.frame(build)
            let first = try XCTUnwrap(segment())
            h.wait(0.3)
            h.frame(build)
            let second = try XCTUnwrap(segment())
            XCTAssertGreaterThan(second, first, "the segment sweeps to the right")
            offscreen = true
            h.frame(build)
            XCTAssertNil(h.ui.redrawTime, "off screen, it costs no frames")
        }
    }
}
