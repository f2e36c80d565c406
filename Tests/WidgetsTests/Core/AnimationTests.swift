import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Animations: the curves; values that move when they change, asking for frames only while
/// they do; withAnimation; transitions in and out; reduce motion.
final class AnimationTests: XCTestCase {
    func testTheCurvesStartAtZeroEndAtOneAndTheSpringOvershootsOnlyWhenUnderdamped() {
        for animation in [Animation.linear, .easeIn, .easeOut, .easeInOut, .spring] {
            XCTAssertEqual(animation.progress(at: 0), 0, accuracy: 1e-9)
            XCTAssertEqual(animation.progress(at: animation.duration), 1)
            XCTAssertTrue(animation.isFinished(at: animation.duration))
            XCTAssertFalse(animation.isFinished(at: animation.duration / 2))
            XCTAssertEqual(animation.progress(at: .nan), 1, "no time: done")
        }
        XCTAssertEqual(Animation.easeInOut.progress(at: 0.175), 0.5, accuracy: 1e-3, "symmetric")
        XCTAssertLessThan(Animation.easeIn.progress(at: 0.1), Animation.linear.progress(at: 0.1))
        XCTAssertGreaterThan(Animation.easeOut.progress(at: 0.1), Animation.linear.progress(at: 0.1))
        let bouncy = Animation.spring(response: 0.4, dampingFraction: 0.3)
        let peak = stride(from: 0.0, to: bouncy.duration, by: 0.005).map { bouncy.progress(at: $0) }.max()!
        XCTAssertGreaterThan(peak, 1.2, "an underdamped spring passes its target")
        let stiff = Animation.spring(response: 0.4, dampingFraction: 1)
        XCTAssertLessThanOrEqual(
            stride(from: 0.0, to: stiff.duration, by: 0.005).map { stiff.progress(at: $0) }.max()!, 1)
        let hostile = Animation.spring(response: .nan, dampingFraction: -3)
        XCTAssertTrue(hostile.duration.isFinite && hostile.duration <= 60, "hostile parameters: clamped")
        XCTAssertEqual(hostile.progress(at: hostile.duration), 1)
        XCTAssertEqual(Animation.linear(duration: -1).duration, 0)
    }

    func testAValueMovesWhenItChangesAndAsksForFramesOnlyUntilItArrives() throws {
        try onMain {
            let h = try Harness()
            var target = 0.0
            var shown = 0.0
            let build: (UI) -> Void = { ui in shown = ui.animation(.linear(duration: 0.5), value: target, id: "bar") }
            h.frames(2, build)
            XCTAssertNil(h.ui.redrawTime, "still: no frames asked for")
            target = 100
            h.frame(build)  // the change: one frame's step from 0 already
            XCTAssertEqual(shown, 100.0 / 30, accuracy: 0.01)
            XCTAssertNotNil(h.ui.redrawTime, "moving: the next frame is asked for")
            for _ in 0..<15 { h.frame(build) }  // 0.25 s
            XCTAssertEqual(shown, 50, accuracy: 4, "halfway after half the time")
            for _ in 0..<20 { h.frame(build) }
            XCTAssertEqual(shown, 100)
            XCTAssertNil(h.ui.redrawTime, "arrived: no more frames")
            // A change mid-way starts from where it is shown, not from where it was going.
            target = 0
            for _ in 0..<15 { h.frame(build) }
            target = 100
            h.frame(build)
            XCTAssertEqual(shown, 50, accuracy: 4)
        }
    }

    func testWithAnimationMovesWhatItChangesAndReduceMotionJumps() throws {
        try onMain {
            let h = try Harness()
            var isOn = false
            var knob = 0.0
            let build: (UI) -> Void = { ui in knob = ui.animation(nil, value: isOn ? 1.0 : 0, id: "knob") }
            h.frames(2, build)
            isOn = true
            h.frame(build)
            XCTAssertEqual(knob, 1, "no animation given, none in effect: it jumps")
            h.ui.withAnimation(.easeInOut(duration: 0.3)) { isOn = false }
            h.frame(build)
            for _ in 0..<9 { h.frame(build) }
            XCTAssertTrue(knob > 0.1 && knob < 0.9, "moving by the transaction's animation: \(knob)")
            for _ in 0..<20 { h.frame(build) }
            XCTAssertEqual(knob, 0)
            // Reduce motion: the same change jumps, and asks for no frames.
            h.ui.reducesMotion = true
            h.ui.withAnimation(.easeInOut(duration: 0.3)) { isOn = true }
            h.frame(build)
            XCTAssertEqual(knob, 1)
            XCTAssertNil(h.ui.redrawTime)
            // The built-in toggle's knob jumps too: no frame asked for after the click.
            var flag = false
            let toggle: (UI) -> Void = { ui in ui.padding(20) { ui.toggle("Flag", isOn: &flag) } }
            h.frames(2, toggle)
            try h.click(on: "Flag", toggle)
            XCTAssertTrue(flag)
            XCTAssertNil(h.ui.redrawTime, "reduce motion: the knob is already there")
        }
    }

