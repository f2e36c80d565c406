import XCTest
import CSDL2
@testable import Render2D

/// `RegionPlan` without a window: what a damaged region's redraw leaves out or cuts, and
/// that what it draws covers the same pixels.
final class RegionPlanTests: XCTestCase {
    private let photo = TextureHandle(id: 7)  // an opaque texture
    private let translucent = TextureHandle(id: 8)
    private let region = PixelRect(x: 0, y: 0, width: 96, height: 64)

    /// A white texel, as the glyph atlas's page 0 has.
    private let white = (texture: TextureHandle(id: 5), whiteUV: SIMD2<Float>(0.25, 0.25))

    private func plan(
        solid: (texture: TextureHandle, whiteUV: SIMD2<Float>)? = nil, _ draw: (inout DrawList) -> Void
    ) -> (RegionPlan, DrawList) {
        var list = DrawList(scale: 1)
        list.reset(scale: 1, solidTexture: white.texture, whiteUV: white.whiteUV)
        draw(&list)
        var plan = RegionPlan()
        plan.make(
            for: region, lists: [list], solid: solid, drawable: { _ in true },
            opaqueTexture: { $0 == .flat || $0 == self.photo })
        return (plan, list)
    }

    /// The pixel centers of `region` that the plan's triangles of `draw` cover.
    private func covered(by plan: RegionPlan, _ draw: RegionPlan.Draw) -> Set<Int> {
        var pixels = Set<Int>()
        for t in stride(from: draw.vertexStart, to: draw.vertexStart + draw.vertexCount, by: 3) {
            let p = (0..<3).map { plan.vertices[t + $0].position }
            for y in 0..<region.height {
                for x in 0..<region.width where Self.inside(Float(x) + 0.5, Float(y) + 0.5, p[0], p[1], p[2]) {
                    pixels.insert(y * region.width + x)
                }
            }
        }
        return pixels
    }

