import Render2D
import Imaging
import Profiling
import DemoSupport
import TesseraTesting
import Widgets
import XCTest

// The "Accessibility" article's examples, as it shows them (see ArticleSnippets.swift).

struct ArticlePhoto {
    var name: String
    var path: String
    var rating: Int
}

@MainActor
func ratedPhotoCell(_ ui: UI, photo: ArticlePhoto, cell: Rect) {
    // snippet: accessibility-modifiers
    ui.accessibilityLabel("Delete") { ui.button("", icon: .trash) }
    ui.accessibilityValue("\(photo.rating) stars") {
        ui.accessibilityLabel(photo.name) { ui.asyncImage(photo.path, in: cell) }
    }
    ui.accessibilityHint("Moves the selected photos to the trash") { ui.button("Move to Trash") }
    ui.accessibilityHidden(true) { ui.text(String(repeating: "★", count: photo.rating)) }
    // end snippet
}

/// A settings form and a file table, read by the article's test.
@MainActor
final class Settings {
    struct File: Identifiable, Sendable { var id: Int }
    var name = "", wrap = false, saved = ""
    let files = (0..<100_000).map { File(id: $0) }

    func body(_ ui: UI) {
        ui.vstack {
            ui.textField("Name", text: &name)
            ui.toggle("Wrap lines", isOn: &wrap)
            if ui.button("Save") { saved = name + (wrap ? ", wrapped" : "") }
            _ = ui.table("files", rows: files, selection: nil) { [TableColumn("File") { "file \($0.id)" }] }
        }
    }
}

final class AccessibilityArticleTests: XCTestCase {
    func testTheArticlesQueriesFindActAndRead() throws {
        try onMain {
            // snippet: accessibility-queries
            let h = try Harness()
            let app = Settings()
            h.frame(app.body)
            h.setText(try h.find(.textField, "Name"), "Ada", app.body)
            h.activate(try h.find(.toggle, "Wrap lines"), app.body)
            h.activate(try h.find(.button, "Save"), app.body)
            XCTAssertEqual(app.saved, "Ada, wrapped")
            XCTAssertTrue(try h.find(.toggle, "Wrap lines").states.contains(.checked))
            XCTAssertEqual(try h.find(.table, "files").collection?.rows, 100_000)
            // end snippet
        }
    }

    func testTheModifiersNameTheIconButtonAndTheImageAndHideTheBadge() throws {
        try onMain {
            let h = try Harness()
            let photo = ArticlePhoto(name: "Beach", path: "/nonexistent/beach.jpg", rating: 4)
            h.frames(2) { ui in ratedPhotoCell(ui, photo: photo, cell: Rect(x: 10, y: 80, width: 100, height: 80)) }
            XCTAssertNoThrow(try h.find(.button, "Delete"))
            XCTAssertEqual(try h.find(.button, "Move to Trash").description, "Moves the selected photos to the trash")
            let image = try h.find(.image, "Beach")
            XCTAssertEqual(
                image.value, "4 stars", "the outer value over the image's own (it has no pipeline to load from)")
            XCTAssertTrue(h.drawnText.contains("★★★★"), "the stars are drawn")
            XCTAssertTrue(h.findAll(.label).isEmpty, "and hidden: the value says them")
        }
    }
}
