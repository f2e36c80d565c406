import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
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
        ui.disabled(undoStack.isEmpty) {
            if ui.menuItem("Undo " + (undoStack.last?.title ?? ""), shortcut: KeyboardShortcut("z")) { undo() }
        }
        ui.divider()
        if ui.menuItem("Select All", shortcut: KeyboardShortcut("a")) { selection.selectAll(of: shown) }
        ui.disabled(targets.isEmpty) {
            if ui.menuItem(targets.count == 1 ? "Copy Path" : "Copy Paths", shortcut: KeyboardShortcut("c")) {
                copyPaths(ui, targets)
            }
        }
        // In the table, F2 is the table's own (it edits the Name cell in place).
        ui.disabled(targets.count != 1 || !viewMode.showsGrid || viewer.isOpen) {
            if ui.menuItem("Rename…", shortcut: KeyboardShortcut(.f2, modifiers: [])), let id = targets.first,
                let photo = photos.first(where: { $0.id == id })
            {
                grid.renaming = (id, photo.name, false)
            }
        }
        if ui.menuItem("Find…", icon: .magnifyingGlass, shortcut: KeyboardShortcut("f")) {
            viewer.close()
            focusesFilter = true
        }
        ui.divider()
        ui.disabled(targets.isEmpty) {
            if ui.menuItem(
                "Move to Trash", icon: .trash, role: .destructive, shortcut: KeyboardShortcut(.delete, modifiers: []))
            {
                askToTrash(targets)
            }
        }
    }

    /// The Photo menu: ratings (0–5), color labels (6–9), pick, reject and unflag (P, X, U),
    /// rotate (Ctrl+R right, Ctrl+Shift+R left), favorite, a window of its own.
    func photoCommands(_ ui: UI) {
        let targets = commandTargets
        ui.disabled(targets.isEmpty) {
            for stars in (0...5).reversed() {
                let title = stars == 0 ? "No Rating" : "Rate " + String(repeating: "★", count: stars)
                if ui.menuItem(title, shortcut: KeyboardShortcut(Character(String(stars)), modifiers: [])) {
                    rate(targets, stars)
                }
            }
            ui.divider()
            for (digit, label) in zip(6...9, ColorLabel.allCases) {
                if ui.menuItem(
                    "Label " + label.rawValue, shortcut: KeyboardShortcut(Character(String(digit)), modifiers: []))
                {
                    setLabel(targets, label)
                }
            }
            ui.divider()
            if ui.menuItem("Pick", shortcut: KeyboardShortcut("p", modifiers: [])) { setFlag(targets, .picked) }
            if ui.menuItem("Reject", shortcut: KeyboardShortcut("x", modifiers: [])) { setFlag(targets, .rejected) }
            if ui.menuItem("Unflag", shortcut: KeyboardShortcut("u", modifiers: [])) { setFlag(targets, nil) }
            ui.divider()
            if ui.menuItem("Rotate Right", shortcut: KeyboardShortcut("r")) { rotate(targets, clockwise: true) }
            if ui.menuItem("Rotate Left", shortcut: KeyboardShortcut("r", modifiers: [.control, .shift])) {
                rotate(targets, clockwise: false)
            }
            ui.divider()
            if ui.menuItem("Favorite", icon: .star, shortcut: KeyboardShortcut(".", modifiers: [])) {
                setFavorite(targets)
            }
            if ui.menuItem(
                "Open in New Window", icon: .photo, shortcut: KeyboardShortcut(.returnKey, modifiers: [.control])),
                let id = targets.sorted().first
            {
                openInWindow(ui, id)
            }
        }
    }

    /// The View menu's items for the grid's zoom.
    func zoomCommands(_ ui: UI) {
        ui.disabled(!viewMode.showsGrid || viewer.isOpen) {
            if ui.menuItem("Larger Thumbnails", shortcut: KeyboardShortcut("=")) {
                grid.zoom = PhotoGrid.clampedZoom(grid.zoom * 1.25)
            }
            if ui.menuItem("Smaller Thumbnails", shortcut: KeyboardShortcut("-")) {
                grid.zoom = PhotoGrid.clampedZoom(grid.zoom / 1.25)
            }
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
        ui.confirmationDialog(
            "Move \(count) photos to the trash?", isPresented: Binding(self, \.confirmsTrash),
            actions: [DialogAction("Move to Trash", role: .destructive) { self.trash(self.trashCandidates) }],
            message: "You can restore them from the desktop's trash.")
    }

    /// Moves `ids`' photos to the desktop's trash (GIO's `g_file_trash`: the freedesktop trash,
    /// with where each came from), their own sidecars with them, off the main thread with its
    /// progress shown and a Cancel button; Ctrl+Z puts back what went. What could not be
    /// trashed stays, and says why.
    private func trash(_ ids: RowSelection<Int>) {
        let doomed = photos.filter { ids.contains($0.id) }.map(\.path)
        guard !doomed.isEmpty else { return }
        if viewer.isOpen { viewer.close() }
        selection.removeAll()
        let title = doomed.count == 1 ? "Moving to the trash" : "Moving \(doomed.count) photos to the trash"
        let job = FileJob.start(
            title, items: doomed,
            each: { path -> (moved: [String], failure: String?) in
                let sidecars = XMPSidecar.ownSidecars(of: path)  // they go with it, and come back with it
                switch Trash.move(path) {
                case .success:
                    return ([path] + sidecars.filter { if case .success = Trash.move($0) { true } else { false } }, nil)
                case .failure(let why):
                    return ([], "\(FileName.last(of: path)): \(why)")
                }
            }
        ) { [weak self] job, results, cancelled in
            self?.fileJobs.removeAll { $0 === job }
            self?.trashed(results.map(\.1), cancelled: cancelled, of: doomed.count)
        }
        fileJobs.append(job)
    }

    /// A trash move finished (or was cancelled): what went is undoable, what did not says why.
    private func trashed(_ results: [(moved: [String], failure: String?)], cancelled: Bool, of count: Int) {
        let trashed = results.flatMap(\.moved), failures = results.compactMap(\.failure)
        // Where they went (one listing of each trash): one not found was trashed where this
        // code cannot look, and is not undoable from here.
        let found = Trash.find(trashed)
        let batch = trashed.compactMap { found[$0] }
        if !batch.isEmpty { remember(.trash(batch)) }
        let moved = results.count - failures.count
        lastAction =
            "Moved \(moved) photo\(moved == 1 ? "" : "s") to the trash"
            + (cancelled ? " (cancelled: \(count - results.count) not moved)" : "")
            + (failures.first.map { "; not moved: \($0)" } ?? "")
        if let first = failures.first {
            Log.error("trash: \(first)" + (failures.count > 1 ? " (and \(failures.count - 1) more)" : ""))
        }
        rescan()
    }
}

