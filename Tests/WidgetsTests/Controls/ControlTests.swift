import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Controls driven by real SDL events through the offscreen renderer.
final class ControlTests: XCTestCase {
    func testButtonFiresOnceAndShowsHandCursor() throws {
        try onMain {
            let h = try Harness()
            var clicks = 0
            let build: (UI) -> Void = { ui in
                if ui.button("Press") { clicks += 1 }
            }
            h.frame(build)
            let center = Point(30, 20)
            h.click(at: center, build)
            h.frames(3, build)
            XCTAssertEqual(clicks, 1)
            XCTAssertEqual(h.host.shownCursor, .pointingHand)
            // Pressing on the button and releasing elsewhere is not a click.
            h.drag(from: center, to: Point(400, 400), build)
            XCTAssertEqual(clicks, 1)
        }
    }

    /// A button squeezed narrower than its title (a narrow pane) draws its icon and its title,
    /// cut with "…", inside itself: nothing spills past its left edge onto what is beside it.
    func testASqueezedButtonKeepsItsLabelInside() throws {
        try onMain {
            let h = try Harness(width: 300, height: 100)
            h.ui.isAccessibilityEnabled = true
            let build: (UI) -> Void = { ui in
                ui.hstack(spacing: 0) {
                    ui.frame(width: 100, height: 40) {}
                    ui.frame(width: 90) { _ = ui.button("Close inspector", icon: .sidebar) }
                }
            }
            h.frames(2, build)
            let button = try h.find(.pushButton, "Close inspector").frame
            XCTAssertEqual(button.minX, 100, accuracy: 0.5)
            XCTAssertEqual(button.width, 90, accuracy: 0.5, "squeezed to its frame")
            let line = try XCTUnwrap(
                h.ui.contentDrawList.drawnText.first { $0.text.hasPrefix("Clo") }, "\(h.drawnText)")
            XCTAssertTrue(line.text.hasSuffix("…"), line.text)
            XCTAssertGreaterThanOrEqual(line.rect.minX, button.minX, "the title starts inside the button")
            XCTAssertLessThanOrEqual(line.rect.maxX, button.maxX + 0.5, "and ends inside it")
            let spill = h.inkBounds(
                in: Rect(x: 0, y: button.minY, width: button.minX - 1, height: button.height),
                differingFrom: h.ui.theme.background)
            XCTAssertNil(spill, "no ink left of the button")
        }
    }

    func testTouchTapClicksOnceDespiteSynthesizedMouseEvents() throws {
        try onMain {
            let h = try Harness()
            var clicks = 0
            let build: (UI) -> Void = { ui in if ui.button("Tap me") { clicks += 1 } }
            h.frame(build)
            let p = Point(30, 20)
            h.inject.finger(1, .down, at: p)
            // What SDL would synthesize from the touch: must be ignored.
            var e = RawEvent.touchMouse(down: true, at: p)
            _ = e.push()
            h.frame(build)
            h.inject.finger(1, .up, at: p)
            e = RawEvent.touchMouse(down: false, at: p)
            _ = e.push()
            h.frames(3, build)
            XCTAssertEqual(clicks, 1)
        }
    }

    func testToggleFlipsAndSliderDragsToValue() throws {
        try onMain {
            let h = try Harness()
            var on = false
            var value = 0.0
            var slider = Rect.zero
            let build: (UI) -> Void = { ui in
                ui.toggle("Wi-Fi", isOn: &on)
                slider = Rect(origin: ui.availableRect.origin, size: Size(200, ui.theme.controlHeight))
                ui.slider("", value: &value, in: 0...100, width: 200)
            }
            h.frame(build)
            h.click(at: Point(60, 21), build)
            XCTAssertTrue(on)
            h.click(at: Point(60, 21), build)
            XCTAssertFalse(on)
            // The track runs between the knob radius (9) insets of the slider's rectangle.
            let track = (start: slider.minX + 9, length: slider.width - 18)
            h.drag(
                from: Point(track.start, slider.midY), to: Point(track.start + track.length * 0.75, slider.midY), build)
            XCTAssertEqual(value, 75, accuracy: 1)
            h.drag(from: Point(track.start + track.length * 0.75, slider.midY), to: Point(-50, slider.midY), build)
            XCTAssertEqual(value, 0, "dragging past the end clamps")
        }
    }

