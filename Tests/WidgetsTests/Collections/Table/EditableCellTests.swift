import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Editable table cells in the real renderer: F2 or a click on the selected row opens a text
/// field in the cell; Return commits, Escape cancels, Tab commits and opens the next editable
/// cell, a click elsewhere commits; a double-click does not start an edit. Harness: 640×480,
/// header 28 pt, rows 24 pt.
final class EditableCellTests: XCTestCase {
    struct File: Identifiable, Sendable {
        let id: Int
        var name: String
        var tag: String
    }

    final class Model {
        var files = (0..<20).map { File(id: $0, name: "file \($0)", tag: "t\($0)") }
        var selection: Set<Int> = []
        var commits: [String] = []
        var opened = 0
    }

    @MainActor
    private static func build(_ m: Model) -> (UI) -> Void {
        { ui in
            ui.table("files", rows: m.files, selection: Binding(m, \.selection), primaryAction: { _ in m.opened += 1 })
            {
                TableColumn("Name", value: \File.name).editable { file, name in
                    m.commits.append("name \(file.id): \(name)")
                    if let i = m.files.firstIndex(where: { $0.id == file.id }) { m.files[i].name = name }
                }.width(200)
                TableColumn("Size", text: { "\($0.id * 10)" }).width(100)
                TableColumn("Tag", value: \File.tag).editable { file, tag in
                    m.commits.append("tag \(file.id): \(tag)")
                    if let i = m.files.firstIndex(where: { $0.id == file.id }) { m.files[i].tag = tag }
                }.width(200)
            }
        }
    }

    private static func row(_ i: Int, x: Double = 60) -> Point { Point(x, 28 + 24 * Double(i) + 12) }

    /// A harness with the table built and row `row` clicked (selected, the table focused).
    @MainActor
    private static func session(selecting row: Int) throws -> (Harness, Model, (UI) -> Void) {
        let h = try Harness()
        let m = Model()
        let build = Self.build(m)
        h.frame(build)
        h.click(at: Self.row(row), build)
        return (h, m, build)
    }

    /// A second click on the selected row `row` (an edit opens once no third click comes), then
    /// `text` typed at the end and Return.
    @MainActor
    private static func clickToEdit(_ h: Harness, row: Int, append text: String, _ build: (UI) -> Void) {
        h.wait(1)
        h.click(at: Self.row(row), build)
        h.wait(1)
        h.frames(2, build)
        h.inject.key(.end)
        type(h, text, build)
        h.inject.key(.returnKey)
        h.frames(2, build)
    }

    @MainActor
    private static func type(_ h: Harness, _ text: String, _ build: (UI) -> Void) {
        h.inject.text(text)
        h.frame(build)
    }

    func testF2EditsReturnCommitsEscapeCancelsAndTabMovesOn() throws {
        try onMain {
            let (h, m, build) = try Self.session(selecting: 2)
            XCTAssertEqual(m.selection, [2])
            h.inject.key(.f2)
            h.frames(2, build)
            Self.type(h, "renamed", build)  // the text opens selected: typing replaces it
            h.shot("table-cell-editing", build)
            h.inject.key(.returnKey)
            h.frames(2, build)
            XCTAssertEqual(m.commits, ["name 2: renamed"])
            XCTAssertEqual(m.files[2].name, "renamed")
            XCTAssertEqual(m.opened, 0, "Return in the field commits; it does not open the row")

            h.inject.key(.f2)
            h.frames(2, build)
            Self.type(h, "zzz", build)
            h.inject.key(.escape)
            h.frames(2, build)
            XCTAssertEqual(m.commits.count, 1, "Escape cancels")
            XCTAssertEqual(m.files[2].name, "renamed")

            // Tab: Name → Tag (Size is not editable) → the next row's Name.
            h.inject.key(.f2)
            h.frames(2, build)
            h.inject.key(.end)
            Self.type(h, "!", build)
            h.inject.key(.tab)
            h.frames(2, build)
            h.inject.key(.end)
            Self.type(h, "?", build)
            h.inject.key(.tab)
            h.frames(2, build)
            XCTAssertEqual(m.commits.suffix(2), ["name 2: renamed!", "tag 2: t2?"])
            XCTAssertEqual(m.selection, [3], "Tab past the last editable cell goes to the next row")
            h.inject.key(.end)
            Self.type(h, "+", build)
            h.click(at: Self.row(8), build)  // a click elsewhere commits
            h.frame(build)
            XCTAssertEqual(m.commits.last, "name 3: file 3+")
        }
    }

    func testAClickOnTheSelectedRowEditsADoubleClickOpens() throws {
        try onMain {
            let (h, m, build) = try Self.session(selecting: 4)
            Self.clickToEdit(h, row: 4, append: "X", build)
            XCTAssertEqual(m.commits, ["name 4: file 4X"])
            // A double-click on the selected row opens it and edits nothing.
            h.inject.mouseMove(to: Self.row(4))
            h.frame(build)
            for clicks in 1...2 {
                h.inject.mouseButton(.left, down: true, at: Self.row(4), clicks: clicks)
                h.frame(build)
                h.inject.mouseButton(.left, down: false, at: Self.row(4), clicks: clicks)
                h.frame(build)
            }
            h.wait(1)
            h.frames(3, build)
            XCTAssertEqual(m.opened, 1)
            h.inject.key(Character("q").asKey)
            h.frame(build)
            XCTAssertEqual(m.commits.count, 1, "no field opened by the double-click")
        }
    }

    func testAnEditWhoseRowIsDeletedEndsAndEditingStillWorks() throws {
        try onMain {
            let (h, m, build) = try Self.session(selecting: 2)
            h.inject.key(.f2)
            h.frames(2, build)
            m.files.remove(at: 2)  // the edited row goes away (another part of the app deleted it)
            h.frames(2, build)
            h.click(at: Self.row(5), build)
            Self.clickToEdit(h, row: 5, append: "!", build)
            XCTAssertEqual(m.commits, ["name 6: file 6!"], "the deleted row's edit was dropped; the new one works")
        }
    }

    func testAnEditFollowsItsRowWhenTheRowsAreReordered() throws {
        try onMain {
            let (h, m, build) = try Self.session(selecting: 2)
            h.inject.key(.f2)
            h.frames(2, build)
            m.files.reverse()  // another part of the app sorted them the other way
            h.frames(2, build)
            h.inject.key(.end)
            Self.type(h, "!", build)
            h.inject.key(.returnKey)
            h.frames(2, build)
            XCTAssertEqual(m.commits, ["name 2: file 2!"], "the edit went on in row 2, now shown 18th")
            XCTAssertEqual(m.files[17].name, "file 2!")
        }
    }
}

private extension Character {
    var asKey: Key { Key(self) }
}
