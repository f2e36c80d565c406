import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// Photos dropped on a folder, waiting for the user's answer about the names it has already.
struct PendingTransfer {
    var paths: [String]
    var folder: String
    var copying: Bool
    /// The photos whose names the folder has.
    var clashes: [String]
}

extension PhotoTransfer {
    /// A photo that went from `from` to `to` (what Ctrl+Z takes back).
    struct Move: Equatable, Sendable {
        let from: String
        let to: String
    }
}

extension BrowserPage {
    /// The sidebar's folders take photos dragged from the grid: a move, or a copy with Ctrl.
    func folderDropDestinations(_ ui: UI, _ rows: ListInfo) {
        for row in rows.rowFrames {
            guard case .folder(let path)? = row.id.base as? SidebarItem, FolderNode.listingProblem(path) == nil else {
                continue
            }
            ui.dropDestination(for: DraggedPhoto.self, in: row.rect) { dropped, drop in
                requestTransfer(dropped.map(\.path), to: path, copying: drop.isCopy)
                return true
            }
        }
    }

    /// Moves (or copies) `paths` into `folder`, asking first when it has some of their names.
    func requestTransfer(_ paths: [String], to folder: String, copying: Bool) {
        // already there
        let moving = copying ? paths : paths.filter { ($0 as NSString).deletingLastPathComponent != folder }
        guard !moving.isEmpty else { return }
        let clashes = PhotoTransfer.clashes(moving, into: folder)
        if clashes.isEmpty {
            startTransfer(moving, to: folder, copying: copying, clash: .skip)
        } else {
            pendingTransfer = PendingTransfer(paths: moving, folder: folder, copying: copying, clashes: clashes)
            asksAboutClashes = true
        }
    }

    /// The question for photos whose names the folder has: keep both, skip, or replace (never
    /// silently over a file).
    func clashQuestion(_ ui: UI) {
        guard let pending = pendingTransfer else { return }
        let folderName = FileName.last(of: pending.folder)
        let title =
            pending.clashes.count == 1
            ? "“\(FileName.last(of: pending.clashes[0]))” is already in \(folderName)"
            : "\(pending.clashes.count) photos have names already in \(folderName)"
        let go = { (clash: PhotoTransfer.Clash) in
            { @MainActor in
                self.pendingTransfer = nil
                self.startTransfer(pending.paths, to: pending.folder, copying: pending.copying, clash: clash)
            }
        }
        ui.confirmationDialog(
            title, isPresented: Binding(self, \.asksAboutClashes),
            actions: [
                DialogAction("Keep Both", isDefault: true, action: go(.keepBoth)),
                DialogAction("Skip", action: go(.skip)),
                DialogAction("Replace", role: .destructive, action: go(.replace)),
                DialogAction("Cancel", role: .cancel) { self.pendingTransfer = nil },
            ],
            message:
                "Keep Both gives the \(pending.copying ? "copies" : "photos") new names; Replace moves the photos there to the trash."
        )
        if !asksAboutClashes { pendingTransfer = nil }  // Escape
    }

    /// Moves (or copies) `paths` into `folder` off the main thread, with progress and Cancel.
    func startTransfer(_ paths: [String], to folder: String, copying: Bool, clash: PhotoTransfer.Clash) {
        let verb = copying ? "Copying" : "Moving"
        let title = "\(verb) \(Self.photoCount(paths.count)) to \(FileName.last(of: folder))"
        let job = FileJob.start(
            title, items: paths, each: { PhotoTransfer.transfer($0, into: folder, copying: copying, clash: clash) }
        ) {
            [weak self] job, results, cancelled in
            self?.fileJobs.removeAll { $0 === job }
            self?.transferred(results, copying: copying, cancelled: cancelled, of: paths.count, to: folder)
        }
        fileJobs.append(job)
    }

    /// A move or copy finished (or was cancelled): the ratings follow the photos, what went is
    /// undoable, what did not says why.
    private func transferred(
        _ results: [(String, PhotoTransfer.Outcome)], copying: Bool, cancelled: Bool, of count: Int, to folder: String
    ) {
        var moves: [PhotoTransfer.Move] = [], skipped = 0, replaced = 0, failures: [String] = []
        for (path, outcome) in results {
            switch outcome {
            case .placed(let target, let didReplace, let problems):
                moves.append(PhotoTransfer.Move(from: path, to: target))
                if didReplace { replaced += 1 }
                for problem in problems { Log.warn("sidecar: \(problem)") }
                carrySidecarEntry(
                    from: (path as NSString).deletingLastPathComponent, FileName.last(of: path),
                    to: folder, FileName.last(of: target), keepingSource: copying)
            case .skipped: skipped += 1
            case .failed(let why): failures.append("\(FileName.last(of: path)): \(why)")
            }
        }
        if !moves.isEmpty { remember(.transfer(moves, copied: copying)) }
        let folderName = FileName.last(of: folder)
        lastAction =
            "\(copying ? "Copied" : "Moved") \(Self.photoCount(moves.count)) to \(folderName)"
            + (replaced > 0 ? " (\(replaced) replaced: the old ones are in the trash)" : "")
            + (skipped > 0 ? ", skipped \(skipped)" : "")
            + (cancelled ? " (cancelled: \(count - results.count) not \(copying ? "copied" : "moved"))" : "")
            + (failures.first.map { "; not \(copying ? "copied" : "moved"): \($0)" } ?? "")
        if let first = failures.first {
            Log.error("move: \(first)" + (failures.count > 1 ? " (and \(failures.count - 1) more)" : ""))
        }
        rescan()
    }

    /// Takes a move back (each photo to its old place and name, never over a file that took
    /// it meanwhile), or a copy (the copies go to the trash).
    func undoTransfer(_ moves: [PhotoTransfer.Move], copied: Bool) {
        var failures: [String] = []
        for move in moves.reversed() {
            let name = FileName.last(of: move.to)
            if copied {
                let sidecars = XMPSidecar.ownSidecars(of: move.to)
                if case .failure(let why) = Trash.move(move.to) {
                    failures.append("\(name): \(why)")
                } else {
                    for sidecar in sidecars { _ = Trash.move(sidecar) }
                }
                continue
            }
            switch PhotoTransfer.transfer(move.to, to: move.from, copying: false, clash: .skip) {
            case .placed:
                carrySidecarEntry(
                    from: (move.to as NSString).deletingLastPathComponent, name,
                    to: (move.from as NSString).deletingLastPathComponent, FileName.last(of: move.from))
            case .skipped: failures.append("\(name): a file has its old name now")
            case .failed(let why): failures.append("\(name): \(why)")
            }
        }
        let done = moves.count - failures.count
        lastAction =
            (copied ? "Moved \(Self.photoCount(done)) copies to the trash" : "Put \(Self.photoCount(done)) back")
            + (failures.first.map { "; not undone: \($0)" } ?? "")
    }
}
