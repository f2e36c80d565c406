import TesseraTesting
import Widgets
import XCTest

// The "Testing your UI" article's example, as it is shown there (see ArticleSnippets.swift).

// snippet: greeter-tests
final class GreeterTests: XCTestCase {
    func testTypingANameAndClickingGreetGreetsByName() throws { try onMain {
        let h = try Harness(width: 640, height: 480)
        let greeter = Greeter()
        h.frame(greeter.body)

        try h.click(on: "Your name", greeter.body)      // focus the field by its placeholder
        h.type("Ada", greeter.body)
        try h.click(on: "Greet", greeter.body)

        XCTAssertEqual(greeter.greetings, 1)
        XCTAssertNotNil(h.rect(ofText: "Hello, Ada! (1)"))
    } }

    func testTheButtonIsDrawnInTheAccentColor() throws { try onMain {
        let h = try Harness()
        let greeter = Greeter()
        h.frame(greeter.body)
        let button = try XCTUnwrap(h.rect(ofText: "Greet")).insetBy(dx: -8, dy: 0)
        let accent = h.ui.theme.accent
        XCTAssertGreaterThan(h.countPixels(in: button) { $0 == accent }, 50)
    } }
}
// end snippet
