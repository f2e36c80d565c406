import XCTest
import TesseraTesting
@testable import Render2D

/// `DamageTracker` without a window: which tiles a change of draw commands damages.
final class DamageTrackerTests: XCTestCase {
    private func list(_ draw: (inout DrawList) -> Void) -> DrawList {
        var list = DrawList(scale: 1)
        draw(&list)
        return list
    }

    /// A frame of two rectangles, an image and a clipped rectangle; `change` alters one thing.
    private func scene(hover: Color = .blue, imageTint: Color = .white, clipped: Color = .red) -> DrawList {
        list { l in
            l.addRect(Rect(x: 0, y: 0, width: 320, height: 24), color: .gray)  // a toolbar
            l.addRect(Rect(x: 40, y: 40, width: 10, height: 10), color: hover)  // a hover highlight, one tile
            l.addImage(TextureHandle(id: 7), in: Rect(x: 200, y: 100, width: 50, height: 50), tint: imageTint)
            l.pushClip(Rect(x: 0, y: 160, width: 100, height: 40))
            l.addRect(Rect(x: 120, y: 170, width: 30, height: 10), color: clipped)  // wholly outside its clip
            l.popClip()
        }
    }

    /// The damage `second` does after `first`: whole tiles, or `cut` to the changed commands.
    private func damage(
        _ first: DrawList, _ second: DrawList, generations: [UInt32: UInt64] = [:], seed: UInt64 = 0,
        size: (Int, Int) = (320, 200), cut: Bool = false
    ) -> Damage {
        var tracker = DamageTracker()
        tracker.cutsRegionsToChanges = cut
        tracker.beginFrame(width: 320, height: 200, seed: 0)
        tracker.add(first) { _ in 0 }
        XCTAssertEqual(tracker.endFrame(), .full, "the first frame is all damage")
        tracker.beginFrame(width: size.0, height: size.1, seed: seed)
        tracker.add(second) { generations[$0.id] ?? 0 }
        return tracker.endFrame()
    }

    /// A gray cell, and the same cell with a 2-pixel blue ring drawn in its command.
    private func ringFrames(around cell: Rect, radius: Double) -> (plain: DrawList, ringed: DrawList) {
        let plain = list { l in l.addRect(cell, color: .gray) }
        let ringed = list { l in
            l.addRect(cell, color: .gray)
            l.addRectBorder(cell, radius: radius, color: .blue, thickness: 2)
        }
        return (plain, ringed)
    }

    func testTheSameCommandsDamageNothing() {
        XCTAssertEqual(damage(scene(), scene()), .none)
    }

    func testAChangedRectangleDamagesOnlyTheTilesItTouches() {
        // The highlight spans 40...50 (a pixel's margin: 39...51): tile (1, 1) only.
        XCTAssertEqual(
            damage(scene(), scene(hover: .green)), .regions([PixelRect(x: 32, y: 32, width: 32, height: 32)]))
    }

    func testNewTexturePixelsDamageWhereTheTextureIsDrawn() {
        // The image covers 200...250 × 100...150 (199...251 × 99...151 with the margin): columns 6-7, rows 3-4.
        XCTAssertEqual(
            damage(scene(), scene(), generations: [7: 1]),
            .regions([PixelRect(x: 192, y: 96, width: 64, height: 64)]))
        XCTAssertEqual(damage(scene(), scene(imageTint: .red)), damage(scene(), scene(), generations: [7: 1]))
    }

