import TesseraTesting
import Widgets
import XCTest

// The "Testing your UI" article's example, as it is shown there (see ArticleSnippets.swift).

// snippet: greeter-tests
final class GreeterTests: XCTestCase {
    func testTypingANameAndClickingGreetGreetsByName() throws {
        try onMain {
            let h = try Harness(width: 640, height: 480)
            let greeter = Greeter()
            h.frame(greeter.body)

            try h.click(on: "Your name", greeter.body)  // focus the field by its placeholder
            h.type("Ada", greeter.body)
            try h.click(on: "Greet", greeter.body)

            XCTAssertEqual(greeter.greetings, 1)
            XCTAssertNotNil(h.rect(ofText: "Hello, Ada! (1)"))
        }
    }

    func testTheButtonIsDrawnInTheAccentColor() throws {
        try onMain {
            let h = try Harness()
            let greeter = Greeter()
            h.frame(greeter.body)
            let button = try XCTUnwrap(h.rect(ofText: "Greet")).insetBy(dx: -8, dy: 0)
            let accent = h.ui.theme.accent
            XCTAssertGreaterThan(h.countPixels(in: button) { $0 == accent }, 50)
        }
    }
}
// end snippet

// snippet: scoped-finders
@MainActor
final class SalesReport {
    struct Sale: Identifiable {
        var id: Int
        var region: String
        var amount: Double
    }
    var sales = (0..<40).map {
        Sale(id: $0, region: ["North", "South", "East"][$0 % 3], amount: Double($0 * 37 % 101))
    }
    var order = [KeyComparator(\Sale.region, id: "region")]
    var chartBy = "region"

    func body(_ ui: UI) {
        ui.vstack {
            ui.picker(
                "Chart by", selection: &chartBy, options: [("region", "region"), ("amount", "amount")], style: .menu)
            ui.table("sales", rows: sales, sortOrder: Binding(self, \.order)) {
                TableColumn("region", value: \Sale.region)
                TableColumn("amount", value: \Sale.amount) { String(format: "%.0f", $0.amount) }
            }
        }
    }
}

final class SalesReportTests: XCTestCase {
    func testThePickersAmountAndTheColumnsAmountAreTwoTargets() throws {
        try onMain {
            let h = try Harness()
            let report = SalesReport()
            h.frame(report.body)

            // "region" is both the picker's title and a header: the picker is above the table.
            let table = try XCTUnwrap(h.rect(ofText: "region", in: .tableHeader("sales")))
            try h.click(on: "region", in: .rect(Rect(x: 0, y: 0, width: 640, height: table.minY)), report.body)
            try h.click(on: "amount", in: .popup, report.body)  // the menu's item
            XCTAssertEqual(report.chartBy, "amount")
            XCTAssertEqual(report.order.first?.id, "region", "the table was not touched")

            try h.click(on: "amount", in: .tableHeader("sales"), report.body)  // the column's header
            XCTAssertEqual(report.order.first?.id, "amount")
            XCTAssertNil(h.rect(ofText: "amount", in: .popup), "no menu is open")
            XCTAssertNil(h.rect(ofText: "amount", in: .tableHeader("other")), "no table of that name")
        }
    }
}
// end snippet
