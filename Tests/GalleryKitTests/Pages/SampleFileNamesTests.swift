import XCTest
@testable import GalleryKit

/// The table page's names look like a disk's: nearly unique, with their kind's extension;
/// the benchmark's rows keep their syllable names and every other field.
final class SampleFileNamesTests: XCTestCase {
    func testTheTablePagesNamesAreNearlyUniqueAndMatchTheirKind() {
        let rows = FileRow.generate(count: 100_000, names: .realistic)
        let unique = Set(rows.map(\.name)).count
        XCTAssertGreaterThan(unique, 99_000, "nearly every name is unique: \(unique) of 100,000")
        let sorted = rows.map(\.name).sorted()
        let firstName = sorted[0]
        XCTAssertLessThan(
            sorted.prefix(400).filter { $0 == firstName }.count, 3, "sorted by name, the first rows differ")
        let extensions = [
            "Photo": ["jpg", "ARW", "JPG", "NEF", "heic", "png", "webp"], "Video": ["mp4", "mov", "webm"],
            "Audio": ["flac", "m4a", "mp3"], "Document": ["pdf", "docx", "odt", "md", "xlsx", "txt", "pptx"],
            "Archive": ["gz", "zst", "zip", "7z", "rar"],
        ]
        for row in rows.prefix(2_000) {
            let ext = String(row.name.split(separator: ".").last ?? "")
            if let allowed = extensions[row.kind] {
                XCTAssertTrue(allowed.contains(ext), "\(row.name) is a \(row.kind)")
            }
        }
    }

    func testTheBenchmarksRowsAreTheOnesBenchmarksMdDescribes() {
        let bench = FileRow.generate(count: 1_000)
        let page = FileRow.generate(count: 1_000, names: .realistic)
        XCTAssertEqual(bench.map(\.size), page.map(\.size), "the names come from a generator of their own")
        XCTAssertEqual(bench.map(\.modified), page.map(\.modified))
        let syllables = Set(FileRow.syllables)
        for row in bench.prefix(50) {
            var rest = Substring(row.name.lowercased())
            while let s = syllables.first(where: { rest.hasPrefix($0) }) { rest = rest.dropFirst(s.count) }
            XCTAssertTrue(rest.isEmpty, "\(row.name) is made of the benchmark's syllables")
        }
    }
}