    func testRegionsAreCutToWhereTheChangedCommandsDraw() {
        // The image, with a pixel's margin: 199...251 × 99...151.
        XCTAssertEqual(
            damage(scene(), scene(), generations: [7: 1], cut: true),
            .regions([PixelRect(x: 199, y: 99, width: 52, height: 52)]))
        // A ring's four sides: the ring and its margin, 39...241 × 39...161.
        let cell = Rect(x: 40, y: 40, width: 200, height: 120)
        let plain = list { l in l.addRect(cell, color: .gray) }
        let ringed = list { l in
            l.addRect(cell, color: .gray)
            l.addImage(TextureHandle(id: 7), in: Rect(x: 300, y: 0, width: 10, height: 10))
            l.addRectBorder(cell, radius: 0, color: .blue, thickness: 2)
        }
        let unringed = list { l in
            l.addRect(cell, color: .gray)
            l.addImage(TextureHandle(id: 7), in: Rect(x: 300, y: 0, width: 10, height: 10))
        }
        let ring = Damage.regions([PixelRect(x: 39, y: 39, width: 202, height: 122)])
        XCTAssertEqual(damage(unringed, ringed, cut: true), ring, "where it draws")
        XCTAssertEqual(damage(ringed, unringed, cut: true), ring, "where it drew")
        // A list that comes (or goes) with a frame, a popover: where it draws (or drew).
        let popover = list { l in
            l.addRectBorder(Rect(x: 40, y: 40, width: 60, height: 40), radius: 0, color: .blue, thickness: 2)
            l.addImage(TextureHandle(id: 7), in: Rect(x: 300, y: 0, width: 10, height: 10))
        }
        var tracker = DamageTracker()
        var regions: [Damage] = []
        for lists in [[plain], [plain, popover], [plain], [plain]] {
            tracker.beginFrame(width: 320, height: 200, seed: 0)
            for list in lists { tracker.add(list) { _ in 0 } }
            regions.append(tracker.endFrame())
        }
        let ringAndImage = Damage.regions([
            PixelRect(x: 299, y: 0, width: 12, height: 11), PixelRect(x: 39, y: 39, width: 62, height: 42),
        ])
        XCTAssertEqual(regions, [.full, ringAndImage, ringAndImage, .none])
        // Two changes, each in its own tiles: each region holds only its own change.
        let before = list { l in
            l.addRect(Rect(x: 2, y: 2, width: 20, height: 60), color: .gray)
            l.addImage(TextureHandle(id: 7), in: Rect(x: 250, y: 150, width: 10, height: 10))
        }
        let after = list { l in
            l.addRect(Rect(x: 2, y: 2, width: 20, height: 60), color: .black)
            l.addImage(TextureHandle(id: 7), in: Rect(x: 250, y: 150, width: 10, height: 10), tint: .red)
        }
        XCTAssertEqual(
            damage(before, after, cut: true),
            .regions([
                PixelRect(x: 1, y: 1, width: 22, height: 62), PixelRect(x: 249, y: 149, width: 12, height: 12),
            ]))
        // Solid shapes in a row share a command, but only the highlight's quad changed in it:
        // its tile is cut to the highlight (40...50, with the margin), not the toolbar too.
        XCTAssertEqual(
            damage(scene(), scene(hover: .green), cut: true), .regions([PixelRect(x: 39, y: 39, width: 12, height: 12)])
        )
    }

    func testARingIsRedrawnAsItsSidesWhereThatIsCheaper() {
        // A 2-pixel ring around a 400×300 cell, drawn in the cell's command: its sides, four
        // regions no wider than a tile (each the ring's part of a run of damaged tiles), cost
        // less to redraw than the cell's 120,000 pixels. The ring reaches 38...442 × 38...342
        // (its antialiased edge, and the margin).
        let (plain, ringed) = ringFrames(around: Rect(x: 40, y: 40, width: 400, height: 300), radius: 6)
        let ringBox = PixelRect(x: 38, y: 38, width: 404, height: 304)
        for (first, second) in [(plain, ringed), (ringed, plain)] {
            var tracker = DamageTracker()
            for (index, frame) in [first, second].enumerated() {
                tracker.beginFrame(width: 640, height: 400, seed: 0)
                tracker.add(frame) { _ in 0 }
                let damage = tracker.endFrame()
                guard index == 1 else { continue }
                guard case .regions(let sides) = damage else { return XCTFail("\(damage)") }
                XCTAssertEqual(sides.count, 4, "\(sides)")
                XCTAssertEqual(PixelRect.bounds(of: sides), ringBox)
                for side in sides {
                    XCTAssertTrue(ringBox.holds(side))
                    XCTAssertLessThanOrEqual(min(side.width, side.height), DamageTracker.tileSize, "\(side)")
                }
                XCTAssertLessThan(sides.reduce(0) { $0 + $1.area }, ringBox.area / 5)
            }
        }
    }

