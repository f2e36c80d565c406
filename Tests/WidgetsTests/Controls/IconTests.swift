import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Material Icons by name, drawn through the glyph atlas like text; the built-ins by theirs.
final class IconTests: XCTestCase {
    func testNamesResolveToTheFontsIconsAndNothingElse() throws {
        try onMain {
            let icons = try IconFont()
            XCTAssertEqual(icons.scalar(named: "description")?.value, 0xE873)
            XCTAssertEqual(icons.scalar(named: "folder_open")?.value, 0xE2C8)
            XCTAssertEqual(icons.scalar(named: "content_copy")?.value, 0xE14D)
            for name in [
                "", "a", "no_such_icon", "Description", "description ", "descr\u{0}iption",
                String(repeating: "a", count: 5000),
            ] {
                XCTAssertNil(icons.scalar(named: name), "\"\(name.prefix(20))\" is no icon")
            }
            XCTAssertThrowsError(try IconFont(path: "/nonexistent/icons.ttf"))
        }
    }

    /// Names asked for again, more of them than the font remembers as recent, and in turns,
    /// keep their characters (and a name that is no icon stays none).
    func testNamesAskedAgainInTurnsKeepTheirCharacters() throws {
        try onMain {
            let icons = try IconFont()
            let names = [
                "star", "star_border", "folder", "photo", "delete", "no_such_icon", "menu", "search", "close",
                "add", "remove", "check", "description",
            ]
            let first = names.map { icons.scalar(named: $0) }
            XCTAssertNil(first[5])
            XCTAssertEqual(first.compactMap { $0 }.count, names.count - 1)
            for round in 0..<3 {
                for (k, name) in names.enumerated() where k % (round + 1) == 0 || round == 2 {
                    XCTAssertEqual(icons.scalar(named: name), first[k], "\(name), round \(round)")
                    XCTAssertEqual(icons.scalar(named: name), first[k], "\(name) again, round \(round)")
                }
            }
        }
    }

    func testANamedIconDrawsItsGlyphInTheTextColorAtEveryScale() throws {
        try onMain {
            for scale in [1.0, 2.0] {
                let h = try Harness(width: 400, height: 200, scale: scale)
                let rect = Rect(x: 20, y: 20, width: 48, height: 48)
                h.frames(2) { ui in ui.drawIcon(Icon(named: "description"), in: rect, color: Color(hex: 0xD03030)) }
                let window = Rect(
                    x: rect.x * scale, y: rect.y * scale, width: rect.width * scale, height: rect.height * scale)
                let ink = try XCTUnwrap(
                    h.inkBounds(in: window.insetBy(dx: -8, dy: -8), differingFrom: h.ui.theme.background))
                // Material's "description" is a page: about 2/3 of the em square wide, 5/6 tall, centred.
                XCTAssertEqual(ink.width / window.width, 0.67, accuracy: 0.08, "scale \(scale): \(ink) in \(window)")
                XCTAssertEqual(ink.height / window.height, 0.83, accuracy: 0.08, "scale \(scale): \(ink) in \(window)")
                XCTAssertEqual(ink.midX, window.midX, accuracy: 2 * scale)
                XCTAssertEqual(ink.midY, window.midY, accuracy: 2 * scale)
                let red = h.countPixels(in: window) { $0.r > 180 && $0.g < 90 && $0.b < 90 }
                XCTAssertGreaterThan(red, Int(window.width * window.height * 0.2), "filled in the color asked for")
                // Not a box: the page's folded corner leaves its top-right empty.
                let corner = Rect(
                    x: ink.maxX - ink.width * 0.2, y: ink.minY, width: ink.width * 0.2, height: ink.height * 0.15)
                XCTAssertEqual(h.countPixels(in: corner) { $0.r > 180 && $0.g < 90 }, 0, "the folded corner")
            }
        }
    }

    func testAnUnknownNameDrawsABoxAndTheBuiltInsKeepTheirNames() throws {
        try onMain {
            let h = try Harness(width: 300, height: 200)
            h.frames(2) { ui in
                ui.label("notes.txt", icon: Icon(named: "description"))
                ui.drawIcon(Icon(named: "no_such_icon"), in: Rect(x: 20, y: 100, width: 40, height: 40), color: .black)
            }
            XCTAssertNotNil(
                h.inkBounds(in: Rect(x: 20, y: 100, width: 40, height: 40), differingFrom: h.ui.theme.background))
            let text = try XCTUnwrap(h.rect(ofText: "notes.txt"))
            XCTAssertNotNil(
                h.inkBounds(
                    in: Rect(x: 0, y: text.minY, width: text.minX, height: text.height),
                    differingFrom: h.ui.theme.background),
                "the label's icon is drawn before its title")
            XCTAssertEqual(Icon.builtIn.count, 15)
            XCTAssertEqual(Icon.starFill.name, "starFill")
            XCTAssertEqual(Icon(named: "delete").name, "delete")
            XCTAssertNotEqual(
                Icon(named: "folder"), Icon.folder, "a Material name is Material's, the built-in is a static member")
        }
    }
}
