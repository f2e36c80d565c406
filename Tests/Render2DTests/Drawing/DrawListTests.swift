import XCTest
@testable import Render2D

final class GeometryTests: XCTestCase {
    func testRectIntersectionContainmentAndInsets() {
        let a = Rect(x: 0, y: 0, width: 100, height: 50)
        let b = Rect(x: 80, y: 40, width: 50, height: 50)
        XCTAssertEqual(a.intersection(b), Rect(x: 80, y: 40, width: 20, height: 10))
        XCTAssertTrue(a.intersection(Rect(x: 200, y: 0, width: 5, height: 5)).isEmpty)
        XCTAssertTrue(a.contains(Point(99.9, 49.9)))
        XCTAssertFalse(a.contains(Point(100, 10)), "right edge is exclusive")
        XCTAssertEqual(a.inset(by: EdgeInsets(10)), Rect(x: 10, y: 10, width: 80, height: 30))
        XCTAssertEqual(a.inset(by: EdgeInsets(60)).size, Size(0, 0), "over-inset never goes negative")
    }

    func testColorHelpers() {
        XCTAssertEqual(Color(hex: 0x102030), Color(r: 0x10, g: 0x20, b: 0x30))
        XCTAssertEqual(Color.white.opacity(0.5).a, 128)
        XCTAssertEqual(Color.black.mix(.white, 0.5).r, 128)
        XCTAssertEqual(Color(red: .nan, green: 2, blue: -1).r, 0, "non-finite components clamp")
    }
}

final class DrawListTests: XCTestCase {
    private func list() -> DrawList {
        var l = DrawList()
        l.reset(scale: 1, solidTexture: TextureHandle(id: 7), whiteUV: SIMD2(0.5, 0.5))
        return l
    }

    func testStorageGrowsByHalfSoAScreenOfQuadsKeepsLittleRoomUnused() {
        var l = list()
        // A screen of 34,000 glyph-sized quads, as the text scene's first frames draw.
        for i in 0..<34_000 {
            l.addRect(Rect(x: Double(i % 200) * 6, y: Double(i / 200) * 4, width: 5, height: 3), color: .black)
        }
        XCTAssertEqual(l.vertexCount, 136_000)
        let room = l.storageCounts
        XCTAssertGreaterThanOrEqual(room.vertices, 136_000)
        XCTAssertGreaterThanOrEqual(room.indices, 204_000)
        // Doubling from 1,024 would hold 262,144 vertices and 393,216 indices.
        XCTAssertLessThan(Double(room.vertices), 1.5 * 136_000, "room for half as many again at most")
        XCTAssertLessThan(Double(room.indices), 1.5 * 204_000)
    }

    func testSolidsAndImagesBatchPerTexture() {
        var l = list()
        for i in 0..<100 { l.addRect(Rect(x: Double(i), y: 0, width: 5, height: 5), color: .red) }
        l.addRoundedRect(Rect(x: 0, y: 10, width: 50, height: 20), radius: 6, color: .blue)
        XCTAssertEqual(l.commands.count, 1, "every solid shape shares the atlas texture")
        XCTAssertEqual(l.commands[0].indexCount, l.indices.count)
        l.addImage(TextureHandle(id: 9), in: Rect(x: 0, y: 40, width: 10, height: 10))
        l.addRect(Rect(x: 0, y: 60, width: 5, height: 5), color: .red)
        XCTAssertEqual(l.commands.map(\.texture.id), [7, 9, 7])
        XCTAssertEqual(l.commands.map(\.indexCount).reduce(0, +), l.indices.count)
    }

    func testQuadsAreClippedOnTheCPUWithAdjustedUVs() {
        var l = list()
        l.pushClip(Rect(x: 0, y: 0, width: 50, height: 50))
        l.addImage(TextureHandle(id: 3), in: Rect(x: 25, y: 0, width: 50, height: 50))
        l.addRect(Rect(x: 60, y: 0, width: 10, height: 10), color: .red)  // fully outside
        l.popClip()
        XCTAssertEqual(l.vertices.count, 4, "the outside rect is dropped")
        XCTAssertNil(l.commands[0].scissor, "CPU-clipped quads need no scissor")
        let xs = l.vertices.map(\.position.x), us = l.vertices.map(\.tex_coord.x)
        XCTAssertEqual(xs.max(), 50)
        XCTAssertEqual(us.max()!, 0.5, accuracy: 1e-6, "half the image is visible, so half the UV range")
    }