    func testCuttingARegionGroupsTheChangesItHolds() {
        typealias Clip = HashedCommand.Clip
        let region = PixelRect(x: 0, y: 0, width: 256, height: 256)
        // Nothing changed in it (cannot happen, but safe): the region whole.
        XCTAssertEqual(DamageTracker.cut(region, to: []), [region])
        // Two changes far apart: each its own rectangle, in whole pixels, the second cut to the region.
        XCTAssertEqual(
            DamageTracker.cut(
                region, to: [Clip(x0: 10.5, y0: 10.5, x1: 20.25, y1: 20), Clip(x0: 240, y0: 240, x1: 300, y1: 300)]),
            [PixelRect(x: 10, y: 10, width: 11, height: 10), PixelRect(x: 240, y: 240, width: 16, height: 16)])
        // Changes close together (a line of glyphs): one rectangle.
        let glyphs = (0..<8).map { (i: Int) -> Clip in
            let x = Float(20 + i * 9)
            return Clip(x0: x, y0: 100, x1: x + 8, y1: 112)
        }
        XCTAssertEqual(DamageTracker.cut(region, to: glyphs), [PixelRect(x: 20, y: 100, width: 71, height: 12)])
        // A change outside the region is not in it.
        XCTAssertEqual(
            DamageTracker.cut(region, to: [Clip(x0: 300, y0: 0, x1: 310, y1: 10), Clip(x0: 1, y0: 1, x1: 2, y1: 2)]),
            [PixelRect(x: 1, y: 1, width: 1, height: 1)])
    }

    func testManyChangedQuadsInOneCommandCutToTheCommand() {
        // 400 dots of one command change color: more quads than are noted one by one, so the
        // region is cut to the command's bounds (the dots and their margin).
        func dots(_ color: Color) -> DrawList {
            list { l in
                for i in 0..<400 {
                    l.addRect(
                        Rect(x: Double(20 + i % 20 * 4), y: Double(20 + i / 20 * 4), width: 2, height: 2), color: color)
                }
            }
        }
        XCTAssertEqual(
            damage(dots(.gray), dots(.black), cut: true), .regions([PixelRect(x: 19, y: 19, width: 80, height: 80)]))
        XCTAssertEqual(
            damage(dots(.gray), dots(.black)), .regions([PixelRect(x: 0, y: 0, width: 128, height: 128)]), "whole tiles"
        )
    }

    func testWithoutTheLastFramesListsRegionsStayWholeTiles() {
        // The first frame keeps nothing (`remembers: false`, as after a scroll): the second
        // cannot tell what its changed tiles held, and redraws them whole.
        var tracker = DamageTracker()
        tracker.beginFrame(width: 320, height: 200, seed: 0, remembers: false)
        tracker.add(scene()) { _ in 0 }
        XCTAssertEqual(tracker.endFrame(), .full)
        tracker.beginFrame(width: 320, height: 200, seed: 0, remembers: true)
        tracker.add(scene()) { $0.id == 7 ? 1 : 0 }
        XCTAssertEqual(tracker.endFrame(), .regions([PixelRect(x: 192, y: 96, width: 64, height: 64)]))
    }

    func testAChangeHiddenByItsClipDamagesNothing() {
        XCTAssertEqual(damage(scene(), scene(clipped: .green)), .none)
    }

    func testANewSizeOrClearColorOrAWholeWindowChangeIsFull() {
        XCTAssertEqual(damage(scene(), scene(), seed: 1), .full, "a new clear color")
        XCTAssertEqual(damage(scene(), scene(), size: (321, 200)), .full, "a new size")
        let moved = list { l in l.addRect(Rect(x: 0, y: 1, width: 320, height: 200), color: .gray) }
        let before = list { l in l.addRect(Rect(x: 0, y: 0, width: 320, height: 200), color: .gray) }
        XCTAssertEqual(damage(before, moved), .full, "every tile changed: a scroll")
    }

