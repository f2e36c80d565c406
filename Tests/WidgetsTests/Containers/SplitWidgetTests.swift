import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// A class the tests bind split state to, as an app would.
final class Model<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
    var binding: Binding<Value> { Binding(self, \.value) }
}

/// Split views and the navigation split view in the real renderer, driven by SDL events.
final class SplitWidgetTests: XCTestCase {
    /// Padding one pane does not change the other's layout: the panes' layout frames had the
    /// same IDs (a region is not placed in its parent, so sibling regions shared an index), so
    /// the right pane's padded stack read and wrote the left pane's toolbar row's measurements.
    func testPaddingOnePaneLeavesTheOtherPanesLayoutAlone() throws {
        try onMain {
            for padded in [false, true] {
                let h = try Harness(width: 1000, height: 500)
                var text = ""
                var button = Rect.zero, line = Rect.zero
                let build: (UI) -> Void = { ui in
                    ui.hSplit("main", fraction: 0.7) {
                        ui.vstack {
                            ui.hstack {
                                ui.textField("Filter", text: &text, width: 200)
                                ui.spacer()
                                button = ui.allocate(Size(110, 24))
                            }
                            line = ui.allocate(Size(100, 18))
                        }
                    } right: {
                        let right = {
                            ui.vstack {
                                ui.text("One")
                                ui.text("Two")
                            }
                        }
                        if padded { ui.padding(8) { right() } } else { right() }
                    }
                }
                h.frames(4, build)
                XCTAssertGreaterThan(
                    button.maxX, 650, "padded: \(padded): the button ends at the pane's trailing edge, \(button)")
                XCTAssertLessThan(line.minY, 45, "padded: \(padded): the line sits just below the row, \(line)")
            }
        }
    }

    func testTabReachesTheSplitterAndTheArrowsMoveIt() throws {
        try onMain {
            let h = try Harness()
            let state = Model(SplitState(fraction: 0.5))
            var pressed = 0
            let build: (UI) -> Void = { ui in
                ui.hSplit("s", state: state.binding) {
                    if ui.button("Left") { pressed += 1 }
                } right: {
                    ui.text("R")
                }
            }
            h.frames(2, build)
            h.inject.tap(.tab)
            h.inject.tap(.tab)
            h.inject.tap(.tab, modifiers: .shift)
            h.frames(2, build)
            XCTAssertEqual(
                h.ui.focusID, WidgetID(parent: h.ui.id("s"), "splitter"),
                "a Tab stop of its own (three presses in one frame all count)")
            h.inject.tap(.right)
            h.frames(2, build)
            XCTAssertEqual(state.value.fraction * 640, 330, accuracy: 0.5, "Right moves it 10 pt")
            h.inject.tap(.left, modifiers: .shift)
            h.frames(2, build)
            XCTAssertEqual(state.value.fraction * 640, 280, accuracy: 0.5, "Shift-Left 50 pt back")
            h.inject.tap(.down)
            h.frames(2, build)
            XCTAssertEqual(
                state.value.fraction * 640, 280, accuracy: 0.5, "Down is across a side-by-side split: nothing")
            XCTAssertEqual(pressed, 0)
        }
    }

    func testMouseAndTouchDragMoveTheSplitterByTheDraggedAmountWithResizeCursor() throws {
        try onMain {
            let h = try Harness()
            let state = Model(SplitState(fraction: 0.5))
            var reported: [Double] = []
            let build: (UI) -> Void = { ui in
                ui.hSplit("s", state: state.binding, onDrag: { reported.append($0) }) {
                    ui.text("L")
                } right: {
                    ui.text("R")
                }
            }
            h.frame(build)
            h.inject.mouseMove(to: Point(322, 200))
            h.frame(build)
            XCTAssertEqual(h.host.shownCursor, .resizeLeftRight, "the hit area is wider than the 1 px line")
            h.drag(from: Point(320, 200), to: Point(400, 200), build)
            XCTAssertEqual(state.value.fraction * 640, 400, accuracy: 1)
            XCTAssertFalse(reported.isEmpty)
            XCTAssertEqual(
                reported.last!, state.value.fraction, accuracy: 1e-9, "onDrag reports the fraction while dragging")

            // A finger 12 px off the line still grabs it (touch hit area), then drags it back.
            h.inject.finger(1, .down, at: Point(412, 300))
            h.frame(build)
            for x in stride(from: 392.0, through: 212, by: -20) {
                h.inject.finger(1, .moved, at: Point(x, 300))
                h.frame(build)
            }
            h.inject.finger(1, .up, at: Point(212, 300))
            h.frames(2, build)
            XCTAssertEqual(state.value.fraction * 640, 200, accuracy: 1.5)
        }
    }

