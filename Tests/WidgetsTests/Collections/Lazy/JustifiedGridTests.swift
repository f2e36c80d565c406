import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// The justified grid: rows of equal height filling the width, each item at its own shape,
/// checked against the layout's rules at 100,000 items, and driven in the real renderer.
final class JustifiedGridTests: XCTestCase {
    static func ratios(_ count: Int, seed: UInt64) -> [Double] {
        var rng = SplitMix64(seed: seed)
        let shapes = [1.5, 0.667, 1.0, 2.4, 0.75, 1.333, 0.5625, 1.778]
        return (0..<count).map { _ in shapes[Int.random(in: 0..<shapes.count, using: &rng)] }
    }

    func testRowsFillTheWidthAtTheItemsOwnShapesAndTheQueriesMatchAWalk() {
        var rng = SplitMix64(seed: 44)
        let ratios = Self.ratios(100_000, seed: 44)
        var counts: [Int] = []
        while counts.reduce(0, +) < ratios.count { counts.append(Int.random(in: 0...300, using: &rng)) }
        counts[counts.count - 1] -= counts.reduce(0, +) - ratios.count
        let layout = JustifiedLayout(
            aspectRatios: ratios, sections: counts, width: 900, rowHeight: 180, spacing: 8, headerLength: 40)
        XCTAssertEqual(layout.count, ratios.count)
        var frames: [Rect] = []
        for row in 0..<layout.rowCount {
            let items = layout.items(inRow: row)
            let rowFrames = items.map { layout.frame(ofItem: $0) }
            frames += rowFrames
            let last = rowFrames.last!
            for (k, frame) in zip(items, rowFrames) {
                XCTAssertEqual(frame.width / frame.height, ratios[k], accuracy: 0.001, "item \(k) keeps its shape")
                XCTAssertEqual(frame.height, rowFrames[0].height, accuracy: 0.001, "one height a row")
            }
            let endsSection = layout.sectionStarts.contains(items.upperBound)
            if endsSection && last.height == 180 {
                XCTAssertLessThanOrEqual(last.maxX, 900.5, "a section's short last row is not stretched")
            } else {
                XCTAssertEqual(last.maxX, 900, accuracy: 0.5, "row \(row) fills the width")
                XCTAssertTrue(
                    (90...400).contains(last.height), "row \(row) stays near the height aimed at: \(last.height)")
            }
        }
        XCTAssertEqual(frames.count, ratios.count)
        // Sections start on their own row, under their header.
        for s in counts.indices where counts[s] > 0 {
            XCTAssertEqual(frames[layout.sectionStarts[s]].minX, 0)
            XCTAssertEqual(frames[layout.sectionStarts[s]].minY, layout.sectionOffsets[s] + 40, accuracy: 0.001)
        }
        // The visible items at any offset are exactly those whose rows overlap the viewport.
        for _ in 0..<60 {
            let offset = Double.random(in: -50...(layout.contentLength + 50), using: &rng),
                viewport = Double.random(in: 1...1500, using: &rng)
            let top = max(0, offset)
            let expected = frames.indices.filter { frames[$0].minY < top + viewport && frames[$0].maxY > top }
            XCTAssertEqual(Array(layout.visibleItems(offset: offset, viewport: viewport)), expected, "offset \(offset)")
        }
        for i in stride(from: 0, to: frames.count, by: 991) {
            let row = layout.items(inRow: layout.row(ofItem: i))
            XCTAssertEqual(
                layout.item(atOffset: frames[i].minY + 3), row.lowerBound, "the first item of the row at an offset")
            XCTAssertEqual(layout.offset(ofItem: i), frames[i].minY)
        }
    }

