import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Drags within the window (`draggable`, `dropDestination`), and files and text dropped on it
/// through SDL's own drop events.
final class DragAndDropTests: XCTestCase {
    /// A source carrying two strings, a destination of strings and one of numbers.
    @MainActor final class Scene {
        let source = Rect(x: 20, y: 20, width: 100, height: 60)
        let target = Rect(x: 400, y: 300, width: 160, height: 80)
        let numbers = Rect(x: 400, y: 100, width: 160, height: 80)
        var dropped: [([String], DropInfo)] = []
        var numbersDropped = 0, clicks = 0
        var targeted = false, numbersTargeted = false
        /// How the source takes the pointer (with `.drag`, a touch drag is its own).
        var sense: Sense = .click

        func build(_ ui: UI) {
            let r = ui.interact(ui.id("source"), rect: source, sense: sense)
            ui.drawList.addRect(source, color: ui.theme.control)
            if r.clicked { clicks += 1 }
            ui.draggable(r, items: ["a", "b"])
            numbersTargeted = ui.dropDestination(for: Int.self, in: numbers) { _, _ in
                numbersDropped += 1
                return true
            }
            targeted = ui.dropDestination(for: String.self, in: target) { items, info in
                dropped.append((items, info))
                return true
            }
        }
    }

    /// Presses on the source and moves to `to` in four frames, without releasing.
    @MainActor static func press(_ h: Harness, _ scene: Scene, movingTo to: Point) {
        let from = scene.source.center
        h.inject.mouseMove(to: from)
        h.frame(scene.build)
        h.inject.mouseButton(.left, down: true, at: from)
        h.frame(scene.build)
        for i in 1...4 {
            h.inject.mouseMove(to: from + (to - from) * (Double(i) / 4), buttons: 1)
            h.frame(scene.build)
        }
    }

    func testADragCarriesItsItemsToTheDestinationOfTheirTypeUnderTheRelease() throws {
        try onMain {
            let h = try Harness()
            let scene = Scene()
            // Over the destination of numbers: strings are not for it.
            Self.press(h, scene, movingTo: scene.numbers.center)
            XCTAssertEqual(h.ui.activeDrag, ActiveDrag(count: 2, isCopy: false))
            XCTAssertFalse(scene.numbersTargeted)
            // Over the destination of strings: outlined in the accent, the preview at the pointer with the count.
            h.inject.mouseMove(to: scene.target.center, buttons: 1)
            h.frame(scene.build)
            h.frame(scene.build)  // read back: the frame that drew it
            XCTAssertTrue(scene.targeted)
            let accent = h.ui.theme.accent
            func isAccent(_ c: Color) -> Bool {
                abs(Int(c.r) - Int(accent.r)) < 30 && abs(Int(c.g) - Int(accent.g)) < 30
                    && abs(Int(c.b) - Int(accent.b)) < 30
            }
            let edge = Rect(x: scene.target.x, y: scene.target.y, width: scene.target.width, height: 4)
            XCTAssertGreaterThan(h.countPixels(in: edge, where: isAccent), 200, "the destination is outlined")
            let badge = Rect(x: scene.target.center.x - 12, y: scene.target.center.y - 2, width: 44, height: 26)
            XCTAssertGreaterThan(
                h.countPixels(in: badge, where: isAccent), 100, "the count's badge follows the pointer")
            XCTAssertNotNil(h.rect(ofText: "2"), "the badge reads 2")
            XCTAssertNotNil(h.rect(ofText: "2 items"), "the preview names what is dragged")
            h.inject.mouseButton(.left, down: false, at: scene.target.center)
            h.frame(scene.build)
            XCTAssertEqual(scene.dropped.map(\.0), [["a", "b"]])
            XCTAssertEqual(scene.dropped.first?.1, DropInfo(location: scene.target.center, isCopy: false))
            XCTAssertEqual(scene.numbersDropped, 0)
            XCTAssertEqual(scene.clicks, 0, "the release that ends a drag is not a click")
            XCTAssertNil(h.ui.activeDrag)
            // Dragged out and back, released over the source itself: not a click either.
            Self.press(h, scene, movingTo: Point(300, 420))
            h.inject.mouseMove(to: scene.source.center, buttons: 1)
            h.frame(scene.build)
            h.inject.mouseButton(.left, down: false, at: scene.source.center)
            h.frame(scene.build)
            XCTAssertEqual(scene.clicks, 0, "a drag back to where it started is not a click")
            // A press and release without moving is still a click, and drags nothing.
            h.click(at: scene.source.center, scene.build)
            XCTAssertEqual(scene.clicks, 1)
            XCTAssertEqual(scene.dropped.count, 1)
        }
    }

