import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D

/// Files and text dropped on the window, through SDL's own drop events.
final class DropTargetTests: XCTestCase {
    func testADropReachesTheFirstTargetUnderThePointerThatTakesIt() throws { try onMain {
        let h = try Harness()
        var left: [[DroppedItem]] = [], right: [[DroppedItem]] = [], anywhere: [[DroppedItem]] = []
        var rightTakes = true
        let build: (UI) -> Void = { ui in
            ui.onDrop(in: Rect(x: 0, y: 0, width: 320, height: 480)) { left.append($0); return true }
            ui.onDrop(in: Rect(x: 320, y: 0, width: 320, height: 480)) { right.append($0); return rightTakes }
            ui.onDrop { anywhere.append($0); return true }
        }
        h.frame(build)
        h.inject.mouseMove(to: Point(500, 200))
        h.inject.dropFile("/photos/Trip 2024/IMG_0001.jpg")
        h.inject.dropFile("/photos/Trip 2024")
        h.frame(build)
        XCTAssertEqual(right, [[.file("/photos/Trip 2024/IMG_0001.jpg"), .file("/photos/Trip 2024")]], "both paths of one drop, in order")
        XCTAssertEqual(left, [], "the pointer was not over it")
        XCTAssertEqual(anywhere, [], "taken by the first target")
        rightTakes = false
        h.inject.dropText("hello")
        h.frame(build)
        XCTAssertEqual(anywhere, [[.text("hello")]], "a target that declines passes the drop on")
        h.frame(build)
        XCTAssertEqual(anywhere.count, 1, "a drop is delivered once")
    } }
}
