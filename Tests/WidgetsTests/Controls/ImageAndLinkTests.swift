import Foundation
import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Images of pixels the app holds, list rows with pictures, the hero cell's banner, and links.
final class ImageAndLinkTests: XCTestCase {
    /// A 2 × 2 checkerboard: red and blue on the first row, green and white on the second.
    @MainActor private static func checker() -> ImageBitmap {
        let bitmap = ImageBitmap(width: 2, height: 2)
        bitmap.update { $0.bytes = [255, 0, 0, 255, 0, 0, 255, 255, 0, 255, 0, 255, 255, 255, 255, 255] }
        return bitmap
    }

    func testAResizableImageTakesItsFrameAndSamplesByItsInterpolation() throws {
        try onMain {
            let h = try Harness()
            let bitmap = Self.checker()
            var interpolation = ImageInterpolation.none
            var placed: [Rect] = []
            let build: (UI) -> Void = { ui in
                ui.padding(10) {
                    placed = [
                        ui.image(bitmap),  // 2 × 2 points
                        ui.image(bitmap, resizable: true, width: 100, interpolation: interpolation),  // 100 × 100
                        ui.image(bitmap, resizable: true, contentMode: .fit, width: 200, height: 50),
                    ]
                }
            }
            h.frames(2, build)
            XCTAssertEqual(placed[0].size, Size(2, 2), "at its own size")
            XCTAssertEqual(placed[1].size, Size(100, 100), "the missing side from its aspect ratio")
            XCTAssertEqual(placed[2].size, Size(200, 50))
            let big = placed[1]
            // Nearest: four hard quadrants, each one color to its edge.
            XCTAssertEqual(
                h.pixels.pixel(x: Int(big.minX) + 48, y: Int(big.minY) + 2), Color(r: 255, g: 0, b: 0, a: 255))
            XCTAssertEqual(
                h.pixels.pixel(x: Int(big.minX) + 52, y: Int(big.minY) + 2), Color(r: 0, g: 0, b: 255, a: 255))
            XCTAssertEqual(
                h.pixels.pixel(x: Int(big.minX) + 2, y: Int(big.minY) + 98), Color(r: 0, g: 255, b: 0, a: 255))
            interpolation = .high
            h.frames(2, build)
            let middle = h.pixels.pixel(x: Int(big.minX) + 50, y: Int(big.minY) + 2)
            XCTAssertTrue(middle.r > 60 && middle.b > 60, "smoothed: red and blue blend at the seam, \(middle)")
            // Fit: 50 high, so 50 wide, centred in the 200.
            let fit = placed[2]
            XCTAssertEqual(h.pixels.pixel(x: Int(fit.midX) - 20, y: Int(fit.minY) + 5).r, 255, "the image, centred")
            XCTAssertEqual(
                h.pixels.pixel(x: Int(fit.minX) + 10, y: Int(fit.minY) + 5), h.ui.theme.background, "letterboxed")

            // An update is uploaded in the next frame; an image not drawn for a while frees its texture.
            bitmap.update { $0.bytes[0...2] = [0, 0, 0] }
            h.frames(2, build)
            XCTAssertEqual(
                h.pixels.pixel(x: Int(big.minX) + 10, y: Int(big.minY) + 10).r, 0,
                "the new pixels, \(h.pixels.pixel(x: Int(big.minX) + 10, y: Int(big.minY) + 10))")
            XCTAssertEqual(h.ui.bitmapTextures.count, 2, "one texture for its two smooth places, one for the sharp one")
            for _ in 0..<400 { h.frame { _ in } }
            XCTAssertEqual(h.ui.bitmapTextures.count, 0, "not drawn for seconds: freed")
        }
    }

