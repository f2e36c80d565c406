import XCTest
import Foundation
import TesseraTesting
import TestSupport
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// The image pipeline on machines of every shape: a grid of real photos fills in with 1, 3, 16
/// and 64 decode workers (a 2-core machine playing a 64-thread one).
final class WorkerCountTests: XCTestCase {
    func testAGridFillsInWithAnyNumberOfDecodeWorkers() throws {
        try onMain {
            let dir = try ScratchFolder("workers-grid")
            let paths = try GalleryWidgetTests.photos(40, in: dir)
            for workers in [1, 3, 16, 64] {
                let h = try Harness()
                let images = ImagePipeline(renderer: h.host.window.renderer, workers: workers)
                defer { images.shutdown() }
                h.ui.images = images
                var info: LazyGridInfo?
                let build = GalleryWidgetTests.gridBuild(paths) { info = $0 }
                let done = h.frames(
                    until: { h.host.profiler.lastFrame?.lazy.placeholderCells == 0 && images.decodedTotal > 0 }, build)
                XCTAssertTrue(done, "\(workers) workers: every visible cell got its thumbnail")
                XCTAssertEqual(images.loader.workerCount, workers)
                XCTAssertGreaterThan(info?.visible.count ?? 0, 0)
                XCTAssertEqual(images.rememberedFailures, 0, "\(workers) workers: no decode failed")
            }
        }
    }

    /// With no count given, the pipeline asks `WorkerPools`, which `--workers` and
    /// `TESSERA_WORKERS` override.
    func testThePipelinePlansForTheOverriddenMachine() throws {
        try onMain {
            let before = WorkerPools.override
            defer { WorkerPools.override = before }
            WorkerPools.override = 64
            let h = try Harness()
            let images = ImagePipeline(renderer: h.host.window.renderer)
            defer { images.shutdown() }
            XCTAssertEqual(images.loader.workerCount, 64)
            XCTAssertEqual(TableSorter<Int>().backgroundThreads, 63)
            XCTAssertEqual(IndexSorter.sortThreads(10_000_000), 16, "a sort splits into 16 parts at most")
        }
    }
}
