import XCTest
import Foundation
import TesseraTesting
import TestSupport
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// The two thumbnail tiers in a real grid: a JPEG's embedded EXIF thumbnail is drawn first,
/// the sharp decode replaces it without a placeholder in between, every step is on the image's
/// timeline, and a fling passes over cells without decoding them sharp.
final class ThumbnailTierTests: XCTestCase {
    /// `count` camera-like JPEGs: the photo blue, its embedded thumbnail red, so the pixels
    /// say which tier a cell draws.
    private static func cameraPhotos(_ count: Int, in dir: ScratchFolder, side: Int = 160) throws -> [String] {
        let photo = try SamplePhotos.jpegData(PixelBuffer(width: side, height: side * 3 / 4, color: .blue))
        let thumbnail = try SamplePhotos.jpegData(PixelBuffer(width: 32, height: 24, color: .red))
        let bytes = try EXIFWriter.inserting(
            CameraMetadata(
                make: "Canon", model: "EOS R6", dateTimeOriginal: "2024:05:12 14:03:09",
                thumbnail: thumbnail), into: photo)
        return try (0..<count).map { i in
            let path = dir.file("IMG_\(i).jpg")
            try SamplePhotos.write(bytes, to: path)
            return path
        }
    }

    private static func isRed(_ c: Color) -> Bool { c.r > 180 && c.b < 80 }

    /// Frames (with real time for the workers) until `done`, 60 s at most; `each` sees every frame's counters.
    @MainActor
    private static func frames(
        until done: () -> Bool, _ h: Harness, _ build: (UI) -> Void, each: (LazyPathCounters) -> Void = { _ in }
    ) {
        let deadline = MonotonicClock.seconds() + 60
        repeat {
            h.frame(build)
            each(h.host.profiler.lastFrame?.lazy ?? LazyPathCounters())
            usleep(3_000)
        } while !done() && MonotonicClock.seconds() < deadline
    }

    func testTheEmbeddedThumbnailIsDrawnFirstAndTheSharpOneReplacesItWithoutAFlash() throws {
        try onMain {
            let dir = try ScratchFolder("tiers")
            let paths = try Self.cameraPhotos(12, in: dir)
            let h = try Harness(width: 800, height: 600)
            let gate = Locked(false)  // the sharp decodes wait here until the embedded tier has been seen
            let images = ImagePipeline(renderer: h.host.window.renderer, workers: 2) { key in
                while !gate.withLock({ $0 }) { usleep(500) }
                return ThumbnailLoader.decodeFile(key)
            }
            defer { images.shutdown() }
            images.keepsTimelines = true
            h.ui.images = images
            let build = GalleryWidgetTests.gridBuild(paths) { _ in }
            let visible = { h.host.profiler.lastFrame?.lazy.visibleCells ?? 0 }
            Self.frames(
                until: { visible() > 0 && h.host.profiler.lastFrame?.lazy.embeddedCells == visible() }, h, build)
            let lazy = try XCTUnwrap(h.host.profiler.lastFrame?.lazy)
            XCTAssertEqual(lazy.placeholderCells, 0, "every visible cell shows its embedded thumbnail")
            XCTAssertGreaterThan(lazy.embeddedCells, 6)
            h.frame(build)
            XCTAssertTrue(
                Self.isRed(h.pixels.pixel(x: 60, y: 60)),
                "the embedded tier (red) is drawn: \(h.pixels.pixel(x: 60, y: 60))")

            gate.withLock { $0 = true }
            var flashes = 0
            Self.frames(
                until: {
                    h.host.profiler.lastFrame?.lazy.embeddedCells == 0
                        && h.host.profiler.lastFrame?.lazy.placeholderCells == 0
                },
                h, build
            ) { flashes += $0.placeholderCells }
            XCTAssertEqual(flashes, 0, "no cell went back to a placeholder between the tiers")
            h.frame(build)
            let after = h.pixels.pixel(x: 60, y: 60)
            XCTAssertTrue(after.b > 180 && after.r < 80, "the sharp tier (blue) replaced it: \(after)")
            XCTAssertEqual(images.embeddedTotal, images.decodedTotal, "one of each per image")

            // Each image's timeline: requested → embedded uploaded → embedded drawn → sharp decoded → uploaded → drawn.
            XCTAssertGreaterThan(images.timelines.count, 6)
            for t in images.timelines {
                XCTAssertGreaterThan(t.embeddedDrawnNs, 0, t.path)
                XCTAssertLessThanOrEqual(t.requestedNs, t.embeddedDecodedNs)
                XCTAssertLessThanOrEqual(t.embeddedDecodedNs, t.embeddedUploadedNs)
                XCTAssertLessThanOrEqual(t.embeddedUploadedNs, t.embeddedDrawnNs)
                XCTAssertLessThan(
                    t.embeddedDrawnNs, t.decodedNs, "the sharp decode was held back until the embedded tier was drawn")
                XCTAssertLessThanOrEqual(t.decodedNs, t.uploadedNs)
                XCTAssertLessThanOrEqual(t.uploadedNs, t.firstDrawnNs)
            }
            let trace = ChromeTrace.json(frames: h.host.profiler.recentFrames, images: images.timelines, workers: 2)
            XCTAssertTrue(trace.contains("\"name\":\"embedded IMG_0.jpg\""), "the trace marks the embedded tier")
            XCTAssertTrue(trace.contains("\"embedded\":"), "and counts the cells showing it")
            // (The profiler keeps the last 600 frames: on a slow run, under a sanitizer, the first
            // uploads may be older than that; the ones still kept are each listed in their frame.)
            let kept = h.host.profiler.recentFrames
            let touched = kept.map { FrameImages(frame: $0, timelines: images.timelines).embedded.count }
            let uploadedWhileKept = images.timelines.filter { $0.embeddedUploadedNs >= (kept.first?.startNs ?? 0) }
                .count
            XCTAssertEqual(
                touched.reduce(0, +), uploadedWhileKept, "the inspector lists each embedded upload in its frame")
        }
    }

