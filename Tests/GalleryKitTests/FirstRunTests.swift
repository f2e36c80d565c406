import XCTest
import Foundation
import TesseraTesting
import TestSupport
@testable import GalleryKit
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// The first run: the browser opens on an empty sample folder at once and shows the photos
/// as the generator writes them, whole and in order.
final class FirstRunTests: XCTestCase {
    /// (Frame times while samples land are a benchmark figure, not a test's: `bench firstrun`.)
    func testTheBrowserShowsSamplesAppearInOrderWhileTheyAreWritten() throws {
        try onMain {
            let dir = try ScratchFolder("first-run")
            let folder = dir.file("samples")
            let generation = SampleGeneration(folder: folder, count: 30, width: 320, height: 213)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let h = try Harness(width: 1280, height: 800)
            let images = ImagePipeline(renderer: h.host.window.renderer, workers: 1)
            defer { images.shutdown() }
            h.ui.images = images
            let page = BrowserPage(root: folder)
            page.sampleGeneration = generation
            let build: (UI) -> Void = { page.build($0) }
            h.frames(2, build)
            XCTAssertNil(page.folderProblem, "an empty folder being filled is not an error")
            XCTAssertTrue(page.shown.isEmpty)

            try generation.start(workers: 2)
            let expected = (0..<30).map(SampleGeneration.fileName)
            var seen: [Int] = []
            let deadline = MonotonicClock.seconds() + 60
            while MonotonicClock.seconds() < deadline {
                // On demand, as the app runs: each file that lands wakes the loop.
                if h.host.runOnce(timeout: 0.5, build) { h.wait(1.0 / 60) }
                let names = page.shown.map(\.name)
                XCTAssertEqual(names, Array(expected.prefix(names.count)), "whole files, in order, never a gap")
                if seen.last != names.count { seen.append(names.count) }
                if generation.isDone && names.count == 30 && h.host.profiler.lastFrame?.lazy.placeholderCells == 0 {
                    break
                }
            }
            XCTAssertNil(generation.failure)
            XCTAssertEqual(page.shown.count, 30)
            XCTAssertGreaterThan(seen.count, 3, "they appeared a few at a time, not all at the end: \(seen)")
            XCTAssertEqual(seen, seen.sorted())
            let hidden = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }
            XCTAssertEqual(
                hidden, [".tessera-samples-complete"], "no temporary file left behind; the set marked complete")
        }
    }

    func testTheGeneratorIsDeterministicAndKeepsFilesAlreadyWritten() throws {
        let dir = try ScratchFolder("samples-twice")
        for name in ["a", "b"] {
            let generation = SampleGeneration(folder: dir.file(name), count: 26, width: 200, height: 120)
            try generation.start(workers: 2)
            try generation.waitShowingProgress()
        }
        for index in [0, 1, 24, 25] {
            let file = SampleGeneration.fileName(index)
            let a = try Data(contentsOf: URL(fileURLWithPath: dir.file("a/" + file)))
            let b = try Data(contentsOf: URL(fileURLWithPath: dir.file("b/" + file)))
            XCTAssertEqual(a, b, "\(file): the same seed gives the same bytes")
            XCTAssertGreaterThan(a.count, 1000)
        }
        XCTAssertTrue(SampleGeneration.fileName(24).hasSuffix(".png"))
        // A second run over a complete folder writes nothing and finishes at once.
        let before =
            try FileManager.default.attributesOfItem(atPath: dir.file("a/photo-000001.jpg"))[.modificationDate] as? Date
        usleep(20_000)
        let again = SampleGeneration(folder: dir.file("a"), count: 26, width: 200, height: 120)
        try again.start()
        try again.waitShowingProgress()
        let after =
            try FileManager.default.attributesOfItem(atPath: dir.file("a/photo-000001.jpg"))[.modificationDate] as? Date
        XCTAssertEqual(before, after)
    }

    func testFilesAnotherProgramWritesIntoTheOpenFolderAppear() throws {
        try onMain {
            let dir = try ScratchFolder("watched")
            try SamplePhotos.writeJPEG(SamplePhotos.render(width: 64, height: 48, seed: 1), to: dir.file("a.jpg"))
            let h = try Harness(width: 1280, height: 800)
            let page = BrowserPage(root: dir.path)
            page.waitForScan()
            let build: (UI) -> Void = { page.build($0) }
            h.frames(2, build)
            XCTAssertEqual(page.shown.map(\.name), ["a.jpg"])
            // Wake-ups are process-wide: one from an earlier test's background thread (a watcher
            // seeing its scratch folder deleted) may still arrive. Let them pass, then idle is idle.
            for _ in 0..<20 where h.host.runOnce(timeout: 0.3, build) {}
            XCTAssertFalse(h.host.runOnce(timeout: 0.2, build), "nothing changes, nothing is drawn")
            // Another program: a file written in place, and one written aside and renamed in.
            try SamplePhotos.writeJPEG(SamplePhotos.render(width: 64, height: 48, seed: 2), to: dir.file("b.jpg"))
            try SamplePhotos.writeJPEG(SamplePhotos.render(width: 64, height: 48, seed: 3), to: dir.file(".c.jpg.part"))
            XCTAssertEqual(rename(dir.file(".c.jpg.part"), dir.file("c.jpg")), 0)
            // generous: sanitizers and busy machines; it stops as soon as it can
            let deadline = MonotonicClock.seconds() + 60
            while page.shown.count < 3 && MonotonicClock.seconds() < deadline {
                if h.host.runOnce(timeout: 1, build) { h.wait(1.0 / 60) }
            }
            XCTAssertEqual(page.shown.map(\.name), ["a.jpg", "b.jpg", "c.jpg"], "the folder watcher woke the loop")
            try FileManager.default.removeItem(atPath: dir.file("b.jpg"))
            while page.shown.count > 2 && MonotonicClock.seconds() < deadline + 5 {
                if h.host.runOnce(timeout: 1, build) { h.wait(1.0 / 60) }
            }
            XCTAssertEqual(page.shown.map(\.name), ["a.jpg", "c.jpg"])
        }
    }
}
