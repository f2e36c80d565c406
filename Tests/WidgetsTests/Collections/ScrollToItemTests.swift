import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Scrolling lazy grids and stacks to an item, by index or by ID, with SwiftUI's anchors, in
/// the real renderer. Harness: 640×480.
final class ScrollToItemTests: XCTestCase {
    struct Photo: Identifiable { let id: String }

    func testAGridItemLandsAtItsAnchorFoundByIndexOrByID() throws {
        try onMain {
            let h = try Harness()
            let photos = (0..<1_000).map { Photo(id: "p\($0)") }
            var info: LazyGridInfo?
            var cellY: [Int: Double] = [:]
            let build: (UI) -> Void = { ui in
                cellY = [:]
                info = ui.lazyVGrid("grid", columns: [GridItem(.adaptive(minimum: 100))], count: photos.count) {
                    _, i, rect in
                    cellY[i] = rect.midY
                }
            }
            h.frame(build)
            h.ui.scrollGrid("grid", toItem: 500, anchor: .center)
            h.frames(2, build)
            XCTAssertEqual(
                try XCTUnwrap(cellY[500]), 240, accuracy: 1, "item 500's line in the middle of the 480 pt grid")
            h.ui.scrollGrid("grid", to: "p900", in: photos, anchor: .top)
            h.frames(2, build)
            let size = try XCTUnwrap(info?.cellSize)
            XCTAssertEqual(try XCTUnwrap(cellY[900]), size.height / 2, accuracy: 1, "p900's line at the top")
            h.ui.scrollGrid("grid", toItem: 905, anchor: nil)  // on screen already: nothing moves
            h.frames(2, build)
            XCTAssertEqual(try XCTUnwrap(cellY[900]), size.height / 2, accuracy: 1)
            h.ui.scrollGrid("grid", toItem: 0, anchor: nil)  // above: just into view, at the top
            h.frames(2, build)
            XCTAssertEqual(info?.scrollOffset, 0)
        }
    }

    func testAStackItemLandsAtTheBottomWithVariableHeights() throws {
        try onMain {
            let h = try Harness()
            let messages = (0..<10_000).map { Photo(id: "m\($0)") }
            var bottom: [String: Double] = [:]
            let build: (UI) -> Void = { ui in
                bottom = [:]
                ui.lazyVStack("feed", items: messages, estimatedHeight: 30, spacing: 4) { ui, message in
                    ui.frame(height: Double(20 + (Int(message.id.dropFirst())! % 7) * 13)) { ui.text(message.id) }
                    // the item's layout puts its spacing after the content
                    bottom[message.id] = ui.availableRect.minY - ui.theme.spacing
                }
            }
            h.frame(build)
            h.ui.scrollLazyStack("feed", to: "m7000", in: messages, anchor: .bottom)
            for _ in 0..<4 {  // estimates become measurements near the target: the anchor settles it again
                h.frames(1, build)
                h.ui.scrollLazyStack("feed", to: "m7000", in: messages, anchor: .bottom)
            }
            h.frame(build)
            XCTAssertEqual(try XCTUnwrap(bottom["m7000"]), 480, accuracy: 1, "m7000's bottom at the viewport's")
        }
    }

    func testAListRowFoundByItsIDLandsAtItsAnchor() throws {
        try onMain {
            let h = try Harness()
            let items = (0..<10_000).map { Item(id: $0, name: "", size: 0, score: 0) }
            var info: ListInfo?
            let build: (UI) -> Void = { ui in
                info = ui.list("rows") {
                    ui.section("First") { ui.forEach(items.prefix(100)) { ListRowContent("Row \($0.id)") } }
                    ui.section("Rest") { ui.forEach(items.dropFirst(100)) { ListRowContent("Row \($0.id)") } }
                }
            }
            h.frame(build)
            h.ui.scrollList("rows", toRow: 5_000, anchor: .center)
            h.frames(2, build)
            let visible = try XCTUnwrap(info?.visibleRows)
            XCTAssertEqual(
                Double(visible.lowerBound + visible.upperBound) / 2, 5_000, accuracy: 2,
                "row 5,000 (behind two section headers) in the middle")
            h.ui.scrollList("rows", toRow: 3, anchor: nil)
            h.frames(2, build)
            XCTAssertEqual(
                info?.visibleRows.lowerBound, 2, "from below, just into view at the top (one row of overscan)")
            h.ui.scrollList("rows", toRow: 123_456, anchor: .top)  // no such row: nothing moves
            h.frames(2, build)
            XCTAssertEqual(info?.visibleRows.lowerBound, 2)
        }
    }
}