/// Something the browser did that Ctrl+Z undoes.
enum BrowserUndo {
    /// Photos moved to the trash.
    case trash([Trash.Item])
    /// A photo renamed: it is at `path` now, was called `oldName`, and its sidecar is `folder`'s.
    case rename(path: String, oldName: String, folder: String)
    /// Photos turned a quarter turn, clockwise or not.
    case rotate(paths: [String], clockwise: Bool)
    /// Photos moved (or copied) from one place to another.
    case transfer([PhotoTransfer.Move], copied: Bool)

    /// What the Edit menu calls undoing it ("Undo Rename").
    var title: String {
        switch self {
        case .trash(let items): items.count > 1 ? "Move of \(items.count) to Trash" : "Move to Trash"
        case .rename: "Rename"
        case .rotate: "Rotate"
        case .transfer(_, let copied): copied ? "Copy" : "Move"
        }
    }
}

extension BrowserPage {
    /// Actions Ctrl+Z can undo, at most.
    static let undoLimit = 50

    func remember(_ action: BrowserUndo) { undoStack = Array((undoStack + [action]).suffix(Self.undoLimit)) }

    /// Undoes the last trash move or rename (Ctrl+Z).
    func undo() {
        switch undoStack.popLast() {
        case .trash(let batch)?: undoTrash(batch)
        case .rename(let path, let oldName, let folder)?:
            startRename(path, to: oldName, sidecarFolder: folder, undoable: false)
            return
        case .rotate(let paths, let clockwise)?:
            rotate(paths: paths, clockwise: !clockwise, undoable: false)
            return
        case .transfer(let moves, let copied)?:
            undoTransfer(moves, copied: copied)
        case nil: return
        }
        rescan()
    }

    /// Turns the photos `ids` a quarter turn (in their XMP sidecars, `PhotoRotation`),
    /// off the main thread with its progress shown and a Cancel button; Ctrl+Z turns back
    /// those that turned.
    func rotate(_ ids: RowSelection<Int>, clockwise: Bool) {
        rotate(paths: photos.filter { ids.contains($0.id) }.map(\.path), clockwise: clockwise, undoable: true)
    }

