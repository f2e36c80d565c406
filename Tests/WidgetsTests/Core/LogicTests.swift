import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

final class WidgetIDTests: XCTestCase {
    func testIDsDependOnPathAndDoNotCollide() {
        let a = WidgetID(parent: .root, "Name")
        XCTAssertEqual(a, WidgetID(parent: .root, "Name"), "deterministic")
        XCTAssertNotEqual(a, WidgetID(parent: WidgetID(parent: .root, "table 2"), "Name"))
        XCTAssertNotEqual(
            WidgetID(parent: WidgetID(parent: .root, "ab"), "c"), WidgetID(parent: WidgetID(parent: .root, "a"), "bc"))
        XCTAssertNotEqual(WidgetID(parent: .root, index: 1), WidgetID(parent: .root, index: 256))
        var seen = Set<WidgetID>()
        for i in 0..<100_000 {
            seen.insert(WidgetID(parent: .root, "item \(i)"))
            seen.insert(WidgetID(parent: .root, index: i))
        }
        XCTAssertEqual(seen.count, 200_000, "no collisions among 200k sibling IDs")
    }

    /// A label's ID is FNV-1a over its UTF-8 bytes and a 0xFF separator, from the parent's:
    /// the same for short (inline) strings, long ones and any script.
    func testALabelsIDIsFNV1aOfItsBytes() {
        func reference(_ parent: WidgetID, _ label: String) -> UInt64 {
            var h = parent.raw
            for byte in Array(label.utf8) + [0xFF] { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return h
        }
        let parent = WidgetID(parent: .root, index: 7)
        let labels = [
            "", "a", "Name", String(repeating: "x", count: 15), String(repeating: "y", count: 16),
            String(repeating: "long label ", count: 10), "Ünïcødé 写真 📷", "menu \(3)",
        ]
        for label in labels {
            XCTAssertEqual(WidgetID(parent: parent, label).raw, reference(parent, label), label)
        }
    }

    /// IDs hash (for dictionaries) without SipHash but spread as well: the rows of a list, by
    /// label or by index, fill the buckets of a table as random keys would, under any seed.
    func testIDsSpreadOverATablesBucketsAsRandomKeysWould() {
        let list = WidgetID(parent: .root, "files")
        let byLabel = (0..<10_000).map { WidgetID(parent: list, "row \($0)") }
        let byIndex = (0..<10_000).map { WidgetID(parent: list, index: $0) }
        // 10,000 random keys in 16,384 buckets fill about 7,430 of them.
        for ids in [byLabel, byIndex] {
            for seed in [0, 1, -7, Int.max] {
                let buckets = Set(ids.map { $0._rawHashValue(seed: seed) & 16_383 })
                XCTAssertGreaterThan(buckets.count, 7_200, "seed \(seed)")
            }
        }
        XCTAssertEqual(byLabel[42]._rawHashValue(seed: 3), WidgetID(parent: list, "row 42")._rawHashValue(seed: 3))
        var state: [WidgetID: Int] = [:]
        for (k, id) in (byLabel + byIndex).enumerated() { state[id] = k }
        XCTAssertEqual(state.count, 20_000)
        XCTAssertEqual(state[byIndex[9_999]], 19_999)
        XCTAssertEqual(state[byLabel[0]], 0)
    }
}

final class LayoutTests: XCTestCase {
    func testVerticalStackPlacesWithSpacingAndAlignment() {
        var f = LayoutFrame(
            axis: .vertical, rect: Rect(x: 10, y: 20, width: 100, height: 500), spacing: 5, alignment: .center)
        let a = f.place(Size(40, 10))
        let b = f.place(Size(60, 20))
        XCTAssertEqual(a, Rect(x: 40, y: 20, width: 40, height: 10))
        XCTAssertEqual(b, Rect(x: 30, y: 35, width: 60, height: 20))
        XCTAssertEqual(f.measuredSize, Size(80, 35))
        var t = LayoutFrame(
            axis: .vertical, rect: Rect(x: 0, y: 0, width: 100, height: 100), spacing: 0, alignment: .end)
        XCTAssertEqual(t.place(Size(30, 10)).x, 70)
        var fill = LayoutFrame(
            axis: .vertical, rect: Rect(x: 0, y: 0, width: 100, height: 100), spacing: 0, alignment: .fill)
        XCTAssertEqual(fill.place(Size(30, 10)).width, 100)
    }