    func testTypingIntoATextFieldEditsIt() throws {
        try onMain {
            let h = try Harness()
            var text = "ab"
            let build: (UI) -> Void = { ui in ui.textField("Name", text: &text, width: 200) }
            h.frame(build)
            h.click(at: Point(150, 21), build)
            XCTAssertTrue(h.ui.wantsTextInput, "focused field asks for SDL text input")
            h.inject.text("cd é")
            h.frame(build)
            XCTAssertEqual(text, "abcd é")
            h.inject.tap(.backspace)
            h.inject.tap(.home)
            h.inject.text("X")
            h.frames(2, build)
            XCTAssertEqual(text, "Xabcd ")
            h.inject.tap(.escape)
            h.frames(2, build)
            XCTAssertFalse(h.ui.wantsTextInput)
            h.inject.text("ignored")
            h.frame(build)
            XCTAssertEqual(text, "Xabcd ")
        }
    }

    /// A shortcut's key press types nothing, though X11 also delivers its text (Ctrl+minus gave
    /// "-"); AltGr, which types a layout's third characters, still types.
    func testKeysPressedWithCtrlAltOrSuperTypeNothing() throws {
        try onMain {
            let h = try Harness()
            var text = "ab"
            let build: (UI) -> Void = { ui in ui.textField("Name", text: &text, width: 200) }
            h.frame(build)
            h.click(at: Point(150, 21), build)
            @MainActor func press(_ key: Key, typing typed: String, with modifiers: KeyModifiers) {
                h.inject.key(key, down: true, modifiers: modifiers)
                h.inject.text(typed)  // as X11 delivers it: between the key's press and release
                h.inject.key(key, down: false, modifiers: modifiers)
                h.frames(2, build)
            }
            press(Key("-"), typing: "-", with: .control)
            press(Key("f"), typing: "f", with: .alt)
            press(Key("e"), typing: "e", with: .gui)
            XCTAssertEqual(text, "ab", "shortcuts type nothing")
            press(Key("q"), typing: "@", with: [.alt, .altGraph])
            XCTAssertEqual(text, "ab@", "AltGr types")
            h.inject.key(Key(rawValue: 0x400000E0), down: false, modifiers: [])  // Ctrl released
            h.type("c", build)
            XCTAssertEqual(text, "ab@c", "once the modifiers are released, text is typed again")
        }
    }

    func testAFieldEditsClustersUndoesWordsAndSelectsWordsAndLinesWithClicks() throws {
        try onMain {
            let h = try Harness()
            var text = ""
            let build: (UI) -> Void = { ui in ui.textField("Name", text: &text, width: 300) }
            h.frame(build)
            h.click(at: Point(150, 21), build)
            for word in ["Zoë ", "👩\u{200D}👧 ", "写真"] {
                h.inject.text(word)
                h.frame(build)
            }
            XCTAssertEqual(text, "Zoë 👩\u{200D}👧 写真")
            h.inject.tap(Key("z"), modifiers: .control)
            h.frames(2, build)
            XCTAssertEqual(text, "Zoë 👩\u{200D}👧 ", "Ctrl+Z takes back the last word")
            h.inject.tap(.backspace)
            h.inject.tap(.backspace)
            h.frames(2, build)
            XCTAssertEqual(text, "Zoë ", "backspace takes the space, then the whole family emoji")
            h.inject.tap(Key("z"), modifiers: [.control, .shift])
            h.frames(2, build)
            XCTAssertEqual(text, "Zoë ", "nothing to redo after an edit")
            text = "one two three"
            h.frame(build)
            // Double-click selects the word under it; typing replaces it. Triple-click selects the line.
            let font = h.ui.font
            let two = Point(8 + 8 + font.measure("one t"), 21)
            let clicks = { (count: Int) in
                h.click(at: two, build)
                for _ in 1..<count {
                    h.inject.mouseButton(.left, down: true, at: two)
                    h.frame(build)
                    h.inject.mouseButton(.left, down: false, at: two)
                    h.frame(build)
                }
            }
            clicks(2)
            h.inject.text("2")
            h.frame(build)
            XCTAssertEqual(text, "one 2 three")
            clicks(3)
            h.inject.text("all")
            h.frame(build)
            XCTAssertEqual(text, "all")
        }
    }

