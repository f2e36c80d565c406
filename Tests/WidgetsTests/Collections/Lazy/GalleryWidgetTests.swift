import XCTest
import Foundation
import TesseraTesting
import TestSupport
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Lazy grids and stacks with the real thumbnail pipeline in the offscreen renderer.
final class GalleryWidgetTests: XCTestCase {
    /// `count` small 160×120 JPEGs in `dir`.
    static func photos(_ count: Int, in dir: ScratchFolder) throws -> [String] {
        try (0..<count).map { i in
            let path = dir.file("p\(i).jpg")
            try SamplePhotos.writeJPEG(SamplePhotos.render(width: 160, height: 120, seed: UInt64(i)), to: path)
            return path
        }
    }

    /// A grid of `paths`' images, adaptive columns of 100 px, with its prefetch window (`info` sees what it showed).
    @MainActor
    static func gridBuild(_ paths: [String], info: @escaping (LazyGridInfo) -> Void) -> (UI) -> Void {
        { ui in
            let viewport = ui.availableRect
            let grid = ui.lazyVGrid(
                "grid", columns: [GridItem(.adaptive(minimum: 100), spacing: 8)], count: paths.count
            ) { ui, i, rect in
                ui.asyncImage(paths[i], in: rect, priority: ImageFraming.priority(of: rect, in: viewport))
            }
            ui.prefetchImages(grid) { paths[$0] }
            info(grid)
        }
    }

    func testScrollingAGridEventuallyDrawsEveryVisibleThumbnail() throws {
        try onMain {
            let dir = try ScratchFolder("grid")
            let paths = try Self.photos(60, in: dir)
            let h = try Harness()
            let images = ImagePipeline(renderer: h.host.window.renderer, workers: 2)
            defer { images.shutdown() }
            h.ui.images = images
            var info: LazyGridInfo?
            let build = Self.gridBuild(paths) { info = $0 }
            h.frames(until: { h.host.profiler.lastFrame?.lazy.placeholderCells == 0 && images.decodedTotal > 0 }, build)
            XCTAssertEqual(info?.columns, 5, "630 pt for 100 pt columns with 8 pt gaps")
            let lazy = h.host.profiler.lastFrame!.lazy
            XCTAssertEqual(lazy.placeholderCells, 0, "every visible cell has its thumbnail")
            XCTAssertEqual(lazy.visibleCells, info?.visible.count)
            // The first cell shows the photo, not the placeholder.
            let cell = Rect(x: 10, y: 10, width: 100, height: 100)
            XCTAssertGreaterThan(h.countPixels(in: cell, differingFrom: h.ui.theme.control), 9000)
            // A whole frame (the last one may have redrawn only the thumbnail that arrived in it).
            h.host.window.renderer.invalidateLastFrame()
            h.frame(build)
            XCTAssertEqual(
                h.host.window.renderer.stats.opaqueDraws, lazy.visibleCells, "photos are opaque: drawn without blending"
            )

            // Scroll to the end: the newly visible cells fill in too.
            h.ui.scrollGrid("grid", toOffset: 10_000)
            h.frames(
                until: {
                    (info?.visible.upperBound ?? 0) == 60 && h.host.profiler.lastFrame?.lazy.placeholderCells == 0
                }, build)
            XCTAssertEqual(info?.visible.upperBound, 60)
            XCTAssertEqual(h.host.profiler.lastFrame?.lazy.placeholderCells, 0)
            XCTAssertLessThanOrEqual(images.cache.bytes, images.cache.budgetBytes)
            h.shot("grid", build)
        }
    }