    func testAVisibleCellDrawsADecodeThatFinishedBeforeItWasBuiltInThatFrameWhateverTheUploadBudget() throws {
        try onMain {
            let dir = try ScratchFolder("tiers-on-sight")
            let paths = try Self.cameraPhotos(12, in: dir)
            let h = try Harness(width: 800, height: 600)
            let gate = Locked(false)  // the sharp decodes wait here
            let images = ImagePipeline(renderer: h.host.window.renderer, workers: 2) { key in
                while !gate.withLock({ $0 }) { usleep(500) }
                return ThumbnailLoader.decodeFile(key)
            }
            defer {
                gate.withLock { $0 = true }
                images.shutdown()
            }
            images.keepsTimelines = true
            images.uploadBudgetMs = 0  // the end of a frame uploads one decode
            h.ui.images = images
            let build = GalleryWidgetTests.gridBuild(paths) { _ in }
            h.frame(build)
            let visible = try XCTUnwrap(h.host.profiler.lastFrame?.lazy.visibleCells)
            XCTAssertGreaterThan(visible, 6)
            XCTAssertEqual(h.host.profiler.lastFrame?.lazy.placeholderCells, visible, "nothing decoded yet")
            XCTAssertEqual(images.placeholderOnFirstSight, visible)

            // Every visible cell's embedded thumbnail is read, with no frame drawn meanwhile.
            let deadline = MonotonicClock.seconds() + 60
            while images.loader.snapshot.finished < visible && MonotonicClock.seconds() < deadline { usleep(1_000) }
            h.frame(build)
            var lazy = try XCTUnwrap(h.host.profiler.lastFrame?.lazy)
            XCTAssertEqual(
                lazy.placeholderCells, 0, "each cell drew its embedded thumbnail in the first frame it could")
            XCTAssertEqual(lazy.embeddedCells, visible)
            XCTAssertEqual(images.embeddedOnFirstSight, 0, "they were seen before")
            XCTAssertEqual(images.placeholderOnFirstSight, visible, "once each")
            XCTAssertTrue(Self.isRed(h.pixels.pixel(x: 60, y: 60)), "red: \(h.pixels.pixel(x: 60, y: 60))")

            // The sharp ones likewise: decoded between two frames, drawn in the second.
            let before = images.loader.snapshot.finished
            gate.withLock { $0 = true }
            while images.loader.snapshot.finished < before + visible && MonotonicClock.seconds() < deadline {
                usleep(1_000)
            }
            let frameStart = MonotonicClock.nanoseconds()
            h.frame(build)
            let frameEnd = MonotonicClock.nanoseconds()
            lazy = try XCTUnwrap(h.host.profiler.lastFrame?.lazy)
            XCTAssertEqual(lazy.cellsAwaitingSharpThumbnail, 0, "every cell is sharp in that frame")
            let after = h.pixels.pixel(x: 60, y: 60)
            XCTAssertTrue(after.b > 180 && after.r < 80, "blue: \(after)")
            let drawn = images.timelines.filter { $0.firstDrawnNs > 0 }
            XCTAssertEqual(drawn.count, visible)
            for t in drawn {
                XCTAssertTrue((frameStart...frameEnd).contains(t.uploadedNs), "uploaded in that frame: \(t.path)")
                XCTAssertLessThanOrEqual(t.uploadedNs, t.firstDrawnNs)
            }
        }
    }

