import XCTest
import TesseraTesting
import TestSupport
import Widgets
@testable import GalleryKit

/// Every page of the demo, at scales 1, 1.5 and 2 and from 1280×800 down to 800×600: no column
/// (a row's column, a navigation split's sidebar, content or detail) is drawn narrower than
/// its minimum.
final class PageLayoutTests: XCTestCase {
    func testNoColumnOfAnyPageIsSqueezedBelowItsMinimum() throws {
        try onMain {
            let lib = try DemoWindowsTests.library("layout", count: 6)
            for scale in [1.0, 1.5, 2.0] {
                let h = try Harness(width: 1280, height: 800, scale: scale)
                DemoApp.prepare(h.host, pipeline: nil)
                var reported = Set<String>()
                for page in DemoPage.allCases {
                    let app = DemoApp(page: page, darkTheme: false, library: lib.path)
                    let build: (UI) -> Void = { app.build($0, host: h.host) }
                    for (width, height) in [(1280, 800), (1024, 768), (800, 600)] {
                        h.host.window.setSize(width: width, height: height)
                        h.frames(4, build)  // the sizes measured in the first frames settle the rest
                        for column in h.ui.columnReports {
                            reported.insert("\(page).\(column.name.prefix(1))")
                            XCTAssertGreaterThanOrEqual(
                                column.width, column.minimum - 0.5,
                                "\(page) at \(width)×\(height), scale \(scale): column \(column.name)")
                        }
                        if page == .controls {
                            XCTAssertEqual(
                                h.ui.columnReports.count, 3,
                                "the Controls page's three columns at \(width)×\(height), \(scale)")
                        }
                    }
                }
                XCTAssertTrue(
                    reported.contains { $0.hasPrefix("navigation.") }, "the navigation split's columns were checked too"
                )
            }
        }
    }

    /// The demo opens at 1000×700: its browser's three columns (230 + 660 + 260 wide at their
    /// ideal) must sit side by side there, the photo grid narrowed, not laid over a dimmed
    /// inspector; so must they at 800×600.
    func testTheBrowserTilesItsColumnsInTheDefaultAndASmallWindow() throws {
        try onMain {
            let lib = try DemoWindowsTests.library("browser-columns", count: 6)
            // Two months (December 2019 and the first photos' month), so the date rail narrows the grid.
            for i in 0..<2 {
                var times = [timeval(tv_sec: 1_577_000_000, tv_usec: 0), timeval(tv_sec: 1_577_000_000, tv_usec: 0)]
                XCTAssertEqual(utimes(lib.file("browser-columns-\(getpid())-\(i).jpg"), &times), 0)
            }
            for (width, height) in [(1000, 700), (800, 600)] {
                let session = try DemoSession(library: lib.path, width: width, height: height)
                let widths = Dictionary(
                    session.h.ui.columnReports.map { ($0.name, $0.width) }, uniquingKeysWith: { a, _ in a })
                let columns = ["browser.sidebar", "browser.content", "browser.detail"].compactMap { widths[$0] }
                XCTAssertEqual(columns.count, 3, "\(widths)")
                XCTAssertEqual(
                    columns.reduce(0, +), Double(width), accuracy: 0.5, "side by side at \(width): \(widths)")
                XCTAssertGreaterThanOrEqual(widths["browser.detail"] ?? 0, 260, "the inspector keeps its minimum")
                XCTAssertEqual(session.browser.nav.visibility, .all)
                // A month's header: its photo count never runs into its title.
                let (h, browser, build) = (session.h, session.browser, session.build)
                XCTAssertTrue(h.frames(until: { browser.grid.sections?.isEmpty == false }, build))
                XCTAssertTrue(h.frames(until: { browser.grid.sections?.count == 2 }, build))
                let section = try XCTUnwrap(browser.grid.sections?.first)
                let title = try XCTUnwrap(h.rect(ofText: section.title), "the month's title")
                let count = section.count == 1 ? "1 photo" : "\(section.count) photos"
                if let drawn = h.rect(ofText: count) {
                    XCTAssertGreaterThanOrEqual(drawn.minX, title.maxX + 8, "at \(width): \(title) against \(drawn)")
                } else {
                    XCTAssertEqual(width, 800, "only a narrow column leaves the count out")
                }
            }
        }
    }