    func testSeparateChangesAreSeparateRegionsAndRowsStack() {
        let before = list { l in
            l.addRect(Rect(x: 2, y: 2, width: 20, height: 60), color: .gray)
            l.addRect(Rect(x: 250, y: 150, width: 10, height: 10), color: .gray)
        }
        let after = list { l in
            l.addRect(Rect(x: 2, y: 2, width: 20, height: 60), color: .black)
            l.addRect(Rect(x: 250, y: 150, width: 10, height: 10), color: .black)
        }
        // A 20×60 bar at the left (rows 0-1 of column 0, stacked); a square at 250...260 ×
        // 150...160, with a pixel's margin 249...261 × 149...161: columns 7-8, rows 4-5.
        XCTAssertEqual(
            damage(before, after),
            .regions([
                PixelRect(x: 0, y: 0, width: 32, height: 64), PixelRect(x: 224, y: 128, width: 64, height: 64),
            ]))
    }

    func testAHoverRingIsRedrawnAsOneRectangle() {
        // A cell's 2-pixel ring: its four sides damage a frame of tiles around the cell, four
        // runs; drawing them as four regions would issue every command under them four times.
        let (plain, ringed) = ringFrames(around: Rect(x: 40, y: 40, width: 200, height: 120), radius: 0)
        XCTAssertEqual(damage(plain, ringed), .regions([PixelRect(x: 32, y: 32, width: 224, height: 160)]))
    }

    func testRegionsMergeOnlyWhereTheirBoxCostsLessThanDrawingThemApart() {
        let tile = DamageTracker.tileSize
        let a = PixelRect(x: 0, y: 0, width: tile, height: tile)
        let nearA = PixelRect(x: 3 * tile, y: 0, width: tile, height: tile)  // the box adds 2 tiles
        XCTAssertEqual(
            DamageTracker.mergedWhereCheaper([a, nearA]), [PixelRect(x: 0, y: 0, width: 4 * tile, height: tile)])
        let farFromA = PixelRect(x: 8 * tile, y: 8 * tile, width: tile, height: tile)  // the box adds 79 tiles
        XCTAssertEqual(DamageTracker.mergedWhereCheaper([a, farFromA]), [a, farFromA])
        XCTAssertEqual(
            DamageTracker.mergedWhereCheaper([a, farFromA, nearA]),
            [farFromA, PixelRect(x: 0, y: 0, width: 4 * tile, height: tile)], "two near ones merge, the far one stays")
        // Three close together: the nearest pair first, then the third into their box.
        let under = PixelRect(x: tile, y: 0, width: tile, height: 2 * tile)
        let merged = DamageTracker.mergedWhereCheaper([a, nearA, under])
        XCTAssertEqual(merged, [PixelRect(x: 0, y: 0, width: 4 * tile, height: 2 * tile)])
    }

    /// A hover ring's four sides are four regions to draw, but one box to present on X11,
    /// where a copy to the window costs as much as 24,000 pixels.
    func testARingIsDrawnAsItsSidesButPresentedAsItsBox() {
        let top = PixelRect(x: 238, y: 196, width: 185, height: 4)
        let bottom = PixelRect(x: 238, y: 377, width: 185, height: 4)
        let left = PixelRect(x: 238, y: 200, width: 4, height: 177)
        let right = PixelRect(x: 419, y: 200, width: 4, height: 177)
        let sides = [top, bottom, left, right]
        XCTAssertEqual(DamageTracker.mergedWhereCheaper(sides), sides, "drawn as its sides")
        XCTAssertEqual(
            DamageTracker.mergedWhereCheaper(sides, regionCost: DamageTracker.presentCostInPixels),
            [PixelRect(x: 238, y: 196, width: 185, height: 185)], "presented as its box")
        // Two cells far apart stay two copies.
        let far = PixelRect(x: 1000, y: 600, width: 185, height: 185)
        XCTAssertEqual(
            DamageTracker.mergedWhereCheaper(
                [PixelRect(x: 238, y: 196, width: 185, height: 185), far],
                regionCost: DamageTracker.presentCostInPixels
            ).count, 2)
    }

