import Foundation
import XCTest

@testable import TesseraAssets

/// Where the shipped fonts are looked for, and that a lookup finds them.
final class AssetLocatorTests: XCTestCase {
    func testTheEnvironmentFolderComesFirstThenTheBundleBesideTheExecutableThenTheSourcesThenTheSystem() throws {
        let tried = AssetLocator.candidates(
            for: "Fonts/DejaVuSans.ttf", environment: ["TESSERA_ASSETS": "/opt/tessera/"])
        XCTAssertEqual(tried.first, "/opt/tessera/Fonts/DejaVuSans.ttf")
        XCTAssertEqual(tried.last, "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        // The running executable's own folder, links resolved, as Foundation's Bundle.main names it.
        let bundle = Bundle.main.bundlePath + "/Tessera_TesseraAssets.resources/Fonts/DejaVuSans.ttf"
        XCTAssertTrue(tried.contains(bundle), "\(bundle) not in \(tried)")
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "Assets/Fonts/DejaVuSans.ttf")
        XCTAssertEqual(tried[tried.count - 2], sources.path)
        XCTAssertEqual(Set(tried).count, tried.count, "a folder is looked at once")
        XCTAssertFalse(
            AssetLocator.candidates(for: "Fonts/DejaVuSans.ttf", environment: [:])
                .contains("/opt/tessera/Fonts/DejaVuSans.ttf"))
    }

    func testAShippedFontIsFoundAndAMissingOneNamesEveryPathTried() throws {
        let path = try AssetLocator.path(for: "Fonts/DejaVuSans.ttf")
        XCTAssertTrue(FileManager.default.isReadableFile(atPath: path), path)
        XCTAssertThrowsError(try AssetLocator.path(for: "Fonts/NoSuchFont.ttf")) { error in
            let description = String(describing: error)
            XCTAssertTrue(description.contains("NoSuchFont.ttf"), description)
            XCTAssertTrue(description.contains("TESSERA_ASSETS"), description)
        }
    }
}
