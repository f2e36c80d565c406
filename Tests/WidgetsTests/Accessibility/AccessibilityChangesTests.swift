import XCTest
import Render2D
import Imaging
import Profiling
import DemoSupport
@testable import Widgets

/// The events between two frames' trees: only what changed, and a bounded number of them.
final class AccessibilityChangesTests: XCTestCase {
    func tree(_ nodes: [(UInt64, AccessibilityRole, String, AccessibilityStates, String?)]) -> AccessibilityTree {
        var tree = AccessibilityTree(title: "w")
        for (raw, role, name, states, text) in nodes {
            _ = tree.append(
                AccessibilityNode(
                    id: WidgetID(raw: raw), role: role, name: name, description: "", value: "", states: states,
                    actions: [], frame: .zero, text: text.map { AccessibilityText($0, caret: $0.count) }),
                parent: 0)
        }
        return tree
    }

    func testNothingChangedSendsNothing() {
        let a = tree([(1, .pushButton, "OK", [.focusable], nil), (2, .entry, "Name", [.editable], "Ada")])
        XCTAssertEqual(AccessibilityChanges.between(a, a), [])
    }

    func testFocusStatesNamesTextAndChildren() {
        let a = tree([
            (1, .pushButton, "OK", [.focusable, .focused], nil), (2, .checkBox, "Wrap", [], nil),
            (3, .entry, "Name", [], "Ada"),
        ])
        let b = tree([
            (1, .pushButton, "Done", [.focusable], nil), (2, .checkBox, "Wrap", [.checked, .focused], nil),
            (3, .entry, "Name", [], "Adam"), (4, .label, "new", [], nil),
        ])
        let changes = AccessibilityChanges.between(a, b)
        let id = { WidgetID(raw: $0) }
        XCTAssertTrue(changes.contains(.init(id: id(1), kind: .state("focused", false))))
        XCTAssertTrue(changes.contains(.init(id: id(2), kind: .state("focused", true))))
        XCTAssertTrue(changes.contains(.init(id: id(2), kind: .focus)))
        XCTAssertTrue(changes.contains(.init(id: id(2), kind: .state("checked", true))))
        XCTAssertTrue(changes.contains(.init(id: id(1), kind: .name("Done"))))
        XCTAssertTrue(changes.contains(.init(id: id(3), kind: .textInserted(3, "m"))))
        XCTAssertTrue(changes.contains(.init(id: id(3), kind: .caret(4))))
        XCTAssertTrue(changes.contains(.init(id: .root, kind: .childAdded(3, id(4)))))
        XCTAssertFalse(changes.contains { if case .textDeleted = $0.kind { true } else { false } }, "only an insert")
    }

    func testTextChangesAreTheSmallestRun() {
        let id = WidgetID(raw: 9)
        XCTAssertEqual(
            AccessibilityChanges.textChanges(id, from: "hello world", to: "hello brave world"),
            [.init(id: id, kind: .textInserted(6, "brave "))])
        XCTAssertEqual(
            AccessibilityChanges.textChanges(id, from: "abcdef", to: "abXYef"),
            [.init(id: id, kind: .textDeleted(2, "cd")), .init(id: id, kind: .textInserted(2, "XY"))])
        XCTAssertEqual(
            AccessibilityChanges.textChanges(id, from: "aaa", to: "aa"), [.init(id: id, kind: .textDeleted(2, "a"))])
    }

    func testScrollingALongListSendsABoundedNumberOfEvents() {
        let a = tree((0..<500).map { (UInt64(10 + $0), .listItem, "row \($0)", [], nil) })
        let b = tree((500..<1000).map { (UInt64(10 + $0), .listItem, "row \($0)", [], nil) })
        XCTAssertEqual(AccessibilityChanges.between(a, b).count, AccessibilityChanges.childEventLimit)
    }

    func testTextUnits() {
        let s = Array("one two\nthree".unicodeScalars)
        XCTAssertEqual(TextUnits.range(in: s, at: 5, unit: 1, shift: 0), 4..<7, "the word at 5")
        XCTAssertEqual(TextUnits.range(in: s, at: 5, unit: 1, shift: -1), 3..<4, "before it: the space")
        XCTAssertEqual(TextUnits.range(in: s, at: 2, unit: 5, shift: 0), 0..<8, "the first line, with its newline")
        XCTAssertEqual(TextUnits.range(in: s, at: 2, unit: 5, shift: 1), 8..<13, "the next line")
        XCTAssertEqual(TextUnits.range(in: s, at: 99, unit: 0, shift: 0), 13..<13, "past the end: empty")
        XCTAssertEqual(TextUnits.range(in: [], at: 0, unit: 1, shift: 0), 0..<0)
    }
}