    func testDragToHideHidesOnReleasePastHalfTheConstraintWithALivePreview() throws {
        try onMain {
            let h = try Harness()
            let state = Model(SplitState(fraction: 0.5))
            let build: (UI) -> Void = { ui in
                ui.hSplit(
                    "s", state: state.binding,
                    constraints: .init(minPFraction: 0.2, minSFraction: 0.2, dragToHideS: true)
                ) {
                    ui.drawList.addRect(ui.availableRect, color: .green)
                } right: {
                    ui.drawList.addRect(ui.availableRect, color: .red)
                }
            }
            h.frame(build)
            // To 85 %: past the 80 % constraint, not past its halfway point (90 %).
            h.drag(from: Point(320, 200), to: Point(544, 200), build)
            XCTAssertNil(state.value.hidden)
            XCTAssertEqual(state.value.fraction, 0.8, accuracy: 1e-9)
            XCTAssertEqual(h.pixels.pixel(x: 620, y: 200), .red)

            // To 95 %: the preview hides the red side while the button is still down...
            let start = 0.8 * 640
            h.inject.mouseMove(to: Point(start, 200))
            h.frame(build)
            h.inject.mouseButton(.left, down: true, at: Point(start, 200))
            h.frame(build)
            for x in [560.0, 600, 615] {
                h.inject.mouseMove(to: Point(x, 200), buttons: 1)
                h.frame(build)
            }
            XCTAssertEqual(h.pixels.pixel(x: 620, y: 200), .green, "live preview of the hidden layout")
            XCTAssertNil(state.value.hidden, "not hidden before the release")
            // ...dragging back cancels the preview...
            h.inject.mouseMove(to: Point(540, 200), buttons: 1)
            h.frame(build)
            XCTAssertEqual(h.pixels.pixel(x: 620, y: 200), .red)
            // ...and releasing past the point hides it, keeping the fraction at the constraint.
            h.inject.mouseMove(to: Point(615, 200), buttons: 1)
            h.frame(build)
            h.inject.mouseButton(.left, down: false, at: Point(615, 200))
            h.frames(3, build)
            XCTAssertEqual(state.value.hidden, .secondary)
            XCTAssertEqual(state.value.fraction, 0.8, accuracy: 1e-9)
            state.value.show()
            h.frames(20, build)  // the show animation settles
            XCTAssertEqual(h.pixels.pixel(x: 620, y: 200), .red, "showing restores the side at the constraint")
            XCTAssertEqual(h.pixels.pixel(x: 500, y: 200), .green)
        }
    }

    func testNestedSplitKeepsItsSizesAndPriorityKeepsPixelsWhenTheWindowShrinks() throws {
        try onMain {
            let h = try Harness()
            let outer = Model(SplitState(fraction: 0.25))
            let inner = Model(SplitState(fraction: 0.75))
            var inspector = Rect.zero, sidebar = Rect.zero
            let build: (UI) -> Void = { ui in
                ui.hSplit("outer", state: outer.binding, constraints: .init(priority: .left)) {
                    sidebar = ui.availableRect
                } right: {
                    ui.hSplit("inner", state: inner.binding, constraints: .init(priority: .right)) {
                        ui.text("detail")
                    } right: {
                        inspector = ui.availableRect
                    }
                }
            }
            h.frames(2, build)
            let inspectorWidth = inspector.width
            XCTAssertEqual(sidebar.width, 160, accuracy: 1)
            // Moving the outer splitter resizes the inner split; its priority side keeps its width.
            h.drag(from: Point(160, 240), to: Point(100, 240), build)
            XCTAssertEqual(sidebar.width, 100, accuracy: 1)
            XCTAssertEqual(inspector.width, inspectorWidth, accuracy: 1)
            // The window shrinks: the sidebar and the inspector keep their pixels.
            h.host.window.setSize(width: 500, height: 480)
            h.frames(2, build)
            XCTAssertEqual(h.ui.size.width, 500)
            XCTAssertEqual(sidebar.width, 100, accuracy: 1)
            XCTAssertEqual(inspector.width, inspectorWidth, accuracy: 1)
            // Down to 1×1 and back: nothing breaks, nothing goes negative or NaN.
            h.host.window.setSize(width: 1, height: 1)
            h.frames(2, build)
            XCTAssertTrue(outer.value.fraction.isFinite && inner.value.fraction.isFinite)
            XCTAssertGreaterThanOrEqual(inspector.width, 0)
        }
    }