    func testFlexibleChildrenShareWhatFixedOnesLeftLastFrame() {
        var memo = StackMemo()
        var placed: [(left: Rect, gap: Rect, right: Rect)] = []
        for _ in 0..<2 {
            var f = LayoutFrame(
                axis: .horizontal, rect: Rect(x: 0, y: 0, width: 300, height: 30), spacing: 10,
                alignment: .center, memo: memo)
            placed.append((f.place(Size(50, 20)), f.place(Size(0, 0), flexibleMain: true), f.place(Size(50, 20))))
            memo = f.measured
        }
        XCTAssertEqual(memo.flexCount, 1)
        XCTAssertEqual(memo.fixedExtent, 120, "two 50 pt children and two 10 pt gaps")
        // The second frame knows what the fixed children took: the spacer gets the rest.
        XCTAssertEqual(placed[1].left.x, 0)
        XCTAssertEqual(placed[1].gap.width, 180)
        XCTAssertEqual(placed[1].right.maxX, 300, "after one frame the spacer pushes the button to the edge")
    }

    func testHorizontalStackCentersOnRowHeightAndInfiniteMainAxisHasNoFlex() {
        var f = LayoutFrame(
            axis: .horizontal, rect: Rect(x: 0, y: 0, width: 300, height: 1000), spacing: 0,
            alignment: .center, memo: StackMemo(main: 0, cross: 30, fixedExtent: 0, flexCount: 0))
        XCTAssertEqual(f.place(Size(10, 10)).y, 10, "centred in last frame's 30 px row, not the 1000 px available")
        var v = LayoutFrame(
            axis: .vertical, rect: Rect(x: 0, y: 0, width: 100, height: .infinity), spacing: 0,
            alignment: .start, memo: StackMemo(main: 0, cross: 0, fixedExtent: 10, flexCount: 1))
        XCTAssertEqual(
            v.place(Size(0, 4), flexibleMain: true).height, 4, "inside a scroll view a spacer keeps its minimum")
    }
}

final class KineticScrollerTests: XCTestCase {
    func testFlickVelocityDecaysToRest() {
        var k = KineticScroller()
        var t = 0.0
        for _ in 0..<6 {
            k.addSample(delta: Point(0, 20), time: t)
            t += 1.0 / 60
        }
        k.release(time: t)
        XCTAssertEqual(k.velocity.y, 1200, accuracy: 200, "20 px per 1/60 s ≈ 1200 px/s")
        var total = 0.0, last = Double.infinity, frames = 0
        while k.isMoving && frames < 10_000 {
            let d = k.step(dt: 1.0 / 60).y
            XCTAssertLessThanOrEqual(d, last, "monotonic deceleration")
            last = d
            total += d
            frames += 1
        }
        XCTAssertFalse(k.isMoving)
        XCTAssertLessThan(frames, 300, "comes to rest within five seconds")
        let v0 = 1200.0, ideal = v0 / (-log(0.998) * 1000)
        XCTAssertEqual(total, ideal, accuracy: ideal * 0.25, "travel matches the exponential decay integral")
    }

    func testSlowDragOrPauseBeforeReleaseHasNoMomentum() {
        var slow = KineticScroller()
        for i in 0..<6 { slow.addSample(delta: Point(0, 0.1), time: Double(i) / 60) }
        slow.release(time: 0.1)
        XCTAssertFalse(slow.isMoving)
        var paused = KineticScroller()
        for i in 0..<6 { paused.addSample(delta: Point(0, 30), time: Double(i) / 60) }
        paused.release(time: 1.0)
        XCTAssertFalse(paused.isMoving, "a finger that rested before lifting does not fling")
    }
}

final class InputStateTests: XCTestCase {
    func testPressAndReleaseInOneFrameAreSpreadOverTwo() {
        var s = InputState()
        s.beginFrame(
            events: [
                .mouseButton(.left, isDown: true, at: Point(5, 5)), .mouseButton(.left, isDown: false, at: Point(5, 5)),
            ], time: 0)
        XCTAssertTrue(s.pointer.pressed)
        XCTAssertFalse(s.pointer.released)
        s.beginFrame(events: [], time: 0.016)
        XCTAssertTrue(s.pointer.released)
        XCTAssertFalse(s.pointer.isDown)
    }

    func testDoubleClickCountsWithinIntervalAndDistance() {
        var s = InputState()
        let p = Point(10, 10)
        for (i, t) in [0.0, 0.1, 0.2, 0.3].enumerated() {
            s.beginFrame(events: [.mouseButton(.left, isDown: i % 2 == 0, at: p)], time: t)
        }
        XCTAssertEqual(s.pointer.clickCount, 2)
        s.beginFrame(events: [.mouseButton(.left, isDown: true, at: p)], time: 2)
        XCTAssertEqual(s.pointer.clickCount, 1, "too late for a double click")
    }

