import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// searchable: a search field at the toolbar's trailing end whose suggestions drop down while
/// it has focus, taken by the arrows and Return or by a click; cleared by its button or Escape.
final class SearchFieldTests: XCTestCase {
    func testSuggestionsAreTakenByKeysAndClicksAndTheFieldClears() throws {
        try onMain {
            let h = try Harness(width: 640, height: 400)
            let cameras = ["Canon EOS R5", "Canon EOS R6", "Fujifilm X-T5", "Nikon Z8"]
            var query = ""
            let build: (UI) -> Void = { ui in
                ui.toolbar {
                    ui.text("Results for \(query)")
                } items: {
                    ui.toolbarItem(placement: .navigation) { ui.text("Photos") }
                    ui.searchable(
                        text: Binding(get: { query }, set: { query = $0 }), prompt: "Search cameras",
                        suggestions: query.isEmpty
                            ? [] : cameras.filter { $0.lowercased().contains(query.lowercased()) })
                }
            }
            h.frames(3, build)
            let field = try XCTUnwrap(h.rect(ofText: "Search cameras"), "the prompt, in the bar")
            XCTAssertGreaterThan(field.minX, 300, "at the trailing end")
            XCTAssertLessThan(field.maxY, 38)
            h.click(at: Point(field.midX, field.midY), build)
            h.type("canon", build)
            XCTAssertEqual(query, "canon")
            XCTAssertNotNil(h.rect(ofText: "Canon EOS R5"), "the suggestions drop down")
            XCTAssertNil(h.rect(ofText: "Nikon Z8"), "the app narrowed them")
            h.press(.down, build)
            h.press(.down, build)
            h.press(.returnKey, build)
            XCTAssertEqual(query, "Canon EOS R6", "↓ ↓ Return takes the second")
            XCTAssertNil(h.rect(ofText: "Canon EOS R5"), "and the list closes with the editing")

            // A click on a suggestion takes it.
            h.click(at: Point(field.midX, field.midY), build)
            h.press(.end, build)
            for _ in 0..<12 { h.press(.backspace, build) }
            h.type("x", build)
            XCTAssertEqual(query, "x")
            try h.click(on: "Fujifilm X-T5", build)
            XCTAssertEqual(query, "Fujifilm X-T5")
            XCTAssertFalse(h.ui.wantsTextInput, "done editing")

            // The clear button, then Escape while editing.
            let clear = try XCTUnwrap(h.find(.pushButton, "Clear").frame)
            h.click(at: Point(clear.midX, clear.midY), build)
            h.frame(build)
            XCTAssertEqual(query, "")
            h.type("nik", build)
            XCTAssertEqual(query, "nik", "the clear button left the field focused")
            h.press(.escape, build)
            XCTAssertEqual(query, "", "Escape empties it")
        }
    }
}
