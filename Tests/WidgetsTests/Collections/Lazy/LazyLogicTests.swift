import XCTest
import Render2D
import Imaging
import Profiling
import DemoSupport
@testable import Widgets

/// Grid track math against SwiftUI's rules, visible and prefetch ranges, lazy-stack extents
/// and image framing, without SDL.
final class LazyLogicTests: XCTestCase {
    private func widths(_ items: [GridItem], _ length: Double) -> [Double] {
        GridLayout.tracks(items, length: length).map { ($0.length * 100).rounded() / 100 }
    }
    private func offsets(_ items: [GridItem], _ length: Double) -> [Double] {
        GridLayout.tracks(items, length: length).map { ($0.offset * 100).rounded() / 100 }
    }

    func testAdaptiveItemsFitAsManyColumnsAsTheirMinimumAllows() {
        // The gallery's grid: as many 180 pt columns as fit in 1280 with 8 pt gaps, sharing the width.
        XCTAssertEqual(
            widths([GridItem(.adaptive(minimum: 180), spacing: 8)], 1280), Array(repeating: 206.67, count: 6))
        // Resizing re-flows: 700 pt holds 3.
        XCTAssertEqual(widths([GridItem(.adaptive(minimum: 180), spacing: 8)], 700), Array(repeating: 228, count: 3))
        // The maximum caps the width; the extra space stays empty.
        XCTAssertEqual(widths([GridItem(.adaptive(minimum: 100, maximum: 110), spacing: 0)], 350), [110, 110, 110])
        XCTAssertEqual(
            widths([GridItem(.adaptive(minimum: 100, maximum: 120), spacing: 10)], 500), [117.5, 117.5, 117.5, 117.5])
        // Narrower than the minimum: still one column, as wide as there is room.
        XCTAssertEqual(widths([GridItem(.adaptive(minimum: 180))], 120), [120])
    }

    func testFixedAndFlexibleItemsShareWhatIsLeft() {
        XCTAssertEqual(widths([GridItem(.fixed(60)), GridItem(.flexible())], 300), [60, 232])
        XCTAssertEqual(offsets([GridItem(.fixed(60)), GridItem(.flexible())], 300), [0, 68])
        XCTAssertEqual(widths([GridItem(), GridItem(), GridItem()], 300), [94.67, 94.67, 94.67])
        // A flexible item clamped by its maximum gives the rest to the others, and one held up by its minimum takes from them.
        XCTAssertEqual(widths([GridItem(.flexible(maximum: 50)), GridItem(.flexible())], 300), [50, 242])
        XCTAssertEqual(widths([GridItem(.flexible(minimum: 200)), GridItem(.flexible())], 300), [200, 92])
        // A fixed column beside an adaptive one: the adaptive item gets the rest and splits it.
        XCTAssertEqual(
            widths([GridItem(.fixed(100)), GridItem(.adaptive(minimum: 50))], 400), [100, 52, 52, 52, 52, 52])
        // Per-item spacing is the gap after that item.
        XCTAssertEqual(
            offsets([GridItem(.fixed(50), spacing: 20), GridItem(.fixed(50), spacing: 2), GridItem(.fixed(50))], 400),
            [0, 70, 122])
        XCTAssertEqual(GridLayout.tracks([], length: 300), [])
    }

    func testVisibleItemsAndPrefetchWindows() {
        let rows = GridLayout.Rows(count: 2000, columns: 6, rowLength: 206.67, spacing: 8)
        XCTAssertEqual(rows.rowCount, 334)
        XCTAssertEqual(rows.visibleItems(offset: 0, viewport: 700), 0..<24, "rows 0-3 touch a 700 pt viewport")
        XCTAssertEqual(rows.visibleItems(offset: 214.67 * 100 + 1, viewport: 200), 600..<606, "inside one row")
        XCTAssertEqual(rows.visibleItems(offset: 214.67 * 100 + 1, viewport: 300), 600..<612)
        XCTAssertEqual(
            rows.visibleItems(offset: rows.contentLength - 10, viewport: 700), 1998..<2000, "the last, short row")
        XCTAssertEqual(
            GridLayout.Rows(count: 0, columns: 6, rowLength: 10, spacing: 0).visibleItems(offset: 0, viewport: 100),
            0..<0)

        let visible = 600..<624
        XCTAssertEqual(
            PrefetchWindow.ranges(visible: visible, count: 2000, direction: .forward), [624..<660, 588..<600],
            "a screen and a half ahead, half a screen behind")
        XCTAssertEqual(
            PrefetchWindow.ranges(visible: visible, count: 2000, direction: .backward), [564..<600, 624..<636])
        XCTAssertEqual(
            PrefetchWindow.ranges(visible: 1990..<2000, count: 2000, direction: .forward), [2000..<2000, 1985..<1990])
    }