    func testChangesScatteredOverTheWindowAreOneBoxAtOnce() {
        // Every other tile of every other row of a 1280×800 window: 260 regions, past the
        // pairwise search's limit (which would take seconds over them), so one bounding box.
        let tile = DamageTracker.tileSize
        var scattered: [PixelRect] = []
        for row in stride(from: 0, to: 25, by: 2) {
            for column in stride(from: 0, to: 40, by: 2) {
                scattered.append(PixelRect(x: column * tile, y: row * tile, width: tile, height: tile))
            }
        }
        XCTAssertEqual(
            DamageTracker.mergedWhereCheaper(scattered), [PixelRect(x: 0, y: 0, width: 39 * tile, height: 25 * tile)])
    }

    func testInvalidatingForgetsTheLastFrame() {
        var tracker = DamageTracker()
        for _ in 0..<2 {
            tracker.beginFrame(width: 320, height: 200, seed: 0)
            tracker.add(scene()) { _ in 0 }
            _ = tracker.endFrame()
        }
        tracker.invalidate()
        tracker.beginFrame(width: 320, height: 200, seed: 0)
        tracker.add(scene()) { _ in 0 }
        XCTAssertEqual(tracker.endFrame(), .full)
    }

    func testNonFiniteCoordinatesDoNotTrap() {
        let bad = list { l in
            l.addRect(Rect(x: .nan, y: 10, width: 10, height: 10), color: .red)
            l.addRect(Rect(x: 1e30, y: -1e30, width: .infinity, height: 10), color: .red)
            l.addLine(from: Point(.nan, .infinity), to: Point(10, 10), color: .red, thickness: 2)
        }
        XCTAssertEqual(damage(bad, bad), .none, "hashed without trapping, and the same both times")
    }
}

/// What a back buffer of a given age needs redrawn: the damage of every frame since it was drawn.
final class BackBufferAgeTests: XCTestCase {
    private let caret = PixelRect(x: 0, y: 0, width: 32, height: 32)
    private let hover = PixelRect(x: 64, y: 0, width: 64, height: 32)
    private let thumbnail = PixelRect(x: 0, y: 96, width: 32, height: 64)

    func testEachAgeAddsTheDamageOfTheFramesSinceTheBufferWasDrawn() {
        let history: [[PixelRect]?] = [[thumbnail], [hover]]  // oldest first
        XCTAssertEqual(Renderer.regionsToRedraw(thisFrame: [caret], history: history, backBufferAge: 1), [caret])
        XCTAssertEqual(
            Renderer.regionsToRedraw(thisFrame: [caret], history: history, backBufferAge: 2), [caret, hover])
        XCTAssertEqual(
            Renderer.regionsToRedraw(thisFrame: [caret], history: history, backBufferAge: 3),
            [caret, hover, thumbnail])
        XCTAssertEqual(Renderer.regionsToRedraw(thisFrame: [], history: history, backBufferAge: 2), [hover])
    }

    func testAWholeFrameInBetweenOrTooShortAHistoryMeansWhole() {
        XCTAssertNil(Renderer.regionsToRedraw(thisFrame: [caret], history: [nil, [hover]], backBufferAge: 3))
        XCTAssertNil(Renderer.regionsToRedraw(thisFrame: nil, history: [[hover]], backBufferAge: 1))
        XCTAssertNil(Renderer.regionsToRedraw(thisFrame: [caret], history: [[hover]], backBufferAge: 3))
        XCTAssertNil(Renderer.regionsToRedraw(thisFrame: [caret], history: [], backBufferAge: 0))
    }
}

/// `DamageTracker` repeating the tile steps of commands unchanged since the last frame.
final class RepeatedCommandTests: XCTestCase {
    /// Over a random run of changes (shapes moved, recolored, added, removed, clipped; a
    /// texture's pixels replaced; an overlay list that comes and goes; the window turned), a
    /// tracker that keeps its lists and repeats unchanged commands finds every frame's damaged
    /// tiles exactly as one that hashes every command afresh; cutting them to the changes
    /// leaves each region within its tiles.
    func testRepeatingUnchangedCommandsFindsWhatHashingEveryCommandFinds() {
        onMain { Self.findsWhatHashingEveryCommandFinds() }
    }

