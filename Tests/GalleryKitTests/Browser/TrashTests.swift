import XCTest
import Foundation
import TestSupport
@testable import GalleryKit

/// The desktop's trash: a file goes in with its `.trashinfo` and comes back out where it was,
/// never over a file that took its name meanwhile.
final class TrashTests: XCTestCase {
    func testAFileGoesToTheTrashAndComesBackWhereItWas() throws {
        let dir = try ScratchFolder("trash")
        let path = dir.file("trash-test-\(getpid()) one.jpg")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("photo".utf8)))
        try Trash.move(path).get()
        let item = try XCTUnwrap(Trash.find([path])[path], "GIO trashed it where the trash spec says")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(FileManager.default.contents(atPath: item.trashed), Data("photo".utf8))
        let info = try String(contentsOfFile: item.info, encoding: .utf8)
        XCTAssertEqual(Trash.originalPath(in: info), path, "the space is escaped in the file: \(info)")

        // A file that took its name meanwhile is never replaced.
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("newer".utf8)))
        XCTAssertEqual(Trash.restore(item)?.description, "a file named trash-test-\(getpid()) one.jpg is there now")
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("newer".utf8))
        XCTAssertTrue(FileManager.default.fileExists(atPath: item.trashed), "still in the trash")
        try FileManager.default.removeItem(atPath: path)

        XCTAssertNil(Trash.restore(item))
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("photo".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: item.trashed))
        XCTAssertFalse(FileManager.default.fileExists(atPath: item.info))
    }

    /// Two photos of one name from two folders: GIO names the second item `name.2.jpg`, and each
    /// is still found and put back where it came from.
    func testTwoFilesOfOneNameAreFoundAndPutBackApart() throws {
        let dir = try ScratchFolder("trash-clash")
        let name = "trash-clash-\(getpid()).jpg"
        var paths: [String] = []
        for folder in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: dir.file(folder), withIntermediateDirectories: true)
            paths.append(dir.file(folder + "/" + name))
            XCTAssertTrue(FileManager.default.createFile(atPath: paths.last!, contents: Data(folder.utf8)))
            try Trash.move(paths.last!).get()
        }
        let found = Trash.find(paths)
        XCTAssertEqual(found.count, 2)
        XCTAssertNotEqual(found[paths[0]]?.trashed, found[paths[1]]?.trashed, "two items in the trash")
        for path in paths { XCTAssertNil(Trash.restore(try XCTUnwrap(found[path]))) }
        XCTAssertEqual(FileManager.default.contents(atPath: paths[0]), Data("a".utf8))
        XCTAssertEqual(FileManager.default.contents(atPath: paths[1]), Data("b".utf8))
    }

    func testWhatCannotGoToTheTrashSaysWhy() throws {
        let dir = try ScratchFolder("trash-missing")
        guard case .failure(let why) = Trash.move(dir.file("no such photo.jpg")) else {
            return XCTFail("a missing file was trashed")
        }
        XCTAssertFalse(why.description.isEmpty)
        XCTAssertNil(Trash.originalPath(in: "[Trash Info]\nDeletionDate=2026-01-01T00:00:00\n"))
    }
}
