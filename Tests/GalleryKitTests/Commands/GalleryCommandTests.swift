import XCTest
import ArgumentParser
@testable import GalleryKit

/// The `GalleryDemo` command line as a whole.
final class GalleryCommandTests: XCTestCase {
    /// Every command names itself. Without a name, ArgumentParser derives one from the type's
    /// name at every start (`String(describing:)`, with its runtime conformance scans): 3.5 M
    /// of the 22 M instructions parsing the browser's command line took.
    func testEveryCommandIsNamedSoNoneIsDerivedFromItsTypeAtStart() throws {
        let commands = [GalleryCommand.self] + GalleryCommand.configuration.subcommands
        XCTAssertEqual(
            commands.map { $0.configuration.commandName },
            ["GalleryDemo", "run", "bench", "profile", "generate-samples"])
        XCTAssertTrue(try GalleryCommand.parseAsRoot(["bench", "text"]) is Bench)
        let folder = FileManager.default.temporaryDirectory.path
        XCTAssertTrue(try GalleryCommand.parseAsRoot([folder, "--page", "photos"]) is Run)
    }
}
