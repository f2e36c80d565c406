import XCTest
import Foundation
import TesseraTesting
import TestSupport
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import DemoSupport

/// A grid's first screen worked out before there is a window (`LazyGridInfo.firstScreen`),
/// and thumbnails decoded from it before the window (`ThumbnailLoader.requestFirstScreen`)
/// drawn in the first frame.
final class FirstScreenTests: XCTestCase {
    func testTheFirstScreenIsWhatTheGridsFirstFrameBuilds() throws {
        try onMain {
            let layouts: [(columns: [GridItem], spacing: Double, rowHeight: ((Double) -> Double)?)] = [
                ([GridItem(.adaptive(minimum: 180), spacing: 8)], 8, nil),
                ([GridItem(.adaptive(minimum: 100))], GridItem.defaultSpacing, nil),
                ([GridItem(.fixed(120)), GridItem(.flexible(minimum: 50)), GridItem(.flexible())], 4, { $0 * 0.75 }),
            ]
            for (width, height) in [(1280, 800), (641, 479), (333, 999), (1600, 120)] {
                do {
                    let h = try Harness(width: width, height: height)
                    for (n, layout) in layouts.enumerated() {
                        for count in [1_000, 5, 0] {
                            var built: LazyGridInfo?
                            h.frame { ui in
                                built = ui.lazyVGrid(
                                    "grid\(n)-\(count)", columns: layout.columns, spacing: layout.spacing, count: count,
                                    rowHeight: layout.rowHeight
                                ) { _, _, _ in }
                            }
                            let info = try XCTUnwrap(built)
                            let first = LazyGridInfo.firstScreen(
                                columns: layout.columns, spacing: layout.spacing, count: count,
                                viewport: Size(Double(width), Double(height)), rowHeight: layout.rowHeight)
                            XCTAssertEqual(
                                first.visible, info.visible, "\(width)×\(height), layout \(n), \(count) items")
                            XCTAssertEqual(first.cellSize, info.cellSize, "\(width)×\(height), layout \(n)")
                        }
                    }
                }
            }
        }
    }

    /// Camera-like JPEGs, the photo blue and its embedded thumbnail red.
    private static func cameraPhotos(_ count: Int, in dir: ScratchFolder) throws -> [String] {
        let photo = try SamplePhotos.jpegData(PixelBuffer(width: 320, height: 240, color: .blue))
        let thumbnail = try SamplePhotos.jpegData(PixelBuffer(width: 32, height: 24, color: .red))
        let bytes = try EXIFWriter.inserting(
            CameraMetadata(
                make: "Canon", model: "EOS R6", dateTimeOriginal: "2024:05:12 14:03:09", thumbnail: thumbnail),
            into: photo)
        return try (0..<count).map { i in
            let path = dir.file("IMG_\(i).jpg")
            try SamplePhotos.write(bytes, to: path)
            return path
        }
    }

    func testThumbnailsStartedBeforeTheWindowAreDrawnInItsFirstFrame() throws {
        try onMain {
            let dir = try ScratchFolder("first-screen")
            let paths = try Self.cameraPhotos(40, in: dir)
            let columns = [GridItem(.adaptive(minimum: 100), spacing: 8)]
            let first = LazyGridInfo.firstScreen(
                columns: columns, spacing: 8, count: paths.count, viewport: Size(640, 480))
            XCTAssertEqual(first.visible, 0..<20, "four rows of five")
            let spec = ImageFraming.thumbnailSpec(for: first.cellSize, scale: 1, mode: .fill)
            // Before any window: the loader alone.
            let loader = ThumbnailLoader(workers: 2)
            loader.requestFirstScreen(Array(paths[first.visible]), spec: spec)
            let deadline = MonotonicClock.seconds() + 60
            while loader.snapshot.finished < 2 * first.visible.count && MonotonicClock.seconds() < deadline {
                usleep(2_000)
            }
            XCTAssertEqual(loader.snapshot.finished, 40, "each cell's embedded and sharp thumbnails")

            let h = try Harness(width: 640, height: 480)
            let images = ImagePipeline(renderer: h.host.window.renderer, loader: loader)
            defer { images.shutdown() }
            h.ui.images = images
            var built: LazyGridInfo?
            h.frame { ui in
                built = ui.lazyVGrid("grid", columns: columns, spacing: 8, count: paths.count) { ui, i, rect in
                    ui.asyncImage(paths[i], in: rect, mode: .fill)
                }
            }
            XCTAssertEqual(built?.visible, first.visible)
            let lazy = try XCTUnwrap(h.host.profiler.lastFrame?.lazy)
            XCTAssertEqual(lazy.visibleCells, 20)
            XCTAssertEqual(lazy.placeholderCells, 0, "no cell waits: every sharp thumbnail was decoded already")
            XCTAssertEqual(lazy.embeddedCells, 0, "nor shows its embedded one")
            XCTAssertEqual(images.prefetchedInTime, 20, "each counts as drawn on sight")
            XCTAssertEqual(images.latency.totalCount, 0, "none waited")
            let c = h.pixels.pixel(x: 50, y: 50)
            XCTAssertTrue(c.b > 180 && c.r < 80, "the first cell shows the photo (blue): \(c)")
            XCTAssertEqual(loader.snapshot.requested, 40, "nothing was asked for twice")
        }
    }

