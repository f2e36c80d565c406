import XCTest
import TesseraTesting
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// What a long session accumulates stays bounded: remembered failures, open fonts.
final class BoundedMemoryTests: XCTestCase {
    func testThePipelineRemembersABoundedNumberOfFailures() throws {
        try onMain {
            let h = try Harness()
            let images = ImagePipeline(renderer: h.host.window.renderer, workers: 2) { _ in .failure(.corrupt("always"))
            }
            defer { images.shutdown() }
            images.maxRememberedFailures = 40
            for batch in 0..<10 {
                // generous: sanitizers and busy machines; it stops as soon as it can
                let deadline = MonotonicClock.seconds() + 60
                repeat {
                    images.beginFrame()
                    for i in 0..<30 {
                        _ = images.thumbnail(for: "/fail/\(batch)-\(i).jpg", spec: ThumbnailSpec(side: 64), priority: 0)
                    }
                    images.endFrame()
                    usleep(1_000)
                } while images.failedTotal < (batch + 1) * 30 && MonotonicClock.seconds() < deadline
            }
            XCTAssertEqual(images.failedTotal, 300, "every one failed and was reported")
            XCTAssertLessThanOrEqual(images.rememberedFailures, 40)
            XCTAssertGreaterThanOrEqual(images.rememberedFailures, 20, "the newer half is kept")
        }
    }

    func testFontsOfManySizesKeepABoundedNumberOpen() {
        onMain {
            let library = try! FontLibrary(atlas: GlyphAtlas())
            library.maxOpenFonts = 8
            let body = library.font(size: 15)
            for size in 5..<80 { _ = library.font(size: Double(size), scale: 1.25) }
            XCTAssertLessThanOrEqual(library.openFonts, 8)
            XCTAssertTrue(library.font(size: 15) === body, "the body face stays open")
            XCTAssertGreaterThan(library.font(size: 30).measure("Hello"), library.font(size: 15).measure("Hello"))
            for size in [10, 40, 10, 41, 12, 10, 40] {
                XCTAssertEqual(library.font(size: Double(size)).pixelSize, size)
            }
        }
    }

    func testAClosedFaceIsNotKeptOpenByTheLookUpOfRecentFaces() {
        onMain {
            let library = try! FontLibrary(atlas: GlyphAtlas())
            library.maxOpenFonts = 2  // the body face and one more
            weak let first = library.font(size: 20)
            XCTAssertTrue(library.font(size: 20) === first, "asked again: one of the faces asked for last")
            _ = library.font(size: 21)  // closes the 20 px face
            XCTAssertNil(first, "closed, not kept by the faces asked for last")
            XCTAssertEqual(library.font(size: 20).pixelSize, 20)
        }
    }
}
