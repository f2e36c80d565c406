import XCTest
import CSDL2
@testable import Render2D

/// `RegionBatch` without a window: regions cut so that they share no pixel, and the order and
/// joins of their draws.
final class RegionBatchTests: XCTestCase {
    func testDisjointPiecesHoldEveryPixelOfTheRegionsOnce() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let regions = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                PixelRect(
                    x: .random(in: 0..<24, using: &random), y: .random(in: 0..<24, using: &random),
                    width: .random(in: 1...12, using: &random), height: .random(in: 1...12, using: &random))
            }
            let pieces = try XCTUnwrap(RegionBatch.disjoint(regions, limit: 4 * regions.count * regions.count))
            func holds(_ r: PixelRect, _ x: Int, _ y: Int) -> Bool {
                r.x <= x && x < r.x + r.width && r.y <= y && y < r.y + r.height
            }
            for y in 0..<36 {
                for x in 0..<36 {
                    let expected = regions.contains { holds($0, x, y) } ? 1 : 0
                    XCTAssertEqual(pieces.filter { holds($0, x, y) }.count, expected, "\(regions) at \(x), \(y)")
                }
            }
            XCTAssertTrue(pieces.allSatisfy { $0.width > 0 && $0.height > 0 })
        }
        let crossing = [PixelRect(x: 0, y: 4, width: 20, height: 2), PixelRect(x: 4, y: 0, width: 2, height: 20)]
        XCTAssertEqual(RegionBatch.disjoint(crossing, limit: 3)?.count, 3, "the second cut in two")
        XCTAssertNil(RegionBatch.disjoint(crossing, limit: 2), "past the limit")
    }

    /// A panel under two regions, a photo across both, a glyph in each: one frame's lists.
    private func plans(for regions: [PixelRect]) -> RegionBatch {
        var list = DrawList(scale: 1)
        let white = (texture: TextureHandle(id: 5), whiteUV: SIMD2<Float>(0.25, 0.25))
        list.reset(scale: 1, solidTexture: white.texture, whiteUV: white.whiteUV)
        list.addRect(Rect(x: 0, y: 0, width: 10, height: 10), color: Color(r: 9, g: 9, b: 9, a: 100))  // solid
        list.addRect(Rect(x: 0, y: 0, width: 100, height: 40), color: Color(r: 90, g: 90, b: 90, a: 128))
        list.addImage(TextureHandle(id: 7), in: Rect(x: 5, y: 5, width: 90, height: 30))  // across both
        list.addImage(TextureHandle(id: 9), in: Rect(x: 2, y: 2, width: 4, height: 4))  // in the first
        list.addImage(TextureHandle(id: 9), in: Rect(x: 62, y: 2, width: 4, height: 4))  // in the second
        var plan = RegionPlan(), batch = RegionBatch()
        for region in regions {
            plan.make(
                for: region, lists: [list], solid: white, drawable: { _ in true },
                opaqueTexture: { $0 == .flat || $0 == TextureHandle(id: 7) })
            batch.add(plan)
        }
        batch.order()
        return batch
    }

    func testDrawsOfRegionsThatNeedNoScissorAreJoinedAndEachRegionKeepsItsOrder() {
        let left = PixelRect(x: 0, y: 0, width: 20, height: 10), right = PixelRect(x: 60, y: 0, width: 20, height: 10)
        let batch = plans(for: [left, right])
        let photo = TextureHandle(id: 7), glyph = TextureHandle(id: 9)
        XCTAssertEqual(
            batch.draws.map(\.texture), [TextureHandle(id: 5), photo, photo, glyph],
            "the panels of both regions in one draw, the photo in each, the glyphs of both in one")
        XCTAssertEqual(batch.draws.map(\.needsClip), [false, true, true, false])
        XCTAssertEqual(batch.draws.map(\.clip.x), [0, 0, 60, 0], "the photo under each region's scissor")
        XCTAssertEqual(batch.draws[3].vertexCount, 12, "two glyphs")
        // Every draw's vertices are its own, one after another.
        XCTAssertEqual(
            batch.draws.map(\.vertexStart).dropFirst(),
            batch.draws.dropLast().map { $0.vertexStart + $0.vertexCount }[...])
        XCTAssertEqual(batch.vertices.count, batch.draws.last.map { $0.vertexStart + $0.vertexCount })
        let photoDraws = batch.draws.filter { $0.texture == photo }
        for (draw, region) in zip(photoDraws, [left, right]) {
            let xs = batch.vertices[draw.vertexStart..<draw.vertexStart + draw.vertexCount].map(\.position.x)
            XCTAssertEqual(xs.min(), 5, "the photo whole, as the region \(region) is scissored")
        }
    }

    func testOneRegionsDrawsAreItsPlanOnesInOrder() {
        let region = PixelRect(x: 0, y: 0, width: 20, height: 10)
        var list = DrawList(scale: 1)
        list.addImage(TextureHandle(id: 9), in: Rect(x: 2, y: 2, width: 4, height: 4))
        list.addImage(TextureHandle(id: 7), in: Rect(x: 5, y: 5, width: 90, height: 30))
        list.addImage(TextureHandle(id: 9), in: Rect(x: 8, y: 2, width: 4, height: 4))
        var plan = RegionPlan(), batch = RegionBatch()
        plan.make(for: region, lists: [list], drawable: { _ in true }, opaqueTexture: { _ in false })
        batch.add(plan)
        batch.order()
        XCTAssertEqual(batch.draws.map(\.texture), plan.draws.map(\.texture))
        XCTAssertEqual(batch.draws.map(\.vertexCount), plan.draws.map(\.vertexCount))
        XCTAssertEqual(batch.vertices.map(\.position.x), plan.vertices.map(\.position.x))
        batch.removeAll()
        batch.order()
        XCTAssertTrue(batch.draws.isEmpty && batch.vertices.isEmpty && batch.clearPieces.isEmpty)
    }
}
