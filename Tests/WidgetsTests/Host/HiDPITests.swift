import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// The UI at fractional and whole scales in the real renderer, and where the scale comes from.
final class HiDPITests: XCTestCase {
    func testTheContentScaleKeepsFractionsAndPrefersWhatTheDesktopSays() {
        let resolve = { (env: [String: String], dpi: Double?, backing: Double) in
            ContentScale.resolve(environment: env, displayDPI: dpi, backingScale: backing)
        }
        XCTAssertEqual(resolve([:], 120, 1), 1.25)
        XCTAssertEqual(resolve([:], 144, 1), 1.5)
        XCTAssertEqual(resolve([:], 168, 1), 1.75)
        XCTAssertEqual(resolve([:], 72, 1), 1, "a small DPI is taken as a misreport")
        XCTAssertEqual(resolve([:], nil, 1), 1)
        XCTAssertEqual(resolve([:], 192, 2), 1, "a 2× backing store already scales")
        XCTAssertEqual(resolve(["GDK_SCALE": "2"], 96, 1), 2)
        XCTAssertEqual(resolve(["GDK_DPI_SCALE": "1.25"], 96, 1), 1.25)
        XCTAssertEqual(
            resolve(["GDK_SCALE": "2", "GDK_DPI_SCALE": "0.75"], 300, 1), 1.5, "GTK's variables win over the DPI")
        XCTAssertEqual(resolve(["QT_SCALE_FACTOR": "1.5"], 96, 1), 1.5)
        XCTAssertEqual(
            resolve(["GDK_SCALE": "abc", "QT_SCALE_FACTOR": "nan"], 144, 1), 1.5, "unreadable values are ignored")
        XCTAssertEqual(resolve(["GDK_SCALE": "1e9"], 96, 1), 4, "clamped")
    }

    func testLayoutIsLogicalPixelsAreScaledHairlinesAreEvenAndTextIsRasterizedAtTheScale() throws {
        for scale in [1.0, 1.25, 1.5, 2.0] {
            try onMain {
                let h = try Harness(width: Int(640 * scale), height: Int(480 * scale), scale: scale)
                var fontPixels = 0
                let lines = [100.3, 133.7, 167.1, 200.5]
                let build: (UI) -> Void = { ui in
                    ui.drawList.addRect(Rect(x: 10, y: 10, width: 100, height: 40), color: .red)
                    for y in lines { ui.drawList.addRect(Rect(x: 300, y: y, width: 100, height: 1), color: .blue) }
                    ui.padding(EdgeInsets(top: 300, leading: 10, bottom: 0, trailing: 0)) { ui.text("HHHH") }
                    fontPixels = ui.font.pixelSize
                }
                h.frames(2, build)
                XCTAssertEqual(h.ui.size, Size(640, 480), "layout in logical pixels at \(scale)")
                XCTAssertEqual(h.pixels.width, Int(640 * scale))
                XCTAssertEqual(h.pixels.height, Int(480 * scale))
                // The harness reads pixels by physical coordinates.
                let red = h.countPixels(
                    in: Rect(x: 0, y: 0, width: 200 * scale, height: 100 * scale), where: { $0 == .red })
                XCTAssertEqual(
                    red, Int((100 * scale).rounded() * (40 * scale).rounded()), "a 100×40 pt rect at \(scale)")
                let thickness = lines.map { y in
                    h.countPixels(
                        in: Rect(x: 350 * scale, y: (y - 3) * scale, width: 1, height: 7 * scale),
                        where: { $0 == .blue })
                }
                XCTAssertEqual(Set(thickness).count, 1, "every hairline equally thick at \(scale): \(thickness)")
                XCTAssertEqual(thickness[0], max(1, Int((scale).rounded())))
                XCTAssertEqual(
                    fontPixels, Int((h.ui.theme.fontSize * scale).rounded()), "glyphs rasterized at the physical size")
                let ink = try XCTUnwrap(
                    h.inkBounds(
                        in: Rect(x: 0, y: 290 * scale, width: 300 * scale, height: 40 * scale),
                        differingFrom: h.ui.theme.background))
                XCTAssertEqual(
                    ink.height, Double(fontPixels) * 0.73, accuracy: 2.5, "a capital's height in pixels at \(scale)")
                h.shot("hidpi-\(scale)", build)
            }
        }
    }

    func testMovingToADisplayOfAnotherScaleRerasterizesTheText() throws {
        try onMain {
            setenv("GDK_SCALE", "1", 1)
            defer { unsetenv("GDK_SCALE") }
            let host = try AppHost(
                options: .init(title: "scale", width: 640, height: 480, vsync: false, offscreen: true, scale: nil))
            host.readsBackFrames = true
            var pixelSize = 0
            let build: (UI) -> Void = { ui in
                ui.text("Display")
                pixelSize = ui.font.pixelSize
            }
            host.frame(build)
            XCTAssertEqual(host.userScale, 1)
            XCTAssertEqual(pixelSize, Int(host.ui.theme.fontSize.rounded()))
            setenv("GDK_SCALE", "2", 1)  // what the desktop says for the other display
            EventInjector(window: host.window).displayChanged()
            host.frame(build)
            host.frame(build)
            XCTAssertEqual(host.userScale, 2, "the new display's scale")
            XCTAssertEqual(host.ui.size, Size(320, 240), "layout in logical pixels")
            XCTAssertEqual(
                pixelSize, Int((host.ui.theme.fontSize * 2).rounded()), "glyphs rasterized anew at the new scale")
        }
    }
}
