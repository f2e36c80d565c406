import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// The date rail: positions stand for item numbers; a drag, a click on a label, a finger or a
/// key jumps the grid there in the same frame.
final class ScrubberTests: XCTestCase {
    func testPositionsStandForItemsAndLabelsNeverOverlapYearsFirst() {
        let rail = ScrubberLayout(count: 100_001, length: 600)
        XCTAssertEqual(rail.item(atPosition: 300), 50_000)
        XCTAssertEqual(rail.position(ofItem: 25_000), 150)
        XCTAssertEqual(rail.item(atPosition: -20), 0)
        XCTAssertEqual(rail.item(atPosition: 9_000), 100_000)
        XCTAssertEqual(rail.item(atPosition: .nan), 0)
        for item in stride(from: 0, to: 100_001, by: 1_234) {
            XCTAssertEqual(rail.item(atPosition: rail.position(ofItem: item)), item, "round trip")
        }
        XCTAssertEqual(ScrubberLayout(count: 1, length: 600).position(ofItem: 0), 0)

        // Five years of months, one month holding most photos: it takes most of the rail.
        var marks: [ScrubberMark] = []
        var item = 0
        for month in 0..<60 {
            marks.append(
                ScrubberMark(
                    item: item, label: month % 12 == 0 ? "\(2019 + month / 12)" : "m\(month)", isMajor: month % 12 == 0)
            )
            item += month == 30 ? 50_000 : 800
        }
        let layout = ScrubberLayout(count: item, length: 600)
        let shown = layout.labelled(marks, spacing: 16)
        XCTAssertEqual(shown.filter(\.isMajor).count, 5, "every year is labelled")
        let ys = shown.map { layout.position(ofItem: $0.item) }
        XCTAssertEqual(ys, ys.sorted())
        XCTAssertTrue(zip(ys, ys.dropFirst()).allSatisfy { $1 - $0 >= 16 }, "no two labels closer than the spacing")
        XCTAssertEqual(
            layout.position(ofItem: marks[31].item) - layout.position(ofItem: marks[30].item),
            600 * 50_000 / Double(item - 1),
            accuracy: 0.01, "the big month's stretch is in proportion to its photos")
    }

    /// 100,000 items in 60 monthly sections beside a 60-point rail.
    private static let counts = (0..<60).map { 1_000 + ($0 * 7_919) % 2_300 }

    @MainActor
    private static func scene(_ h: Harness, info: @escaping (LazyGridInfo) -> Void) -> (UI) -> Void {
        var marks: [ScrubberMark] = []
        var item = 0
        for (month, count) in counts.enumerated() {
            marks.append(
                ScrubberMark(
                    item: item, label: month % 12 == 0 ? "\(2019 + month / 12)" : "M\(month % 12 + 1)",
                    title: "month \(month)", isMajor: month % 12 == 0))
            item += count
        }
        var last: LazyGridInfo?
        return { ui in
            let area = ui.availableRect
            let rail = Rect(x: area.maxX - 60, y: area.y, width: 60, height: area.height)
            if let target = ui.scrubber(
                "dates", in: rail, count: item, position: last?.visible.lowerBound ?? 0, marks: marks)
            {
                ui.scrollGrid("grid", toItem: target, anchor: .top)
            }
            ui.frame(width: area.width - 60) {
                last = ui.lazyVGrid(
                    "grid", columns: [GridItem(.adaptive(minimum: 100))], sections: counts, headerHeight: 30,
                    pinnedViews: .sectionHeaders
                ) { ui, s, rect in
                    ui.drawList.addRect(rect, color: ui.theme.background)
                } cell: { ui, _, rect in
                    ui.drawList.addRect(rect, color: .blue)
                }
            }
            info(last!)
        }
    }