    func testShapesStraddlingTheClipGetAScissorAndNestedClipsIntersect() {
        var l = list()
        l.pushClip(Rect(x: 0, y: 0, width: 100, height: 100))
        l.pushClip(Rect(x: 50, y: 50, width: 100, height: 100))
        XCTAssertEqual(l.clipRect, Rect(x: 50, y: 50, width: 50, height: 50))
        l.addRoundedRect(Rect(x: 40, y: 40, width: 30, height: 30), radius: 8, color: .green)
        l.popClip()
        XCTAssertEqual(l.clipRect, Rect(x: 0, y: 0, width: 100, height: 100))
        l.addRoundedRect(Rect(x: 10, y: 10, width: 30, height: 30), radius: 8, color: .green)
        l.popClip()
        XCTAssertEqual(l.commands.count, 2)
        XCTAssertEqual(l.commands[0].scissor, Rect(x: 50, y: 50, width: 50, height: 50))
        XCTAssertNil(l.commands[1].scissor, "a shape fully inside its clip needs no scissor")
    }

    func testScaleMultipliesLogicalCoordinates() {
        var l = DrawList()
        l.reset(scale: 2, solidTexture: TextureHandle(id: 1), whiteUV: .zero)
        l.addRect(Rect(x: 10, y: 10, width: 5, height: 5), color: .red)
        XCTAssertEqual(l.vertices.map(\.position.x).max(), 30)
    }

    func testTruncateToMarkUndoesGeometry() {
        var l = list()
        l.addRect(Rect(x: 0, y: 0, width: 5, height: 5), color: .red)
        let mark = l.mark
        l.addImage(TextureHandle(id: 2), in: Rect(x: 0, y: 0, width: 5, height: 5))
        l.addCircle(center: Point(20, 20), radius: 5, color: .red)
        l.truncate(to: mark)
        XCTAssertEqual(l.vertices.count, 4)
        XCTAssertEqual(l.commands.count, 1)
        XCTAssertEqual(l.commands[0].indexCount, 6)
    }

    func testCapsuleCoreStaysASimpleConvexPolygon() {
        // Width == 2 × radius: the corner arcs meet in single points. The fan from the
        // centroid overlaps itself (a dark sliver with translucent colors) unless the core
        // polygon keeps one orientation all the way round.
        var l = list()
        l.addRoundedRect(Rect(x: 10, y: 10, width: 6, height: 200), radius: 3, color: .red)
        let core = Array(l.vertices.dropFirst()).enumerated().filter { $0.offset % 2 == 0 }.map {
            SIMD2($0.element.position.x, $0.element.position.y)
        }
        XCTAssertGreaterThan(core.count, 4)
        var signs = Set<Bool>()
        for i in core.indices {
            let a = core[i], b = core[(i + 1) % core.count], c = core[(i + 2) % core.count]
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            if abs(cross) > 1e-3 { signs.insert(cross > 0) }
        }
        XCTAssertEqual(signs.count, 1, "every turn of the core polygon goes the same way")
    }

    /// A radius that is not a number draws a shape of the fewest segments instead of trapping;
    /// a huge one, of the most.
    func testRoundedShapesTakeAnyRadius() {
        var list = DrawList(scale: 2)
        let rect = Rect(x: 10, y: 10, width: 40, height: 20)
        list.addRoundedRect(rect, radius: .nan, color: .white)
        list.addRectBorder(rect, radius: .nan, color: .white)
        list.addCircle(center: Point(30, 30), radius: 1e300, color: .white)
        list.addCircleBorder(center: Point(30, 30), radius: .infinity, color: .white)
        XCTAssertGreaterThan(list.indexCount, 0)
        // A negative or not-a-number thickness draws (its alpha stays a byte) instead of trapping.
        var strokes = DrawList(scale: 1)
        for thickness in [-2.0, -0.25, .nan, -.infinity] {
            strokes.addRectBorder(rect, radius: 4, color: .white, thickness: thickness)
            strokes.addLine(from: Point(0, 0), to: Point(40, 0), color: .white, thickness: thickness)
            strokes.addCircleBorder(center: Point(30, 30), radius: 8, color: .white, thickness: thickness)
        }
        XCTAssertGreaterThan(strokes.indexCount, 0)
    }