    func testATextureBudgetEvictsTheLeastRecentlyDrawnAndScrollingBackDecodesThemAgain() throws {
        try onMain {
            let dir = try ScratchFolder("grid-evict")
            let paths = try Self.photos(60, in: dir)
            let h = try Harness()
            // 3 MB holds 40 of these 160×120 thumbnails (75 KB): more than a screen (30), less than
            // the 60 photos.
            let images = ImagePipeline(renderer: h.host.window.renderer, budgetBytes: 3 << 20, workers: 2)
            defer { images.shutdown() }
            h.ui.images = images
            var info: LazyGridInfo?
            var evictions = 0, overBudgetFrames = 0
            let build: (UI) -> Void = { ui in
                Self.gridBuild(paths) { info = $0 }(ui)
            }
            let settle = { (done: () -> Bool) in
                // generous: sanitizers and busy machines; it stops as soon as it can
                let deadline = MonotonicClock.seconds() + 60
                repeat {
                    h.frame(build)
                    let lazy = h.host.profiler.lastFrame!.lazy
                    evictions += lazy.evictions
                    if lazy.cacheBytes > images.cache.budgetBytes { overBudgetFrames += 1 }
                    usleep(5_000)
                } while !done() && MonotonicClock.seconds() < deadline
            }
            settle { h.host.profiler.lastFrame?.lazy.placeholderCells == 0 && images.decodedTotal > 0 }
            let thumbnailBytes = images.cache.bytes / max(1, images.cache.count)
            XCTAssertLessThan(images.cache.budgetBytes / thumbnailBytes, 60, "the budget cannot hold every photo")
            h.ui.scrollGrid("grid", toOffset: 10_000)
            settle { (info?.visible.upperBound ?? 0) == 60 && h.host.profiler.lastFrame?.lazy.placeholderCells == 0 }
            XCTAssertEqual(h.host.profiler.lastFrame?.lazy.placeholderCells, 0, "the last screen is complete")
            XCTAssertGreaterThan(evictions, 0, "the first screen's textures made room for the last one's")
            XCTAssertEqual(overBudgetFrames, 0, "never over the budget at the end of a frame")
            let decodedAtEnd = images.decodedTotal
            h.ui.scrollGrid("grid", toOffset: 0)
            settle { (info?.visible.lowerBound ?? 1) == 0 && h.host.profiler.lastFrame?.lazy.placeholderCells == 0 }
            XCTAssertEqual(h.host.profiler.lastFrame?.lazy.placeholderCells, 0)
            XCTAssertGreaterThan(
                images.decodedTotal, decodedAtEnd, "evicted thumbnails are decoded again when they come back")
            XCTAssertEqual(overBudgetFrames, 0)
        }
    }

    func testACellThatChangesSizeKeepsItsPhotoUntilTheNewSizeIsDecoded() throws {
        try onMain {
            let dir = try ScratchFolder("grid-resize")
            let paths = try Self.photos(40, in: dir)
            let h = try Harness()
            let gate = Locked(true)  // decodes of the new size wait here while the old size is checked
            let images = ImagePipeline(renderer: h.host.window.renderer, workers: 2) { key in
                while !gate.withLock({ $0 }) { usleep(500) }
                return ThumbnailLoader.decodeFile(key)
            }
            defer { images.shutdown() }
            h.ui.images = images
            var minimum = 100.0
            let build: (UI) -> Void = { ui in
                let viewport = ui.availableRect
                let grid = ui.lazyVGrid(
                    "grid", columns: [GridItem(.adaptive(minimum: minimum), spacing: 8)], count: paths.count
                ) { ui, i, rect in
                    ui.asyncImage(paths[i], in: rect, priority: ImageFraming.priority(of: rect, in: viewport))
                }
                ui.prefetchImages(grid) { paths[$0] }
            }
            h.frames(until: { h.host.profiler.lastFrame?.lazy.placeholderCells == 0 && images.decodedTotal > 0 }, build)
            let decodedBefore = images.decodedTotal
            gate.withLock { $0 = false }
            minimum = 140  // the cells grow: every visible one was on screen at the old size
            h.frames(3, build)
            var lazy = try XCTUnwrap(h.host.profiler.lastFrame?.lazy)
            XCTAssertGreaterThan(lazy.visibleCells, 4)
            XCTAssertEqual(lazy.placeholderCells, 0, "no cell flashes a placeholder while its new size decodes")
            XCTAssertEqual(lazy.resizedCells, lazy.visibleCells, "each draws its thumbnail of the old size")
            XCTAssertGreaterThan(
                h.countPixels(in: Rect(x: 12, y: 12, width: 100, height: 100), differingFrom: h.ui.theme.control), 9000)

            gate.withLock { $0 = true }
            h.frames(until: { h.host.profiler.lastFrame?.lazy.resizedCells == 0 }, build)
            lazy = try XCTUnwrap(h.host.profiler.lastFrame?.lazy)
            XCTAssertEqual(lazy.resizedCells, 0, "the new size replaced the old")
            XCTAssertEqual(lazy.placeholderCells, 0)
            XCTAssertGreaterThan(images.decodedTotal, decodedBefore, "the new size was decoded")
        }
    }