    func testUpAndDownGoToTheNearestItemOfTheNextRowAndBadRatiosStillGetCells() {
        // Row 0: a wide and a narrow item; row 1 below.
        let layout = JustifiedLayout(
            aspectRatios: [2, 1, 1, 2, .nan, 0, -3, .infinity, 1e12], width: 300, rowHeight: 100, spacing: 0)
        XCTAssertEqual(layout.items(inRow: 0), 0..<2)
        XCTAssertEqual(
            layout.item(nearest: 0, rowsAway: 1), 2, "under the wide one's centre (100) is the square (0…100)")
        XCTAssertEqual(layout.item(nearest: 1, rowsAway: 1), 3, "under the narrow one's centre (250) is the wide one")
        XCTAssertEqual(layout.item(nearest: 3, rowsAway: -1), 1)
        XCTAssertEqual(layout.item(nearest: 0, rowsAway: -1), 0, "no row above: it stays")
        for i in 4..<9 {
            let frame = layout.frame(ofItem: i)
            XCTAssertTrue(frame.width.isFinite && frame.width > 0 && frame.height > 0, "item \(i): \(frame)")
        }
        let empty = JustifiedLayout(aspectRatios: [], width: 0, rowHeight: .nan)
        XCTAssertEqual(empty.visibleItems(offset: 0, viewport: 100), 0..<0)
        XCTAssertEqual(empty.contentLength, 0)
    }

    func testTheGridDrawsItsCellsAtTheirShapesScrollsAndZoomsAroundThePointer() throws {
        try onMain {
            let h = try Harness(width: 640, height: 480)
            let ratios = Self.ratios(2_000, seed: 7)
            var zoom = 1.0
            var info: LazyGridInfo?
            var drawn: [Int: Rect] = [:]
            let build: (UI) -> Void = { ui in
                drawn = [:]
                info = ui.lazyJustifiedGrid(
                    "photos", aspectRatios: ratios, rowHeight: 120, zoom: Binding(get: { zoom }, set: { zoom = $0 })
                ) { ui, i, rect in
                    drawn[i] = rect
                    ui.drawList.addRect(rect, color: Color(hex: 0x3366CC))
                }
            }
            h.frames(2, build)
            let first = try XCTUnwrap(info)
            XCTAssertNotNil(first.justified)
            XCTAssertEqual(drawn.count, first.visible.count)
            for (i, rect) in drawn { XCTAssertEqual(rect.width / rect.height, ratios[i], accuracy: 0.01) }
            // The pixels: the first cell is blue, the gap after it is not.
            let cell0 = try XCTUnwrap(drawn[0])
            XCTAssertGreaterThan(
                h.countPixels(in: cell0.insetBy(dx: 4, dy: 4)) { $0.b > 180 && $0.r < 80 },
                Int(cell0.width * cell0.height * 0.8))
            let gap = Rect(x: cell0.maxX + 1, y: cell0.y + 10, width: 6, height: 20)
            XCTAssertEqual(h.countPixels(in: gap) { $0.b > 180 && $0.r < 80 }, 0, "the spacing between items")

            // The wheel scrolls it.
            h.inject.mouseMove(to: Point(300, 240))
            h.inject.wheel(dy: -5)
            h.frames(20, build)
            XCTAssertGreaterThan(try XCTUnwrap(info).scrollOffset, 100)
            // Ctrl+wheel zooms the rows, the item under the pointer kept under it.
            let under = try XCTUnwrap(drawn.first { $0.value.contains(Point(300, 240)) }).key
            h.inject.key(.control, down: true, modifiers: [.control])
            h.inject.wheel(dy: 2)
            h.frames(3, build)
            h.inject.key(.control, down: false)
            h.frame(build)
            XCTAssertEqual(zoom, 1.1, accuracy: 0.001, "a notch: 10 % larger")
            XCTAssertEqual(try XCTUnwrap(info?.justified).rowHeight, 132, accuracy: 0.01, "rows aim 10 % taller")
            let zoomed = try XCTUnwrap(drawn[under], "the item under the pointer is still drawn")
            // (Rows reflow, so it may move across; along, its row stays under the pointer.)
            XCTAssertTrue(
                (zoomed.minY - 30...zoomed.maxY + 30).contains(240), "and still at the pointer's height: \(zoomed)")

            // scrollGrid brings an item far below into view.
            h.ui.scrollGrid("photos", toItem: 1_500, anchor: .top)
            h.frames(2, build)
            XCTAssertTrue(try XCTUnwrap(info).visible.contains(1_500))
            XCTAssertEqual(try XCTUnwrap(drawn[1_500]).minY, 0, accuracy: 1, "at the top")
        }
    }
}
