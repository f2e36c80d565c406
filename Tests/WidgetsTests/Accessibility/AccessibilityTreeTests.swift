import XCTest
import Render2D
import Imaging
import Profiling
import DemoSupport
import TesseraTesting
@testable import Widgets

/// The tree the widgets report: roles, names, states and values from the immediate-mode calls,
/// stable identities, the modifiers, and the requests a screen reader sends.
final class AccessibilityTreeTests: XCTestCase {
    struct File: Identifiable, Sendable {
        let id: Int
        let name: String
        let size: Int
    }

    @MainActor static func form(_ ui: UI, _ model: Model) {
        ui.vstack {
            if ui.button("Save") { model.saves += 1 }
            ui.accessibilityLabel("Delete") { _ = ui.button("", icon: .trash) }
            ui.toggle("Wrap lines", isOn: &model.wrap)
            ui.slider("Zoom", value: &model.zoom, in: 0...4)
            ui.textField("Name", text: &model.name)
            ui.accessibilityHidden(true) { ui.text("decoration") }
            ui.accessibilityHint("How big it is") { ui.accessibilityValue("4 stars") { ui.text("Rating") } }
            ui.colorWell("Tint", color: &model.tint)
        }
    }

    @MainActor final class Model {
        var saves = 0, wrap = false, zoom = 1.0, name = "", tint = Color(hex: 0x3478F6)
    }

    func testWidgetsReportRoleNameStatesAndValue() throws {
        try onMain {
            let h = try Harness()
            let model = Model()
            h.frames(2) { Self.form($0, model) }
            let save = try h.find(.button, "Save")
            XCTAssertTrue(save.states.contains(.focusable))
            XCTAssertEqual(save.actions, [.click])
            XCTAssertGreaterThan(save.frame.width, 20)
            XCTAssertNoThrow(try h.find(.button, "Delete"), "an icon button named by accessibilityLabel")
            let wrap = try h.find(.toggle, "Wrap lines")
            XCTAssertFalse(wrap.states.contains(.checked))
            let zoom = try h.find(.slider, "Zoom")
            XCTAssertEqual(zoom.range, AccessibilityRange(current: 1, minimum: 0, maximum: 4))
            XCTAssertTrue(try h.find(.entry, "Name").states.contains(.editable))
            XCTAssertTrue(h.findAll(.label, "decoration").isEmpty, "hidden")
            let rating = try h.find(.label, "Rating")
            XCTAssertEqual(rating.value, "4 stars")
            XCTAssertEqual(rating.description, "How big it is")
            XCTAssertEqual(try h.find(.colorChooser, "Tint").value, "#3478F6")
            XCTAssertEqual(h.accessibilityTree.root.role, .frame)
            XCTAssertEqual(save.id, try h.find(.button, "Save").id, "identity is the widget's ID")
        }
    }

    func testRequestsPressToggleTypeAndSet() throws {
        try onMain {
            let h = try Harness()
            let model = Model()
            let build = { (ui: UI) in Self.form(ui, model) }
            h.frames(2, build)
            h.activate(try h.find(.button, "Save"), build)
            XCTAssertEqual(model.saves, 1)
            h.activate(try h.find(.toggle, "Wrap lines"), build)
            XCTAssertTrue(model.wrap)
            XCTAssertTrue(try h.find(.toggle, "Wrap lines").states.contains(.checked))
            h.setText(try h.find(.entry, "Name"), "Ada", build)
            XCTAssertEqual(model.name, "Ada")
            XCTAssertEqual(try h.find(.entry, "Name").text?.string, "Ada")
            h.setValue(try h.find(.slider, "Zoom"), 3, build)
            XCTAssertEqual(model.zoom, 3)
            h.focus(try h.find(.entry, "Name"), build)
            XCTAssertTrue(try h.find(.entry, "Name").states.contains(.focused))
        }
    }