    /// A cell drawn at its thumbnail's own size samples the nearest texel: the photo's pixels
    /// arrive unchanged even at a half-pixel offset, where bilinear filtering would blend them.
    func testASquareCellDrawsItsThumbnailTexelForPixel() throws {
        try onMain {
            let h = try Harness()
            let checker: @Sendable (Int, Int) -> PixelBuffer = { width, height in
                var bytes = [UInt8](repeating: 255, count: width * height * 4)
                for y in 0..<height {
                    for x in 0..<width where (x + y) % 2 == 1 {
                        bytes[(y * width + x) * 4] = 0
                        bytes[(y * width + x) * 4 + 1] = 0
                        bytes[(y * width + x) * 4 + 2] = 0
                    }
                }
                return PixelBuffer(width: width, height: height, bytes: bytes)
            }
            let images = ImagePipeline(renderer: h.host.window.renderer, workers: 1) { key in
                let side = key.spec.side
                return .success(
                    DecodedThumbnail(
                        pixels: checker(side, side),
                        info: ImageInfo(format: .png, width: side, height: side, orientation: 1),
                        dctScale: 1))
            }
            defer { images.shutdown() }
            h.ui.images = images
            let square = Rect(x: 40.5, y: 40.5, width: 64, height: 64),
                wide = Rect(x: 200.5, y: 40.5, width: 96, height: 64)
            let build: (UI) -> Void = { ui in
                ui.asyncImage("square.png", in: square, mode: .fill)
                ui.asyncImage("wide.png", in: wide, mode: .fill)
            }
            h.frames(until: { h.host.profiler.lastFrame?.lazy.placeholderCells == 0 }, build)
            h.frame(build)
            let isGray = { (c: Color) in c.r > 60 && c.r < 195 }
            let inside = { (r: Rect) in r.insetBy(dx: 8, dy: 8) }
            XCTAssertEqual(
                h.countPixels(in: inside(square), where: isGray), 0,
                "the square cell shows the checker's pixels, none blended")
            XCTAssertGreaterThan(
                h.countPixels(in: inside(square), where: { $0.r < 60 }), 800, "half of its pixels are black")
            XCTAssertGreaterThan(
                h.countPixels(in: inside(wide), where: isGray), 1000,
                "a frame of another shape samples its thumbnail bilinearly")
        }
    }

    func testAHeroCellsStarsAreTwoTrianglesEachAndDrawnInTheirColors() throws {
        try onMain {
            let h = try Harness(width: 300, height: 300)
            XCTAssertNotNil(h.ui.fonts.icons, "the icon font (scripts/install-deps.sh installs it)")
            var triangles = 0
            h.frame { ui in
                ui.drawList.addRect(Rect(x: 0, y: 0, width: 300, height: 300), color: .black)
                let before = ui.drawList.indexCount
                ui.heroImage(
                    "/no/such/photo.jpg", in: Rect(x: 20, y: 20, width: 200, height: 200), title: "", rating: 3)
                triangles = (ui.drawList.indexCount - before) / 3
            }
            h.shot("hero-cell-stars") { ui in
                ui.drawList.addRect(Rect(x: 0, y: 0, width: 300, height: 300), color: .black)
                ui.heroImage(
                    "/no/such/photo.jpg", in: Rect(x: 20, y: 20, width: 200, height: 200), title: "", rating: 3)
            }
            // The error tile (about 170), the banner and five stars of two each; the built-in
            // shapes, tessellated, took 42 each (386 in all).
            XCTAssertLessThan(triangles, 220, "\(triangles) triangles")
            // The third star is filled in the rating's yellow; the fourth is a white outline.
            // (Glyphs of the icon font, an em apart.)
            let pixels = h.pixels
            func yellow(star k: Int) -> Int {
                let box = Rect(x: 20 + 8 + Double(k) * 12, y: 220 - 40 + 21, width: 12, height: 12)
                var n = 0
                for y in Int(box.y)..<Int(box.maxY) {
                    for x in Int(box.x)..<Int(box.maxX) {
                        let c = pixels.pixel(x: x, y: y)
                        if c.r > 200 && c.g > 150 && c.b < 90 { n += 1 }
                    }
                }
                return n
            }
            XCTAssertGreaterThan(yellow(star: 2), 15, "a filled yellow star")
            XCTAssertEqual(yellow(star: 3), 0, "an outline")
        }
    }