    @MainActor private static func findsWhatHashingEveryCommandFinds() {
        var scene = RandomScene(seed: 0x9E37_79B9_7F4A_7C15)  // (text: rectangles, without a font)
        var overlayRandom = SceneRandom(state: 7)
        var generations: [UInt32: UInt64] = [:]
        var remembering = DamageTracker(), cutting = DamageTracker(), hashingAll = DamageTracker()
        remembering.cutsRegionsToChanges = false
        var repeated = 0, cut = 0
        for frame in 0..<400 {
            if let texture = scene.change() { generations[UInt32(texture), default: 0] += 1 }
            var content = DrawList(scale: 1)
            scene.draw(into: &content, texture: { TextureHandle(id: UInt32($0)) }, font: nil)
            var overlay = DrawList(scale: 1)
            overlay.addRect(overlayRandom.rect(), color: .red)
            let lists = frame % 7 < 3 ? [content, overlay] : [content]
            // Every 50 frames the window turns: as many tiles, in other places.
            let (width, height) = frame / 50 % 2 == 0 ? (320, 200) : (200, 320)
            for (index, remembers) in [true, true, false].enumerated() {
                func hash(_ tracker: inout DamageTracker) {
                    tracker.beginFrame(width: width, height: height, seed: 0, remembers: remembers)
                    for list in lists { tracker.add(list) { generations[$0.id] ?? 0 } }
                }
                switch index {
                case 0: hash(&remembering)
                case 1: hash(&cutting)
                default: hash(&hashingAll)
                }
            }
            repeated += remembering.commandsRepeated
            XCTAssertEqual(hashingAll.commandsRepeated, 0)
            let tiles = hashingAll.endFrame(), cutDamage = cutting.endFrame()
            XCTAssertEqual(remembering.endFrame(), tiles, "frame \(frame)")
            if case .regions(let tileRegions) = tiles, case .regions(let cutRegions) = cutDamage {
                for region in cutRegions {
                    XCTAssertTrue(
                        tileRegions.contains { $0.holds(region) }, "frame \(frame): \(region) within \(tileRegions)")
                    if !tileRegions.contains(region) { cut += 1 }
                }
            } else {
                XCTAssertEqual(cutDamage, tiles, "frame \(frame)")
            }
        }
        XCTAssertGreaterThan(repeated, 400, "most frames repeat some commands")
        XCTAssertGreaterThan(cut, 100, "regions are cut to what changed in them")
    }

    /// After a hover, only the command holding the highlight is hashed again: the image and
    /// the text after it are repeated, even though their vertices moved in the list.
    func testOnlyTheChangedCommandIsHashedAgain() {
        func frame(highlight: Bool) -> DrawList {
            var list = DrawList(scale: 1)
            list.addRect(Rect(x: 0, y: 0, width: 320, height: 24), color: .gray)
            if highlight { list.addRect(Rect(x: 40, y: 40, width: 10, height: 10), color: .blue) }
            list.addImage(TextureHandle(id: 7), in: Rect(x: 200, y: 100, width: 50, height: 50), tint: .white)
            list.addRect(Rect(x: 200, y: 160, width: 50, height: 12), color: .gray)
            return list
        }
        var tracker = DamageTracker()
        var damages: [Damage] = [], repeated: [Int] = []
        for highlight in [false, true, false, false] {
            tracker.beginFrame(width: 320, height: 200, seed: 0, remembers: true)
            tracker.add(frame(highlight: highlight)) { _ in 0 }
            damages.append(tracker.endFrame())
            repeated.append(tracker.commandsRepeated)
        }
        // Three commands: the solid shapes up to the image, the image, the label after it.
        XCTAssertEqual(repeated, [0, 2, 2, 3])
        // Its tile, cut to where the highlight draws, then drew (40...50, with the margin):
        // it shares the toolbar's command, whose other quads did not change.
        XCTAssertEqual(damages[1], .regions([PixelRect(x: 39, y: 39, width: 12, height: 12)]))
        XCTAssertEqual(damages[2], damages[1])
        XCTAssertEqual(damages[3], .none)
    }
}

extension PixelRect {
    /// Whether `other` lies within it.
    func holds(_ other: PixelRect) -> Bool {
        x <= other.x && y <= other.y && other.x + other.width <= x + width && other.y + other.height <= y + height
    }
}