    func testTouchTapLongPressAndDrag() {
        var s = InputState()
        s.beginFrame(events: [.finger(id: 1, phase: .down, at: Point(50, 50))], time: 0)
        XCTAssertEqual(s.pointer.kind, .touch)
        s.beginFrame(events: [.finger(id: 1, phase: .up, at: Point(51, 50))], time: 0.1)
        XCTAssertTrue(s.pointer.wasTap)
        s.beginFrame(events: [], time: 0.2)
        XCTAssertEqual(s.pointer.position, Pointer.nowhere, "a lifted finger hovers nothing")

        s.beginFrame(events: [.finger(id: 2, phase: .down, at: Point(50, 50))], time: 1)
        s.beginFrame(events: [], time: 1.3)
        XCTAssertFalse(s.pointer.secondaryPressed)
        s.beginFrame(events: [], time: 1.6)
        XCTAssertTrue(s.pointer.secondaryPressed, "held 0.5 s: long press")
        s.beginFrame(events: [.finger(id: 2, phase: .up, at: Point(50, 50))], time: 1.7)
        XCTAssertFalse(s.pointer.wasTap, "a long press is not also a tap")

        s.beginFrame(events: [.finger(id: 3, phase: .down, at: Point(50, 50))], time: 3)
        s.beginFrame(events: [.finger(id: 3, phase: .moved, at: Point(50, 90))], time: 3.02)
        XCTAssertTrue(s.pointer.isDragging)
        XCTAssertEqual(s.pointer.delta, Point(0, 40))
        XCTAssertEqual(s.fingers.count, 1)
        s.beginFrame(events: [.finger(id: 3, phase: .up, at: Point(50, 90))], time: 3.1)
        XCTAssertFalse(s.pointer.wasTap)
    }

    func testSecondFingerDoesNotMoveThePrimaryPointer() {
        var s = InputState()
        s.beginFrame(events: [.finger(id: 1, phase: .down, at: Point(10, 10))], time: 0)
        s.beginFrame(
            events: [
                .finger(id: 2, phase: .down, at: Point(200, 200)), .finger(id: 2, phase: .moved, at: Point(220, 200)),
            ], time: 0.02)
        XCTAssertEqual(s.pointer.position, Point(10, 10))
        XCTAssertEqual(s.fingers.count, 2)
    }
}

final class TextEditingTests: XCTestCase {
    @MainActor private static func press(
        _ key: Key, _ mods: KeyModifiers = [], _ text: inout [Unicode.Scalar], _ s: inout TextEditState,
        _ clip: Clipboard
    ) {
        _ = TextEditing.apply(
            KeyPress(key: key, modifiers: mods, isRepeat: false), to: &text, state: &s, clipboard: clip)
    }

    func testInsertDeleteSelectCopyPaste() {
        onMain {
            let clip = MemoryClipboard()
            var text = Array("hello world".unicodeScalars)
            var s = TextEditState()
            s.caret = text.count
            s.anchor = s.caret
            Self.press(.backspace, [], &text, &s, clip)
            XCTAssertEqual(String(String.UnicodeScalarView(text)), "hello worl")
            Self.press(.backspace, .control, &text, &s, clip)
            XCTAssertEqual(String(String.UnicodeScalarView(text)), "hello ")
            Self.press(.left, .control, &text, &s, clip)
            XCTAssertEqual(s.caret, 0)
            Self.press(.right, .shift, &text, &s, clip)
            Self.press(.right, .shift, &text, &s, clip)
            XCTAssertEqual(s.selection, 0..<2)
            Self.press(Key("c"), .control, &text, &s, clip)
            XCTAssertEqual(clip.text, "he")
            Self.press(.end, [], &text, &s, clip)
            Self.press(Key("v"), .control, &text, &s, clip)
            XCTAssertEqual(String(String.UnicodeScalarView(text)), "hello he")
            Self.press(Key("a"), .control, &text, &s, clip)
            _ = TextEditing.insert("é写", into: &text, state: &s)
            XCTAssertEqual(String(String.UnicodeScalarView(text)), "é写")
            XCTAssertEqual(s.caret, 2)
            Self.press(.delete, [], &text, &s, clip)
            XCTAssertEqual(text.count, 2, "delete at the end does nothing")
        }
    }

    private static func string(_ scalars: [Unicode.Scalar]) -> String { String(String.UnicodeScalarView(scalars)) }