    func testAListRowShowsItsPictureAndAHeroCellItsBannerTitleAndStars() throws {
        try onMain {
            struct Album: Identifiable {
                let id: Int
                let name: String
            }
            let h = try Harness()
            let bitmap = Self.checker()
            let images = ImagePipeline(renderer: h.host.window.renderer, workers: 1) { _ in
                let green = PixelBuffer(width: 8, height: 8, color: Color(r: 0, g: 200, b: 0, a: 255))
                return .success(
                    DecodedThumbnail(
                        pixels: green, info: ImageInfo(format: .png, width: 8, height: 8, orientation: 1), dctScale: 1))
            }
            defer { images.shutdown() }
            h.ui.images = images
            let albums = [Album(id: 1, name: "Lisbon")]
            var rating = 3
            let hero = Rect(x: 300, y: 200, width: 240, height: 160)
            let build: (UI) -> Void = { ui in
                ui.frame(width: 280, height: 120) {
                    ui.list("albums") {
                        ui.forEach(albums) {
                            ListRowContent($0.name, image: .bitmap(bitmap), secondaryText: "212 photos")
                        }
                    }
                }
                ui.heroImage("/virtual/cover.png", in: hero, title: "Cover", rating: rating, isSelected: true)
            }
            XCTAssertTrue(h.frames(until: { h.host.profiler.lastFrame?.lazy.placeholderCells == 0 }, build))
            h.frame(build)
            let title = try XCTUnwrap(h.rect(ofText: "Lisbon"))
            XCTAssertGreaterThan(title.minX, 30, "after the picture")
            let red = h.countPixels(in: Rect(x: 0, y: title.minY - 4, width: title.minX, height: title.height + 8)) {
                $0.r > 200 && $0.g < 60 && $0.b < 60
            }
            XCTAssertGreaterThan(red, 20, "the bitmap's red quarter at the row's leading edge")

            // The hero cell: the photo, a dark banner over its bottom with the title and the stars, a ring.
            XCTAssertEqual(h.pixels.pixel(x: Int(hero.midX), y: Int(hero.minY) + 20).g, 200, "the photo fills the cell")
            let banner = h.pixels.pixel(x: Int(hero.maxX) - 10, y: Int(hero.maxY) - 10)
            XCTAssertLessThan(Int(banner.g), 150, "the banner darkens the photo: \(banner)")
            let caption = try XCTUnwrap(h.rect(ofText: "Cover"))
            XCTAssertTrue(
                hero.contains(Point(caption.minX, caption.midY)) && caption.midY > hero.maxY - 40,
                "the title on the banner")
            let stars = Rect(x: hero.minX + 6, y: hero.maxY - 20, width: 80, height: 18)
            let gold = { (c: Color) in c.r > 200 && c.g > 160 && c.b < 80 }
            let three = h.countPixels(in: stars, where: gold)
            XCTAssertGreaterThan(three, 30, "filled stars")
            rating = 5
            h.frames(2, build)
            XCTAssertGreaterThan(
                h.countPixels(in: stars, where: gold), three * 3 / 2, "five filled stars: more gold than three")
            XCTAssertGreaterThan(
                h.countPixels(in: Rect(x: hero.minX - 3, y: hero.midY, width: 2, height: 20)) {
                    $0 == h.ui.theme.accent
                }, 10,
                "the selection ring outside the cell")
            h.ui.isAccessibilityEnabled = true
            h.frames(2, build)
            let node = try h.find(.image, "Cover")
            XCTAssertEqual(node.value, "5 stars")
            XCTAssertTrue(node.states.contains(.selected))
        }
    }

    func testALinkOpensItsURLByClickTapAndReturn() throws {
        try onMain {
            let h = try Harness()
            var opened: [String] = []
            h.ui.openURL = {
                opened.append($0)
                return true
            }
            let build: (UI) -> Void = { ui in
                ui.padding(20) { ui.link("Tessera", destination: "https://example.org/tessera") }
            }
            h.ui.isAccessibilityEnabled = true
            h.frames(2, build)
            let node = try h.find(.link, "Tessera")
            XCTAssertEqual(node.value, "https://example.org/tessera")
            let text = try XCTUnwrap(h.rect(ofText: "Tessera"))
            try h.click(on: "Tessera", build)
            XCTAssertEqual(opened, ["https://example.org/tessera"])
            h.press(.returnKey, build)
            XCTAssertEqual(opened.count, 2, "Return with focus")
            h.inject.finger(1, .down, at: Point(text.midX, text.midY))
            h.frame(build)
            h.inject.finger(1, .up, at: Point(text.midX, text.midY))
            h.frames(2, build)
            XCTAssertEqual(opened.count, 3, "a tap")
            XCTAssertGreaterThan(h.countPixels(in: text) { $0 == h.ui.theme.accent }, 5, "drawn in the accent color")
        }
    }

    func testTheDesktopOpenerRefusesWhatNoProgramTakesWithoutTrapping() throws {
        XCTAssertFalse(DesktopURLOpener.open(""))
        XCTAssertFalse(DesktopURLOpener.open("bad\0url"))
        XCTAssertFalse(DesktopURLOpener.open(String(repeating: "x", count: 10_000)))
        XCTAssertFalse(
            DesktopURLOpener.open("tessera-no-such-scheme://nothing"), "no program for the scheme: false, logged")
    }
}
