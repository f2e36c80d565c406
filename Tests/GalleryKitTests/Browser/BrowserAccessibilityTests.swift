import XCTest
import Foundation
import TesseraTesting
import TestSupport
@testable import GalleryKit
@testable import Widgets
import Render2D
import Imaging
import Profiling
import DemoSupport

/// The demo as a screen reader reads it, through the same queries a test of any app can make
/// (`find(role, name)`): photos named by file, date and rating; every page reachable by Tab,
/// each stop named; the viewer naming the photo it shows.
final class BrowserAccessibilityTests: XCTestCase {
    func testPhotosAreNamedByFileAndDateAndRatedByValueAndTheViewerSaysWhichIsShown() throws {
        try onMain {
            let lib = try BrowserEndToEndTests.makeLibrary("browser-a11y")
            let (h, page, _, _) = try BrowserEndToEndTests.session(lib, state: "state.json")
            let build: (UI) -> Void = { page.build($0) }
            BrowserEndToEndTests.waitForThumbnails(h, build)
            let grid = try h.find(.list, "photos")
            XCTAssertEqual(grid.collection?.rows, page.shown.count, "the grid reports every photo, built or not")
            let first = page.shown[0]
            let photo = try h.find(.image, first.name + ", " + FileFormat.date(first.date))
            XCTAssertEqual(photo.value, "\(first.rating) stars")
            XCTAssertEqual(h.children(of: grid).first?.name, photo.name, "its grid item reads as the photo")

            h.activate(photo, build)
            XCTAssertEqual(page.selection, [first.id], "a screen reader's click selects the photo")
            XCTAssertTrue(try h.find(.image, photo.name).states.contains(.selected))

            // Double-click opens the viewer: a dialog named after the photo, renamed as it moves on.
            let cell = BrowserEndToEndTests.cell(page, 0)
            for clicks in 1...2 {
                h.inject.mouseButton(.left, down: true, at: cell, clicks: clicks)
                h.frame(build)
                h.inject.mouseButton(.left, down: false, at: cell, clicks: clicks)
                h.frame(build)
            }
            h.frames(2, build)
            let viewer = try h.find(.dialog)
            XCTAssertTrue(viewer.name.hasPrefix(first.name + ", "), viewer.name)
            XCTAssertTrue(viewer.name.hasSuffix("1 of \(page.shown.count)"), viewer.name)
            h.press(.right, build)
            XCTAssertTrue(
                try h.find(.dialog).name.hasPrefix(page.shown[1].name + ", "), "the next photo renames the viewer")
        }
    }

    func testEveryPageCanBeReadAndTabbedThroughWithNamedStops() throws {
        try onMain {
            let lib = try BrowserEndToEndTests.makeLibrary("pages-a11y")
            let h = try Harness(width: 1280, height: 800)
            let app = DemoApp(page: .photos, darkTheme: false, library: lib.path)
            app.browser.waitForScan()
            let build: (UI) -> Void = { app.build($0, host: h.host) }
            for page in DemoPage.allCases {
                app.page = page
                h.frames(3, build)
                XCTAssertTrue(
                    try h.find(.pushButton, page.title).states.contains(.focusable), "\(page): its page button")
                // Tab visits every stop in turn and comes back round; each stop has a name to read.
                var visited: [WidgetID] = []
                for _ in 0..<80 {
                    h.press(.tab, build)
                    guard let focused = h.accessibilityTree.first(where: { $0.states.contains(.focused) }) else {
                        let chain = h.ui.focusChain.map(\.id), at = chain.firstIndex { $0 == h.ui.focusID } ?? -1
                        let before =
                            at > 0
                            ? h.accessibilityTree.node(chain[at - 1]).map { "\($0.role.atspiName) '\($0.name)'" } ?? "?"
                            : "-"
                        return XCTFail(
                            "\(page): Tab focused \(String(describing: h.ui.focusID)) (stop \(at) of \(chain.count), after \(before)), which is not in the tree"
                        )
                    }
                    XCTAssertFalse(focused.name.isEmpty, "\(page): a \(focused.role.atspiName) with no name")
                    if visited.first == focused.id { break }
                    visited.append(focused.id)
                }
                XCTAssertGreaterThan(visited.count, 3, "\(page): Tab reaches its controls")
                XCTAssertLessThan(visited.count, 80, "\(page): Tab comes back to the first stop")
                h.press(.escape, build)
            }
            // Narrow, the pages are a menu picker with no title on screen: a screen reader still has a name for it.
            let narrow = try Harness(width: 800, height: 600)
            narrow.frames(3) { app.build($0, host: narrow.host) }
            XCTAssertEqual(try narrow.find(.comboBox, "Page").value, app.page.title)
        }
    }
}
