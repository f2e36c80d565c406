import XCTest
import CSDL2
import TesseraTesting
import TestSupport
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// `state.json` follows the sidecar's rules: two instances keep each other's changes, an
/// unreadable file is never written over, a failed save is tried again.
final class StateFileTests: XCTestCase {
    func testTwoInstancesKeepEachOthersChanges() throws {
        try onMain {
            let dir = try ScratchFolder("state-two")
            let path = dir.file("state.json")
            let first = PersistentStore(path: path), second = PersistentStore(path: path)
            first.set(1, for: "a")
            first.save()
            second.set(2, for: "b")  // read before the first saved
            second.save()
            let third = PersistentStore(path: path)
            XCTAssertEqual(third.value("a", as: Int.self), 1, "not lost to the second save")
            XCTAssertEqual(third.value("b", as: Int.self), 2)
            XCTAssertEqual(second.value("a", as: Int.self), 1, "the other's change is seen after a save")
        }
    }

    func testAnUnreadableStateFileIsLeftAloneAndAFailedSaveStaysPending() throws {
        try onMain {
            let dir = try ScratchFolder("state-unreadable")
            try FileManager.default.createDirectory(atPath: dir.file("state.json"), withIntermediateDirectories: false)
            let store = PersistentStore(path: dir.file("state.json"))
            XCTAssertTrue(store.isReadOnly)
            XCTAssertNotNil(store.loadProblem)
            store.set(5, for: "x")
            store.save()
            var isFolder: ObjCBool = false
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: dir.file("state.json"), isDirectory: &isFolder)
                    && isFolder.boolValue)
            XCTAssertEqual(store.value("x", as: Int.self), 5, "kept in memory")
            // A save that cannot write (a folder this user may not write to) stays pending.
            try FileManager.default.createDirectory(atPath: dir.file("locked"), withIntermediateDirectories: false)
            chmod(dir.file("locked"), 0o555)
            let previous = tessera_set_filesystem_uid(65534)  // as an ordinary user (root writes everywhere)
            defer { _ = tessera_set_filesystem_uid(previous) }
            let pending = PersistentStore(path: dir.file("locked/state.json"))
            XCTAssertFalse(pending.isReadOnly, "no file yet: nothing to protect")
            pending.set(1, for: "y")
            pending.save()
            XCTAssertTrue(pending.hasUnsavedChanges, "tried again after saveDelay")
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("locked/state.json")))
        }
    }

    /// A state file that became unreadable after launch (here: replaced by a folder, which no
    /// read can take) is not written over by the next save: the store keeps its values in
    /// memory and says why.
    func testAStateFileThatBecameUnreadableAfterLaunchIsNotWrittenOver() throws {
        try onMain {
            let dir = try ScratchFolder("state-later")
            let path = dir.file("state.json")
            let store = PersistentStore(path: path)
            store.set(1, for: "a")
            store.save()
            XCTAssertNil(store.saveProblem)
            // Another program makes it unreadable to us: a file this user may not read.
            chmod(path, 0o000)
            defer { chmod(path, 0o644) }
            chmod(dir.path, 0o777)  // the folder stays writable: only the file is unreadable
            let previous = tessera_set_filesystem_uid(65534)  // as an ordinary user (root reads everything)
            defer { _ = tessera_set_filesystem_uid(previous) }
            store.set(2, for: "a")
            store.save()
            _ = tessera_set_filesystem_uid(previous)
            XCTAssertTrue(store.isReadOnly)
            XCTAssertTrue(store.saveProblem?.contains("can no longer be read") == true, store.saveProblem ?? "")
            XCTAssertEqual(store.value("a", as: Int.self), 2, "kept in memory")
            chmod(path, 0o644)
            XCTAssertEqual(PersistentStore(path: path).value("a", as: Int.self), 1, "the file is as it was")
            // One that became corrupt is kept aside, then written.
            let other = PersistentStore(path: dir.file("second.json"))
            other.set(1, for: "b")
            other.save()
            try SamplePhotos.write(Array("{ not json".utf8), to: dir.file("second.json.new"))
            XCTAssertEqual(rename(dir.file("second.json.new"), dir.file("second.json")), 0)
            other.set(2, for: "b")
            other.save()
            XCTAssertFalse(other.isReadOnly)
            XCTAssertEqual(PersistentStore(path: dir.file("second.json")).value("b", as: Int.self), 2)
            let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
                $0.hasPrefix("second.json.corrupt-")
            }
            XCTAssertEqual(aside.count, 1, "the corrupt file is kept")
        }
    }

    /// A lock held by another instance (or a stopped one) is not waited for: the save is tried
    /// again later, and the frame goes on. Lock files are private to the user.
    func testASaveNeverWaitsForALockAnotherInstanceHolds() throws {
        try onMain {
            let dir = try ScratchFolder("state-locked")
            let path = dir.file("state.json")
            let holder = open(path + ".lock", O_RDWR | O_CREAT, 0o600)
            defer { close(holder) }
            XCTAssertEqual(flock(holder, LOCK_EX), 0)
            let store = PersistentStore(path: path)
            store.set(1, for: "a")
            store.save()  // would block for ever with a blocking lock
            XCTAssertTrue(store.hasUnsavedChanges, "tried again later")
            XCTAssertTrue(store.saveProblem?.contains("holds") == true, store.saveProblem ?? "")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path))
            flock(holder, LOCK_UN)
            store.save()
            XCTAssertFalse(store.hasUnsavedChanges)
            var st = stat()
            XCTAssertEqual(stat(path + ".lock", &st), 0)
            XCTAssertEqual(st.st_mode & 0o777, 0o600)
            XCTAssertEqual(stat(path, &st), 0)
            XCTAssertEqual(st.st_mode & 0o777, 0o600, "a new state file is private")
        }
    }

    /// Without a home (HOME and XDG_DATA_HOME unset) the state is kept in memory: nothing is
    /// written to a shared folder such as /tmp.
    func testWithoutAHomeTheStateStaysInMemory() {
        onMain {
            let names: [String] = ["HOME", "XDG_DATA_HOME"]
            let saved: [(String, String?)] = names.map { name in (name, getenv(name).map { String(cString: $0) }) }
            defer { for (name, value) in saved { if let value { setenv(name, value, 1) } else { unsetenv(name) } } }
            for (name, _) in saved { unsetenv(name) }
            let store = PersistentStore.standard(app: "TesseraTestNoHome")
            XCTAssertTrue(store.isReadOnly)
            XCTAssertTrue(store.loadProblem?.contains("no preference folder") == true, store.loadProblem ?? "")
            store.set(1, for: "a")
            store.save()
            XCTAssertEqual(store.value("a", as: Int.self), 1)
            XCTAssertFalse(FileManager.default.fileExists(atPath: NSTemporaryDirectory() + "state.json"))
        }
    }

    /// The frame's save writes on a background queue; a change made while it is written is
    /// kept, and written by the next save.
    func testAChangeMadeWhileAFramesSaveIsWrittenIsKept() throws {
        try onMain {
            let dir = try ScratchFolder("state-async")
            let path = dir.file("state.json")
            let store = PersistentStore(path: path)
            store.saveDelay = 0
            store.set(1, for: "a")
            store.saveIfNeeded()  // queued: the frame goes on
            store.set(2, for: "b")
            XCTAssertTrue(store.hasUnsavedChanges, "b is not written yet")
            store.save()  // waits for the queued write, then writes b
            XCTAssertFalse(store.hasUnsavedChanges)
            let reread = PersistentStore(path: path)
            XCTAssertEqual(reread.value("a", as: Int.self), 1)
            XCTAssertEqual(reread.value("b", as: Int.self), 2)
            // Frames alone get it there too.
            store.set(3, for: "c")
            let deadline = MonotonicClock.seconds() + 60
            while (store.hasUnsavedChanges || PersistentStore(path: path).value("c", as: Int.self) != 3)
                && MonotonicClock.seconds() < deadline
            {
                store.saveIfNeeded()
                usleep(1_000)
            }
            XCTAssertEqual(PersistentStore(path: path).value("c", as: Int.self), 3)
        }
    }
}
