import CSDL2
import Foundation
@testable import Render2D
import Imaging
import DemoSupport
import TestSupport
import XCTest

final class WorkerPoolsTests: XCTestCase {
    /// Every worker index up to the largest pool has a name Linux keeps whole, and no two
    /// workers share one (the 11th, `tessera-decode10`, trapped before).
    func testThreadNamesFitForEveryWorkerCount() {
        let names = (0..<WorkerPools.maximum).map { threadName("tessera-decode", index: $0) }
        XCTAssertEqual(names[0], "tessera-decode0")
        XCTAssertEqual(names[10], "tessera-decod10")
        XCTAssertEqual(names[255], "tessera-deco255")
        XCTAssertTrue(names.allSatisfy { $0.utf8.count <= 15 }, "\(names.filter { $0.utf8.count > 15 })")
        XCTAssertEqual(Set(names).count, names.count, "each worker is told apart")
        // A base of characters wider than a byte is cut at a character's edge, not inside one.
        XCTAssertEqual(threadName("décodeur-é-é-é", index: 12), "décodeur-é-12")
        XCTAssertEqual(threadName("an overly long thread name"), "an overly long ")
    }

    /// A name that does not fit is shortened, not a trap, and the thread still runs.
    func testALongNameStartsAThreadUnderItsShortenedName() {
        let seen = Locked<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.start(named: "tessera-something-long") {
            seen.withLock { $0 = currentThreadName() }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(seen.withLock { $0 }, "tessera-somethi")
    }

    func testCountsFromTheEnvironmentAreCheckedAndOverridesClamped() {
        XCTAssertEqual(try WorkerPools.parse("64").get(), 64)
        XCTAssertEqual(try WorkerPools.parse(" 1 ").get(), 1)
        for bad in ["0", "-3", "257", "many", "", "99999999999999999999"] {
            guard case .failure(let error) = WorkerPools.parse(bad) else {
                XCTFail("'\(bad)' is refused")
                continue
            }
            XCTAssertTrue(error.description.contains("from 1 to 256"), error.description)
        }
        let before = WorkerPools.override
        defer { WorkerPools.override = before }
        WorkerPools.override = 64
        XCTAssertEqual(
            [
                WorkerPools.hardwareThreads, WorkerPools.decodeThreads, WorkerPools.sortThreads,
                WorkerPools.backgroundSortThreads,
            ],
            [64, 64, 16, 63])
        WorkerPools.override = 1
        XCTAssertEqual(
            [WorkerPools.decodeThreads, WorkerPools.sortThreads, WorkerPools.backgroundSortThreads], [1, 1, 1])
        WorkerPools.override = 100_000
        XCTAssertEqual(WorkerPools.hardwareThreads, WorkerPools.maximum)
        WorkerPools.override = -5
        XCTAssertEqual(WorkerPools.hardwareThreads, 1)
    }

    /// The loader decodes a folder of real photos with 1, 3, 16 and 64 workers, and each decode
    /// runs on a worker of its own name.
    func testTheLoaderDecodesAFolderWithAnyNumberOfWorkers() throws {
        let dir = try ScratchFolder("workers-loader")
        let paths = try (0..<48).map { i in
            let path = dir.file("p\(i).jpg")
            try SamplePhotos.writeJPEG(SamplePhotos.render(width: 320, height: 240, seed: UInt64(i)), to: path)
            return path
        }
        for workers in [1, 3, 16, 64] {
            let names = Locked<Set<String>>([])
            let loader = ThumbnailLoader(workers: workers) { key in
                names.withLock { _ = $0.insert(currentThreadName()) }
                return ThumbnailLoader.decodeFile(key)
            }
            loader.request(
                paths.enumerated().map { (ThumbnailKey(path: $1, spec: ThumbnailSpec(side: 64)), Double($0)) })
            var results: [ThumbnailResult] = []
            let deadline = MonotonicClock.seconds() + 60
            while results.count < paths.count && MonotonicClock.seconds() < deadline {
                results += loader.takeFinished()
                usleep(1000)
            }
            loader.shutdown()
            XCTAssertEqual(loader.workerCount, workers)
            XCTAssertEqual(results.count, paths.count, "\(workers) workers")
            XCTAssertTrue(
                results.allSatisfy { (try? $0.outcome.get()) != nil }, "\(workers) workers: every photo decoded")
            XCTAssertTrue(results.allSatisfy { (0..<workers).contains($0.worker) })
            XCTAssertTrue(names.withLock { $0 }.allSatisfy { $0.hasPrefix("tessera-deco") && $0.utf8.count <= 15 })
        }
    }
}

/// Where the user's files go, and that nothing goes to a shared folder when that is unknown.
final class UserFoldersTests: XCTestCase {
    private func environment(_ values: [String: String]) -> (String) -> String? { { values[$0] } }

    func testTheCacheFolderComesFromTheEnvironmentOrTheHomeAndIsNeverGuessed() {
        XCTAssertEqual(
            UserFolders.cache(environment: environment(["XDG_CACHE_HOME": "/c", "HOME": "/h"]), passwordHome: "/p"),
            "/c")
        XCTAssertEqual(
            UserFolders.cache(
                environment: environment(["XDG_CACHE_HOME": "relative", "HOME": "/h"]), passwordHome: "/p"), "/h/.cache"
        )
        XCTAssertEqual(UserFolders.cache(environment: environment([:]), passwordHome: "/p"), "/p/.cache")
        XCTAssertNil(
            UserFolders.cache(environment: environment([:]), passwordHome: nil),
            "no home: no cache folder, and no /tmp instead")
        XCTAssertNil(UserFolders.home(environment: environment(["HOME": ""]), passwordHome: "relative"))
    }
}
