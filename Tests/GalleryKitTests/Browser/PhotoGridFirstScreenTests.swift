import XCTest
import Foundation
import TesseraTesting
import TestSupport
import Render2D
import Imaging
import DemoSupport
import Widgets
@testable import GalleryKit

/// The photo grid's first screen, worked out before its window: the photos and the size its
/// hero cells then ask for, at any scale, so their thumbnails can be decoded meanwhile.
final class PhotoGridFirstScreenTests: XCTestCase {
    func testThumbnailsOfTheFirstScreenStartedBeforeTheWindowFillItsFirstFrame() throws {
        for scale in [1.0, 1.5] {
            try onMain {
                let lib = try ScratchFolder("first-screen-grid")
                for i in 0..<30 {
                    try SamplePhotos.writeJPEG(
                        SamplePhotos.render(width: 300, height: 200, seed: UInt64(i)),
                        to: lib.file(String(format: "p-%02d.jpg", i)))
                }
                let grid = PhotoGrid(photos: try PhotoLibrary.load(lib.path))
                let viewport = Size(900, 500)
                let first = try XCTUnwrap(grid.firstScreen(viewport: viewport, scale: scale, theme: .light))
                XCTAssertEqual(first.paths.count, 12, "two rows of six hero cells (\(scale)×)")
                let loader = ThumbnailLoader(workers: 2)
                loader.requestFirstScreen(first.paths, spec: first.spec)
                let deadline = MonotonicClock.seconds() + 60
                while loader.snapshot.finished < 2 * first.paths.count && MonotonicClock.seconds() < deadline {
                    usleep(2_000)
                }

                let h = try Harness(
                    width: Int(viewport.width * scale), height: Int(viewport.height * scale), scale: scale)
                let images = ImagePipeline(renderer: h.host.window.renderer, loader: loader)
                defer { images.shutdown() }
                h.ui.images = images
                h.frame { ui in grid.build(ui) }
                XCTAssertEqual(grid.info.map { Array(grid.photos[$0.visible].map(\.path)) }, first.paths)
                let lazy = try XCTUnwrap(h.host.profiler.lastFrame?.lazy)
                XCTAssertEqual(lazy.visibleCells, 12)
                XCTAssertEqual(
                    lazy.placeholderCells + lazy.embeddedCells, 0, "every cell sharp in the first frame (\(scale)×)")
                // The first frame asks for the rest (the prefetch window), but none of the first screen again.
                XCTAssertEqual(loader.snapshot.requested, 2 * grid.photos.count, "each photo's two tiers, once")
            }
        }
    }

    func testAGridUnderMonthHeadersOrJustifiedWorksOutNoFirstScreen() {
        onMain {
            let grid = PhotoGrid(photos: [])
            XCTAssertNotNil(grid.firstScreen(viewport: Size(800, 600), scale: 1, theme: .light))
            grid.sections = [PhotoGrid.Section(title: "May 2024", count: 0)]
            XCTAssertNil(grid.firstScreen(viewport: Size(800, 600), scale: 1, theme: .light))
            grid.sections = nil
            grid.isJustified = true
            XCTAssertNil(grid.firstScreen(viewport: Size(800, 600), scale: 1, theme: .light))
        }
    }
}
