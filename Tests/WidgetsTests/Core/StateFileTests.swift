import XCTest
import CSDL2
import TesseraTesting
import TestSupport
@testable import Widgets
@testable import Render2D

/// `state.json` follows the sidecar's rules: two instances keep each other's changes, an
/// unreadable file is never written over, a failed save is tried again.
final class StateFileTests: XCTestCase {
    func testTwoInstancesKeepEachOthersChanges() throws { try onMain {
        let dir = try ScratchFolder("state-two")
        let path = dir.file("state.json")
        let first = PersistentStore(path: path), second = PersistentStore(path: path)
        first.set(1, for: "a")
        first.save()
        second.set(2, for: "b") // read before the first saved
        second.save()
        let third = PersistentStore(path: path)
        XCTAssertEqual(third.value("a", as: Int.self), 1, "not lost to the second save")
        XCTAssertEqual(third.value("b", as: Int.self), 2)
        XCTAssertEqual(second.value("a", as: Int.self), 1, "the other's change is seen after a save")
    } }

    func testAnUnreadableStateFileIsLeftAloneAndAFailedSaveStaysPending() throws { try onMain {
        let dir = try ScratchFolder("state-unreadable")
        try FileManager.default.createDirectory(atPath: dir.file("state.json"), withIntermediateDirectories: false)
        let store = PersistentStore(path: dir.file("state.json"))
        XCTAssertTrue(store.isReadOnly)
        XCTAssertNotNil(store.loadProblem)
        store.set(5, for: "x")
        store.save()
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.file("state.json"), isDirectory: &isFolder) && isFolder.boolValue)
        XCTAssertEqual(store.value("x", as: Int.self), 5, "kept in memory")
        // A save that cannot write (a folder this user may not write to) stays pending.
        try FileManager.default.createDirectory(atPath: dir.file("locked"), withIntermediateDirectories: false)
        chmod(dir.file("locked"), 0o555)
        let previous = tessera_set_filesystem_uid(65534) // as an ordinary user (root writes everywhere)
        defer { _ = tessera_set_filesystem_uid(previous) }
        let pending = PersistentStore(path: dir.file("locked/state.json"))
        XCTAssertFalse(pending.isReadOnly, "no file yet: nothing to protect")
        pending.set(1, for: "y")
        pending.save()
        XCTAssertTrue(pending.hasUnsavedChanges, "tried again after saveDelay")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("locked/state.json")))
    } }
}
