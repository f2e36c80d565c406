import XCTest
import Foundation
import TesseraTesting
import TestSupport
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Cells waiting for their sharp thumbnail: the ones in view longest are decoded first, and a
/// cell that leaves the view before its thumbnail came counts in the latency all the same.
final class WaitingCellTests: XCTestCase {
    private static func photos(_ names: [String], in dir: ScratchFolder) throws -> [String] {
        try names.enumerated().map { i, name in
            let path = dir.file(name + ".jpg")
            try SamplePhotos.writeJPEG(SamplePhotos.render(width: 64, height: 48, seed: UInt64(i)), to: path)
            return path
        }
    }

    private static let spec = ThumbnailSpec(side: 64)

    /// A frame of the pipeline in which the cells of `paths` are visible, at their priorities.
    @MainActor
    private static func frame(_ images: ImagePipeline, _ cells: [(String, Double)]) {
        images.beginFrame()
        for (path, priority) in cells { _ = images.thumbnail(for: path, spec: spec, priority: priority) }
        images.endFrame()
    }

    /// A pipeline of one worker whose decodes wait for `gate`, `order` naming the files as they start.
    @MainActor
    private static func gatedPipeline(_ h: Harness) -> (ImagePipeline, gate: Locked<Bool>, order: Locked<[String]>) {
        let gate = Locked(false)
        let order = Locked<[String]>([])
        let images = ImagePipeline(renderer: h.host.window.renderer, workers: 1) { key in
            order.withLock { $0.append((key.path as NSString).lastPathComponent) }
            while !gate.withLock({ $0 }) { usleep(500) }
            return ThumbnailLoader.decodeFile(key)
        }
        images.usesEmbeddedThumbnails = false
        return (images, gate, order)
    }

    func testACellInViewLongerIsDecodedBeforeANewOneNearerTheCentre() throws {
        try onMain {
            let dir = try ScratchFolder("waiting-order")
            let paths = try Self.photos(["blocker", "early", "late"], in: dir)
            let (blocker, early, late) = (paths[0], paths[1], paths[2])
            let h = try Harness(width: 200, height: 200)
            let (images, gate, order) = Self.gatedPipeline(h)
            defer {
                gate.withLock { $0 = true }
                images.shutdown()
            }
            // The one worker takes the blocker; `early` waits at the screen's edge.
            Self.frame(images, [(blocker, 0), (early, 0.3)])
            let deadline = MonotonicClock.seconds() + 60
            while order.withLock({ $0.isEmpty }) && MonotonicClock.seconds() < deadline { usleep(500) }
            usleep(50_000)  // three frames' time at 60 Hz
            // A cell scrolls in nearer the centre than `early` is.
            Self.frame(images, [(blocker, 0), (early, 0.3), (late, 0.1)])
            gate.withLock { $0 = true }
            while images.loader.snapshot.finished < 3 && MonotonicClock.seconds() < deadline { usleep(1_000) }
            XCTAssertEqual(order.withLock { $0 }, ["blocker.jpg", "early.jpg", "late.jpg"])
        }
    }

    func testACellThatLeavesBeforeItsThumbnailCountsTheTimeItWaited() throws {
        try onMain {
            let dir = try ScratchFolder("waiting-left")
            let paths = try Self.photos(["stays", "leaves"], in: dir)
            let h = try Harness(width: 200, height: 200)
            let (images, gate, _) = Self.gatedPipeline(h)
            defer {
                gate.withLock { $0 = true }
                images.shutdown()
            }
            Self.frame(images, [(paths[0], 0.1), (paths[1], 0.5)])
            usleep(20_000)
            Self.frame(images, [(paths[0], 0.1), (paths[1], 0.5)])
            XCTAssertEqual(images.leftBeforeSharp, 0, "both still in view")
            Self.frame(images, [(paths[0], 0.1)])
            XCTAssertEqual(images.leftBeforeSharp, 1)
            XCTAssertEqual(images.latency.totalCount, 1, "its wait is a latency sample")
            XCTAssertGreaterThanOrEqual(images.latency.max, 20_000, "at least the time it was in view (µs)")
            // Back in view and gone again: a second sighting, a second sample.
            Self.frame(images, [(paths[0], 0.1), (paths[1], 0.5)])
            Self.frame(images, [(paths[0], 0.1)])
            XCTAssertEqual(images.leftBeforeSharp, 2)
            // The one that stayed is drawn when it is decoded, and counts once.
            gate.withLock { $0 = true }
            let deadline = MonotonicClock.seconds() + 60
            while images.latency.totalCount < 3 && MonotonicClock.seconds() < deadline {
                Self.frame(images, [(paths[0], 0.1)])
                usleep(2_000)
            }
            XCTAssertEqual(images.latency.totalCount, 3)
            XCTAssertEqual(images.leftBeforeSharp, 2)
        }
    }

    func testWaitingDividesOnlyAVisibleCellsPriority() {
        let second: UInt64 = 1_000_000_000
        XCTAssertEqual(ImagePipeline.waitingPriority(0.6, visibleSince: 0, now: second), 0.6, "not yet visible")
        XCTAssertEqual(
            ImagePipeline.waitingPriority(0.6, visibleSince: second, now: second + 50_000_000), 0.6 / 4, accuracy: 1e-6,
            "three frames in view: a quarter")
        XCTAssertEqual(ImagePipeline.waitingPriority(1.5, visibleSince: 1, now: second), 1.5, "the prefetch window")
        XCTAssertEqual(ImagePipeline.waitingPriority(-0.5, visibleSince: 1, now: second), -0.5, "an embedded tier")
        XCTAssertEqual(ImagePipeline.waitingPriority(0.6, visibleSince: second, now: 1), 0.6, "a clock that ran back")
    }
}
