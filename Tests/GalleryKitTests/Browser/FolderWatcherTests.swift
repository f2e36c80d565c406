import XCTest
import Foundation
import TestSupport
@testable import GalleryKit
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// The folder watcher loses no change: watching again keeps what was seen, a queue overflow
/// walks again, and folders it cannot watch are said.
final class FolderWatcherTests: XCTestCase {
    private func waitForChange(_ watcher: FolderWatcher) -> Bool {
        let deadline = MonotonicClock.seconds() + 30
        while MonotonicClock.seconds() < deadline {
            if watcher.takeChange() { return true }
            usleep(2000)
        }
        return false
    }

    func testWatchingAgainKeepsAChangeSeenBeforeAndTheWatchesItHad() throws {
        let a = try ScratchFolder("watch-a"), b = try ScratchFolder("watch-b")
        let watcher = try XCTUnwrap(FolderWatcher())
        watcher.watch([a.path])
        try SamplePhotos.write([1, 2, 3], to: a.file("new.jpg"))
        let deadline = MonotonicClock.seconds() + 30
        // Let the event arrive, then watch again (as a walk that ends does) before the frame takes it.
        while MonotonicClock.seconds() < deadline && !watcher.hasChange { usleep(2000) }
        watcher.watch([a.path, b.path])
        XCTAssertTrue(watcher.takeChange(), "the change seen before watching again is still reported")
        // A change in a folder watched before and after is seen (its watch was kept, not re-made).
        try SamplePhotos.write([1, 2, 3], to: a.file("second.jpg"))
        XCTAssertTrue(waitForChange(watcher))
        try SamplePhotos.write([1, 2, 3], to: b.file("third.jpg"))
        XCTAssertTrue(waitForChange(watcher), "the new folder is watched")
    }

    /// Threads of this process named `name` now (`/proc/self/task/*/comm`).
    static func threads(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?.trimmingCharacters(
                in: .newlines) == name
        }.count
    }

    /// A browser window that closes takes its watcher's thread and descriptors with it, and its
    /// folder lister keeps a thread only while it lists: opening and closing windows leaks none.
    func testAWatchersThreadEndsWithItAndAListerHasNoneWhenIdle() throws {
        // The watchers of earlier tests' windows end their threads as this starts: count once they have.
        var deadline = Date().addingTimeInterval(10)
        while Self.threads(named: "tessera-watcher") > 0 && Date() < deadline { usleep(5_000) }
        let before = Self.threads(named: "tessera-watcher")
        var watchers: [FolderWatcher] = (0..<3).compactMap { _ in FolderWatcher() }
        XCTAssertEqual(watchers.count, 3)
        deadline = Date().addingTimeInterval(10)
        while Self.threads(named: "tessera-watcher") < before + 3 && Date() < deadline { usleep(5_000) }  // starting
        XCTAssertEqual(Self.threads(named: "tessera-watcher"), before + 3)
        watchers.removeAll()
        while Self.threads(named: "tessera-watcher") > before && Date() < deadline { usleep(5_000) }
        XCTAssertEqual(Self.threads(named: "tessera-watcher"), before)

        let dir = try ScratchFolder("lister-threads")
        for name in ["a", "a/b", "c"] {
            try FileManager.default.createDirectory(atPath: dir.file(name), withIntermediateDirectories: true)
        }
        deadline = Date().addingTimeInterval(10)
        let listers = Self.threads(named: "tessera-folders")
        let lister = FolderLister()
        XCTAssertEqual(Self.threads(named: "tessera-folders"), listers, "no thread until asked to list")
        lister.expandAll(from: FolderNode.root(dir.path))
        while lister.progress != nil && Date() < deadline { usleep(5_000) }
        XCTAssertEqual(lister.takeOpened()?.count, 2, "the root and a")
        while Self.threads(named: "tessera-folders") > listers && Date() < deadline { usleep(5_000) }
        XCTAssertEqual(Self.threads(named: "tessera-folders"), listers, "and none after")
    }

    func testAQueueOverflowIsAChangeAnywhere() {
        var event = inotify_event()
        event.wd = -1
        event.mask = UInt32(IN_Q_OVERFLOW)
        let changes = withUnsafeBytes(of: &event) { FolderWatcher.changes(in: $0) }
        XCTAssertTrue(changes.overflowed)
        XCTAssertTrue(changes.watches.isEmpty)
    }

    func testFoldersThatCannotBeWatchedAreSaid() throws {
        let a = try ScratchFolder("watch-enospc-a"), b = try ScratchFolder("watch-enospc-b")
        let watcher = try XCTUnwrap(
            FolderWatcher { fd, path, mask in
                if path.hasSuffix("-b-\(getpid())") {
                    errno = ENOSPC
                    return -1
                }  // the user's watches are used up
                return inotify_add_watch(fd, path, mask)
            })
        watcher.watch([a.path, b.path])
        XCTAssertTrue(watcher.incomplete?.contains("1 folders are not watched") == true, watcher.incomplete ?? "")
        watcher.watch([a.path])
        XCTAssertNil(watcher.incomplete)
    }
}
