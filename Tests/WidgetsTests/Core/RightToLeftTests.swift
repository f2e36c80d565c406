import Foundation
import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Right-to-left layouts: laid out left to right and mirrored, with the input mirrored to
/// meet it; text, images and text fields keep their orientation; right-to-left paragraphs
/// start at the right in a left-to-right layout.
final class RightToLeftTests: XCTestCase {
    func testTheLocalesLanguageSetsTheDirection() {
        for rtl in ["ar_EG", "he_IL", "fa_IR", "ur_PK", "iw"] {
            XCTAssertEqual(LayoutDirection(locale: Locale(identifier: rtl)), .rightToLeft, rtl)
        }
        for ltr in ["en_US", "de_DE", "ja_JP", "en_US_POSIX", "tr_TR"] {
            XCTAssertEqual(LayoutDirection(locale: Locale(identifier: ltr)), .leftToRight, ltr)
        }
        XCTAssertEqual(
            LayoutDirection(locale: DesktopLocale.locale(environment: ["LANG": "he_IL.UTF-8"])), .rightToLeft)
        XCTAssertEqual(LayoutDirection(environment: ["LANG": "ar_EG.UTF-8"]), .rightToLeft)
        XCTAssertEqual(
            LayoutDirection(environment: ["LANG": "ar_EG.UTF-8", "LC_MESSAGES": "en_US.UTF-8"]), .leftToRight,
            "messages first")
        XCTAssertEqual(
            LayoutDirection(environment: ["LC_ALL": "fa_IR", "LC_MESSAGES": "en_US"]), .rightToLeft, "LC_ALL before all"
        )
        XCTAssertEqual(LayoutDirection(environment: [:]), .leftToRight)
        XCTAssertEqual(LayoutDirection(environment: ["LANG": "C.UTF-8"]), .leftToRight)
    }

    func testAStackIsMirroredItsTextIsNotAndClicksMeetWhatIsDrawn() throws {
        try onMain {
            let h = try Harness(width: 400, height: 200)
            var clicked: [String] = []
            let build: (UI) -> Void = { ui in
                ui.padding(10) {
                    ui.hstack {
                        if ui.button("First") { clicked.append("First") }
                        if ui.button("Second") { clicked.append("Second") }
                    }
                }
            }
            h.frames(2, build)
            let ltrFirst = try XCTUnwrap(h.rect(ofText: "First"))
            let dark = { (c: Color) in c.r < 100 }
            let ltrInk = try XCTUnwrap(h.inkBounds(in: ltrFirst, differingFrom: h.ui.theme.control, tolerance: 100))
            let ltrStem = h.countPixels(
                in: Rect(x: ltrInk.minX, y: ltrInk.minY, width: 2, height: ltrInk.height), where: dark)
            h.ui.layoutDirection = .rightToLeft
            h.frames(2, build)
            let first = try XCTUnwrap(h.rect(ofText: "First")), second = try XCTUnwrap(h.rect(ofText: "Second"))
            XCTAssertGreaterThan(first.minX, second.maxX, "the first child at the right")
            XCTAssertEqual(
                first.maxX, 400 - ltrFirst.minX, accuracy: 2,
                "mirrored across the window (by its ink, within a side bearing)")
            let ink = try XCTUnwrap(h.inkBounds(in: first, differingFrom: h.ui.theme.control, tolerance: 100))
            XCTAssertEqual(ink.width, ltrInk.width, accuracy: 1)
            let stem = h.countPixels(in: Rect(x: ink.minX, y: ink.minY, width: 2, height: ink.height), where: dark)
            XCTAssertGreaterThan(ltrStem, 8, "the F's stem at the left")
            XCTAssertEqual(stem, ltrStem, accuracy: 2, "moved, not flipped: the F's stem still at the left")
            try h.click(on: "First", build)
            try h.click(on: "Second", build)
            XCTAssertEqual(clicked, ["First", "Second"], "a click where a button is drawn reaches it")
            // A screen reader sees the buttons where they are drawn, and its click reaches them.
            let node = try h.find(.pushButton, "First")
            XCTAssertEqual(node.frame.midX, first.midX, accuracy: 2)
            h.click(at: Point(node.frame.midX, node.frame.midY), build)
            XCTAssertEqual(clicked.last, "First")
        }
    }