    func testCJKIsDrawnFromAnInstalledFontNotAsReplacementBoxes() throws {
        try onMain {
            let h = try Harness()
            guard h.ui.fonts.fallback.path(for: 0x5199) != nil else {
                throw XCTSkip("no installed font has CJK (scripts/install-deps.sh installs fonts-noto-cjk)")
            }
            let build: (UI) -> Void = { ui in
                ui.padding(20) {
                    ui.text("写真の本")
                    ui.text("\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}")
                }
            }
            h.frames(2, build)
            h.shot("cjk-fallback", build)
            let line = h.ui.font.lineHeight
            let cjk = try XCTUnwrap(
                h.inkBounds(in: Rect(x: 0, y: 20, width: 300, height: line), differingFrom: h.ui.theme.background))
            let boxes = try XCTUnwrap(
                h.inkBounds(
                    in: Rect(x: 0, y: 20 + line + h.ui.theme.spacing, width: 300, height: line),
                    differingFrom: h.ui.theme.background))
            XCTAssertGreaterThan(cjk.width, 40, "four ideographs drawn")
            let boxesAtCJK = Rect(x: boxes.x, y: boxes.y, width: cjk.width, height: cjk.height)
            XCTAssertNotEqual(h.pixels.region(cjk), h.pixels.region(boxesAtCJK), "not the replacement glyphs")
        }
    }

    func testWheelAndScrollbarScrollAScrollView() throws {
        try onMain {
            let h = try Harness()
            var info: ScrollViewInfo?
            let build: (UI) -> Void = { ui in
                info = ui.scrollView("list", height: 300) {
                    for i in 0..<100 { ui.text("Row \(i)") }
                }
            }
            h.frames(2, build)
            XCTAssertEqual(info?.offset.y, 0)
            XCTAssertGreaterThan(info!.contentSize.height, 2000)
            h.inject.mouseMove(to: Point(100, 100))
            h.inject.wheel(dy: -2)
            h.frames(2, build)
            XCTAssertEqual(info!.offset.y, 96, accuracy: 0.5, "two notches down at 48 px each")
            h.inject.wheel(dy: 10)
            h.frames(2, build)
            XCTAssertEqual(info?.offset.y, 0, "clamped at the top")
            // Drag the scrollbar thumb to the bottom.
            let bar = info!.viewport.maxX - 5
            h.drag(from: Point(bar, info!.viewport.minY + 10), to: Point(bar, info!.viewport.maxY + 50), build)
            XCTAssertEqual(info!.offset.y, info!.contentSize.height - info!.viewport.height, accuracy: 0.5)
        }
    }

    func testTouchFlickScrollsWithMomentumThatDecaysToRest() throws {
        try onMain {
            let h = try Harness()
            var info: ScrollViewInfo?
            var clicks = 0
            let build: (UI) -> Void = { ui in
                info = ui.scrollView("feed", height: 400) {
                    for i in 0..<400 { if ui.button("Item \(i)") { clicks += 1 } }
                }
            }
            h.frames(2, build)
            // The finger starts on a button: the drag must scroll, not click it.
            var y = 300.0
            h.inject.finger(7, .down, at: Point(40, y))
            h.frame(build)
            for _ in 0..<6 {
                y -= 25
                h.inject.finger(7, .moved, at: Point(40, y))
                h.frame(build)
            }
            let atRelease = info!.offset.y
            XCTAssertEqual(atRelease, 150, accuracy: 1, "content follows the finger")
            h.inject.finger(7, .up, at: Point(40, y))
            h.frame(build)
            var previous = info!.offset.y
            var steps: [Double] = []
            for _ in 0..<400 {
                h.frame(build)
                steps.append(info!.offset.y - previous)
                previous = info!.offset.y
            }
            XCTAssertGreaterThan(info!.offset.y, atRelease + 200, "momentum carried the content on")
            XCTAssertGreaterThan(steps[0], steps[30], "decelerating")
            XCTAssertEqual(steps.suffix(10).reduce(0, +), 0, "at rest")
            XCTAssertEqual(clicks, 0)
        }
    }

