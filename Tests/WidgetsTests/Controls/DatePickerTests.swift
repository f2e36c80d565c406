import Foundation
import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// DatePicker: the calendar popover starts weeks on the locale's first weekday, moves by keys
/// and picks by Return, click or tap; the time by steppers; a range bounds both.
final class DatePickerTests: XCTestCase {
    private static func calendar(_ locale: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = Locale(identifier: locale)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    private static func date(_ calendar: Calendar, _ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0) -> Date {
        calendar.date(from: DateComponents(year: y, month: m, day: d, hour: h, minute: min))!
    }

    func testTheMonthsWeeksStartOnTheLocalesFirstWeekday() {
        let us = Self.calendar("en_US"), de = Self.calendar("de_DE")
        // November 2026 starts on a Sunday.
        let american = MonthGrid(showing: Self.date(us, 2026, 11, 19), calendar: us)
        XCTAssertEqual(american.days[0], Self.date(us, 2026, 11, 1), "Sunday first: the 1st opens the grid")
        XCTAssertEqual(american.weekdaySymbols.first, "Sun")
        let german = MonthGrid(showing: Self.date(de, 2026, 11, 19), calendar: de)
        XCTAssertEqual(
            german.days[0], Self.date(de, 2026, 10, 26), "Monday first: the 1st is the last of the first row")
        XCTAssertEqual(german.days[6], Self.date(de, 2026, 11, 1))
        XCTAssertEqual(german.weekdaySymbols.first, "Mo")
        XCTAssertEqual(german.days.count, 42)
        XCTAssertFalse(german.isInMonth(german.days[0]))
        XCTAssertTrue(german.isInMonth(german.days[6]))
        XCTAssertEqual(
            DesktopLocale.calendar(locale: DesktopLocale.locale(environment: ["LANG": "de_DE.UTF-8"])).firstWeekday, 2)
        XCTAssertEqual(
            DesktopLocale.calendar(
                locale: DesktopLocale.locale(environment: ["LANG": "en_US.UTF-8", "LC_TIME": "en_GB.UTF-8"])
            ).firstWeekday, 2,
            "LC_TIME before LANG")
        XCTAssertEqual(
            DesktopLocale.calendar(
                locale: DesktopLocale.locale(environment: ["LC_ALL": "en_US.UTF-8", "LC_TIME": "de_DE"])
            ).firstWeekday, 1,
            "LC_ALL before both")
        XCTAssertEqual(DesktopLocale.locale(environment: ["LANG": "C"]).identifier, "en_US_POSIX")
        XCTAssertEqual(
            DesktopLocale.locale(environment: ["LANG": "../../etc/passwd"]).identifier, "en_US_POSIX",
            "not a locale name")
    }

    func testTheCalendarPicksByKeysAndClicksAndTheTimeBySteppersWithinTheRange() throws {
        try onMain {
            let h = try Harness(width: 640, height: 480)
            let calendar = Self.calendar("de_DE")
            var taken = Self.date(calendar, 2026, 11, 19, 14, 30)
            let range = Self.date(calendar, 2026, 1, 1)...Self.date(calendar, 2026, 12, 31, 23, 59)
            let build: (UI) -> Void = { ui in
                ui.padding(20) {
                    ui.datePicker(
                        "Taken", selection: Binding(get: { taken }, set: { taken = $0 }), in: range, calendar: calendar)
                }
            }
            h.ui.isAccessibilityEnabled = true
            h.frames(2, build)
            let dateButton = try h.findAll(.comboBox, "Taken").first.unwrap()
            XCTAssertEqual(dateButton.value, "19.11.2026", "in the locale's format")
            XCTAssertEqual(h.findAll(.comboBox, "Taken").last?.value, "14:30")
            h.click(at: Point(dateButton.frame.midX, dateButton.frame.midY), build)
            h.frame(build)
            XCTAssertNotNil(h.rect(ofText: "November 2026", in: .popup))
            let monday = try XCTUnwrap(h.rect(ofText: "Mo", in: .popup)),
                sunday = try XCTUnwrap(h.rect(ofText: "So", in: .popup))
            XCTAssertLessThan(monday.minX, sunday.minX, "Monday's column first")

            // → → ↓ Return: 19 + 2 + 7 = the 28th, at the same time of day.
            h.press(.right, build)
            h.press(.right, build)
            h.press(.down, build)
            h.press(.returnKey, build)
            XCTAssertEqual(taken, Self.date(calendar, 2026, 11, 28, 14, 30))
            XCTAssertFalse(h.ui.hasOpenPopup, "picking closes it")

            // Page Down to December, a click on the 24th.
            h.click(at: Point(dateButton.frame.midX, dateButton.frame.midY), build)
            h.frame(build)
            h.press(.pageDown, build)
            XCTAssertNotNil(h.rect(ofText: "Dezember 2026", in: .popup))
            let day = try h.find(.pushButton, "Donnerstag, 24. Dezember 2026")
            h.click(at: Point(day.frame.midX, day.frame.midY), build)
            h.frame(build)
            XCTAssertEqual(taken, Self.date(calendar, 2026, 12, 24, 14, 30))
            // Past the range: January 2027's days cannot be picked.
            h.click(at: Point(dateButton.frame.midX, dateButton.frame.midY), build)
            h.frame(build)
            h.press(.pageDown, build)
            let outside = try h.find(.pushButton, "Freitag, 1. Januar 2027")
            XCTAssertFalse(outside.states.contains(.enabled))
            h.click(at: Point(outside.frame.midX, outside.frame.midY), build)
            h.frame(build)
            XCTAssertEqual(taken, Self.date(calendar, 2026, 12, 24, 14, 30), "outside the range: nothing")
            h.press(.escape, build)
            XCTAssertFalse(h.ui.hasOpenPopup)

            // The time: the hour stepper's + twice.
            let timeButton = try h.findAll(.comboBox, "Taken").last.unwrap()
            h.click(at: Point(timeButton.frame.midX, timeButton.frame.midY), build)
            h.frame(build)
            let hour = try h.find(.spinButton, "Hour: 14")
            for _ in 0..<2 {
                h.click(at: Point(hour.frame.maxX - hour.frame.width / 4, hour.frame.midY), build)
            }
            h.frame(build)
            XCTAssertEqual(taken, Self.date(calendar, 2026, 12, 24, 16, 30))
        }
    }

    func testDatesAtTheEdgesOfTimeOpenAndMoveWithoutATrap() throws {
        try onMain {
            let h = try Harness(width: 640, height: 480)
            let calendar = Self.calendar("en_US")
            for edge in [
                Date.distantPast, Date.distantFuture, Date(timeIntervalSince1970: 1e15),
                Date(timeIntervalSince1970: -1e15),
                Date(timeIntervalSince1970: .nan),
            ] {
                var day = edge
                let range = Date.distantPast...Date.distantFuture
                let build: (UI) -> Void = { ui in
                    ui.padding(20) {
                        ui.datePicker(
                            "Edge", selection: Binding(get: { day }, set: { day = $0 }), in: range, calendar: calendar)
                    }
                }
                h.frames(2, build)
                let button = try XCTUnwrap(h.findAll(.comboBox, "Edge").first)
                h.click(at: Point(button.frame.midX, button.frame.midY), build)
                h.frame(build)
                for key in [Key.pageDown, .pageDown, .right, .down, .pageUp, .returnKey] { h.press(key, build) }
                h.press(.escape, build)
                XCTAssertFalse(h.ui.hasOpenPopup, "\(edge)")
            }
        }
    }

    func testATapOnADayPicksIt() throws {
        try onMain {
            let h = try Harness(width: 640, height: 480)
            let calendar = Self.calendar("en_US")
            var day = Self.date(calendar, 2026, 2, 10, 9, 0)
            let build: (UI) -> Void = { ui in
                ui.padding(20) {
                    ui.datePicker(
                        "Due", selection: Binding(get: { day }, set: { day = $0 }), displayedComponents: .date,
                        calendar: calendar)
                }
            }
            h.ui.isAccessibilityEnabled = true
            h.frames(2, build)
            XCTAssertEqual(h.findAll(.comboBox, "Due").count, 1, "the date alone")
            let button = try h.find(.comboBox, "Due")
            h.click(at: Point(button.frame.midX, button.frame.midY), build)
            h.frame(build)
            let target = try h.find(.pushButton, "Friday, February 20, 2026")
            h.inject.finger(1, .down, at: Point(target.frame.midX, target.frame.midY))
            h.frame(build)
            h.inject.finger(1, .up, at: Point(target.frame.midX, target.frame.midY))
            h.frames(2, build)
            XCTAssertEqual(day, Self.date(calendar, 2026, 2, 20, 9, 0))
        }
    }
}

private extension Optional {
    func unwrap(file: StaticString = #filePath, line: UInt = #line) throws -> Wrapped {
        try XCTUnwrap(self, file: file, line: line)
    }
}