    func testAFlingAsksOnlyForEmbeddedThumbnailsAndTheSharpOnesWhereItSettles() throws {
        try onMain {
            let dir = try ScratchFolder("tiers-fling")
            let paths = try Self.cameraPhotos(600, in: dir, side: 64)
            let h = try Harness(width: 800, height: 600)
            let sharp = Locked<Set<String>>([])
            let images = ImagePipeline(renderer: h.host.window.renderer, workers: 2) { key in
                sharp.withLock { _ = $0.insert(key.path) }
                return ThumbnailLoader.decodeFile(key)
            }
            defer { images.shutdown() }
            h.ui.images = images
            var info: LazyGridInfo?
            let build = GalleryWidgetTests.gridBuild(paths) { info = $0 }
            let settled = {
                h.host.profiler.lastFrame.map { $0.lazy.placeholderCells == 0 && $0.lazy.embeddedCells == 0 } ?? false
            }
            Self.frames(until: settled, h, build)
            let firstScreen = sharp.withLock { $0 }
            XCTAssertFalse(info?.isScrollingFast ?? true)

            // A fling: 216 px a frame at 60 frames a second, 13,000 px/s, over 4 viewports a second.
            // Until the speed builds up (a frame or two), the window of a slow frame may be decoded sharp.
            var offset = 0.0, fast = 0
            var slowWindows = Set<String>()
            for _ in 0..<40 {
                offset += 216
                h.ui.scrollGrid("grid", toOffset: offset)
                h.frame(build)
                let frame = try XCTUnwrap(info)
                if frame.isScrollingFast {
                    fast += 1
                } else {
                    for range in [frame.visible] + frame.prefetch { for i in range { slowWindows.insert(paths[i]) } }
                }
                usleep(2_000)  // the workers may finish the embedded ones meanwhile
            }
            XCTAssertGreaterThanOrEqual(fast, 37, "the grid knew it was flung")
            let duringFling = sharp.withLock { $0 }.subtracting(firstScreen).subtracting(slowWindows)
            XCTAssertEqual(duringFling, [], "no sharp decode for cells only passed over while flung")
            XCTAssertGreaterThan(images.embeddedTotal, 40, "they showed their embedded thumbnails")

            // It settles: the cells it stopped on get their sharp thumbnails.
            h.wait(0.2)
            Self.frames(until: settled, h, build)
            XCTAssertFalse(info?.isScrollingFast ?? true)
            let final = try XCTUnwrap(info?.visible)
            let afterwards = sharp.withLock { $0 }.subtracting(firstScreen).subtracting(slowWindows)
            XCTAssertTrue(final.allSatisfy { afterwards.contains(paths[$0]) }, "every cell it settled on is sharp")
            let window = Set(((info?.prefetch ?? []) + [final]).flatMap { $0.map { paths[$0] } })
            XCTAssertEqual(afterwards.subtracting(window), [], "and only those and the prefetch window around them")
        }
    }

    func testScrollMotionMeasuresTheRecentSpeedAndForgetsItAfterAPause() {
        var motion = ScrollMotion()
        XCTAssertEqual(motion.speed(offset: 0, time: 10), 0)
        var speed = 0.0
        for k in 1...10 { speed = motion.speed(offset: Double(k) * 30, time: 10 + Double(k) / 60) }
        XCTAssertEqual(speed, 1800, accuracy: 1, "30 px a frame at 60 Hz")
        XCTAssertEqual(
            motion.speed(offset: 300, time: 10.5), 0, accuracy: 1e-9, "still for a third of a second: stopped")
        XCTAssertEqual(motion.speed(offset: 0, time: 9), 0, "a clock that goes back starts again")
        XCTAssertEqual(
            motion.speed(offset: 5000, time: 9 + 1.0 / 60), 5000 / 0.15, accuracy: 1, "one jump counts over the window")
    }
}