    func testAnOutlinesChevronsAndArrowsAreMirrored() throws {
        try onMain {
            struct Node: Identifiable {
                let id: String
                let children: [Node]?
            }
            let h = try Harness(width: 400, height: 300)
            h.ui.layoutDirection = .rightToLeft
            let roots = [Node(id: "Pictures", children: [Node(id: "2025", children: nil)])]
            var expanded: Set<String> = []
            var selection: Set<String> = []
            let build: (UI) -> Void = { ui in
                ui.list("tree", selection: Binding(get: { selection }, set: { selection = $0 })) {
                    ui.outlineGroup(
                        roots, children: \.children, expanded: Binding(get: { expanded }, set: { expanded = $0 })
                    ) { ListRowContent($0.id) }
                }
            }
            h.frames(2, build)
            let title = try XCTUnwrap(h.rect(ofText: "Pictures"))
            XCTAssertGreaterThan(title.minX, 200, "the row reads from the right")
            let chevron = try XCTUnwrap(
                h.inkBounds(
                    in: Rect(x: title.maxX, y: title.minY, width: 400 - title.maxX, height: title.height),
                    differingFrom: h.ui.theme.surface))
            XCTAssertGreaterThan(chevron.minX, title.maxX, "the chevron at the right of the title: \(chevron)")
            try h.click(on: "Pictures", build)
            h.press(.left, build)
            XCTAssertEqual(expanded, ["Pictures"], "Left opens a branch, as Right does left to right")
            h.press(.right, build)
            XCTAssertEqual(expanded, [], "and Right closes it")
        }
    }

    func testATextFieldReadsLeftToRightInsideAMirroredLayoutAndTakesClicksWhereDrawn() throws {
        try onMain {
            let h = try Harness(width: 400, height: 200)
            h.ui.layoutDirection = .rightToLeft
            var text = "abcdef"
            let build: (UI) -> Void = { ui in ui.padding(10) { ui.textField("Name", text: &text, width: 200) } }
            h.frames(2, build)
            let drawn = try XCTUnwrap(h.rect(ofText: "abcdef"))
            XCTAssertGreaterThan(drawn.minX, 180, "the field at the right")
            // A click just after "abc" puts the caret there: typing lands between c and d.
            let third = drawn.minX + drawn.width / 2
            h.click(at: Point(third, drawn.midY), build)
            h.type("X", build)
            XCTAssertEqual(text, "abcXdef")
            h.press(.left, build)  // inside a field the arrows are not swapped
            h.type("Y", build)
            XCTAssertEqual(text, "abcYXdef")
        }
    }

    func testInAHebrewFieldLeftMovesTowardsTheEndAsItPoints() throws {
        try onMain {
            let h = try Harness(width: 400, height: 200)
            var text = "אבג"
            let build: (UI) -> Void = { ui in ui.padding(10) { ui.textField("Name", text: &text, width: 200) } }
            h.frames(2, build)
            let drawn = try XCTUnwrap(h.rect(ofText: "אבג"))
            h.click(at: Point(drawn.midX, drawn.midY), build)
            h.press(.home, build)
            h.press(.left, build)  // the paragraph reads right to left: Left goes forward
            h.type("x", build)
            XCTAssertEqual(text, "אxבג")
            h.press(.right, build)
            h.press(.right, build)
            h.type("y", build)
            XCTAssertEqual(text, "yאxבג", "Right goes back")
        }
    }

    func testARightToLeftParagraphStartsAtTheRightOfALeftToRightLayout() throws {
        try onMain {
            let h = try Harness(width: 500, height: 200)
            let build: (UI) -> Void = { ui in
                ui.frame(width: 480) {
                    ui.text("גלריית תמונות משפחתית")
                    ui.text("A family photo gallery")
                }
            }
            h.frames(2, build)
            let hebrew = try XCTUnwrap(h.rect(ofText: "גלריית תמונות משפחתית")),
                english = try XCTUnwrap(h.rect(ofText: "A family photo gallery"))
            XCTAssertEqual(hebrew.maxX, 480, accuracy: 1, "Hebrew starts at the right edge")
            XCTAssertEqual(english.minX, 0, accuracy: 1)
        }
    }
}