    func testBrokenFilesShowErrorTilesAndTheRestLoads() throws {
        try onMain {
            let dir = try ScratchFolder("grid-broken")
            let photo = try SamplePhotos.jpegData(SamplePhotos.render(width: 160, height: 120, seed: 1))
            try SamplePhotos.write(photo, to: dir.file("0-good.jpg"))
            try SamplePhotos.write(Array(photo.prefix(photo.count / 3)), to: dir.file("1-truncated.jpg"))
            try SamplePhotos.write([], to: dir.file("2-empty.jpg"))
            try SamplePhotos.write(Array("text".utf8), to: dir.file("3-text.png"))
            try SamplePhotos.write(photo, to: dir.file("4-good.jpg"))
            let paths = (0..<5).map {
                dir.file(["0-good.jpg", "1-truncated.jpg", "2-empty.jpg", "3-text.png", "4-good.jpg"][$0])
            }
            try FileManager.default.removeItem(atPath: dir.file("4-good.jpg"))  // deleted after it was listed
            let h = try Harness()
            let images = ImagePipeline(renderer: h.host.window.renderer, workers: 2)
            defer { images.shutdown() }
            h.ui.images = images
            let build = Self.gridBuild(paths) { _ in }
            h.frames(until: { h.host.profiler.lastFrame?.lazy.placeholderCells == 0 && images.failedTotal == 4 }, build)
            XCTAssertEqual(images.failedTotal, 4, "truncated, empty, not an image, deleted")
            XCTAssertEqual(images.decodedTotal, 1)
            // The truncated file's cell (the second) is an error tile: tinted with the destructive color.
            let second = Rect(x: 10 + 119.6 + 8 + 10, y: 30, width: 60, height: 20)
            XCTAssertGreaterThan(h.countPixels(in: second, differingFrom: h.ui.theme.background, tolerance: 8), 600)
            XCTAssertEqual(
                h.countPixels(
                    in: Rect(x: 30, y: 30, width: 60, height: 20), differingFrom: h.ui.theme.control, tolerance: 8)
                    > 600, true,
                "the good photo drew")
        }
    }

    func testAFastScrollPastAThousandItemsCancelsTheJobsItSkipped() throws {
        try onMain {
            let h = try Harness()
            // A slow fake decoder, so jobs pile up behind the scroll.
            // The decoders wait at a gate while the scroll runs: what they could have finished
            // meanwhile does not depend on how fast this machine (or a sanitizer) draws frames.
            let gate = Locked(false)
            let images = ImagePipeline(renderer: h.host.window.renderer, workers: 2) { _ in
                while !gate.withLock({ $0 }) { usleep(500) }
                return .success(
                    DecodedThumbnail(
                        pixels: PixelBuffer(width: 8, height: 8, color: .red),
                        info: ImageInfo(format: .png, width: 8, height: 8, orientation: 1), dctScale: 1))
            }
            defer { images.shutdown() }
            h.ui.images = images
            let paths = (0..<3000).map { "item-\($0)" }
            var info: LazyGridInfo?
            let build = Self.gridBuild(paths) { info = $0 }
            h.frame(build)
            var offset = 0.0
            for _ in 0..<30 {  // 1,500 items scroll past, ten rows a frame
                offset += 1276
                h.ui.scrollGrid("grid", toOffset: offset)
                h.frame(build)
            }
            XCTAssertGreaterThan(info?.visible.lowerBound ?? 0, 1000)
            let stats = images.loader.snapshot
            XCTAssertGreaterThan(stats.cancelled, 200, "queued jobs of items scrolled past were cancelled")
            XCTAssertLessThanOrEqual(
                stats.finished + stats.running, 2, "no skipped item was decoded: at most one per worker started")
            gate.withLock { $0 = true }
            h.frames(until: { h.host.profiler.lastFrame?.lazy.placeholderCells == 0 }, build)
            XCTAssertEqual(
                h.host.profiler.lastFrame?.lazy.placeholderCells, 0, "where the scroll stopped, everything loads")
        }
    }