    func testTheCaretAndDeletionStepOverWholeGraphemeClusters() {
        onMain {
            let clip = MemoryClipboard()
            // "é" as e + combining acute, a family emoji of five scalars (ZWJ), CJK, a flag (two regional indicators).
            var text = Array("e\u{301}👩\u{200D}👩\u{200D}👧写🇫🇷".unicodeScalars)
            var s = TextEditState()
            s.caret = text.count
            s.anchor = s.caret
            Self.press(.backspace, [], &text, &s, clip)
            XCTAssertEqual(Self.string(text), "e\u{301}👩\u{200D}👩\u{200D}👧写", "the flag goes whole")
            Self.press(.left, [], &text, &s, clip)
            XCTAssertEqual(s.caret, 7, "left steps over 写 to the end of the family")
            Self.press(.left, [], &text, &s, clip)
            XCTAssertEqual(s.caret, 2, "and over the five scalars of the family at once")
            Self.press(.backspace, [], &text, &s, clip)
            XCTAssertEqual(Self.string(text), "👩\u{200D}👩\u{200D}👧写", "backspace takes the accent with its letter")
            XCTAssertEqual(s.caret, 0)
            Self.press(.delete, [], &text, &s, clip)
            XCTAssertEqual(Self.string(text), "写", "delete takes the whole family")
            XCTAssertEqual(
                TextEditing.snapToCluster(Array("a👩\u{200D}👧".unicodeScalars), 2), 1,
                "a click inside a cluster lands on its edge")

            var words = Array("cafe\u{301} noir".unicodeScalars)
            var w = TextEditState()
            w.caret = words.count
            w.anchor = w.caret
            Self.press(.left, .control, &words, &w, clip)
            XCTAssertEqual(w.caret, 6)
            Self.press(.left, .control, &words, &w, clip)
            XCTAssertEqual(w.caret, 0, "a combining accent does not split the word")
        }
    }

    func testUndoAndRedoTakeTypingAWordAtATime() {
        onMain {
            let clip = MemoryClipboard()
            var text: [Unicode.Scalar] = []
            var s = TextEditState()
            for c in "hello world" { _ = TextEditing.insert(String(c), into: &text, state: &s) }
            Self.press(Key("z"), .control, &text, &s, clip)
            XCTAssertEqual(Self.string(text), "hello ", "one step per word")
            Self.press(Key("z"), .control, &text, &s, clip)
            XCTAssertEqual(Self.string(text), "")
            Self.press(Key("z"), .control, &text, &s, clip)
            XCTAssertEqual(Self.string(text), "", "nothing more to undo")
            Self.press(Key("z"), [.control, .shift], &text, &s, clip)
            XCTAssertEqual(Self.string(text), "hello ")
            Self.press(Key("y"), .control, &text, &s, clip)
            XCTAssertEqual(Self.string(text), "hello world")
            XCTAssertEqual(s.caret, 11)
            for _ in 0..<3 { Self.press(.backspace, [], &text, &s, clip) }
            Self.press(.left, [], &text, &s, clip)
            Self.press(.backspace, [], &text, &s, clip)
            XCTAssertEqual(Self.string(text), "hello o")
            Self.press(Key("z"), .control, &text, &s, clip)
            XCTAssertEqual(Self.string(text), "hello wo", "a caret move ends a run of deletions")
            Self.press(Key("z"), .control, &text, &s, clip)
            XCTAssertEqual(Self.string(text), "hello world", "the three backspaces were one step")
            _ = TextEditing.insert("!", into: &text, state: &s)
            Self.press(Key("y"), .control, &text, &s, clip)
            XCTAssertEqual(Self.string(text), "hello world!", "a new edit drops the redo history")
        }
    }

    func testTheInputMethodsCaretIsKept() {
        var s = InputState()
        s.beginFrame(events: [.composition("にほん", cursor: 1)], time: 0)
        XCTAssertEqual(s.composition, "にほん")
        XCTAssertEqual(s.compositionCursor, 1)
        s.beginFrame(events: [.text("日本")], time: 0.02)
        XCTAssertEqual(s.compositionCursor, 0)
    }

    func testSliderMath() {
        onMain {
            XCTAssertEqual(SliderMath.value(atX: 150, minX: 100, maxX: 200, range: 0...10, step: nil), 5)
            XCTAssertEqual(SliderMath.value(atX: 152, minX: 100, maxX: 200, range: 0...10, step: 1), 5)
            XCTAssertEqual(SliderMath.value(atX: 999, minX: 100, maxX: 200, range: 0...10, step: nil), 10)
            XCTAssertEqual(SliderMath.fraction(of: .nan, in: 0...1), 0)
            XCTAssertEqual(SliderMath.fraction(of: 5, in: 0...1), 1)
        }
    }
}
