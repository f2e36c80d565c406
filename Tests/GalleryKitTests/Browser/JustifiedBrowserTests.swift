import XCTest
import Foundation
import TesseraTesting
import TestSupport
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets
@testable import GalleryKit

/// The browser's Justified view: photos at their own shapes, laid out from the sizes the
/// facts scan read, and ↓ going to the nearest photo of the next row.
final class JustifiedBrowserTests: XCTestCase {
    func testTheJustifiedViewShowsEachPhotoAtItsShapeAndDownGoesToTheNearestBelow() throws {
        try onMain {
            let lib = try ScratchFolder("justified")
            let sizes = [
                (96, 64), (48, 96), (64, 64), (120, 40), (64, 96), (96, 64), (80, 60), (40, 80), (96, 54), (64, 64),
            ]
            for (i, size) in sizes.enumerated() {
                try SamplePhotos.writeJPEG(
                    SamplePhotos.render(width: size.0, height: size.1, seed: UInt64(i)), to: lib.file("j-\(i).jpg"))
            }
            let session = try DemoSession(library: lib.path)
            let (h, browser, build) = (session.h, session.browser, session.build)
            XCTAssertTrue(
                h.frames(until: { browser.photos.allSatisfy { $0.aspectRatio > 0 } }, build),
                "the facts scan read every size")
            try h.click(on: "Justified", build)
            h.frames(2, build)
            XCTAssertEqual(browser.viewMode, .justified)
            let info = try XCTUnwrap(browser.grid.info)
            let layout = try XCTUnwrap(info.justified, "laid out justified")
            XCTAssertEqual(layout.count, sizes.count)
            for (i, photo) in browser.grid.photos.enumerated() {
                let frame = layout.frame(ofItem: i)
                XCTAssertEqual(
                    frame.width / frame.height, Double(photo.aspectRatio), accuracy: 0.01,
                    "\(photo.name) at its own shape")
            }
            XCTAssertGreaterThan(
                Set(browser.grid.photos.indices.map { Int(layout.frame(ofItem: $0).width) }).count, 3,
                "cells of many widths")
            h.shot("demo-justified", build)

            // Click the first photo; ↓ selects the nearest photo of the row below.
            let first = layout.frame(ofItem: 0)
            h.click(at: Point(info.viewport.x + first.midX, info.viewport.y + first.midY - info.scrollOffset), build)
            XCTAssertEqual(browser.selection.first, browser.grid.photos[0].id)
            h.press(.down, build)
            let below = layout.item(nearest: 0, rowsAway: 1)
            XCTAssertGreaterThan(below, layout.items(inRow: 0).upperBound - 1, "a photo of the next row")
            XCTAssertEqual(Array(browser.selection), [browser.grid.photos[below].id])
        }
    }

    func testMonthsStayPinnedAndTheDateRailScrubsTheJustifiedGrid() throws {
        try onMain {
            let lib = try ScratchFolder("justified-rail")
            // 60 photos over three months, the oldest first in the folder.
            for i in 0..<60 {
                let path = lib.file(String(format: "r-%02d.jpg", i))
                try SamplePhotos.writeJPEG(
                    SamplePhotos.render(width: i % 3 == 0 ? 48 : 96, height: 64, seed: UInt64(i)), to: path)
                let month = [1_577_880_000.0, 1_585_700_000, 1_593_600_000][i / 20]  // Jan, Apr and Jul 2020
                var times = [
                    timeval(tv_sec: Int(month) + i * 60, tv_usec: 0), timeval(tv_sec: Int(month) + i * 60, tv_usec: 0),
                ]
                XCTAssertEqual(utimes(path, &times), 0)
            }
            let session = try DemoSession(library: lib.path, height: 600)
            let (h, browser, build) = (session.h, session.browser, session.build)
            XCTAssertTrue(h.frames(until: { browser.photos.allSatisfy { $0.aspectRatio > 0 } }, build))
            try h.click(on: "Justified", build)
            h.frames(2, build)
            XCTAssertEqual(browser.grid.sections?.count, 3)
            let rail = try XCTUnwrap(browser.grid.railRect, "the date rail beside the justified grid")
            XCTAssertNotNil(browser.grid.info?.justified)
            // A click low on the rail jumps to the last month; its header is pinned at the top.
            h.click(at: Point(rail.midX, rail.maxY - 8), build)
            h.frames(2, build)
            let info = try XCTUnwrap(browser.grid.info)
            XCTAssertTrue(info.visible.contains(59), "the last photo is in view: \(info.visible)")
            let title = try XCTUnwrap(browser.grid.sections?.last?.title)
            let header = try XCTUnwrap(h.rect(ofText: title), "the month's header")
            XCTAssertLessThan(abs(header.midY - (info.viewport.y + 20)), 12, "pinned at the top")
        }
    }
}