    private func rotate(paths: [String], clockwise: Bool, undoable: Bool) {
        guard !paths.isEmpty else { return }
        let title = paths.count == 1 ? "Rotating" : "Rotating \(paths.count) photos"
        let job = FileJob.start(title, items: paths, each: { PhotoRotation.rotate($0, clockwise: clockwise) }) {
            [weak self] job, results, _ in
            self?.fileJobs.removeAll { $0 === job }
            let problems = results.compactMap { path, problem in
                problem.map { "\(FileName.last(of: path)): \($0)" }
            }
            self?.rotated(
                results.filter { $0.1 == nil }.map(\.0), clockwise: clockwise, problems: problems, undoable: undoable)
        }
        fileJobs.append(job)
    }

    /// A rotation finished: what turned shows turned (new thumbnails, new dimensions).
    private func rotated(_ paths: [String], clockwise: Bool, problems: [String], undoable: Bool) {
        let turned = paths.count
        if undoable && turned > 0 { remember(.rotate(paths: paths, clockwise: clockwise)) }
        let turnedPaths = Set(paths)
        for path in paths {
            dimensions.forget(path)
            viewer.dimensions.forget(path)
            viewer.info.forget(path)
        }
        turnedQuarter(turnedPaths)
        // The index's sizes were the photo's before the turn: read again on the next start.
        do { try index?.forget(paths) } catch { Log.warn("cannot update the library index: \(error)") }
        thumbnailsChanged = true  // made again, at the new orientation
        lastAction =
            "Rotated \(turned) photo\(turned == 1 ? "" : "s") \(clockwise ? "right" : "left")"
            + (problems.first.map { "; not rotated: \($0)" } ?? "")
        if let first = problems.first {
            Log.error("rotate: \(first)" + (problems.count > 1 ? " (and \(problems.count - 1) more)" : ""))
        }
        rescan()
    }

    /// Renames `photo` to `name` in its folder, its rating, favorite and tags with it; a name
    /// that is not allowed, taken, or in a read-only folder is refused with a message.
    func rename(_ photo: Photo, to name: String) {
        guard name != photo.name else { return }
        startRename(photo.path, to: name, sidecarFolder: photo.folder, undoable: true)
    }

    /// Renames the photo at `path` to `name` off the main thread, its own XMP sidecars with it;
    /// then its entry in `sidecarFolder`'s sidecar follows, and (`undoable`) Ctrl+Z can take it
    /// back. What could not be renamed says why.
    private func startRename(_ path: String, to name: String, sidecarFolder: String, undoable: Bool) {
        let oldName = FileName.last(of: path)
        let target = (path as NSString).deletingLastPathComponent + "/" + name
        let job = FileJob.start(
            undoable ? "Renaming" : "Renaming back", items: [path],
            each: { path -> (problem: String?, sidecars: [String]) in
                if let problem = FileRename.rename(path, to: name) { return (problem, []) }
                return (nil, XMPSidecar.renameSidecars(from: path, to: target))  // its XMP goes with it
            }
        ) { [weak self] job, results, _ in
            guard let self else { return }
            fileJobs.removeAll { $0 === job }
            guard let outcome = results.first?.1 else { return }  // cancelled before it began
            if let problem = outcome.problem {
                lastAction = "Could not rename \(oldName)\(undoable ? "" : " back"): \(problem)"
                return
            }
            for problem in outcome.sidecars { Log.warn("sidecar not renamed: \(problem)") }
            carrySidecarEntry(from: sidecarFolder, oldName, to: sidecarFolder, name)
            if undoable { remember(.rename(path: target, oldName: oldName, folder: sidecarFolder)) }
            lastAction =
                (undoable ? "Renamed \(oldName) to \(name)" : "Renamed \(oldName) back to \(name)")
                + (outcome.sidecars.first.map { "; its sidecar \($0)" } ?? "")
            pendingReveal(path: target)
            rescan()
        }
        fileJobs.append(job)
    }

    /// Puts the photos of a trash move back where they were. A photo whose name was taken
    /// since stays in the trash, and says so.
    private func undoTrash(_ batch: [Trash.Item]) {
        let failures = batch.compactMap { item in
            Trash.restore(item).map { "\(FileName.last(of: item.original)): \($0)" }
        }
        let restored = batch.count - failures.count
        lastAction =
            "Put \(restored) photo\(restored == 1 ? "" : "s") back from the trash"
            + (failures.first.map { "; not put back: \($0)" } ?? "")
    }
}