    func testCtrlAtTheReleaseCopiesAndEscapeCancels() throws {
        try onMain {
            let h = try Harness()
            let scene = Scene()
            Self.press(h, scene, movingTo: scene.target.center)
            h.inject.key(Key.control, down: true, modifiers: [.control])
            h.frame(scene.build)
            XCTAssertEqual(h.ui.activeDrag?.isCopy, true)
            XCTAssertNotNil(h.rect(ofText: "+2"), "the badge shows a copy")
            h.inject.mouseButton(.left, down: false, at: scene.target.center)
            h.frame(scene.build)
            h.inject.key(Key.control, down: false, modifiers: [])
            XCTAssertEqual(scene.dropped.map(\.1.isCopy), [true])

            // Escape: the drag ends where it is, and the release drops nothing (and does not start another drag).
            Self.press(h, scene, movingTo: scene.target.center)
            h.inject.tap(.escape)
            h.frame(scene.build)
            XCTAssertNil(h.ui.activeDrag)
            h.inject.mouseMove(to: scene.target.center + Point(5, 5), buttons: 1)
            h.frame(scene.build)
            XCTAssertNil(h.ui.activeDrag, "a cancelled drag does not start again while the button is held")
            h.inject.mouseButton(.left, down: false, at: scene.target.center)
            h.frame(scene.build)
            XCTAssertEqual(scene.dropped.count, 1)
            XCTAssertEqual(scene.clicks, 0)

            // Released over nothing: nothing is dropped, and the drag is over.
            Self.press(h, scene, movingTo: Point(300, 420))
            h.inject.mouseButton(.left, down: false, at: Point(300, 420))
            h.frame(scene.build)
            XCTAssertNil(h.ui.activeDrag)
            XCTAssertEqual(scene.dropped.count, 1)
        }
    }

    func testATouchDragIsTheWidgetsOwnAndDragsNothing() throws {
        try onMain {
            let h = try Harness()
            let scene = Scene()
            scene.sense = [.click, .drag]  // the source keeps the touch as it moves
            let from = scene.source.center
            h.inject.finger(1, .down, at: from)
            h.frame(scene.build)
            for i in 1...4 {
                h.inject.finger(1, .moved, at: from + (scene.target.center - from) * (Double(i) / 4))
                h.frame(scene.build)
            }
            XCTAssertNil(h.ui.activeDrag)
            h.inject.finger(1, .up, at: scene.target.center)
            h.frame(scene.build)
            XCTAssertTrue(scene.dropped.isEmpty)
        }
    }

    func testADropReachesTheFirstTargetUnderThePointerThatTakesIt() throws {
        try onMain {
            let h = try Harness()
            var left: [[DroppedItem]] = [], right: [[DroppedItem]] = [], anywhere: [[DroppedItem]] = []
            var rightTakes = true
            let build: (UI) -> Void = { ui in
                ui.onDrop(in: Rect(x: 0, y: 0, width: 320, height: 480)) {
                    left.append($0)
                    return true
                }
                ui.onDrop(in: Rect(x: 320, y: 0, width: 320, height: 480)) {
                    right.append($0)
                    return rightTakes
                }
                ui.onDrop {
                    anywhere.append($0)
                    return true
                }
            }
            h.frame(build)
            h.inject.mouseMove(to: Point(500, 200))
            h.inject.dropFile("/photos/Trip 2024/IMG_0001.jpg")
            h.inject.dropFile("/photos/Trip 2024")
            h.frame(build)
            XCTAssertEqual(
                right, [[.file("/photos/Trip 2024/IMG_0001.jpg"), .file("/photos/Trip 2024")]],
                "both paths of one drop, in order")
            XCTAssertEqual(left, [], "the pointer was not over it")
            XCTAssertEqual(anywhere, [], "taken by the first target")
            rightTakes = false
            h.inject.dropText("hello")
            h.frame(build)
            XCTAssertEqual(anywhere, [[.text("hello")]], "a target that declines passes the drop on")
            h.frame(build)
            XCTAssertEqual(anywhere.count, 1, "a drop is delivered once")
        }
    }
}