    func testCustomSplitterButtonTogglesAndDoubleClickHidesTheSmallerSide() throws {
        try onMain {
            let h = try Harness()
            let state = Model(SplitState(fraction: 0.7))
            let splitter = Splitter.custom { ui, context, state in
                ui.region(Rect(x: context.rect.midX - 12, y: context.rect.midY - 12, width: 24, height: 24)) {
                    if ui.button("", icon: .chevronRight, id: "toggle") { state.toggle(.right) }
                }
            }
            let build: (UI) -> Void = { ui in
                ui.hSplit("s", state: state.binding, styling: SplitStyling(visibleThickness: 6), splitter: splitter) {
                    ui.text("L")
                } right: {
                    ui.text("R")
                }
            }
            h.frame(build)
            let center = Point(0.7 * 640, 240)
            h.click(at: center, build)
            XCTAssertEqual(state.value.hidden, .secondary, "the button in the splitter got the click")
            XCTAssertEqual(state.value.fraction, 0.7, "a click is not a drag")
            state.value.show()
            h.frames(20, build)
            // Double-click away from the button, on the splitter: hides the smaller (right) side.
            let onBar = Point(0.7 * 640, 60)
            h.click(at: onBar, build)
            h.click(at: onBar, build)
            XCTAssertEqual(state.value.hidden, .secondary)
            h.frames(20, build)
            h.click(at: Point(637, 60), build)
            h.click(at: Point(637, 60), build)
            XCTAssertNil(state.value.hidden, "double-click on the edge splitter shows it again")
        }
    }

    func testHideSplitterWithDragToHideHidesTheSideAndTheSplitterComesBackWithIt() throws {
        try onMain {
            let h = try Harness()
            let state = Model(SplitState(fraction: 0.5))
            let build: (UI) -> Void = { ui in
                ui.hSplit(
                    "s", state: state.binding, constraints: .init(minSFraction: 0.2, dragToHideS: true),
                    styling: SplitStyling(color: .blue, visibleThickness: 4, hideSplitter: true)
                ) {
                    ui.drawList.addRect(ui.availableRect, color: .green)
                } right: {
                    ui.drawList.addRect(ui.availableRect, color: .red)
                }
            }
            h.frame(build)
            XCTAssertEqual(h.pixels.pixel(x: 320, y: 200), .blue, "the styling color draws the splitter")
            // Past the drag-to-hide point: the preview hides the red side and the splitter...
            h.inject.mouseMove(to: Point(320, 200))
            h.frame(build)
            h.inject.mouseButton(.left, down: true, at: Point(320, 200))
            h.frame(build)
            for x in [450.0, 560, 610, 625] {
                h.inject.mouseMove(to: Point(x, 200), buttons: 1)
                h.frame(build)
            }
            XCTAssertEqual(h.pixels.pixel(x: 636, y: 200), .green, "preview: no red side, no splitter")
            // ...but the drag goes on: dragging back cancels the preview...
            h.inject.mouseMove(to: Point(500, 200), buttons: 1)
            h.frame(build)
            XCTAssertEqual(
                h.pixels.pixel(x: 620, y: 200), .red, "dragging back out of the hide zone shows the side again")
            // ...and releasing past the point hides the side for real.
            h.inject.mouseMove(to: Point(625, 200), buttons: 1)
            h.frame(build)
            h.inject.mouseButton(.left, down: false, at: Point(625, 200))
            h.frames(3, build)
            XCTAssertEqual(state.value.hidden, .secondary)
            XCTAssertEqual(
                h.countPixels(in: Rect(x: 0, y: 0, width: 640, height: 480), differingFrom: .green, tolerance: 8), 0,
                "hidden with its splitter: only the green side is drawn")
            state.value.show()
            h.frames(20, build)
            XCTAssertEqual(h.pixels.pixel(x: 620, y: 200), .red)
            XCTAssertEqual(
                h.pixels.pixel(x: Int(0.8 * 640) - 1, y: 200), .blue, "the splitter is back at the constraint")
        }
    }

