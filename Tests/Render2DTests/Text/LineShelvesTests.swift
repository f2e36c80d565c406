import XCTest
@testable import Render2D

/// The bookkeeping behind composed lines: where lines go in the atlas's line space, and when
/// their space is handed on.
final class LineShelvesTests: XCTestCase {
    private func placement(_ p: (shelf: Int, epoch: UInt32, x: Int, y: Int)) -> LinePlacement {
        LinePlacement(shelf: Int32(p.shelf), epoch: p.epoch, uv0: .zero, uv1: .zero)
    }

    func testLinesOfOneHeightShareAShelfLeftToRightAndOthersGetTheirOwn() throws {
        var shelves = LineShelves(left: 0, top: 512, width: 1024, height: 512)
        let a = try XCTUnwrap(shelves.place(width: 100, height: 17, frame: 1))
        let b = try XCTUnwrap(shelves.place(width: 50, height: 18, frame: 1))
        XCTAssertEqual(a.shelf, b.shelf, "17 and 18 px lines share 20 px shelves")
        XCTAssertEqual([a.x, a.y, b.x, b.y], [0, 512, 101, 512], "one pixel apart")
        let tall = try XCTUnwrap(shelves.place(width: 100, height: 30, frame: 1))
        XCTAssertNotEqual(tall.shelf, a.shelf)
        XCTAssertEqual(tall.y, 512 + LineShelves.shelfHeight(for: 17), "the next shelf starts below the first")
        XCTAssertNil(shelves.place(width: 1024, height: 10, frame: 1), "wider than the space")
        XCTAssertNil(shelves.place(width: 10, height: 600, frame: 1), "taller than the space")
    }

    func testTheLeastRecentlyDrawnShelfIsHandedOnAndItsLinesAreGone() throws {
        var shelves = LineShelves(left: 0, top: 0, width: 200, height: 40)  // two 20 px shelves
        let first = try XCTUnwrap(shelves.place(width: 150, height: 16, frame: 1))
        let second = try XCTUnwrap(shelves.place(width: 150, height: 16, frame: 2))
        XCTAssertNotEqual(first.shelf, second.shelf)
        XCTAssertTrue(shelves.touch(placement(second), frame: 3))
        // Full: the third line takes the shelf drawn longest ago (the first, drawn in frame 1).
        let third = try XCTUnwrap(shelves.place(width: 150, height: 16, frame: 4))
        XCTAssertEqual(third.shelf, first.shelf)
        XCTAssertEqual(third.x, 0)
        XCTAssertFalse(shelves.touch(placement(first), frame: 4), "the line that was there is gone")
        XCTAssertTrue(shelves.touch(placement(second), frame: 4))
        XCTAssertTrue(shelves.touch(placement(third), frame: 4))
    }

    func testAShelfDrawnInThisFrameOrTheOneBeforeIsNeverHandedOn() throws {
        var shelves = LineShelves(left: 0, top: 0, width: 200, height: 40)
        _ = try XCTUnwrap(shelves.place(width: 150, height: 16, frame: 5))
        _ = try XCTUnwrap(shelves.place(width: 150, height: 16, frame: 5))
        XCTAssertNil(shelves.place(width: 150, height: 16, frame: 5), "both shelves hold lines this frame draws")
        XCTAssertNil(shelves.place(width: 150, height: 16, frame: 6), "nor lines the last frame drew")
        XCTAssertNotNil(shelves.place(width: 150, height: 16, frame: 7))
    }

    func testOnceFullAFrameLooksNoFurther() throws {
        var shelves = LineShelves(left: 0, top: 0, width: 200, height: 40)
        _ = try XCTUnwrap(shelves.place(width: 150, height: 16, frame: 1))
        _ = try XCTUnwrap(shelves.place(width: 150, height: 16, frame: 1))
        XCTAssertNil(shelves.place(width: 150, height: 16, frame: 2))
        XCTAssertNil(shelves.place(width: 10, height: 16, frame: 2), "would fit, but this frame found no room already")
        XCTAssertNotNil(shelves.place(width: 10, height: 16, frame: 3))
    }

    func testAShelfMuchTallerThanTheLineIsNotTaken() throws {
        var shelves = LineShelves(left: 0, top: 0, width: 200, height: 64)
        _ = try XCTUnwrap(shelves.place(width: 150, height: 60, frame: 1))  // one 64 px shelf fills the space
        XCTAssertNil(shelves.place(width: 150, height: 10, frame: 3), "a 12 px line would waste a 64 px shelf")
        XCTAssertNotNil(shelves.place(width: 150, height: 40, frame: 4))
    }

    func testEmptiedSpaceNeverValidatesAnOldPlacement() throws {
        var shelves = LineShelves(left: 0, top: 0, width: 200, height: 40)
        let old = try XCTUnwrap(shelves.place(width: 150, height: 16, frame: 1))
        var emptied = LineShelves(left: 0, top: 0, width: 200, height: 40, firstEpoch: shelves.nextFirstEpoch)
        let new = try XCTUnwrap(emptied.place(width: 150, height: 16, frame: 2))
        XCTAssertEqual(new.shelf, old.shelf, "the same shelf index again")
        XCTAssertFalse(emptied.touch(placement(old), frame: 2))
        XCTAssertTrue(emptied.touch(placement(new), frame: 2))
    }

    func testAShelfIdleForEightFramesIsTakenBeforeTheSpaceGrows() throws {
        var shelves = LineShelves(left: 0, top: 0, width: 200, height: 400)
        let gone = try XCTUnwrap(shelves.place(width: 150, height: 16, frame: 1))
        let shown = try XCTUnwrap(shelves.place(width: 150, height: 16, frame: 1))
        for frame in 2...10 { XCTAssertTrue(shelves.touch(placement(shown), frame: frame)) }
        // Frame 10: the first shelf has not been drawn for nine frames; the next line takes it
        // rather than a new shelf below the others.
        let next = try XCTUnwrap(shelves.place(width: 150, height: 16, frame: 10))
        XCTAssertEqual(next.shelf, gone.shelf)
        XCTAssertEqual(next.y, gone.y)
        XCTAssertFalse(shelves.touch(placement(gone), frame: 10))
        // A shelf idle for fewer frames stays: the space grows instead.
        let recent = try XCTUnwrap(shelves.place(width: 150, height: 16, frame: 14))
        XCTAssertNotEqual(recent.shelf, next.shelf)
        XCTAssertNotEqual(recent.shelf, shown.shelf)
        XCTAssertGreaterThan(recent.y, shown.y)
    }
}
