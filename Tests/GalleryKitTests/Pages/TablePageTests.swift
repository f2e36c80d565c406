import XCTest
import TesseraTesting
import Widgets
@testable import GalleryKit

/// The Table page's inspector: opened from the toolbar, it shows the selected file's fields.
final class TablePageTests: XCTestCase {
    func testTheInspectorShowsTheSelectedFile() throws {
        try onMain {
            let h = try Harness(width: 1100, height: 600)
            let page = TablePage()
            let build: (UI) -> Void = { page.build($0) }
            XCTAssertTrue(h.frames(until: { h.rect(ofText: "Name", in: .tableHeader("files")) != nil }, build))
            XCTAssertNil(h.rect(ofText: "Details"), "closed at first")
            let row = try XCTUnwrap(h.rect(ofText: "Name", in: .tableHeader("files")))
            h.click(at: Point(row.midX, row.maxY + 40), build)  // the second row
            let shown = h.drawnText
            // The toolbar's last button opens it: find the header's trailing end, then the button above it.
            let rating = try XCTUnwrap(h.rect(ofText: "Rating", in: .tableHeader("files")))
            h.click(at: Point(1100 - 22, rating.minY - 24), build)
            h.frames(15, build)  // it slides in
            XCTAssertNotNil(h.rect(ofText: "Details"), "open: \(h.drawnText.prefix(20))")
            let details = try XCTUnwrap(h.rect(ofText: "Details"))
            XCTAssertGreaterThan(details.minX, 1100 - 300, "a trailing column")
            for field in ["Kind", "Size", "Modified", "Rating"] {
                XCTAssertNotNil(
                    h.rect(ofText: field, in: .rect(Rect(x: details.minX - 4, y: 0, width: 400, height: 600))), field)
            }
            XCTAssertTrue(
                shown.contains { name in h.drawnText.filter { $0 == name }.count >= 2 && name.contains(".") },
                "the selected file's name is in the table and in the inspector")
            h.shot("table-inspector", build)
        }
    }
}