    func testTheFirstScreenAsksForEmbeddedThumbnailsOnlyOfJPEGsAndOnlyWhenTold() throws {
        let loader = ThumbnailLoader(workers: 1) { _ in
            usleep(200_000)  // holds the one worker: the rest stay queued, to be counted
            return .failure(.unreadable("test"))
        }
        defer { loader.shutdown() }
        let spec = ThumbnailSpec(side: 100, fill: true)
        loader.requestFirstScreen(["/nowhere/a.JPG", "/nowhere/b.png", "/nowhere/c.jpeg"], spec: spec)
        XCTAssertEqual(loader.snapshot.requested, 5, "three sharp, two embedded (no PNG's)")
        let plain = ThumbnailLoader(workers: 1) { _ in .failure(.unreadable("test")) }
        defer { plain.shutdown() }
        plain.requestFirstScreen(["/nowhere/a.jpg", "/nowhere/b.jpg"], spec: spec, embedded: false)
        XCTAssertEqual(plain.snapshot.requested, 2, "sharp only")
    }
}

extension FirstScreenTests {
    func testAnyInputGivesAFirstScreenWithoutTrapping() {
        let sizes = [
            Size(.nan, .nan), Size(.infinity, .infinity), Size(-5, -5), Size(0, 0), Size(1e300, 1e300), Size(800, 600),
        ]
        let columnSets: [[GridItem]] = [
            [], [GridItem(.adaptive(minimum: .nan))], [GridItem(.adaptive(minimum: 0), spacing: -3)],
            [GridItem(.fixed(.infinity)), GridItem(.flexible(minimum: .nan))], [GridItem(.adaptive(minimum: 180))],
        ]
        let rowHeights: [((Double) -> Double)?] = [
            nil, { _ in .nan }, { _ in -10 }, { _ in .infinity }, { _ in 1e-300 },
        ]
        for viewport in sizes {
            for columns in columnSets {
                for rowHeight in rowHeights {
                    for count in [0, 1, 1_000, Int.max, Int.min] {
                        for spacing in [8, .nan, -1, .infinity] {
                            let first = LazyGridInfo.firstScreen(
                                columns: columns, spacing: spacing, count: count, viewport: viewport,
                                rowHeight: rowHeight)
                            XCTAssertLessThanOrEqual(first.visible.count, max(0, count))
                        }
                    }
                }
            }
        }
    }
}

extension FirstScreenTests {
    func testAGridOfEveryItemThereCanBeDrawsAndScrollsWithoutTrapping() throws {
        try onMain {
            let h = try Harness(width: 640, height: 480)
            let heights: [((Double) -> Double)?] = [nil, { _ in .infinity }, { _ in .nan }]
            for (n, rowHeight) in heights.enumerated() {
                var built: LazyGridInfo?
                let build = { (ui: UI) in
                    built = ui.lazyVGrid(
                        "huge\(n)", columns: [GridItem(.adaptive(minimum: 100))], count: .max, rowHeight: rowHeight
                    ) { _, _, _ in }
                }
                h.frames(2, build)
                XCTAssertEqual(built?.visible, 0..<20, "four rows of five (a row height not a number: square)")
                // Its end lies past 2^53 points, where rows cannot be told apart: what shows
                // there is not asserted, only that the frames are drawn.
                h.frame { ui in
                    ui.scrollGrid("huge\(n)", toItem: .max - 1)
                    build(ui)
                }
                h.frames(2, build)
            }
        }
    }
}

extension FirstScreenTests {
    func testRowsOfEveryItemThereCanBeEndWithoutOverflowing() {
        let rows = GridLayout.Rows(count: .max, columns: 5, rowLength: 10, spacing: 0)
        XCTAssertEqual(rows.rowCount, Int.max / 5 + 1)
        // Offsets out there are a few hundred rows coarse: a viewport of 100,000 rows reaches the end.
        let end = rows.visibleItems(offset: Double(rows.rowCount) * 10 - 500_000, viewport: 1_000_000)
        XCTAssertEqual(end.upperBound, .max, "the last row ends at the last item")
    }
}