    func testDraggingClickingTouchingAndKeysJumpTheGridInTheSameFrame() throws {
        try onMain {
            let h = try Harness(width: 800, height: 600)
            var info: LazyGridInfo?
            let build = Self.scene(h) { info = $0 }
            h.frame(build)
            let total = Self.counts.reduce(0, +)
            let viewport = try XCTUnwrap(info).viewport
            let rail = (x: viewport.maxX + 40, top: viewport.y + 10, length: viewport.height - 20)
            XCTAssertEqual(info?.visible.lowerBound, 0)

            // A drag to three quarters of the rail: the item three quarters through, in that frame.
            h.inject.mouseMove(to: Point(rail.x, rail.top + rail.length * 0.3))
            h.frame(build)
            h.inject.mouseButton(.left, down: true, at: Point(rail.x, rail.top + rail.length * 0.3))
            h.frame(build)
            h.inject.mouseMove(to: Point(rail.x, rail.top + rail.length * 0.75), buttons: 1)
            h.frame(build)
            let expected = ScrubberLayout(count: total, length: rail.length).item(atPosition: rail.length * 0.75)
            let first = try XCTUnwrap(info?.visible.lowerBound)
            XCTAssertLessThanOrEqual(
                abs(first - expected), try XCTUnwrap(info).columns,
                "the row holding item \(expected) is at the top: \(first)")
            XCTAssertTrue(h.drawnText.contains { $0.hasPrefix("month ") }, "the bubble names the month")
            h.inject.mouseButton(.left, down: false, at: Point(rail.x, rail.top + rail.length * 0.75))
            h.frame(build)

            // A click on a year's label: that year's first photo, exactly.
            let label = try XCTUnwrap(h.rect(ofText: "2022"))
            h.click(at: Point(label.midX, label.midY), build)
            let year2022 = Self.counts.prefix(36).reduce(0, +)
            XCTAssertEqual(info?.visible.lowerBound, year2022)

            // A finger: down near the top, moved to the bottom.
            h.inject.finger(7, .down, at: Point(rail.x, rail.top + 5))
            h.frame(build)
            h.inject.finger(7, .moved, at: Point(rail.x, rail.top + rail.length))
            h.frame(build)
            XCTAssertGreaterThan(
                try XCTUnwrap(info?.visible.upperBound), total - 20, "at the end, in the frame the finger got there")
            h.inject.finger(7, .up, at: Point(rail.x, rail.top + rail.length))
            h.frames(2, build)

            // Keys, with the rail focused by the click above: Home, Page Down (next month), End.
            h.press(.home, build)
            XCTAssertEqual(info?.visible.lowerBound, 0)
            h.press(.pageDown, build)
            XCTAssertEqual(info?.visible.lowerBound, Self.counts[0], "the next month's first photo")
            h.press(.pageDown, build)
            XCTAssertEqual(info?.visible.lowerBound, Self.counts[0] + Self.counts[1])
            h.press(.pageUp, build)
            XCTAssertEqual(info?.visible.lowerBound, Self.counts[0])
            h.press(.end, build)
            XCTAssertEqual(info?.visible.upperBound, total)
        }
    }

    /// A million photos in 120 months: the rail reaches every one, in the square grid and the
    /// justified one, though the content is far past 16.7 M points (positions are Doubles).
    func testTheRailReachesEveryPhotoOfAMillionInBothGrids() throws {
        try onMain {
            let counts = (0..<120).map { 8_000 + ($0 * 7_919) % 700 }
            let total = counts.reduce(0, +)
            let ratios = (0..<total).map { [1.5, 0.667, 1.333, 1][$0 % 4] }
            XCTAssertGreaterThan(total, 1_000_000)
            for justified in [false, true] {
                let h = try Harness(width: 800, height: 600)
                var info: LazyGridInfo?
                var drawn: [Int: Rect] = [:]
                let build: (UI) -> Void = { ui in
                    drawn = [:]
                    let area = ui.availableRect
                    let rail = Rect(x: area.maxX - 60, y: area.y, width: 60, height: area.height)
                    if let target = ui.scrubber(
                        "dates", in: rail, count: total, position: info?.visible.lowerBound ?? 0, marks: [])
                    {
                        ui.scrollGrid("grid", toItem: target, anchor: .top)
                    }
                    ui.frame(width: area.width - 60) {
                        let header: (UI, Int, Rect) -> Void = { _, _, _ in }
                        let cell: (UI, Int, Rect) -> Void = { _, i, rect in drawn[i] = rect }
                        info =
                            justified
                            ? ui.lazyJustifiedGrid(
                                "grid", aspectRatios: ratios, sections: counts, rowHeight: 100, headerHeight: 30,
                                pinnedViews: .sectionHeaders, header: header, cell: cell)
                            : ui.lazyVGrid(
                                "grid", columns: [GridItem(.adaptive(minimum: 100))], sections: counts,
                                headerHeight: 30,
                                pinnedViews: .sectionHeaders, header: header, cell: cell)
                    }
                }
                h.frame(build)
                let length = try XCTUnwrap(justified ? info?.justified?.contentLength : info?.layout?.contentLength)
                XCTAssertGreaterThan(length, 16_777_216, "past the 16.7 M pixel ceiling of a browser's scroll")
                let railX = 800.0 - 30
                for share in [0.1, 0.5, 0.9, 1.0] {
                    h.inject.mouseMove(to: Point(railX, 10))
                    h.frame(build)
                    h.inject.mouseButton(.left, down: true, at: Point(railX, 10))
                    h.frame(build)
                    let y = 10 + (600 - 20) * share
                    h.inject.mouseMove(to: Point(railX, y), buttons: 1)
                    h.frame(build)
                    h.inject.mouseButton(.left, down: false, at: Point(railX, y))
                    h.frame(build)
                    let expected = ScrubberLayout(count: total, length: 580).item(atPosition: 580 * share)
                    let visible = try XCTUnwrap(info?.visible)
                    XCTAssertTrue(
                        visible.lowerBound <= expected + 12 && expected < visible.upperBound + 12,
                        "\(justified ? "justified" : "square"): \(share) of the rail shows item \(expected): \(visible)"
                    )
                    for (i, rect) in drawn {
                        XCTAssertTrue(
                            rect.minY.isFinite && rect.minY > -400 && rect.minY < 700,
                            "item \(i) drawn in view: \(rect)")
                    }
                }
                XCTAssertEqual(info?.visible.upperBound, total, "the last photo is reached")
                XCTAssertNotNil(drawn[total - 1], "and drawn")
            }
        }
    }
}