    func testALazyStackBuildsNearTheViewportAndKeepsItsPlaceAsHeightsAreMeasured() throws {
        try onMain {
            let h = try Harness()
            var built: Set<Int> = []
            var markerY: Double?
            let build: (UI) -> Void = { ui in
                markerY = nil
                ui.lazyVStack("feed", count: 10_000, estimatedHeight: 30, spacing: 4) { ui, i in
                    built.insert(i)
                    if i == 500 { markerY = ui.availableRect.minY }
                    ui.frame(height: Double(20 + (i % 7) * 13)) { ui.text("Row \(i)") }
                }
            }
            h.frame(build)
            XCTAssertLessThan(built.count, 30, "only the first screen is built")
            // Jump into unmeasured territory: item 500 is near the top.
            h.ui.scrollLazyStack("feed", toItem: 500)
            built = []
            h.frame(build)
            let firstY = try XCTUnwrap(markerY)
            XCTAssertLessThan(built.count, 30)
            XCTAssertTrue(built.contains(499), "one item of overscan above")
            // The next frames measure more items (above and below): item 500 must not move on screen.
            for _ in 0..<3 {
                h.frame(build)
                XCTAssertEqual(try XCTUnwrap(markerY), firstY, accuracy: 0.5)
            }
            // Scrolling up one item at a time through estimated rows keeps the marker stable, too.
            h.inject.mouseMove(to: Point(200, 200))
            h.frame(build)
            let before = try XCTUnwrap(markerY)
            h.inject.wheel(dy: 1)
            h.frame(build)
            h.frame(build)
            let moved = try XCTUnwrap(markerY) - before
            h.frame(build)
            XCTAssertEqual(
                try XCTUnwrap(markerY) - before, moved, accuracy: 0.5,
                "after the wheel step, corrections do not move it")
        }
    }

    func testALazyStackPinsTheTopSectionsHeaderUntilTheNextPushesItAway() throws {
        try onMain {
            let h = try Harness()
            var headerY: [Int: Double] = [:]
            var built = 0
            // 30 sections of a header and 20 rows, everything 30 pt: section s starts at 630 s.
            let build: (UI) -> Void = { ui in
                headerY = [:]
                built = 0
                ui.lazyVStack(
                    "mail", sections: Array(repeating: 20, count: 30), estimatedHeight: 30, spacing: 0,
                    pinnedViews: .sectionHeaders,
                    header: { ui, s in
                        ui.frame(height: 30) {
                            headerY[s] = ui.availableRect.minY
                            ui.drawList.addRect(ui.availableRect, color: .blue)
                        }
                    }
                ) { ui, _, _ in
                    built += 1
                    ui.frame(height: 30) { ui.drawList.addRect(ui.availableRect, color: .red) }
                }
            }
            let scroll = { (offset: Double) in
                h.ui.withID(h.ui.id("mail")) { h.ui.scrollTo("scroll", offset: Point(0, offset)) }
                h.frame(build)
            }
            h.frame(build)
            scroll(3 * 630 + 100)
            XCTAssertEqual(headerY[3], 0, "section 3's header is pinned at the top")
            XCTAssertNil(headerY[2])
            XCTAssertLessThan(built, 25, "only the rows in view are built")
            let band = Rect(x: 100, y: 5, width: 100, height: 20)
            XCTAssertEqual(
                h.countPixels(in: band, where: { $0 == .blue }), 2000, "drawn over the rows that scrolled under it")
            scroll(4 * 630 - 10)
            h.shot("lazy-stack-pinned-headers", build)
            XCTAssertEqual(headerY[4], 10, "the next header arrives 10 pt down")
            XCTAssertEqual(headerY[3], -20, "and pushes the pinned one up")
            XCTAssertEqual(h.countPixels(in: Rect(x: 100, y: 0, width: 100, height: 10), where: { $0 == .blue }), 1000)
            scroll(4 * 630 + 1)
            XCTAssertEqual(headerY[4], 0, "then it is pinned itself")
            XCTAssertNil(headerY[3])
        }
    }

