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
}