    func testItemExtentsMatchAPlainSumAfterRandomMeasurements() {
        var rng = SplitMix64(seed: 11)
        var extents = ItemExtents(count: 5000, estimate: 40)
        var lengths = [Double](repeating: 40, count: 5000)
        for _ in 0..<3000 {
            let i = rng.next(below: 5000)
            let length = Double(10 + rng.next(below: 200))
            extents.setLength(length, of: i)
            lengths[i] = length
        }
        var sum = 0.0
        for i in stride(from: 0, to: 5000, by: 97) {
            sum = lengths[0..<i].reduce(0, +)
            XCTAssertEqual(extents.offset(of: i), sum, accuracy: 1e-6)
            XCTAssertEqual(extents.index(at: sum), i, "the item starting at an offset")
            XCTAssertEqual(extents.index(at: sum + lengths[i] - 0.5), i, "and its last point")
        }
        XCTAssertEqual(extents.total, lengths.reduce(0, +), accuracy: 1e-6)
        extents.resize(to: 10)
        XCTAssertEqual(
            extents.total, lengths.prefix(10).reduce(0, +), accuracy: 1e-6, "shrinking keeps the measured prefix")
        extents.resize(to: 12)
        XCTAssertEqual(extents.length(of: 11), 40, "new items start at the estimate")
    }

    func testImagesFitOrFillTheirFrame() {
        let frame = Rect(x: 0, y: 0, width: 200, height: 100)
        let fit = ImageFraming.placement(imageWidth: 400, imageHeight: 400, in: frame, mode: .fit)
        XCTAssertEqual(fit.rect, Rect(x: 50, y: 0, width: 100, height: 100), "square in a wide frame: pillarboxed")
        let fill = ImageFraming.placement(imageWidth: 400, imageHeight: 400, in: frame, mode: .fill)
        XCTAssertEqual(fill.rect, frame)
        XCTAssertEqual(fill.uv, Rect(x: 0, y: 0.25, width: 1, height: 0.5), "the middle half of the square")
        XCTAssertEqual(
            ImageFraming.thumbnailSpec(for: Size(206, 206), scale: 1, mode: .fill),
            ThumbnailSpec(side: 206, fill: true, drawnAtSize: true), "a square cell's thumbnail is its size in pixels")
        XCTAssertEqual(
            ImageFraming.thumbnailSpec(for: Size(206, 206), scale: 2, mode: .fit),
            ThumbnailSpec(side: 412, fill: false, drawnAtSize: true))
        XCTAssertEqual(
            ImageFraming.thumbnailSpec(for: Size(187.33, 187.33), scale: 1.5, mode: .fill).side, 281,
            "281.0 px: not 282")
        XCTAssertEqual(
            ImageFraming.thumbnailSpec(for: Size(100.4, 100), scale: 2, mode: .fill),
            ThumbnailSpec(side: 201, fill: true, drawnAtSize: true), "within a pixel of square")
        XCTAssertEqual(
            ImageFraming.thumbnailSpec(for: Size(300, 200), scale: 1, mode: .fill),
            ThumbnailSpec(side: 300, fill: true, drawnAtSize: false), "a wide frame draws its thumbnail scaled")
        // Frames an app computed badly ask for a bounded thumbnail, never trap.
        XCTAssertEqual(ImageFraming.thumbnailSpec(for: Size(1e300, 10), scale: 2, mode: .fill).side, 16_384)
        XCTAssertEqual(ImageFraming.thumbnailSpec(for: Size(.infinity, .infinity), scale: 1, mode: .fit).side, 16_384)
        XCTAssertEqual(ImageFraming.thumbnailSpec(for: Size(.nan, .nan), scale: 1, mode: .fill).side, 1)
        XCTAssertEqual(ImageFraming.thumbnailSpec(for: Size(-50, -20), scale: 1, mode: .fill).side, 1)
    }
}