    func testTableReportsItsWholeSizeAndOnlyBuiltRows() throws {
        try onMain {
            let h = try Harness(width: 640, height: 400)
            let files = (0..<100_000).map { File(id: $0, name: "file \($0)", size: $0 * 10) }
            var selection = Set<Int>()
            var order: [KeyComparator<File>] = []
            let build = { (ui: UI) in
                _ = ui.table(
                    "files", rows: files, selection: Binding(get: { selection }, set: { selection = $0 }),
                    sortOrder: Binding(get: { order }, set: { order = $0 })
                ) {
                    [TableColumn("Name", value: \File.name), TableColumn("Size", value: \File.size) { "\($0.size) B" }]
                }
            }
            h.frames(2, build)
            let table = try h.find(.table, "files")
            XCTAssertEqual(table.collection?.rows, 100_000)
            XCTAssertEqual(table.collection?.columnTitles, ["Name", "Size"])
            let rows = h.findAll(.tableRow)
            XCTAssertGreaterThan(rows.count, 5)
            XCTAssertLessThan(rows.count, 40, "only the rows built, never the whole table")
            XCTAssertEqual(h.findAll(.columnHeader).map(\.name), ["Name", "Size"])
            let cell = try h.find(.tableCell, "file 3")
            XCTAssertEqual(cell.cell?.row, 3)
            XCTAssertEqual(h.children(of: rows[3]).map(\.name), ["file 3", "30 B"])
            XCTAssertEqual(h.ui.accessibilityCellText[table.id]?(99_999, 1), "999990 B", "a cell not built, on demand")
            h.activate(rows[2], build)
            XCTAssertEqual(selection, [2])
            h.activate(try h.find(.columnHeader, "Size"), build)
            XCTAssertEqual(order.map(\.id), ["Size"], "a screen reader's click on a header sorts by it")
            XCTAssertTrue(h.findAll(.tableRow)[2].states.contains(.selected))
        }
    }

    func testOffCostsNothing() throws {
        try onMain {
            let h = try Harness()
            h.ui.isAccessibilityEnabled = false
            let model = Model()
            h.frames(2) { Self.form($0, model) }
            XCTAssertEqual(h.accessibilityTree.nodes.count, 1)
            XCTAssertEqual(h.ui.accessibility.tree.nodes.count, 1, "nothing is collected while off")
        }
    }
}

/// Dialogs as a screen reader meets them: a modal alert named by its title, holding its
/// message and its buttons, with focus on the default one.
final class DialogAccessibilityTests: XCTestCase {
    func testAnAlertIsAModalNodeWithItsMessageAndButtons() throws {
        try onMain {
            let h = try Harness()
            var shown = true, deleted = 0
            let build = { (ui: UI) in
                ui.button("Behind")
                ui.confirmationDialog(
                    "Move 3 photos to the trash?", isPresented: Binding(get: { shown }, set: { shown = $0 }),
                    actions: [
                        DialogAction("Move to Trash", role: .destructive) { deleted += 1 },
                        DialogAction("Cancel", role: .cancel),
                    ],
                    message: "You can put them back from the trash.")
            }
            h.frames(3, build)
            let dialog = try h.find(.dialog, "Move 3 photos to the trash?")
            XCTAssertTrue(dialog.states.contains(.modal))
            let inside = h.children(of: dialog)
            XCTAssertEqual(inside.map(\.role), [.heading, .label, .pushButton, .pushButton])
            XCTAssertEqual(inside[1].name, "You can put them back from the trash.")
            XCTAssertEqual(
                h.accessibilityTree.first { $0.states.contains(.focused) }?.name, "Cancel",
                "focus moved into the dialog")
            h.activate(try h.find(.button, "Move to Trash"), build)
            XCTAssertEqual(deleted, 1)
            XCTAssertTrue(h.findAll(.dialog).isEmpty, "answered: gone from the tree")
        }
    }
}