    /// A rounded rectangle is tessellated once for its size, radius, border and scale, and
    /// placed again by moving it: a shape that differs in any of them is made anew, and each
    /// one placed from the kept ones is the shape drawn alone in a new list.
    func testRoundedRectanglesAreKeptByEverythingTheirShapeDependsOn() {
        struct Shape {
            var rect: Rect, radius: Double, border: Double?, scale: Double = 1
        }
        let base = Shape(rect: Rect(x: 10, y: 20, width: 120, height: 28), radius: 6, border: nil)
        var variants = [base]
        variants.append(Shape(rect: Rect(x: 300.5, y: 7.25, width: 120, height: 28), radius: 6, border: nil))
        variants.append(Shape(rect: Rect(x: 10, y: 20, width: 121, height: 28), radius: 6, border: nil))
        variants.append(Shape(rect: Rect(x: 10, y: 20, width: 120, height: 29), radius: 6, border: nil))
        variants.append(Shape(rect: base.rect, radius: 9, border: nil))
        variants.append(Shape(rect: base.rect, radius: 6, border: 1))
        variants.append(Shape(rect: base.rect, radius: 6, border: 0.5))
        variants.append(Shape(rect: base.rect, radius: 6, border: 2))
        variants.append(Shape(rect: base.rect, radius: 6, border: nil, scale: 2))
        variants.append(Shape(rect: base.rect, radius: 6, border: 1, scale: 1.5))
        func draw(_ shape: Shape, into list: inout DrawList) {
            list.scale = shape.scale
            if let border = shape.border {
                list.addRectBorder(shape.rect, radius: shape.radius, color: .red, thickness: border)
            } else {
                list.addRoundedRect(shape.rect, radius: shape.radius, color: .red)
            }
        }
        var all = DrawList()
        for (k, shape) in variants.enumerated() {
            let before = all.vertexCount, indicesBefore = all.indexCount
            draw(shape, into: &all)
            var alone = DrawList()
            draw(shape, into: &alone)
            let placed = Array(all.vertices[before...])
            XCTAssertEqual(placed.count, alone.vertexCount, "variant \(k)")
            for (a, b) in zip(placed, alone.vertices) {
                XCTAssertEqual(a.position.x, b.position.x, "variant \(k)")
                XCTAssertEqual(a.position.y, b.position.y, "variant \(k)")
                XCTAssertEqual(a.color.a, b.color.a, "variant \(k)")
            }
            XCTAssertEqual(
                all.indices[indicesBefore...].map { $0 - Int32(before) }, Array(alone.indices), "variant \(k)")
        }
        XCTAssertEqual(all.roundedRects.count, variants.count - 1, "the moved one was placed from the kept shape")
        // A thin border takes its coverage from alpha, kept shape or not.
        XCTAssertEqual(Set(all.vertices.map(\.color.a)), [0, 127, 255])

        var notANumber = DrawList()
        notANumber.addRectBorder(base.rect, radius: .nan, color: .white, thickness: .nan)
        XCTAssertEqual(notANumber.roundedRects.count, 0, "a size that is not a number is not kept")
    }