    func testALazyHStackBuildsOnlyTheColumnsInViewAndScrollsSideways() throws {
        try onMain {
            let h = try Harness()
            var built: [Int: Rect] = [:]
            var info: LazyStackInfo?
            let build: (UI) -> Void = { ui in
                built = [:]
                info = ui.lazyHStack("strip", count: 10_000, estimatedWidth: 100, spacing: 10) { ui, i in
                    ui.frame(width: Double(60 + (i % 3) * 40), height: 80) {
                        built[i] = ui.availableRect
                        ui.drawList.addRect(ui.availableRect, color: i % 2 == 0 ? .red : .green)
                    }
                }
            }
            h.frames(2, build)
            XCTAssertLessThan(built.count, 14, "only the items in and next to the 640 pt viewport")
            XCTAssertEqual(built[0]?.minX, 0)
            XCTAssertEqual(try XCTUnwrap(built[1]).minX, 60 + 10, "laid out left to right with the spacing")
            XCTAssertEqual(try XCTUnwrap(built[1]).minY, try XCTUnwrap(built[0]).minY, "in one row")
            XCTAssertEqual(h.pixels.pixel(x: 30, y: 40), .red)
            XCTAssertEqual(h.pixels.pixel(x: 90, y: 40), .green)
            // A horizontal wheel (a trackpad swipe) moves the strip left.
            h.inject.mouseMove(to: Point(300, 40))
            h.frame(build)
            h.inject.wheel(dx: 4, dy: 0)
            h.frames(2, build)
            XCTAssertGreaterThan(info?.scrollOffset ?? 0, 100)
            XCTAssertLessThan(
                try XCTUnwrap(built.keys.min().flatMap { built[$0] }).minX, 0,
                "the first built item starts left of the view")
            // Jumping to an item puts it at the leading edge; the far end of 10,000 is reachable.
            h.ui.scrollLazyStack("strip", toItem: 9_990)
            h.frames(3, build)
            XCTAssertEqual(try XCTUnwrap(built[9_990]).minX, 0, accuracy: 0.5)
            XCTAssertLessThan(built.count, 14)
            XCTAssertGreaterThan(info?.contentLength ?? 0, 500_000)
        }
    }

    func testALazyHGridFillsColumnsTopToBottomAndBuildsOnlyVisibleColumns() throws {
        try onMain {
            let h = try Harness()
            var built: [Int: Rect] = [:]
            var info: LazyGridInfo?
            let build: (UI) -> Void = { ui in
                built = [:]
                info = ui.lazyHGrid(
                    "shelf", rows: [GridItem(.fixed(100)), GridItem(.fixed(100))], spacing: 8, count: 1_000
                ) { ui, i, rect in
                    built[i] = rect
                    ui.drawList.addRect(rect, color: .blue)
                }
            }
            h.frames(2, build)
            XCTAssertEqual(info?.columns, 2, "two rows (the cross axis)")
            XCTAssertEqual(built[0]?.origin, Point(0, 0))
            XCTAssertEqual(built[1]?.origin, Point(0, 108), "item 1 is below item 0: columns fill top to bottom")
            XCTAssertEqual(
                try XCTUnwrap(built[2]).minX, try XCTUnwrap(built[0]).maxX + 8, "item 2 starts the next column")
            XCTAssertLessThanOrEqual(built.count, 2 * (640 / 108 + 2), "only the columns in view")
            XCTAssertEqual(h.pixels.pixel(x: 50, y: 150), .blue)
            XCTAssertEqual(h.pixels.pixel(x: 50, y: 104), h.ui.theme.background, "the gap between the rows")
            h.ui.scrollGrid("shelf", toOffset: 108 * 400)
            h.frames(2, build)
            XCTAssertEqual(info?.visible.lowerBound, 800, "column 400 holds items 800 and 801")
            XCTAssertEqual(try XCTUnwrap(built[800]).minX, 0, accuracy: 0.5)
            XCTAssertLessThanOrEqual(built.count, 2 * (640 / 108 + 2))
        }
    }

