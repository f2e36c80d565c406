import XCTest
import Foundation
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// While profiling, a janky frame gets a small screenshot: kept to a budget, written into
/// the trace, and shown by the frozen inspector beside the frame's cause.
final class JankScreenshotTests: XCTestCase {
    /// A red block on the left of the window; the build sleeps 300 ms when `slow` says so.
    @MainActor
    final class Page {
        var slow = false
        func build(_ ui: UI) {
            if slow { usleep(300_000) }
            ui.drawList.addRect(Rect(x: 0, y: 0, width: ui.size.width / 2, height: 200), color: Color(hex: 0xE02020))
            ui.text("slow frames here")
        }
    }

    func testAJankyFrameIsPicturedSmallInTheTraceAndTheInspector() throws {
        try onMain {
            let h = try Harness(width: 960, height: 600)
            FrameInspectorTests.presentIsPacing(h)
            let page = Page()
            h.host.showsHUD = true
            h.host.profiler.keepsTrace = true
            // A budget the ordinary frames keep even under a sanitizer; the slow one takes 300 ms.
            h.host.profiler.jankThresholdMs = 150
            h.frames(3, page.build)  // the first frames build the glyph atlas
            h.host.profiler.clearTrace()
            h.frames(3, page.build)
            XCTAssertEqual(h.host.profiler.screenshots.all.count, 0, "no janky frame, no picture")
            page.slow = true
            h.frame(page.build)
            page.slow = false
            h.frames(3, page.build)
            let shots = h.host.profiler.screenshots.all
            XCTAssertEqual(shots.count, 1)
            let shot = try XCTUnwrap(shots.first)
            let slowFrame = try XCTUnwrap(h.host.profiler.trace.first { $0.index == shot.frame })
            XCTAssertTrue(slowFrame.isOverBudget(h.host.profiler.jankThresholdMs))
            XCTAssertEqual([shot.pixels.width, shot.pixels.height], [288, 180], "960×600 shrunk to fit 320×180")
            XCTAssertEqual(Array(shot.png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG")
            let red = shot.pixels.pixel(x: 20, y: 20)
            XCTAssertTrue(red.r > 200 && red.g < 60 && red.b < 60, "the frame's red block: \(red)")
            XCTAssertLessThan(
                slowFrame.phaseNs[FramePhase.present.rawValue], 30_000_000,
                "the picture's own time is charged to no phase")

            let json = h.host.profiler.chromeTraceJSON()
            XCTAssertTrue(json.contains("\"name\":\"screenshot of frame \(shot.frame)\""))
            XCTAssertTrue(json.contains("\"image\":\"data:image/png;base64,iVBORw0KGgo"), "the PNG as a data URL")
            XCTAssertTrue(json.contains("\"cat\":\"disabled-by-default-devtools.screenshot\""))
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(json.utf8)))

            // The docked inspector, frozen on the slow frame, shows its picture right of its figures.
            let inspector = h.ui.stateBox(WidgetID(parent: .root, "hud.inspector"), InspectorState())
            let recent = h.host.profiler.recentFrames
            inspector.value.frozen = recent
            inspector.value.selected = try XCTUnwrap(recent.firstIndex { $0.index == shot.frame })
            h.frame(page.build)
            let picture = try XCTUnwrap(
                h.ui.accessibilityTree.nodes.first { $0.name == "Screenshot of frame \(shot.frame)" }?.frame)
            XCTAssertGreaterThan(picture.minX, 460, "beside the figures")
            XCTAssertLessThanOrEqual(picture.maxY, 600)
            let reddish = h.countPixels(in: Rect(x: picture.minX + 4, y: picture.minY + 4, width: 40, height: 20)) {
                $0.r > 150 && $0.g < 80
            }
            XCTAssertGreaterThan(reddish, 400, "the red block, in the picture")
            h.shot("inspector-screenshot", page.build)
        }
    }

    func testTheBudgetKeepsTheSlowestSixtyFourFramesWithinFourMegabytes() {
        var shots = FrameScreenshots()
        let pixels = PixelBuffer(width: 2, height: 2)
        for n in 0..<100 {
            shots.keep(
                FrameScreenshot(
                    frame: n, takenNs: 0, workNs: UInt64((n * 37) % 100 + 1) * 1_000_000, pixels: pixels,
                    png: [UInt8](repeating: 1, count: 1000)))
        }
        XCTAssertEqual(shots.all.count, FrameScreenshots.maxCount)
        XCTAssertEqual(shots.all.map(\.frame), shots.all.map(\.frame).sorted(), "in frame order")
        XCTAssertEqual(shots.all.map(\.workNs).min(), 37_000_000, "the 64 slowest of works 1…100 ms")
        XCTAssertFalse(shots.wouldKeep(workNs: 5_000_000), "a faster one is not kept")

        var big = FrameScreenshots()
        for n in 0..<10 {
            big.keep(
                FrameScreenshot(
                    frame: n, takenNs: 0, workNs: UInt64(n + 1), pixels: pixels,
                    png: [UInt8](repeating: 0, count: 1 << 20)))
        }
        XCTAssertLessThanOrEqual(big.bytes, FrameScreenshots.maxBytes)
        XCTAssertEqual(big.all.map(\.frame), [6, 7, 8, 9], "4 MB hold four 1 MB pictures: the slowest")
    }

    func testShrinkingAveragesThePixelsItCovers() {
        let source = PixelBuffer(
            width: 4, height: 2,
            bytes: [
                0, 0, 0, 255, 100, 100, 100, 255, 200, 0, 0, 255, 200, 0, 0, 255,
                0, 0, 0, 255, 100, 100, 100, 255, 0, 0, 200, 255, 0, 0, 200, 255,
            ])
        let small = source.shrunk(toFit: 2, 2)
        XCTAssertEqual([small.width, small.height], [2, 1])
        XCTAssertEqual(small.bytes, [50, 50, 50, 255, 100, 0, 100, 255])
        XCTAssertEqual(source.shrunk(toFit: 10, 10), source, "never enlarged")
        XCTAssertEqual(
            Base64.encode(Array("Man".utf8)) + Base64.encode(Array("Ma".utf8)) + Base64.encode(Array("M".utf8)),
            "TWFuTWE=TQ==")
    }
}
