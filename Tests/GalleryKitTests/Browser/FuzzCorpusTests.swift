import XCTest
import Foundation
import GRDB
@_spi(Fuzzing) @testable import GalleryKit
@testable import Widgets

/// The seed corpora and findings of the fuzz targets over the app's own files (Fuzz/Corpus),
/// replayed through the app's real types: each reads as a value the app can use, or as nothing.
final class FuzzCorpusTests: XCTestCase {
    private func corpus(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = (#filePath as NSString).deletingLastPathComponent + "/../../../Fuzz/Corpus/" + target
        return try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map {
            ($0, Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0))))
        }
    }

    func testEveryIndexRowInputReadsAsAnEntryOrNothing() throws {
        let inputs = try corpus("FuzzIndexRow")
        XCTAssertGreaterThanOrEqual(inputs.count, 3)
        var read: [String] = []
        for (name, bytes) in inputs {
            guard let entry = IndexEntry(IndexEntry.rowForFuzzing(bytes)) else { continue }
            read.append(name)
            XCTAssertTrue((1...8).contains(entry.facts.orientation), name)
            XCTAssertTrue(entry.facts.width >= 0 && entry.facts.height >= 0 && entry.modified.isFinite, name)
        }
        XCTAssertTrue(read.contains("good.bin"), "a sound row reads: \(read)")
        XCTAssertFalse(read.contains("wrong-types.bin"))
    }

    func testEverySavedStateInputDecodesToAUsableArrangementOrNothing() throws {
        let inputs = try corpus("FuzzSavedState")
        XCTAssertGreaterThanOrEqual(inputs.count, 3)
        let declared = ["name", "size", "kind", "date", "rating"]
        var decoded = 0
        for (name, bytes) in inputs {
            // The browser's whole saved state, as it reads it from state.json (none of these is one: no trap).
            _ = try? JSONDecoder().decode(BrowserPage.SavedState.self, from: Data(bytes))
            guard var columns = try? JSONDecoder().decode(TableColumnCustomization<Photo>.self, from: Data(bytes))
            else { continue }
            decoded += 1
            XCTAssertEqual(columns.orderedIDs(declared: declared).sorted(), declared.sorted(), name)
            columns.move("kind", before: "name", declared: declared)
            let moved = columns.orderedIDs(declared: declared)
            XCTAssertLessThan(moved.firstIndex(of: "kind")!, moved.firstIndex(of: "name")!, name)
        }
        XCTAssertEqual(decoded, 3, "a key of the wrong type costs only that key (wrong-types.json decodes, empty)")
    }

    /// FuzzSidecar's corpus and findings: each decodes to a sidecar or an error; one that is not
    /// read-only writes back and reads back the same. (A JSON object with a key twice, once of
    /// another shape, read differently by Foundation's two JSON readers, is read-only.)
    func testEverySidecarInputReadsBackWhatItWrote() throws {
        let inputs = try corpus("FuzzSidecar")
        XCTAssertGreaterThanOrEqual(inputs.count, 3)
        let duplicate = try XCTUnwrap(inputs.first { $0.name.hasPrefix("duplicate-keys") })
        XCTAssertTrue(
            try FolderSidecar.decode(duplicate.bytes).isReadOnly, "found by FuzzSidecar: read-only, never written")
        for (name, bytes) in inputs {
            guard let sidecar = try? FolderSidecar.decode(bytes) else { continue }
            XCTAssertTrue(sidecar.ratings.values.allSatisfy { (1...5).contains($0) }, name)
            guard !sidecar.isReadOnly else { continue }
            let reread = try FolderSidecar.decode(Array(try sidecar.encoded()))
            XCTAssertEqual(reread.ratings, sidecar.ratings, name)
            XCTAssertEqual(reread.tags, sidecar.tags, name)
            XCTAssertEqual(Set(reread.unknown.keys), Set(sidecar.unknown.keys), name)
        }
    }
}
