import XCTest
@testable import GalleryKit

/// `bench`'s command line: what it accepts, and a clear error for what it does not.
final class BenchOptionsTests: XCTestCase {
    func testDamageTimesOneKindAloneOnlyWhenItIsNamed() throws {
        XCTAssertNil(try Bench.parse(["damage"]).only)
        for kind in DamageBench.Kind.allCases {
            XCTAssertEqual(try Bench.parse(["damage", "--only", kind.rawValue]).only, kind.rawValue)
        }
        XCTAssertThrowsError(try Bench.parse(["damage", "--only", "everything"])) { error in
            let message = Bench.message(for: error)
            XCTAssertTrue(message.contains("unknown --only 'everything'"), message)
            XCTAssertTrue(message.contains("full, hover, hover-across, caret, thumbnail"), message)
        }
    }
}