    func testATransitionDrawsContentComingAndGoingThenNothing() throws {
        try onMain {
            let h = try Harness()
            var shows = false
            var built = 0
            let build: (UI) -> Void = { ui in
                ui.padding(20) {
                    ui.transition(
                        .move(edge: .leading).combined(with: .opacity), isPresented: shows, id: "panel",
                        animation: .linear(duration: 0.4)
                    ) {
                        built += 1
                        ui.drawList.addRect(ui.allocate(Size(200, 100)), color: .red)
                    }
                }
            }
            h.frames(2, build)
            XCTAssertEqual(built, 0, "absent: not built")
            shows = true
            h.frames(8, build)  // about a third of 0.4 s
            let red = { (c: Color) in c.r > 200 && c.g < 150 }
            let half = h.countPixels(
                in: Rect(x: 0, y: 20, width: 320, height: 100),
                where: { $0.r > 120 && $0.g < 200 && $0.b < 200 && $0.r > $0.g })
            XCTAssertGreaterThan(half, 0, "coming in")
            let ink = try XCTUnwrap(
                h.inkBounds(in: Rect(x: 0, y: 0, width: 400, height: 200), differingFrom: h.ui.theme.background))
            XCTAssertLessThan(ink.minX, 10, "slid from the leading edge, partly past it: \(ink)")
            XCTAssertFalse(red(h.pixels.pixel(x: 100, y: 70)), "and faded: not yet full red")
            h.frames(20, build)
            XCTAssertTrue(red(h.pixels.pixel(x: 100, y: 70)), "arrived")
            XCTAssertEqual(h.pixels.pixel(x: 30, y: 30), Color.red)
            XCTAssertNil(h.ui.redrawTime)
            shows = false
            h.frames(5, build)
            XCTAssertGreaterThan(
                h.countPixels(in: Rect(x: 0, y: 20, width: 320, height: 100)) { $0.r > 200 }, 0,
                "still drawn while it leaves")
            h.frames(30, build)
            let before = built
            h.frame(build)
            XCTAssertEqual(built, before, "gone: not built any more")
            XCTAssertEqual(h.countPixels(in: Rect(x: 0, y: 0, width: 400, height: 200)) { $0.r > 200 && $0.g < 100 }, 0)
        }
    }

    func testARowInsertedUnderWithAnimationFadesInAndOneInsertedWithoutItDoesNot() throws {
        try onMain {
            struct Item: Identifiable { let id: Int }
            let h = try Harness(width: 400, height: 300)
            var items = [Item(id: 1), Item(id: 2)]
            let build: (UI) -> Void = { ui in
                ui.list("items") {
                    ui.forEach(items) { ListRowContent("Row \($0.id)", icon: .starFill, iconColor: .red) }
                }
            }
            h.frames(2, build)
            let red = { (c: Color) in c.r > 200 && c.g < 110 && c.b < 110 }
            let full = h.countPixels(
                in: try XCTUnwrap(h.rect(ofText: "Row 1")).insetBy(dx: -40, dy: 0).offsetBy(dx: -20, dy: 0), where: red)
            XCTAssertGreaterThan(full, 10, "a red star")
            h.ui.withAnimation(.linear(duration: 0.5)) { items.insert(Item(id: 3), at: 1) }
            h.frames(6, build)  // 0.1 s of 0.5
            let arriving = try XCTUnwrap(h.rect(ofText: "Row 3"))
            let faint = h.countPixels(in: Rect(x: 0, y: arriving.minY, width: 60, height: arriving.height), where: red)
            XCTAssertLessThan(faint, full / 2, "the new row's star still faint: \(faint) of \(full)")
            XCTAssertNotNil(h.ui.redrawTime, "fading in: frames asked for")
            let settled = h.countPixels(
                in: Rect(x: 0, y: try XCTUnwrap(h.rect(ofText: "Row 2")).minY, width: 60, height: arriving.height),
                where: red)
            XCTAssertEqual(settled, full, accuracy: 2, "the rows already there are not faded")
            h.frames(30, build)
            XCTAssertEqual(
                h.countPixels(in: Rect(x: 0, y: arriving.minY, width: 60, height: arriving.height), where: red), full,
                accuracy: 2)
            XCTAssertNil(h.ui.redrawTime, "arrived: no more frames")
            items.append(Item(id: 4))  // no withAnimation: at once
            h.frame(build)
            let plain = try XCTUnwrap(h.rect(ofText: "Row 4"))
            XCTAssertEqual(
                h.countPixels(in: Rect(x: 0, y: plain.minY, width: 60, height: plain.height), where: red), full,
                accuracy: 2)
        }
    }

    func testTheDesktopsReduceMotionSettingIsRead() {
        XCTAssertEqual(SystemAppearance.boolean(in: "(<<false>>,)"), false)
        XCTAssertEqual(SystemAppearance.boolean(in: "(<<<true>>>,)"), true)
        XCTAssertNil(SystemAppearance.boolean(in: "(<<uint32 1>>,)"))
        XCTAssertEqual(
            SystemAppearance.animations(
                settingChanged:
                    "/org/freedesktop/portal/desktop: org.freedesktop.portal.Settings.SettingChanged ('org.gnome.desktop.interface', 'enable-animations', <false>)"
            ), false)
        XCTAssertNil(
            SystemAppearance.animations(
                settingChanged: "SettingChanged ('org.freedesktop.appearance', 'color-scheme', <uint32 1>)"))
        XCTAssertTrue(
            SystemAppearance(environment: ["TESSERA_REDUCE_MOTION": "1"], gdbus: "/nonexistent/gdbus").reducesMotion)
        XCTAssertFalse(
            SystemAppearance(environment: ["TESSERA_REDUCE_MOTION": "0"], gdbus: "/nonexistent/gdbus").reducesMotion)
        XCTAssertFalse(
            SystemAppearance(environment: [:], gdbus: "/nonexistent/gdbus").reducesMotion,
            "no portal, no variable: motion")
    }
}
