import XCTest
import Foundation
import TesseraTesting
import TestSupport
import Render2D
import Widgets
@testable import GalleryDemo

/// The browser's Justified view: photos at their own shapes, laid out from the sizes the
/// facts scan read, and ↓ going to the nearest photo of the next row.
final class JustifiedBrowserTests: XCTestCase {
    func testTheJustifiedViewShowsEachPhotoAtItsShapeAndDownGoesToTheNearestBelow() throws { try onMain {
        let lib = try ScratchFolder("justified")
        let sizes = [(96, 64), (48, 96), (64, 64), (120, 40), (64, 96), (96, 64), (80, 60), (40, 80), (96, 54), (64, 64)]
        for (i, size) in sizes.enumerated() {
            try SamplePhotos.writeJPEG(SamplePhotos.render(width: size.0, height: size.1, seed: UInt64(i)), to: lib.file("j-\(i).jpg"))
        }
        let session = try DemoSession(library: lib.path)
        let (h, browser, build) = (session.h, session.browser, session.build)
        XCTAssertTrue(h.frames(until: { browser.photos.allSatisfy { $0.aspectRatio > 0 } }, build), "the facts scan read every size")
        try h.click(on: "Justified", build)
        h.frames(2, build)
        XCTAssertEqual(browser.viewMode, .justified)
        let info = try XCTUnwrap(browser.grid.info)
        let layout = try XCTUnwrap(info.justified, "laid out justified")
        XCTAssertEqual(layout.count, sizes.count)
        for (i, photo) in browser.grid.photos.enumerated() {
            let frame = layout.frame(ofItem: i)
            XCTAssertEqual(frame.width / frame.height, Double(photo.aspectRatio), accuracy: 0.01, "\(photo.name) at its own shape")
        }
        XCTAssertGreaterThan(Set(browser.grid.photos.indices.map { Int(layout.frame(ofItem: $0).width) }).count, 3, "cells of many widths")
        h.shot("demo-justified", build)

        // Click the first photo; ↓ selects the nearest photo of the row below.
        let first = layout.frame(ofItem: 0)
        h.click(at: Point(info.viewport.x + first.midX, info.viewport.y + first.midY - info.scrollOffset), build)
        XCTAssertEqual(browser.selection.first, browser.grid.photos[0].id)
        h.press(.down, build)
        let below = layout.item(nearest: 0, rowsAway: 1)
        XCTAssertGreaterThan(below, layout.items(inRow: 0).upperBound - 1, "a photo of the next row")
        XCTAssertEqual(Array(browser.selection), [browser.grid.photos[below].id])
    } }
}