    /// A kept drawing placed on a whole pixel is the drawing made there: the same triangles,
    /// its fringes and thin lines' alpha scaled by the color's; it is made once per name, size
    /// and scale, and placed anywhere after that.
    func testAKeptShapeIsTheDrawingMadeWhereItIsPlaced() {
        var made = 0
        func icon(_ list: inout DrawList, at origin: Point, size: Double = 16, color: Color) {
            list.addKeptShape("ring", size: size, at: origin, color: color) {
                made += 1
                $0.addCircleBorder(center: Point(size / 2, size / 2), radius: size * 0.4, color: .white, thickness: 0.5)
                $0.addPolygon([Point(2, 2), Point(size - 2, 2), Point(size / 2, size / 2)], color: .white)
            }
        }
        func direct(_ list: inout DrawList, at origin: Point, size: Double = 16, color: Color) {
            list.addCircleBorder(
                center: Point(origin.x + size / 2, origin.y + size / 2), radius: size * 0.4, color: color,
                thickness: 0.5)
            list.addPolygon(
                [
                    Point(origin.x + 2, origin.y + 2), Point(origin.x + size - 2, origin.y + 2),
                    Point(origin.x + size / 2, origin.y + size / 2),
                ], color: color)
        }
        let red = Color(r: 200, g: 10, b: 10, a: 128)
        for (origin, placedAt, scale) in [
            (Point(10, 20), Point(10, 20), 1.0), (Point(300.4, 7.6), Point(300, 8), 1.0),
            (Point(40, 40), Point(40, 40), 2.0), (Point(41.3, 40), Point(41.5, 40), 2.0),
        ] {
            var kept = DrawList(scale: scale)
            made = 0
            icon(&kept, at: Point(0, 0), color: .white)  // made here, once
            let before = kept.vertexCount, indicesBefore = kept.indexCount
            icon(&kept, at: origin, color: red)
            var alone = DrawList(scale: scale)
            direct(&alone, at: placedAt, color: red)
            let placed = Array(kept.vertices[before...])
            XCTAssertEqual(placed.count, alone.vertexCount, "at \(origin)")
            for (a, b) in zip(placed, alone.vertices) {
                XCTAssertEqual(a.position.x, b.position.x, accuracy: 1e-3, "at \(origin)")
                XCTAssertEqual(a.position.y, b.position.y, accuracy: 1e-3, "at \(origin)")
                XCTAssertEqual(Int(a.color.a), Int(b.color.a), accuracy: 1, "at \(origin)")
                XCTAssertEqual([a.color.r, a.color.g, a.color.b], [200, 10, 10])
            }
            XCTAssertEqual(kept.indices[indicesBefore...].map { $0 - Int32(before) }, Array(alone.indices))
            XCTAssertEqual(kept.keptShapes.count, 1)
            XCTAssertEqual(made, 1, "made once, placed after that")
        }
        var other = DrawList()
        icon(&other, at: Point(0, 0), size: 24, color: .white)
        icon(&other, at: Point(5, 5), size: .nan, color: .white)
        XCTAssertEqual(
            other.keptShapes.count, 1, "another size is another drawing; a size that is not a number is not kept")
    }

    func testAntiAliasedFillHasTransparentFringe() {
        var l = list()
        l.addCircle(center: Point(50, 50), radius: 20, color: .red)
        let alphas = Set(l.vertices.map(\.color.a))
        XCTAssertEqual(alphas, [0, 255], "solid core plus a fringe fading to zero")
    }

    /// What `TesseraTesting.Harness.rect(ofText:)` reads: the text drawn, where it shows.
    func testDrawnTextIsNotedOnlyWhenAskedWhereVisibleAndForgottenOnTruncate() throws {
        try MainActor.assumeIsolated {
            let font = try FontLibrary(atlas: GlyphAtlas()).font(size: 15)
            var l = DrawList()
            font.draw("unrecorded", at: Point(0, 0), color: .black, into: &l)
            XCTAssertEqual(l.drawnText, [], "off by default")
            l.recordsText = true
            let width = font.draw("Hello", at: Point(10, 20), color: .black, into: &l)
            XCTAssertEqual(
                l.drawnText, [DrawnText(text: "Hello", rect: Rect(x: 10, y: 20, width: width, height: font.lineHeight))]
            )
            l.pushClip(Rect(x: 0, y: 0, width: 100, height: 100))
            font.draw("clipped away", at: Point(200, 20), color: .black, into: &l)
            l.popClip()
            let mark = l.mark
            font.draw("measured, then dropped", at: Point(0, 40), color: .black, into: &l)
            l.truncate(to: mark)
            XCTAssertEqual(l.drawnText.map(\.text), ["Hello"], "clipped and truncated text is not noted")
            l.reset(scale: 1, solidTexture: .none, whiteUV: .zero)
            XCTAssertEqual(l.drawnText, [])
            XCTAssertTrue(l.recordsText, "a reset keeps the setting")
        }
    }
}
