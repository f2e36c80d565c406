import FileBrowserKit
import Foundation
import Render2D
import TesseraTesting
import Widgets
import XCTest

/// The example app in a real offscreen window, driven through TesseraTesting like any app's tests.
final class FileBrowserTests: XCTestCase {
    /// A folder tree with files of known sizes, photos named as cameras name them, and a link
    /// loop; removed when the test ends.
    private func makeTree() throws -> String {
        let root = NSTemporaryDirectory() + "filebrowser-\(getpid())-\(UUID().uuidString.prefix(8))"
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/Photos/2024", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/Music", withIntermediateDirectories: true)
        try Data(count: 300).write(to: URL(fileURLWithPath: root + "/notes.txt"))
        try Data(count: 20_000).write(to: URL(fileURLWithPath: root + "/big.bin"))
        try Data(count: 5_000).write(to: URL(fileURLWithPath: root + "/a-file.md"))
        for name in ["IMG_10.jpg", "IMG_9.jpg", "IMG_100.jpg"] {
            try Data(count: 1_000).write(to: URL(fileURLWithPath: root + "/Photos/" + name))
        }
        try fm.createSymbolicLink(atPath: root + "/Photos/loop", withDestinationPath: root)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: root) }
        return root
    }

    func testTheFontsComeFromTesserasResourceBundle() throws {
        try onMain {
            let font = try FontLibrary(atlas: GlyphAtlas()).path(of: .regular) ?? ""
            XCTAssertTrue(font.contains("_TesseraAssets.resources/Fonts/"), "found beside the built products: \(font)")
        }
    }

    /// The app on `root` in a 900×500 window, its first frames run.
    @MainActor private static func open(_ root: String) throws -> (Harness, FileBrowser) {
        let h = try Harness(width: 900, height: 500)
        let browser = FileBrowser(root: root)
        h.frames(2, browser.body)
        return (h, browser)
    }

    func testTheTableListsTheRootSortsByHeaderAndSelectsAll() throws {
        let root = try makeTree()
        try onMain {
            let (h, browser) = try Self.open(root)
            XCTAssertNotNil(h.rect(ofText: "3 files"), "\(h.drawnText)")
            let names = { ["a-file.md", "big.bin", "notes.txt"].compactMap { h.rect(ofText: $0)?.minY } }
            XCTAssertEqual(names().count, 3)
            XCTAssertEqual(names(), names().sorted(), "by name")
            try h.click(on: "Size", browser.body)
            h.frame(browser.body)
            let sizes = ["notes.txt", "a-file.md", "big.bin"].compactMap { h.rect(ofText: $0)?.minY }
            XCTAssertEqual(sizes.count, 3)
            XCTAssertEqual(sizes, sizes.sorted(), "smallest first")
            try h.click(on: "big.bin", browser.body)
            h.press(Key(rawValue: 97), modifiers: .control, browser.body)
            XCTAssertEqual(browser.selection.count, 3)
            XCTAssertNotNil(h.rect(ofText: "3 of 3 selected"))
        }
    }

    func testExpandingAFolderAndSelectingASubfolderShowsItsFilesInNaturalOrder() throws {
        let root = try makeTree()
        try onMain {
            let (h, browser) = try Self.open(root)
            try h.click(on: "Photos", browser.body)
            h.frame(browser.body)
            XCTAssertEqual(browser.selectedFolder, root + "/Photos")
            XCTAssertNotNil(
                h.rect(ofText: "4 files"), "three photos, and the link to the root listed as a file, not followed")
            let order = ["IMG_9.jpg", "IMG_10.jpg", "IMG_100.jpg"].compactMap { h.rect(ofText: $0)?.minY }
            XCTAssertEqual(order.count, 3)
            XCTAssertEqual(order, order.sorted(), "numbers compare by value")
            h.press(.right, browser.body)
            h.frame(browser.body)
            XCTAssertNotNil(h.rect(ofText: "2024"), "→ expands the selected folder")
        }
    }

    func testAMissingFolderListsNothing() throws {
        try onMain {
            let (h, _) = try Self.open(NSTemporaryDirectory() + "filebrowser-missing-\(getpid())")
            XCTAssertNotNil(h.rect(ofText: "0 files"))
        }
    }
}
