import CSDL2
import Foundation
import Render2D
import Widgets

/// The browser's commands, as menu bar items with their shortcuts: rating (0–5), finding by
/// name (Ctrl+F), moving to the trash (Delete, asking first for more than one photo), opening a
/// photo in a window of its own, and the grid's zoom (Ctrl+= and Ctrl+-). The menus show them;
/// the shortcuts work wherever focus is, except the plain keys while a text field has it.
extension BrowserPage {
    /// The photos a command acts on: the one the viewer shows, else the selection.
    var commandTargets: RowSelection<Int> {
        if let photo = viewer.current { return [photo.id] }
        return selection
    }

    /// The Edit menu's items for the browser.
    func editCommands(_ ui: UI) {
        let targets = commandTargets
        if ui.menuItem("Select All", shortcut: KeyboardShortcut("a")) { selection.selectAll(of: shown) }
        ui.disabled(targets.isEmpty) {
            if ui.menuItem(targets.count == 1 ? "Copy Path" : "Copy Paths", shortcut: KeyboardShortcut("c")) { copyPaths(ui, targets) }
        }
        if ui.menuItem("Find…", icon: .magnifyingGlass, shortcut: KeyboardShortcut("f")) {
            viewer.close()
            focusesFilter = true
        }
        ui.divider()
        ui.disabled(targets.isEmpty) {
            if ui.menuItem("Move to Trash", icon: .trash, role: .destructive, shortcut: KeyboardShortcut(.delete, modifiers: [])) {
                askToTrash(targets)
            }
        }
    }

    /// The Photo menu: ratings, favorite, a window of its own.
    func photoCommands(_ ui: UI) {
        let targets = commandTargets
        ui.disabled(targets.isEmpty) {
            for stars in (0...5).reversed() {
                let title = stars == 0 ? "No Rating" : "Rate " + String(repeating: "★", count: stars)
                if ui.menuItem(title, shortcut: KeyboardShortcut(Character(String(stars)), modifiers: [])) { rate(targets, stars) }
            }
            ui.divider()
            if ui.menuItem("Favorite", icon: .star, shortcut: KeyboardShortcut(".", modifiers: [])) { setFavorite(targets) }
            if ui.menuItem("Open in New Window", icon: .photo, shortcut: KeyboardShortcut(.returnKey, modifiers: [.control])),
               let id = targets.sorted().first {
                openInWindow(ui, id)
            }
        }
    }

    /// The View menu's items for the grid's zoom.
    func zoomCommands(_ ui: UI) {
        ui.disabled(viewMode != .grid || viewer.isOpen) {
            if ui.menuItem("Larger Thumbnails", shortcut: KeyboardShortcut("=")) { grid.zoom = PhotoGrid.clampedZoom(grid.zoom * 1.25) }
            if ui.menuItem("Smaller Thumbnails", shortcut: KeyboardShortcut("-")) { grid.zoom = PhotoGrid.clampedZoom(grid.zoom / 1.25) }
            if ui.menuItem("Default Thumbnail Size", shortcut: KeyboardShortcut("0")) { grid.zoom = 1 }
        }
    }

    /// Opens the photo `id` in a window of its own, with the photos shown around it.
    func openInWindow(_ ui: UI, _ id: Int) {
        guard let index = shown.firstIndex(where: { $0.id == id }) else { return }
        PhotoWindow.open(ui, photos: shown, at: index)
    }

    /// Trashes one photo at once; asks first for more.
    private func askToTrash(_ ids: RowSelection<Int>) {
        if ids.count == 1 {
            trash(ids)
        } else {
            trashCandidates = ids
            confirmsTrash = true
        }
    }

    /// The confirmation dialog for trashing several photos (built every frame; shown while asked).
    func trashConfirmation(_ ui: UI) {
        let count = trashCandidates.count
        ui.confirmationDialog("Move \(count) photos to the trash?", isPresented: Binding(self, \.confirmsTrash),
                              actions: [DialogAction("Move to Trash", role: .destructive) { self.trash(self.trashCandidates) }],
                              message: "You can restore them from the desktop's trash.")
    }

    /// Moves `ids`' photos to the desktop's trash (GIO's `g_file_trash`: the freedesktop trash,
    /// with where each came from). What could not be trashed stays, and says why.
    private func trash(_ ids: RowSelection<Int>) {
        let doomed = photos.filter { ids.contains($0.id) }
        var failures: [String] = []
        for photo in doomed {
            if let problem = Trash.move(photo.path) { failures.append("\(photo.name): \(problem)") }
        }
        if viewer.isOpen { viewer.close() }
        selection.removeAll()
        let moved = doomed.count - failures.count
        lastAction = "Moved \(moved) photo\(moved == 1 ? "" : "s") to the trash" + (failures.first.map { "; not moved: \($0)" } ?? "")
        if let first = failures.first { Log.error("trash: \(first)" + (failures.count > 1 ? " (and \(failures.count - 1) more)" : "")) }
        rescan()
    }
}

/// The desktop's trash, through GIO.
enum Trash {
    /// Moves `path` to the trash; returns why it could not, or nil.
    static func move(_ path: String) -> String? {
        guard let file = FileName.withCString(path, { g_file_new_for_path($0) }) else { return "not a file name" }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        guard g_file_trash(file, nil, &error) == 0 else { return nil }
        defer { g_error_free(error) }
        return error.map { String(cString: $0.pointee.message) } ?? "unknown error"
    }
}