    func testInvisibleSplitterDrawsNothingButStillDrags() throws {
        try onMain {
            let h = try Harness()
            let state = Model(SplitState(fraction: 0.5))
            let build: (UI) -> Void = { ui in
                ui.hSplit("s", state: state.binding, styling: .invisible) {
                    ui.drawList.addRect(ui.availableRect, color: .green)
                } right: {
                    ui.drawList.addRect(ui.availableRect, color: .green)
                }
            }
            h.frame(build)
            XCTAssertEqual(
                h.countPixels(in: Rect(x: 300, y: 0, width: 40, height: 480), differingFrom: .green, tolerance: 8), 0,
                "no line, no gap")
            h.drag(from: Point(320, 200), to: Point(200, 200), build)
            XCTAssertEqual(state.value.fraction * 640, 200, accuracy: 1)
        }
    }

    func testLayoutToggleKeepsTheFractionAndRestoredFractionsAreClamped() throws {
        try onMain {
            let h = try Harness(width: 1200, height: 600)
            let state = Model(SplitState(fraction: 0.25))
            var primary = Rect.zero
            let build: (UI) -> Void = { ui in
                ui.split(
                    "s", state: state.binding, constraints: .init(minPFraction: 0.1, minSFraction: 0.3, priority: .left)
                ) {
                    primary = ui.availableRect
                } secondary: {
                    ui.text("detail")
                }
            }
            h.frames(2, build)
            XCTAssertEqual(primary.width, 300, accuracy: 1)
            state.value.layout.toggle()
            h.frames(2, build)
            XCTAssertEqual(state.value.fraction, 0.25, accuracy: 1e-9, "a layout toggle is not a container resize")
            XCTAssertEqual(primary.height, 150, accuracy: 1)
            state.value.layout.toggle()
            h.frames(2, build)
            XCTAssertEqual(state.value.fraction, 0.25, accuracy: 1e-9)
            // A fraction restored from outside (a state file) respects the minimums at once.
            state.value.fraction = 0.95
            h.frame(build)
            XCTAssertEqual(state.value.fraction, 0.7, accuracy: 1e-9)
            XCTAssertEqual(primary.width, 840, accuracy: 1)
        }
    }