    /// The header row, from a phone-narrow window to a wide one, at scales 1 and 2: whatever
    /// it shows lies inside the window (nothing clipped at its right edge), and it shows as
    /// much as fits: the pages at 200 logical pixels and up, and everything at 500.
    func testTheHeaderShowsWhatFitsAndClipsNothing() throws {
        try onMain {
            let lib = try DemoWindowsTests.library("header", count: 2)
            for scale in [1.0, 2.0] {
                let h = try Harness(width: 1280, height: 600, scale: scale)
                h.ui.isAccessibilityEnabled = true
                let app = DemoApp(page: .photos, darkTheme: false, library: lib.path)
                let build: (UI) -> Void = { app.build($0, host: h.host) }
                for width in [175.0, 250, 350, 450, 600, 1280] {
                    h.host.window.setSize(width: Int(width * scale), height: Int(600))
                    h.frames(3, build)
                    XCTAssertEqual(h.ui.size.width, width, accuracy: 0.5)
                    let title = h.rect(ofText: "Tessera")  // window pixels
                    let items: [(String, Rect?)] = [
                        (
                            "title",
                            title.map { Rect(x: $0.x / scale, y: $0.y / scale, width: $0.width / scale, height: 1) }
                        ),
                        ("pages", h.accessibilityTree.first { $0.name == "Page" }?.frame),
                        ("Dark", h.accessibilityTree.first { $0.name == "Dark" }?.frame),
                        ("HUD", h.accessibilityTree.first { $0.name == "HUD (F12)" }?.frame),
                    ]
                    for (name, frame) in items {
                        guard let frame else { continue }
                        XCTAssertLessThanOrEqual(
                            frame.maxX, width + 0.5, "\(name) at \(width), scale \(scale): \(frame)")
                    }
                    let shown = Set(items.compactMap { $0.1 == nil ? nil : $0.0 })
                    XCTAssertFalse(shown.isEmpty, "at \(width), scale \(scale)")
                    if width >= 200, width < 1100 { XCTAssertTrue(shown.contains("pages"), "at \(width): \(shown)") }
                    if width >= 500 {
                        XCTAssertTrue(shown.isSuperset(of: ["title", "Dark", "HUD"]), "at \(width): \(shown)")
                    }
                }
            }
        }
    }

    /// The Lists & outlines page in a narrow window leaves panes out instead of cutting every
    /// label to an ellipsis: the inspector under 900 logical pixels, the sidebar under 560.
    /// What it shows is whole.
    func testTheOutlinePageLeavesPanesOutInANarrowWindow() throws {
        try onMain {
            let lib = try DemoWindowsTests.library("outline-panes", count: 1)
            for scale in [1.0, 2.0] {
                let h = try Harness(width: Int(1100 * scale), height: Int(700 * scale), scale: scale)
                let app = DemoApp(page: .outline, darkTheme: false, library: lib.path)
                let build: (UI) -> Void = { app.build($0, host: h.host) }
                for (width, sidebar, inspector) in [(1100.0, true, true), (620, true, false), (400, false, false)] {
                    h.host.window.setSize(width: Int(width * scale), height: Int(700 * scale))
                    h.frames(4, build)
                    let drawn = h.drawnText
                    let at = "at \(width), scale \(scale)"
                    XCTAssertTrue(drawn.contains("Sketch the layout"), "the file list, whole, \(at): \(drawn)")
                    XCTAssertEqual(drawn.contains("Library"), sidebar, "the sidebar \(at)")
                    XCTAssertEqual(drawn.contains("Inspector"), inspector, "the inspector \(at)")
                    XCTAssertFalse(drawn.contains { $0.hasPrefix("Lib") && $0.hasSuffix("…") }, "a cut sidebar \(at)")
                    XCTAssertEqual(drawn.contains("Favorites"), sidebar, "the sidebar's rows whole \(at): \(drawn)")
                    XCTAssertFalse(
                        drawn.contains { $0.hasPrefix("Insp") && $0.hasSuffix("…") }, "a cut inspector \(at)")
                }
            }
        }
    }

    /// Dragging a splitter on the Split panes page changes the line over the panes ("dragging:
    /// 45 %"), and in a narrow window, where the buttons above it wrap, the panes stay where
    /// they were: that line is one line whatever it says.
    func testDraggingASplitterNeverMovesThePanesUnderTheButtons() throws {
        try onMain {
            let lib = try DemoWindowsTests.library("splits-drag", count: 1)
            let h = try Harness(width: 600, height: 800, scale: 1.5)
            h.ui.isAccessibilityEnabled = true
            let app = DemoApp(page: .splits, darkTheme: false, library: lib.path)
            let build: (UI) -> Void = { app.build($0, host: h.host) }
            h.frames(4, build)
            let buttons = try ["Toggle layout", "Hide inspector", "Hide sidebar"].map {
                try h.find(.pushButton, $0).frame
            }
            XCTAssertGreaterThan(Set(buttons.map { Int($0.minY) }).count, 1, "the buttons wrap at 400 points")
            let primary = try XCTUnwrap(h.rect(ofText: "Primary"))
            let splitter = try XCTUnwrap(h.findAll(.splitPane).last, "the inspector's, built last").frame
            let from = Point(splitter.midX, splitter.minY + 12) * 1.5  // (its middle is a button)
            h.inject.mouseMove(to: from)
            h.frame(build)
            h.inject.mouseButton(.left, down: true, at: from)
            h.frame(build)
            for step in 1...6 {
                h.inject.mouseMove(to: from + Point(12 * Double(step), 0), buttons: 1)
                h.frames(2, build)
                XCTAssertTrue(h.drawnText.contains { $0.hasPrefix("dragging: ") }, "step \(step): \(h.drawnText)")
                XCTAssertEqual(
                    try XCTUnwrap(h.rect(ofText: "Primary")).minY, primary.minY, accuracy: 0.5, "step \(step)")
            }
            h.inject.mouseButton(.left, down: false, at: from + Point(72, 0))
            h.frames(2, build)
            XCTAssertEqual(try XCTUnwrap(h.rect(ofText: "Primary")).minY, primary.minY, accuracy: 0.5)
        }
    }
}