    /// Whether (x, y) is inside the triangle, edges included (the centers tested here never lie on one).
    private static func inside(_ x: Float, _ y: Float, _ a: SDL_FPoint, _ b: SDL_FPoint, _ c: SDL_FPoint) -> Bool {
        func side(_ p: SDL_FPoint, _ q: SDL_FPoint) -> Float { (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x) }
        let d1 = side(a, b), d2 = side(b, c), d3 = side(c, a)
        return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0))
    }

    func testAPanelUnderAPhotoIsCutAroundItAndTheClearIsLeftOut() {
        let (plan, _) = plan { list in
            list.addRect(Rect(x: 0, y: 0, width: 200, height: 100), color: .gray)  // flat, covers the region
            list.addImage(photo, in: Rect(x: 20.25, y: 10.25, width: 40.5, height: 30.5))
        }
        XCTAssertEqual(plan.clearPieces.count, 0, "the panel covers the whole region")
        XCTAssertEqual(plan.draws.count, 2)
        let panel = covered(by: plan, plan.draws[0]), image = covered(by: plan, plan.draws[1])
        XCTAssertTrue(panel.isDisjoint(with: image), "the panel is not drawn under the photo")
        XCTAssertEqual(panel.union(image).count, region.area, "between them, every pixel")
        XCTAssertEqual(plan.draws[0].vertexCount, 4 * 6, "four pieces around the photo")
        XCTAssertEqual(plan.hiddenShapes, 2, "the clear and the panel")
    }

    func testAGlyphUnderALaterPhotoIsLeftOutAndOneOverItIsKept() {
        let (plan, _) = plan { list in
            list.addImage(TextureHandle(id: 9), in: Rect(x: 30, y: 20, width: 8, height: 8))  // under
            list.addImage(photo, in: Rect(x: 20.25, y: 10.25, width: 40.5, height: 30.5))
            list.addImage(TextureHandle(id: 9), in: Rect(x: 32, y: 22, width: 8, height: 8))  // over
        }
        XCTAssertEqual(plan.draws.map { $0.vertexCount }, [6, 6], "the photo and the glyph over it")
        XCTAssertEqual(plan.hiddenShapes, 2, "the glyph under the photo, and part of the clear")
        XCTAssertFalse(plan.clearPieces.isEmpty)
    }

    /// A translucent panel, a small square, a rounded rectangle under a scissor, another
    /// square and an opaque panel.
    private func panelsAndShapes(_ list: inout DrawList) {
        list.addRect(Rect(x: 0, y: 0, width: 200, height: 100), color: Color(r: 90, g: 90, b: 90, a: 128))
        list.addRect(Rect(x: 4, y: 4, width: 10, height: 10), color: .red)  // small: the solid texture
        list.pushClip(Rect(x: 0, y: 0, width: 50, height: 64))
        list.addRoundedRect(Rect(x: 40, y: 20, width: 20, height: 20), radius: 4, color: .blue)  // scissored
        list.popClip()
        list.addRect(Rect(x: 60, y: 40, width: 10, height: 10), color: .green)
        list.addRect(Rect(x: 70, y: 0, width: 200, height: 100), color: .white)  // large, opaque: flat, unblended
    }

    func testCommandsDrawnAlikeInARowAreOneDrawAndABlendedPanelJoinsTheSolidShapes() {
        let solid = white.texture
        let (plan, list) = plan(solid: white, panelsAndShapes)
        XCTAssertEqual(
            list.commands.map(\.texture), [.flat, solid, solid, solid, .flat],
            "the panels flat, the rest the solid texture, the rounded rectangle under its own scissor")
        XCTAssertEqual(plan.draws.map(\.texture), [solid, solid, solid, .flat])
        XCTAssertEqual(
            plan.draws.map(\.vertexCount), [12, plan.draws[1].vertexCount, 6, 6],
            "the translucent panel and the red square in one draw; the scissored shape alone")
        XCTAssertEqual(plan.draws.map(\.blendsNone), [false, false, false, true])
        XCTAssertEqual(plan.draws[1].clip.w, 50, "the rounded rectangle keeps its scissor")
        XCTAssertEqual(plan.draws[2].clip.w, Int32(region.width))
    }

    func testAPanelStaysFlatUnlessItsListSamplesTheWhiteTexelGiven() {
        for solid in [
            nil, (texture: white.texture, whiteUV: SIMD2<Float>(0, 0)), (TextureHandle(id: 6), white.whiteUV),
        ] {
            let (plan, _) = plan(solid: solid, panelsAndShapes)
            XCTAssertEqual(
                plan.draws.map(\.texture), [.flat, white.texture, white.texture, white.texture, .flat],
                "the translucent panel is drawn flat, apart from the square")
        }
    }

    func testACommandWhoseBoundsMissTheRegionIsPassedOver() {
        var list = DrawList(scale: 1)
        list.addImage(translucent, in: Rect(x: 20, y: 10, width: 40, height: 30))  // command 0
        list.addImage(TextureHandle(id: 9), in: Rect(x: 30, y: 20, width: 40, height: 30))  // command 1
        func draws(bounds: @escaping (Int, Int) -> HashedCommand.Clip?) -> [TextureHandle] {
            var plan = RegionPlan()
            plan.make(
                for: region, lists: [list], drawable: { _ in true }, opaqueTexture: { _ in false }, bounds: bounds)
            return plan.draws.map(\.texture)
        }
        let far = HashedCommand.Clip(x0: 200, y0: 200, x1: 260, y1: 240)
        let near = HashedCommand.Clip(x0: 29, y0: 19, x1: 71, y1: 51)
        XCTAssertEqual(draws { _, _ in nil }, [translucent, TextureHandle(id: 9)], "bounds unknown: both")
        XCTAssertEqual(draws { _, command in command == 0 ? far : near }, [TextureHandle(id: 9)])
        XCTAssertEqual(
            draws { _, _ in .empty }, [translucent, TextureHandle(id: 9)], "empty bounds: walked, not trusted")
        // Bounds within a pixel of the region's edge still meet it, as its triangles do.
        let justOutside = HashedCommand.Clip(x0: 96.5, y0: 0, x1: 120, y1: 10)
        XCTAssertEqual(draws { _, _ in justOutside }, [translucent, TextureHandle(id: 9)])
    }

    func testPlansOfAFramesRegionsAreTheSameWhenALargeCommandIsWalkedOnce() {
        // 400 dots in one command over 200×100 pixels, a panel under them and a photo over
        // some: three regions planned after `prepare` (the dots walked once for all three)
        // must give what each planned alone gives.
        var list = DrawList(scale: 1)
        list.addRect(Rect(x: 0, y: 0, width: 200, height: 100), color: .gray)
        list.addImage(photo, in: Rect(x: 60, y: 10, width: 30, height: 30))
        for i in 0..<400 {
            list.addRect(Rect(x: Double(i % 40 * 5), y: Double(i / 40 * 10), width: 3, height: 3), color: .blue)
        }
        let regions = [
            PixelRect(x: 0, y: 0, width: 20, height: 20), PixelRect(x: 50, y: 5, width: 50, height: 40),
            PixelRect(x: 150, y: 80, width: 40, height: 20),
        ]
        func plans(prepared: Bool) -> [[SDL_Vertex]] {
            var plan = RegionPlan()
            if prepared { plan.prepare(for: regions) }
            return regions.map { region in
                plan.make(
                    for: region, lists: [list], drawable: { _ in true },
                    opaqueTexture: { $0 == .flat || $0 == self.photo })
                return plan.vertices
            }
        }
        let alone = plans(prepared: false), together = plans(prepared: true)
        XCTAssertEqual(together.count, 3)
        for (a, b) in zip(alone, together) {
            XCTAssertGreaterThan(a.count, 6 * 4, "dots are drawn in each region")
            XCTAssertEqual(a.map(\.position.x), b.map(\.position.x))
            XCTAssertEqual(a.map(\.position.y), b.map(\.position.y))
        }
    }

    func testShapesWithinTheirClipNeedNoScissorAndRectanglesOfOneTexelAreCutToIt() {
        let (plan, _) = plan(solid: white) { list in
            // A translucent band across the region's right edge, in the white texel.
            list.addRect(Rect(x: 40, y: 10, width: 200, height: 12), color: Color(r: 9, g: 9, b: 9, a: 100))
            list.addImage(translucent, in: Rect(x: 80, y: 30, width: 40, height: 8))  // a texture across the edge
            list.addImage(TextureHandle(id: 9), in: Rect(x: 10, y: 40, width: 8, height: 8))  // within
            list.addRoundedRect(Rect(x: 88, y: 50, width: 20, height: 10), radius: 3, color: .blue)  // across
        }
        XCTAssertEqual(plan.draws.map(\.texture), [white.texture, translucent, TextureHandle(id: 9), white.texture])
        XCTAssertEqual(plan.draws.map(\.needsClip), [false, true, false, true])
        let band = plan.draws[0]
        let xs = plan.vertices[band.vertexStart..<band.vertexStart + band.vertexCount].map(\.position.x)
        XCTAssertEqual(xs.max(), Float(region.width), "the band is cut to the region")
        XCTAssertEqual(covered(by: plan, band).count, (region.width - 40) * 12, "the same pixels as under the scissor")
    }

    func testTranslucentShapesHideNothing() {
        let (plan, _) = plan { list in
            list.addRect(Rect(x: 0, y: 0, width: 200, height: 100), color: .gray)
            list.addImage(translucent, in: Rect(x: 20, y: 10, width: 40, height: 30))
            list.addImage(
                photo, in: Rect(x: 20, y: 10, width: 40, height: 30), tint: Color(r: 255, g: 255, b: 255, a: 200))
        }
        XCTAssertEqual(plan.draws.map { $0.vertexCount }, [6, 6, 6], "all drawn, none cut")
        XCTAssertEqual(plan.hiddenShapes, 1, "only the clear, under the opaque panel")
    }

    func testShapesPastTheCoordinateLimitAreDrawnAsTheyAreAndHideNothing() {
        let huge = Double(RegionPlan.coordinateLimit) * 2
        let (plan, _) = plan { list in
            list.addImage(TextureHandle(id: 9), in: Rect(x: 30, y: 20, width: 8, height: 8))
            list.addImage(photo, in: Rect(x: -huge, y: -huge, width: 2 * huge, height: 2 * huge))
        }
        XCTAssertEqual(plan.draws.map { $0.vertexCount }, [6, 6])
        XCTAssertEqual(plan.hiddenShapes, 0)
        XCTAssertEqual(plan.clearPieces.count, 1)
    }

    func testAGridOfManyOpaqueCellsIsTestedAgainstItsLargestOnly() {
        let (plan, _) = plan { list in
            for i in 0..<40 {  // 40 flat cells of 4×4, then one photo over the middle of the region
                list.addImage(photo, in: Rect(x: Double(i % 10) * 8, y: Double(i / 10) * 8, width: 4, height: 4))
            }
            list.addImage(photo, in: Rect(x: 20.25, y: 10.25, width: 40.5, height: 30.5))
            list.addImage(TextureHandle(id: 9), in: Rect(x: 30, y: 20, width: 8, height: 8))  // over everything
        }
        XCTAssertEqual(plan.occluders.count, RegionPlan.maxOccluders)
        XCTAssertEqual(plan.occluders.map(\.at), plan.occluders.map(\.at).sorted(), "in drawing order")
        XCTAssertTrue(plan.occluders.contains { $0.box.x0 == 20.25 }, "the largest, the photo, is kept")
        XCTAssertGreaterThanOrEqual(plan.hiddenShapes, 2, "cells under the photo, and the clear")
    }

    func testSubtractingLeavesExactlyThePixelCentersOutsideTheHole() {
        var random = SystemRandomNumberGenerator()
        func edge() -> Float { Float(Int.random(in: 0...64, using: &random)) / 4 }  // quarter pixels
        for _ in 0..<500 {
            let a = [edge(), edge(), edge(), edge()], b = [edge(), edge(), edge(), edge()]
            let box = RegionPlan.Box(x0: min(a[0], a[1]), y0: min(a[2], a[3]), x1: max(a[0], a[1]), y1: max(a[2], a[3]))
            let hole = RegionPlan.Box(
                x0: min(b[0], b[1]), y0: min(b[2], b[3]), x1: max(b[0], b[1]), y1: max(b[2], b[3]))
            var pieces: [RegionPlan.Box] = []
            RegionPlan.subtract(hole, from: box, into: &pieces)
            func holds(_ r: RegionPlan.Box, _ x: Float, _ y: Float) -> Bool {
                r.x0 <= x && x < r.x1 && r.y0 <= y && y < r.y1
            }
            for y in 0..<17 {
                for x in 0..<17 {
                    let cx = Float(x) + 0.5, cy = Float(y) + 0.5
                    let expected = holds(box, cx, cy) && !holds(hole, cx, cy)
                    let count = pieces.filter { holds($0, cx, cy) }.count
                    XCTAssertEqual(count, expected ? 1 : 0, "\(box) less \(hole) at \(x), \(y): \(pieces)")
                }
            }
        }
    }
}