    func testUIOwnedSplitPersistsAcrossRestarts() throws {
        try onMain {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "tessera-split-\(UUID().uuidString).json"
            ).path
            defer { try? FileManager.default.removeItem(atPath: path) }
            do {
                let h = try Harness()
                h.ui.persistentStore = PersistentStore(path: path)
                let build: (UI) -> Void = { ui in
                    ui.hSplit("saved", fraction: 0.5, persist: true) {
                        ui.text("L")
                    } right: {
                        ui.text("R")
                    }
                }
                h.frame(build)
                h.drag(from: Point(320, 100), to: Point(160, 100), build)
                h.ui.persistentStore?.save()
            }
            let h = try Harness()
            h.ui.persistentStore = PersistentStore(path: path)
            var left = Rect.zero
            h.frames(2) { ui in
                ui.hSplit("saved", fraction: 0.5, persist: true) {
                    left = ui.availableRect
                } right: {
                    ui.text("R")
                }
            }
            XCTAssertEqual(left.width, 160, accuracy: 1.5, "restored from the state file")
        }
    }

    func testNavigationSplitTilesResizesTogglesAndCollapsesToOneColumn() throws {
        try onMain {
            let h = try Harness(width: 1000, height: 600)
            let state = Model(NavigationSplitState())
            var shown: Set<String> = []
            var sidebarRect = Rect.zero
            let build: (UI) -> Void = { ui in
                shown = []
                ui.navigationSplit("nav", state: state.binding, contentWidth: .init(min: 150, ideal: 250, max: 400)) {
                    shown.insert("sidebar")
                    sidebarRect = ui.availableRect
                } content: {
                    shown.insert("content")
                } detail: {
                    shown.insert("detail")
                }
            }
            h.frames(2, build)
            XCTAssertEqual(shown, ["sidebar", "content", "detail"])
            XCTAssertEqual(sidebarRect.width, 240, accuracy: 1)
            // Drag the sidebar's edge.
            h.drag(from: Point(239, 300), to: Point(300, 300), build)
            XCTAssertEqual(state.value.sidebarWidth ?? 0, 300, accuracy: 1.5)
            // The sidebar button (top-left of the toolbar) hides the sidebar.
            h.click(at: Point(20, 20), build)
            XCTAssertEqual(state.value.visibility, .doubleColumn)
            XCTAssertEqual(shown, ["content", "detail", "sidebar"], "the sidebar slides out: still drawn, moving left")
            XCTAssertLessThan(sidebarRect.minX, 0)
            h.frames(15, build)  // 0.25 s: the 0.22 s slide is over
            XCTAssertEqual(shown, ["content", "detail"])
            // Compact: one column, back navigation.
            state.value.visibility = .all
            state.value.preferredCompactColumn = .detail
            h.host.window.setSize(width: 400, height: 600)
            h.frames(2, build)
            XCTAssertEqual(shown, ["detail"])
            h.click(at: Point(40, 20), build)  // "‹ Content"
            XCTAssertEqual(shown, ["content"])
            h.host.window.setSize(width: 1000, height: 600)
            h.frames(2, build)
            XCTAssertEqual(shown, ["sidebar", "content", "detail"], "widening restores the columns")
        }
    }

    func testNarrowWindowsOverlayOrDisplaceTheDetail() throws {
        try onMain {
            let h = try Harness(width: 640, height: 500)
            let state = Model(NavigationSplitState())
            var behavior = NavigationSplitNarrowBehavior.overlay
            var detail = Rect.zero
            let build: (UI) -> Void = { ui in
                ui.navigationSplit("nav", state: state.binding, narrowBehavior: behavior) {
                    ui.text("Sidebar")
                } content: {
                    ui.text("Content")
                } detail: {
                    detail = ui.availableRect
                    ui.drawList.addRect(ui.availableRect, color: .red)
                }
            }
            // 640 < 180 + 200 + 320: not even the columns' minimums fit beside the detail.
            h.frames(2, build)
            XCTAssertEqual(detail.minX, 0, "overlay: the detail keeps the whole width under the columns")
            XCTAssertNotEqual(h.pixels.pixel(x: 600, y: 300), .red, "dimmed by the scrim")
            behavior = .displace
            h.frames(2, build)
            XCTAssertEqual(detail.minX, 540, "displace: pushed aside by the 240 + 300 px columns")
            XCTAssertEqual(detail.width, 640, "at full width, partly off screen")
            let dimmed = h.pixels.pixel(x: 600, y: 300)
            XCTAssertTrue(
                dimmed.r > 150 && dimmed.g < 80 && dimmed != .red, "the displaced detail shows, dimmed (tap to dismiss)"
            )
            h.shot("displace", build)
            // A tap on the dimmed detail hides the columns.
            h.click(at: Point(600, 300), build)
            XCTAssertEqual(state.value.visibility, .detailOnly)
            h.frames(2, build)
            XCTAssertTrue(
                detail.minX > 0 && detail.minX < 540, "the detail slides back with the columns: \(detail.minX)")
            h.frames(15, build)
            XCTAssertEqual(detail.minX, 0)
            // With reduce motion, the columns come back at once.
            h.ui.reducesMotion = true
            state.value.visibility = .all
            h.frames(2, build)
            XCTAssertEqual(detail.minX, 540)
        }
    }
}