    func testPinchAndCtrlWheelZoomTheGrid() throws {
        try onMain {
            let h = try Harness()
            var zoom = 1.0
            let build: (UI) -> Void = { ui in
                ui.lazyVGrid(
                    "grid", columns: [GridItem(.adaptive(minimum: 100 * zoom))], count: 500,
                    zoom: Binding(get: { zoom }, set: { zoom = $0 })
                ) { ui, i, rect in
                    ui.drawList.addRect(rect.insetBy(dx: 2, dy: 2), color: .gray)
                }
            }
            h.frame(build)
            h.inject.finger(1, .down, at: Point(300, 240))
            h.inject.finger(2, .down, at: Point(340, 240))
            h.frame(build)
            for step in 1...6 {
                h.inject.finger(1, .moved, at: Point(300 - Double(step) * 5, 240))
                h.inject.finger(2, .moved, at: Point(340 + Double(step) * 5, 240))
                h.frame(build)
            }
            h.inject.finger(1, .up, at: Point(270, 240))
            h.inject.finger(2, .up, at: Point(370, 240))
            h.frame(build)
            XCTAssertEqual(zoom, 2.5, accuracy: 0.05, "fingers 40 pt apart spread to 100: zoom × 2.5")
            h.inject.mouseMove(to: Point(300, 240))
            h.inject.key(Key(rawValue: 224 | (1 << 30)), down: true, modifiers: .control)
            h.inject.wheel(dy: -1)
            h.frame(build)
            h.inject.key(Key(rawValue: 224 | (1 << 30)), down: false)
            h.frame(build)
            XCTAssertEqual(zoom, 2.5 / 1.1, accuracy: 0.01, "ctrl+wheel down zooms out")
        }
    }

    func testResizingReflowsColumnsAndKeepsTheTopItemInView() throws {
        try onMain {
            let h = try Harness()
            var width = 630.0
            var info: LazyGridInfo?
            let build: (UI) -> Void = { ui in
                ui.frame(width: width) {
                    info = ui.lazyVGrid("grid", columns: [GridItem(.adaptive(minimum: 100), spacing: 8)], count: 5000) {
                        ui, i, rect in
                        ui.drawList.addRect(rect, color: .gray)
                    }
                }
            }
            h.frame(build)
            XCTAssertEqual(info?.columns, 5)
            h.ui.scrollGrid(
                "grid",
                toOffset: GridLayout.Rows(count: 5000, columns: 5, rowLength: info!.cellSize.height, spacing: 8).offset(
                    ofItem: 3000))
            h.frame(build)
            XCTAssertEqual(info?.visible.lowerBound, 3000)
            width = 330  // the window narrows: 3 columns
            h.frames(2, build)
            XCTAssertEqual(info?.columns, 3)
            let first = try XCTUnwrap(info?.visible.lowerBound)
            XCTAssertTrue((2998...3000).contains(first), "item 3000 is still at the top (its row starts at \(first))")
        }
    }

    func testGridItemAlignmentPlacesNarrowContent() throws {
        try onMain {
            let h = try Harness()
            let build: (UI) -> Void = { ui in
                ui.lazyVGrid(
                    "grid",
                    columns: [GridItem(.flexible(), alignment: .leading), GridItem(.flexible(), alignment: .trailing)],
                    count: 2,
                    rowHeight: { _ in 40 }
                ) { ui, i, rect in
                    ui.frame(width: 30, height: 30) { ui.drawList.addRect(ui.availableRect, color: .red) }
                }
            }
            h.frames(2, build)
            // Two 311 pt columns: the first square hugs the left edge, the second the right edge of its column.
            XCTAssertEqual(h.pixels.pixel(x: 5, y: 10), .red)
            XCTAssertNotEqual(h.pixels.pixel(x: 40, y: 10), .red)
            XCTAssertEqual(h.pixels.pixel(x: 319 + 311 - 5, y: 10), .red)
            XCTAssertNotEqual(h.pixels.pixel(x: 319 + 5, y: 10), .red)
        }
    }