    func testContextMenuOpensOnRightClickAndLongPressAndOutsidePressStillReachesBelow() throws {
        try onMain {
            let h = try Harness()
            var chosen: [String] = []
            var clicks = 0
            var area = Interaction(id: .root, rect: .zero)
            let build: (UI) -> Void = { ui in
                let rect = ui.allocate(Size(300, 100))
                ui.drawList.addRect(rect, color: ui.theme.control)
                area = ui.interact(ui.id("area"), rect: rect)
                ui.contextMenu(for: area) {
                    if ui.menuItem("Rename") { chosen.append("Rename") }
                    if ui.menuItem("Delete", role: .destructive) { chosen.append("Delete") }
                }
                if ui.button("Below") { clicks += 1 }
            }
            h.frame(build)
            h.click(at: Point(50, 40), button: .right, build)
            let menuName = "context" + area.id.description
            XCTAssertTrue(h.ui.isPopupOpen(menuName))
            h.frame(build)
            XCTAssertGreaterThan(
                h.countPixels(in: Rect(x: 60, y: 45, width: 60, height: 20), differingFrom: h.ui.theme.control), 20,
                "the menu is drawn over the area")
            // The first item sits just below the pointer.
            h.click(at: Point(80, 55), build)
            XCTAssertEqual(chosen, ["Rename"])
            XCTAssertFalse(h.ui.isPopupOpen(menuName))

            // Long press with a finger opens it too.
            h.inject.finger(3, .down, at: Point(50, 40))
            h.frame(build)
            h.wait(0.6)
            h.frames(2, build)
            XCTAssertTrue(h.ui.isPopupOpen(menuName))
            h.inject.finger(3, .up, at: Point(50, 40))
            h.frames(2, build)
            XCTAssertTrue(h.ui.isPopupOpen(menuName), "lifting after a long press keeps the menu")
            XCTAssertEqual(chosen, ["Rename"])

            // A click outside closes it and still presses the button underneath.
            h.click(at: Point(30, 128), build)
            XCTAssertFalse(h.ui.isPopupOpen(menuName))
            XCTAssertEqual(clicks, 1)
        }
    }

    func testLayoutSurvivesA1x1WindowAndF12TogglesTheHUD() throws {
        try onMain {
            let h = try Harness()
            var text = "x"
            var v = 0.5
            var clicks = 0
            var rects: [String: Rect] = [:]
            let build: (UI) -> Void = { ui in
                ui.hstack {
                    ui.text("A label that is much wider than the window")
                    ui.spacer()
                    if ui.button("OK") { clicks += 1 }
                }
                rects["field"] = ui.availableRect
                ui.textField("t", text: &text)
                ui.slider("s", value: &v, in: 0...1)
                ui.scrollView("s") {
                    rects["scroll"] = ui.availableRect
                    ui.text("inside")
                }
                rects["rest"] = ui.availableRect
            }
            h.host.window.setSize(width: 1, height: 1)
            h.frames(3, build)
            XCTAssertEqual(h.ui.size, Size(1, 1))
            for (name, r) in rects {
                XCTAssertTrue(r.x.isFinite && r.y.isFinite && r.width.isFinite, "\(name): \(r)")
                XCTAssertGreaterThanOrEqual(r.width, 0, name)
                XCTAssertLessThanOrEqual(r.minX, 1, "\(name) starts inside the 1 pt window")
            }
            XCTAssertEqual(v, 0.5, "nothing was dragged")
            XCTAssertEqual(text, "x")
            // Back to a real size: the layout is whole again and the controls answer.
            h.host.window.setSize(width: 640, height: 480)
            h.frames(2, build)
            XCTAssertEqual(rects["field"]?.width, 640, "the rows span the window again")
            XCTAssertGreaterThan(rects["scroll"]?.height ?? 0, 0)
            let okInk = try XCTUnwrap(
                h.inkBounds(in: Rect(x: 560, y: 0, width: 80, height: 40), differingFrom: h.ui.theme.background))
            h.click(at: Point(okInk.midX, okInk.midY), build)
            XCTAssertEqual(clicks, 1, "the spacer pushed OK to the right edge, where it takes the click")
            XCTAssertGreaterThan(okInk.maxX, 600)

            XCTAssertFalse(h.host.showsHUD)
            h.ui.hudPlacement = .floating(x: 640 - 460 - 10, y: 10)  // the geometry below is the floating panel's
            h.inject.tap(.f12)
            h.frames(2, build)
            XCTAssertTrue(h.host.showsHUD)
            // The inspector: a bar a frame (600 across 440 px), newest at the right, stacked by
            // phase in saturated colors rising from the graph's floor (their heights are the frames'
            // times: not asserted), the 16.7 ms budget line across it in red, and white text above.
            let frames = h.host.profiler.recentFrames.count
            let graph = Rect(x: 640 - 470 + 10, y: 62, width: 440, height: 88)
            let isBar = { (c: Color) in
                Int(max(c.r, c.g, c.b)) - Int(min(c.r, c.g, c.b)) > 60 && !(c.r > 180 && c.g < 100 && c.b < 100)
            }
            let isRed = { (c: Color) in c.r > 180 && c.g < 100 && c.b < 100 }
            let isWhite = { (c: Color) in c.r > 150 && c.g > 150 && c.b > 150 }
            let floor = Rect(x: graph.x, y: graph.maxY - 2, width: graph.width, height: 2)
            let barColumns = (0..<Int(graph.width)).filter { x in
                h.countPixels(in: Rect(x: graph.x + Double(x), y: floor.y, width: 1, height: 2), where: isBar) > 0
            }
            XCTAssertEqual(
                Double(barColumns.count), Double(frames - 1) * 440 / 600, accuracy: 2, "a bar for each earlier frame")
            XCTAssertGreaterThan(barColumns.first ?? 0, Int(graph.width) - frames - 2, "at the right end of the graph")
            let budgetY = (graph.maxY - 16.7 / 33.3 * graph.height).rounded(.down)
            XCTAssertGreaterThan(
                h.countPixels(in: Rect(x: graph.x, y: budgetY - 1, width: 200, height: 3), where: isRed), 180,
                "the budget line at 16.7 ms")
            XCTAssertGreaterThan(
                h.countPixels(in: Rect(x: graph.x, y: 16, width: 200, height: 14), where: isWhite), 60,
                "the p50 / p99 text")
        }
    }

