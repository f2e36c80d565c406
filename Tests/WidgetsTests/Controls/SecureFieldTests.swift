import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// SecureField: what is typed is kept but shown as dots, never copied or cut out, pasted in,
/// and a screen reader hears a password field, not the password.
final class SecureFieldTests: XCTestCase {
    func testThePasswordIsMaskedNeverCopiedOutAndHiddenFromAScreenReader() throws {
        try onMain {
            let h = try Harness()
            var password = ""
            let build: (UI) -> Void = { ui in ui.padding(20) { ui.secureField("Password", text: &password, width: 220) }
            }
            h.frames(2, build)
            let field = try h.find(.passwordText, "Password")
            h.click(at: field.frame.center, build)
            h.type("s3cret", build)
            XCTAssertEqual(password, "s3cret")
            h.frame(build)
            XCTAssertTrue(h.drawnText.contains("••••••"), "six dots: \(h.drawnText)")
            XCTAssertFalse(h.drawnText.contains { $0.contains("s3cret") }, "the password is never drawn")
            XCTAssertEqual(
                try h.find(.passwordText, "Password").text?.string, "••••••", "a screen reader gets the dots")

            h.ui.clipboard.text = "before"
            h.press(Key("a"), modifiers: .control, build)
            h.press(Key("c"), modifiers: .control, build)
            XCTAssertEqual(h.ui.clipboard.text, "before", "Ctrl+C copies nothing out")
            h.press(Key("x"), modifiers: .control, build)
            XCTAssertEqual(password, "s3cret", "Ctrl+X neither copies nor deletes")
            XCTAssertEqual(h.ui.clipboard.text, "before")
            h.press(.end, build)
            h.ui.clipboard.text = "!42"
            h.press(Key("v"), modifiers: .control, build)
            XCTAssertEqual(password, "s3cret!42", "pasting in works")
            h.press(.backspace, build)
            XCTAssertEqual(password, "s3cret!4")
        }
    }
}