    /// A photo another program edits is drawn anew once the app hears files may have changed
    /// (its watcher): textures are keyed by path, modification time and size, not path alone.
    func testAnEditedPhotoIsDecodedAgain() throws {
        try onMain {
            let dir = try ScratchFolder("grid-edited")
            let path = dir.file("photo.jpg")
            try SamplePhotos.writeJPEG(PixelBuffer(width: 160, height: 120, color: .red), to: path, quality: 95)
            let h = try Harness()
            let images = ImagePipeline(renderer: h.host.window.renderer, workers: 1)
            defer { images.shutdown() }
            h.ui.images = images
            let cell = Rect(x: 10, y: 10, width: 100, height: 100)
            let build: (UI) -> Void = { ui in ui.asyncImage(path, in: cell) }
            @MainActor func reds() -> Int { h.countPixels(in: cell) { $0.r > 200 && $0.g < 60 && $0.b < 60 } }
            @MainActor func blues() -> Int { h.countPixels(in: cell) { $0.b > 200 && $0.r < 60 && $0.g < 60 } }
            h.frames(until: { reds() > 9000 }, build)
            XCTAssertGreaterThan(reds(), 9000)
            // Another program writes a blue photo over it (a new size and time).
            try SamplePhotos.writeJPEG(
                PixelBuffer(width: 200, height: 150, color: Color(hex: 0x0000FF)), to: dir.file("edited.jpg"),
                quality: 95)
            XCTAssertEqual(rename(dir.file("edited.jpg"), path), 0)
            var later = [timespec(tv_sec: 1_900_000_000, tv_nsec: 0), timespec(tv_sec: 1_900_000_000, tv_nsec: 0)]
            utimensat(AT_FDCWD, path, &later, 0)
            h.frames(5, build)
            XCTAssertGreaterThan(reds(), 9000, "until told, the pipeline does not look at the file again")
            images.filesMayHaveChanged()
            h.frames(until: { blues() > 9000 }, build)
            XCTAssertGreaterThan(blues(), 9000, "the edited photo is shown")
        }
    }

    /// At 1:1 a 108-megapixel photo is drawn from the tiles in view: the view shows the photo's
    /// pixels (its dark left half and bright right half meet in the middle), and only the tiles
    /// that meet the view are decoded, not the photo.
    func testAHugePhotoAtActualSizeDecodesOnlyTheTilesInView() throws {
        try onMain {
            let dir = try ScratchFolder("tiles")
            let path = dir.file("108mp.jpg")
            try SamplePhotos.write(try LargeJPEG.gray(width: 12_000, height: 9_000), to: path)
            let h = try Harness(width: 800, height: 600)
            let images = ImagePipeline(renderer: h.host.window.renderer, workers: 2)
            defer { images.shutdown() }
            h.ui.images = images
            let view = Rect(x: 0, y: 0, width: 800, height: 600)
            // The photo's centre in the view's centre, one pixel per point.
            let frame = Rect(x: 400 - 6_000, y: 300 - 4_500, width: 12_000, height: 9_000)
            var loading = 1
            let build: (UI) -> Void = { ui in
                loading = ui.tiledImage(path, imageWidth: 12_000, imageHeight: 9_000, in: frame, visible: view)
            }
            h.frames(until: { loading == 0 }, build)
            XCTAssertEqual(loading, 0)
            h.shot("tiled-108mp", build)
            let dark = h.countPixels(in: Rect(x: 100, y: 100, width: 200, height: 400)) { $0.r < 100 }
            let bright = h.countPixels(in: Rect(x: 500, y: 100, width: 200, height: 400)) { $0.r > 150 }
            XCTAssertGreaterThan(dark, 70_000, "the left half is dark")
            XCTAssertGreaterThan(bright, 70_000, "the right half is bright")
            // The view (rows 4200-4800, columns 5600-6400 of the photo) meets tiles 5 and 6 of row 4.
            XCTAssertGreaterThanOrEqual(images.decodedTotal, 2)
            XCTAssertLessThanOrEqual(
                images.decodedTotal, 2 + 1, "the two tiles in view (and the stand-in), of the photo's 108")
        }
    }
}