    func testAtScale2InTheDarkThemeLayoutIsLogicalAndPixelsArePhysical() throws {
        try onMain {
            var clicks = 0
            let build: (UI) -> Void = { ui in
                ui.vstack {
                    ui.text("Hello, world")
                    if ui.button("Press") { clicks += 1 }
                }
            }
            // The same UI at scale 1, for reference.
            let one = try Harness(width: 640, height: 480, theme: .dark)
            one.frames(2, build)
            let dark = Theme.dark.background
            let textAt1 = try XCTUnwrap(
                one.inkBounds(in: Rect(x: 0, y: 0, width: 640, height: 24), differingFrom: dark))

            let h = try Harness(width: 640, height: 480, scale: 2, theme: .dark)
            h.frames(2, build)
            XCTAssertEqual(h.ui.size, Size(320, 240), "layout in logical pixels")
            XCTAssertEqual(h.pixels.width, 640, "pixels read back at the window's size")
            XCTAssertEqual(h.pixels.pixel(x: 639, y: 479), dark)
            XCTAssertNotEqual(dark, Theme.light.background)
            let text = try XCTUnwrap(h.inkBounds(in: Rect(x: 0, y: 0, width: 640, height: 48), differingFrom: dark))
            XCTAssertEqual(
                text.height, textAt1.height * 2, accuracy: 2, "glyphs rasterized at twice the size, not scaled up")
            XCTAssertEqual(text.width, textAt1.width * 2, accuracy: 4)
            let brightest = h.countPixels(in: text) { Int($0.r) + Int($0.g) + Int($0.b) > 600 }
            XCTAssertGreaterThan(brightest, 40, "light text on the dark background")
            // The button is where the logical layout put it, times two; a click there presses it.
            let buttonAt1 = try XCTUnwrap(
                one.inkBounds(in: Rect(x: 0, y: textAt1.maxY + 2, width: 640, height: 40), differingFrom: dark))
            let button = try XCTUnwrap(
                h.inkBounds(in: Rect(x: 0, y: text.maxY + 4, width: 640, height: 80), differingFrom: dark))
            XCTAssertEqual(button.minY, buttonAt1.minY * 2, accuracy: 3)
            XCTAssertEqual(button.width, buttonAt1.width * 2, accuracy: 4)
            h.click(at: Point(button.midX, button.midY), build)
            XCTAssertEqual(clicks, 1)
            h.click(at: Point(button.maxX + 20, button.midY), build)
            XCTAssertEqual(clicks, 1, "right of the button (in window pixels) is outside it")
        }
    }

    func testUnusedStateIsDroppedAndIDsScopeState() throws {
        try onMain {
            let h = try Harness()
            h.ui.stateLifetimeFrames = 30
            var showSecond = true
            var one = "", two = ""
            let build: (UI) -> Void = { ui in
                ui.withID("one") { ui.textField("v", text: &one) }
                if showSecond { ui.withID("two") { ui.textField("v", text: &two) } }
            }
            h.frames(2, build)
            // Two fields with the same label in two scopes: typing into the first edits it alone.
            let firstField = try XCTUnwrap(
                h.inkBounds(in: Rect(x: 0, y: 0, width: 640, height: 40), differingFrom: h.ui.theme.background))
            h.click(at: Point(firstField.midX, firstField.midY), build)
            h.inject.text("Q")
            h.frames(2, build)
            XCTAssertEqual(one, "Q")
            XCTAssertEqual(two, "", "same label, different scope, different state")
            let withBoth = h.ui.stateCount
            showSecond = false
            h.frames(120, build)
            XCTAssertLessThan(h.ui.stateCount, withBoth, "the hidden field's state went away")
        }
    }
}
