import Render2D
import Imaging
import Profiling
import DemoSupport
import TesseraTesting
import Widgets
import XCTest

// The "Windows and Commands" article's examples, as it shows them (see ArticleSnippets.swift).

/// A notes app: a list of notes in the main window, each note openable in a window of its own.
@MainActor
final class NotesApp {
    var notes = ["Groceries", "Ideas", "Trip"]
    var selected: Int?
    var confirmsDelete = false
    var deleted: [String] = []

    /// One window's own state: SwiftUI gives each window its own `@State`.
    final class NoteWindow {
        var text = ""
    }

    // snippet: windows-host
    func registerWindows(on host: AppHost) {
        host.windowGroup("note", title: "Note", width: 480, height: 360) { ui in
            let note = ui.windowValue(as: String.self) ?? "Untitled"
            let window = ui.windowState { NoteWindow() }  // this window's own, gone when it closes
            ui.vstack {
                ui.text(note, font: ui.font(size: 17, weight: .bold))
                ui.textField("Text", text: &window.text)
                if ui.button("Close", shortcut: KeyboardShortcut("w")) { ui.dismissWindow() }
            }
        }
    }
    // end snippet

    // snippet: windows-commands
    func body(_ ui: UI) {
        ui.vstack(spacing: 0) {
            ui.menuBar {
                ui.menu("File") {
                    if ui.menuItem("New Window", shortcut: KeyboardShortcut("n")) { ui.openWindow() }
                    if ui.menuItem("Close Window", shortcut: KeyboardShortcut("w")) { ui.dismissWindow() }
                }
                ui.menu("Note") {
                    ui.disabled(selected == nil) {
                        if ui.menuItem(
                            "Open in New Window", shortcut: KeyboardShortcut(.returnKey, modifiers: .control)),
                            let selected
                        {
                            ui.openWindow(id: "note", value: notes[selected])
                        }
                        if ui.menuItem("Delete", role: .destructive, shortcut: KeyboardShortcut(.delete, modifiers: []))
                        {
                            confirmsDelete = true
                        }
                    }
                }
            }
            for (k, note) in notes.enumerated() {
                if ui.button(note, style: k == selected ? .borderedProminent : .plain) { selected = k }
            }
        }
        ui.confirmationDialog(
            "Delete this note?", isPresented: Binding(self, \.confirmsDelete),
            actions: [DialogAction("Delete", role: .destructive) { self.deleteSelected() }])
    }
    // end snippet

    func deleteSelected() {
        guard let k = selected else { return }
        deleted.append(notes.remove(at: k))
        selected = nil
    }
}

final class WindowsArticleTests: XCTestCase {
    func testTheNotesAppOpensANoteInItsOwnWindowAndDeletesAfterAsking() throws {
        try onMain {
            let h = try Harness(width: 800, height: 600)
            let app = NotesApp()
            app.registerWindows(on: h.host)
            h.frames(2, app.body)
            h.press(.delete, app.body)
            XCTAssertNil(h.rect(ofText: "Delete this note?"), "nothing selected: Delete is disabled")
            try h.click(on: "Ideas", app.body)
            h.press(.returnKey, modifiers: .control, app.body)
            XCTAssertEqual(h.host.windows.map(\.group), [AppHost.mainGroup, "note"])
            let note = h.host.windows[1]
            h.frame(app.body)
            XCTAssertEqual(note.ui.windowValue(as: String.self), "Ideas")
            EventInjector(window: note.window).tap(Key("w"), modifiers: .control)
            h.frames(2, app.body)
            XCTAssertTrue(note.isClosed, "Ctrl+W in the note's window closes it, not the list's")
            XCTAssertEqual(h.host.windows.count, 1)
            h.press(.delete, app.body)
            XCTAssertNotNil(h.rect(ofText: "Delete this note?"))
            try h.click(on: "Delete", in: .rect(Rect(x: 0, y: 0, width: 800, height: 600)), app.body)
            XCTAssertEqual(app.deleted, ["Ideas"])
            h.press(Key("n"), modifiers: .control, app.body)
            XCTAssertEqual(
                h.host.windows.map(\.group), [AppHost.mainGroup, AppHost.mainGroup], "Ctrl+N: another main window")
        }
    }
}
