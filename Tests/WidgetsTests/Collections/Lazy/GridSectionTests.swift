import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// A lazy grid of sections: geometry from prefix sums checked against a plain walk at
/// 100,000 items, and pinned headers in the real renderer.
final class GridSectionTests: XCTestCase {
    /// Where every item and section lies, by walking them one by one.
    private func walk(_ counts: [Int], columns: Int, pitch: Double, header: Double) -> (
        items: [Double], sections: [Double], end: Double
    ) {
        var items: [Double] = [], sections: [Double] = []
        var y = 0.0
        for count in counts {
            sections.append(y)
            y += header
            for i in 0..<count {
                items.append(y + Double(i / columns) * pitch)
            }
            y += Double((count + columns - 1) / columns) * pitch
        }
        return (items, sections, y)
    }

    func testSectionGeometryAt100000ItemsMatchesAPlainWalk() {
        var rng = SplitMix64(seed: 16)  // seeded: a failure is the same on every run
        var counts: [Int] = []
        while counts.reduce(0, +) < 100_000 {
            counts.append(Int.random(in: 0...400, using: &rng) * (Int.random(in: 0..<10, using: &rng) == 0 ? 0 : 1))
        }
        counts[0] = 0  // an empty first section
        let layout = GridLayout.Sections(counts: counts, columns: 7, rowLength: 120, spacing: 8, headerLength: 36)
        let (items, sections, end) = walk(counts, columns: 7, pitch: 128, header: 36)
        XCTAssertEqual(layout.count, items.count)
        XCTAssertEqual(layout.sectionOffsets.dropLast().map { $0 }, sections)
        XCTAssertEqual(layout.contentLength, end - ((counts.last ?? 0) > 0 ? 8 : 0))
        var section = 0
        for (i, y) in items.enumerated() {
            while layout.sectionStarts[section + 1] <= i { section += 1 }
            XCTAssertEqual(layout.section(ofItem: i), section, "item \(i)")
            XCTAssertEqual(layout.offset(ofItem: i), y, "item \(i)")
            XCTAssertEqual(layout.column(ofItem: i), (i - layout.sectionStarts[section]) % 7)
        }
        // The visible items at any offset are exactly the ones whose rows overlap the viewport.
        for _ in 0..<100 {
            let offset = Double.random(in: -50...(end + 50), using: &rng),
                viewport = Double.random(in: 1...1500, using: &rng)
            let visible = layout.visibleItems(offset: offset, viewport: viewport)
            let top = max(0, offset)
            let expected = items.indices.filter { items[$0] < top + viewport && items[$0] + 120 > top }
            XCTAssertEqual(Array(visible), expected, "offset \(offset), viewport \(viewport)")
            let s = layout.section(atOffset: offset)
            XCTAssertEqual(s, max(0, (sections.lastIndex { $0 <= offset }) ?? 0), "the section at \(offset)")
        }
        for i in stride(from: 0, to: items.count, by: 997) {
            XCTAssertEqual(
                layout.item(atOffset: items[i] + 3), i - layout.column(ofItem: i),
                "the first item of the row at an offset")
        }
    }

    func testPinnedHeadersStayAtTheTopUntilTheNextPushesThemAway() throws {
        try onMain {
            let h = try Harness(width: 600, height: 400)
            var built = Set<Int>()
            var info: LazyGridInfo?
            let counts = [10, 25, 3, 40, 1_000]
            let build: (UI) -> Void = { ui in
                built.removeAll()
                info = ui.lazyVGrid(
                    "grid", columns: [GridItem(.fixed(100)), GridItem(.fixed(100)), GridItem(.fixed(100))], spacing: 10,
                    sections: counts, headerHeight: 30, pinnedViews: .sectionHeaders, rowHeight: { _ in 50 }
                ) { ui, section, rect in
                    ui.drawList.addRect(rect, color: ui.theme.background)
                    ui.text("Section \(section)")
                } cell: { ui, item, rect in
                    built.insert(item)
                    ui.drawList.addRect(rect, color: .blue)
                }
            }
            h.frame(build)
            let top = try XCTUnwrap(info).viewport.y
            XCTAssertEqual(
                try XCTUnwrap(h.rect(ofText: "Section 0")).minY, top, accuracy: 8, "the first header at the top")
            let section1 = try XCTUnwrap(h.rect(ofText: "Section 1"))
            // Section 0: header 30 + 4 rows of 60 = 270; section 1's header there.
            XCTAssertEqual(section1.minY - top, 270, accuracy: 8)
            // its rows start at 300
            let rowsOfSection1 = Int(((try XCTUnwrap(info).viewport.height - 300) / 60).rounded(.up))
            XCTAssertEqual(
                built, Set(0..<(10 + 3 * rowsOfSection1)),
                "only the cells in view: section 0's ten and section 1's first rows")

            // Scrolled into section 1: its header is pinned at the top, section 0's is gone.
            h.ui.scrollGrid("grid", toOffset: 400)
            h.frame(build)
            XCTAssertNil(h.rect(ofText: "Section 0"))
            XCTAssertEqual(try XCTUnwrap(h.rect(ofText: "Section 1")).minY, top, accuracy: 8, "pinned")
            XCTAssertEqual(try XCTUnwrap(info).visibleSections.lowerBound, 1)

            // Section 1 ends at 270 + 30 + 9 × 60 = 840; its header is pushed up as section 2's arrives.
            h.ui.scrollGrid("grid", toOffset: 820)
            h.frame(build)
            let pushed = try XCTUnwrap(h.rect(ofText: "Section 1")).minY - top
            XCTAssertLessThan(pushed, -5, "pushed up by the next header")
            XCTAssertEqual(try XCTUnwrap(h.rect(ofText: "Section 2")).minY, top + 20, accuracy: 8)

            // The far end of a thousand items: still only what is in view is built.
            h.ui.scrollGrid("grid", toItem: 1_077, anchor: .top)
            h.frame(build)
            XCTAssertTrue(built.contains(1_077))
            XCTAssertLessThan(built.count, 40)
            XCTAssertEqual(try XCTUnwrap(h.rect(ofText: "Section 4")).minY, top, accuracy: 8)
        }
    }
}
