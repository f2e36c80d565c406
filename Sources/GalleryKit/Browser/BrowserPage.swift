import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// The photo browser: a three-column NavigationSplitView over a library of photos, a folder
/// and its subfolders at any depth, walked in the background (`LibraryScan`): photos appear
/// as folders are found. Sidebar: Library (All Photos, Favorites, Recent: every photo of the
/// library) and the folder tree (a folder narrows the content to it and its subfolders).
/// Content: the adaptive grid or the table, switched from the toolbar, sharing one selection,
/// narrowed by a filter. Detail: an inspector for the selection. Double-click or Return opens
/// the viewer. Ratings, favorites and tags live in each folder's sidecar.
@MainActor
final class BrowserPage {
    /// How the content shows the photos: square cells, justified rows (each photo at its own
    /// shape), or the table.
    enum ViewMode: String, Codable {
        case grid, justified, table
        /// The photo grid shows them (square or justified).
        var showsGrid: Bool { self != .table }
    }

    let root: String
    /// The folder the content is narrowed to (the library's root: not narrowed).
    private(set) var folder: String
    var nav = NavigationSplitState()
    var viewMode = ViewMode.grid
    var sortOrder: [KeyComparator<Photo>] = []
    var sidebarSelection: SidebarItem? = .allPhotos
    var expandedFolders: Set<SidebarItem> = []
    var filter = ""
    var selection = RowSelection<Int>()
    /// Every photo the scan found, in path order; a photo's ID is its index here.
    private(set) var photos: [Photo] = []
    private(set) var shown: [Photo] = []
    /// One folder's sidecar: as edited, as last read or written (a save merges our changes
    /// since then), whether a save is still owed, and when the last save landed
    /// (`MonotonicClock.nanoseconds`; 0 for none).
    private struct SidecarBook {
        var current = FolderSidecar()
        var base = FolderSidecar()
        var pending = false
        var savedAt: UInt64 = 0
    }
    /// The sidecars of the folders found, by folder path.
    private var sidecars: [String: SidecarBook] = [:]
    /// The open folder's sidecar.
    var sidecar: FolderSidecar { sidecars[folder]?.current ?? FolderSidecar() }
    private(set) var favoriteCount = 0
    /// The folder `photos` covers: the library's root, or a folder outside it that was opened
    /// (a link out of the library, a dropped folder), or "" before the first scan.
    private(set) var scanRoot = ""
    /// The walk under way (nil when none is).
    private(set) var scan: LibraryScan?
    /// A walk's photos held until it ends when it replaces photos already shown (a rescan),
    /// so the grid never empties; nil when the walk's photos are shown as they come.
    private var staging: [Photo]?
    /// Folders whose photos were edited while `staging` held some of them: the staged copies
    /// take the edits when they replace the shown photos.
    private var editedWhileStaging: Set<String> = []
    /// Whether a walk of the library is under way.
    var isScanning: Bool { scan != nil }
    /// When the walk's findings were last taken (UI time).
    private var scanAbsorbedAt = -Double.infinity
    /// Watches being set up (`waitForScan` waits for them too), one walk's after another's.
    private let watching = DispatchGroup()
    private static let watchQueue = DispatchQueue(label: "tessera.folder-watches", qos: .userInitiated)
    /// The folders the current walk went through, watched for changes once it ends.
    private var walkedFolders: [String] = []
    /// Folders taken from the walk and not yet added (over a frame's budget).
    private var takenFolders: [FoundFolder] = []
    /// How many photos a frame adds at most while a library is walked.
    static let photosPerFrame = 6_000
    /// Something changed while a walk was under way: walk again when it ends.
    private var rescanWanted = false
    /// How the current walk stands (folders and photos found so far).
    private(set) var scanProgress: LibraryScan.Progress?
    /// Folders the last walk did not enter (links out of the library, folders met twice).
    private var skippedFolders: [String] = []
    /// A dropped photo to select and reveal once the walk has found it.
    private var pendingDrop: String?
    /// Where photos' dates and sizes are kept between runs (nil: read from the files each time).
    let index: LibraryIndex?
    /// The scan reading the photos' facts (dates, sizes) after each walk; nil when none runs.
    private var factsScan: FactsScan?
    /// How far it is.
    private(set) var factsProgress: FactsScan.Progress?
    /// Whether photos' facts are being read.
    var isReadingFacts: Bool { factsScan != nil }
    /// How many photos the last facts scan read from their files (the rest came from the index).
    private(set) var lastFactsReadFromFiles = 0
    /// Facts taken from the scan and not yet applied (they are applied twice a second, so a
    /// long scan regroups the grid a few times, not every frame).
    private var pendingFacts: [(id: Int, path: String, facts: PhotoFacts)] = []
    private var factsAppliedAt = -Double.infinity
    private let rootNode: FolderNode
    var lastAction = ""
    private(set) var folderProblem: String?
    /// Where the toolbar's view-mode picker and filter field start, and what the table
    /// showed (for scripted tours and tests that click them).
    private(set) var viewModeOrigin = Point.zero
    private(set) var filterOrigin = Point.zero
    private(set) var tableInfo: TableInfo?
    /// The rows the table showed last, in its order.
    private(set) var tableRows: SortedView<[Photo]>?
    private(set) var sidebarInfo: ListInfo?
    let viewer = PhotoViewer()
    let grid = PhotoGrid(photos: [])
    private let sorter = TableSorter<Photo>(name: "files")
    let dimensions = DimensionCache(capacity: 1_000_000)  // as many as a library lists
    private var shownKey: (folder: String, filter: String, collection: SidebarItem?, revision: Int)?
    private var revision = 0
    /// Samples still being written into the folder (the first run): the grid fills in as they land.
    var sampleGeneration: SampleGeneration?
    private var samplesSeen = -1
    /// Tells when files land in the library's folders (another program writing into them).
    private let watcher = FolderWatcher()
    /// Writes sidecars off the main thread (one for every browser window).
    let saver: SidecarSaver
    /// Lists the folder tree, and expands all of a subtree, off the main thread.
    private let folderLister = FolderLister()
    private var listed = false
    /// Find… was chosen: the filter field takes focus in the next frame.
    var focusesFilter = false
    /// The photos the trash confirmation asks about, and whether it is shown.
    var trashCandidates = RowSelection<Int>()
    var confirmsTrash = false
    /// What Ctrl+Z undoes, newest last: trash moves and renames.
    var undoStack: [BrowserUndo] = []
    /// Photos turned since the last frame: their thumbnails are made again.
    var thumbnailsChanged = false
    /// Photos dropped on a folder whose names it has already: the question asked about them.
    var pendingTransfer: PendingTransfer?
    var asksAboutClashes = false
    /// File operations under way (off the main thread): trash moves, rotations.
    var fileJobs: [FileJob] = []
    /// Bumped whenever `shown` changes, so the table's sorter never reorders other rows.
    private var shownVersion = 0
    /// A photo to scroll to when the grid or table is next built.
    private var pendingReveal: Int?
    private var restored = false
    private let library = [
        LibraryEntry(id: .allPhotos, title: "All Photos", icon: .photo),
        LibraryEntry(id: .favorites, title: "Favorites", icon: .starFill),
        LibraryEntry(id: .recent, title: "Recent", icon: .magnifyingGlass),
    ]

    init(root: String, folder: String? = nil, index: LibraryIndex? = nil, saver: SidecarSaver = SidecarSaver()) {
        self.saver = saver
        self.root = root
        self.folder = folder ?? root
        self.index = index
        rootNode = FolderNode.root(root)
        grid.onOpen = { [unowned self] photo in self.open(photo.id) }
        grid.contextMenu = { [unowned self] ui, ids in self.menu(ui, ids) }
        grid.onRename = { [unowned self] photo, name in self.rename(photo, to: name) }
    }

    // MARK: Data

    /// Narrows the content to `path` and its subfolders, walking it first when the current
    /// walk does not cover it (an unreadable or empty library shows why in the content column).
    func open(folder path: String) {
        folder = path
        if path != root {
            sidebarSelection = .folder(path)
        } else if case .folder? = sidebarSelection {
            sidebarSelection = .allPhotos
        }
        selection = []
        listed = true
        guard !covers(path) else { return }
        // A folder of the library is walked with the library; one outside it (a link out, a
        // dropped folder) or one the library's walk skipped is walked on its own.
        let inLibrary = Self.isUnder(path, root) && Self.isInside(path, root) && scanRoot != root
        startScan(inLibrary ? root : path, replacing: false)
    }

    /// Whether the current walk lists `path`'s photos.
    private func covers(_ path: String) -> Bool {
        guard !scanRoot.isEmpty, Self.isUnder(path, scanRoot) else { return false }
        return !skippedFolders.contains { Self.isUnder(path, $0) }
    }

    /// Whether `path` is `base` or lies under it, by name (links not resolved).
    static func isUnder(_ path: String, _ base: String) -> Bool {
        path == base || path.hasPrefix(base.hasSuffix("/") ? base : base + "/")
    }

    /// Walks `path` in the background; its photos replace the ones shown as they come, or all at
    /// once when it ends (`replacing`: a rescan of what is shown, so nothing flickers away).
    private func startScan(_ path: String, replacing: Bool) {
        scan?.cancel()
        takenFolders = []
        walkedFolders = []
        scanRoot = path
        scan = LibraryScan(root: path, index: index)
        rescanWanted = false
        editedWhileStaging = []
        if replacing {
            staging = []
        } else {
            staging = nil
            photos = []
            favoriteCount = 0
            skippedFolders = []
            folderProblem = nil
            revision += 1
        }
    }

    /// Whether samples are still being written into the library.
    private var isGeneratingHere: Bool {
        guard let generation = sampleGeneration else { return false }
        return generation.folder == scanRoot && !generation.isDone
    }

    /// Walks the library again (files landed or left); the selection keeps what is still there.
    func rescan() { list() }

    /// Carries a photo's rating, favorite, tags, label and flag from `name` in `folder`'s
    /// sidecar to `newName` in `newFolder`'s (it was renamed, moved or copied: `keepingSource`),
    /// and saves both sidecars.
    func carrySidecarEntry(
        from folder: String, _ name: String, to newFolder: String, _ newName: String, keepingSource: Bool = false
    ) {
        guard folder != newFolder || name != newName else { return }
        let entry = sidecars[folder]?.current.entry(for: name) ?? FolderSidecar.Entry()
        if !keepingSource, sidecars[folder] != nil {
            sidecars[folder]?.current.set(nil, for: name)
        }
        if entry != FolderSidecar.Entry() || sidecars[newFolder] != nil {
            sidecars[newFolder, default: SidecarBook()].current.set(entry, for: newName)
        }
        saveProblem = (folder == newFolder ? [folder] : [folder, newFolder]).compactMap { saveSidecar($0) }.first
    }

    /// The photos at `paths` were turned a quarter turn: their shapes swap (the justified grid lays them out anew).
    func turnedQuarter(_ paths: Set<String>) {
        for i in photos.indices where paths.contains(photos[i].path) && photos[i].aspectRatio > 0 {
            photos[i].aspectRatio = 1 / photos[i].aspectRatio
        }
        revision += 1
    }

    /// Selects and reveals the photo at `path` once the next walk has found it.
    func pendingReveal(path: String) { pendingDrop = path }

    /// "1 photo", "58 photos".
    static func photoCount(_ count: Int) -> String { count == 1 ? "1 photo" : "\(count) photos" }

    /// The library shown: the folder walked (another one opened from File or the sidebar), else the root.
    var libraryRoot: String { scanRoot.isEmpty ? root : scanRoot }

    static let recentKey = "demo.recentLibraries"

    /// The libraries opened before, newest first (five are kept in the state file).
    func recentLibraries(_ ui: UI) -> [String] {
        ui.persistentStore?.value(Self.recentKey, as: [String].self) ?? []
    }

    /// Shows `library`, first among the recent libraries.
    func openLibrary(_ library: String, _ ui: UI) {
        open(folder: library)
        viewer.close()
        let recent = recentLibraries(ui)
        ui.persistentStore?.set(Array(([library] + recent.filter { $0 != library }).prefix(5)), for: Self.recentKey)
    }

    private func list() {
        if scan != nil { rescanWanted = true } else if !scanRoot.isEmpty { startScan(scanRoot, replacing: true) }
    }

    /// Takes what the walk found since it was last taken: photos, with their folders' ratings.
    /// The first photos are taken at once, then four times a second (each take costs a pass
    /// over the list), and the end at once; `redraw` asks for the frame of the next take.
    private func absorbScan(time: Double, redraw: (Double) -> Void = { _ in }) {
        guard let scan else { return }
        let wait = scanAbsorbedAt + 0.25 - time
        if !photos.isEmpty && wait > 0 && !scan.isDone && takenFolders.isEmpty {
            redraw(wait)
            return
        }
        scanAbsorbedAt = time
        var progress = scan.take()
        scanProgress = progress
        // At most `photosPerFrame` photos a frame (a fast disk finds tens of thousands between
        // two takes); the rest wait for the next frame, asked for at once.
        takenFolders += progress.folders
        var budget = time.isFinite ? Self.photosPerFrame : .max
        var batch = 0
        while batch < takenFolders.count && budget > 0 {
            budget -= takenFolders[batch].photos.count
            batch += 1
        }
        progress.folders = Array(takenFolders.prefix(batch))
        takenFolders.removeFirst(batch)
        if !takenFolders.isEmpty {
            progress.isDone = false
            redraw(0)
        }
        if !progress.folders.isEmpty {
            var added: [Photo] = []
            let first = (staging ?? photos).count
            for found in progress.folders {
                walkedFolders.append(found.path)
                readSidecar(found)
                let book = sidecars[found.path]
                for var photo in found.photos {
                    photo.id = first + added.count
                    photo.read(from: book?.current ?? FolderSidecar())
                    added.append(photo)
                }
            }
            if staging != nil {
                staging?.append(contentsOf: added)
            } else {
                favoriteCount += added.filter(\.isFavorite).count
                releaseShown()
                photos.append(contentsOf: added)
                revision += 1
            }
        }
        guard progress.isDone else { return }
        self.scan = nil
        // A change anywhere in the library walks it again. Off this thread: one inotify call per
        // folder is 21 ms for the 1,826 folders of a 100,000-photo library.
        if let watcher {
            watching.enter()
            Self.watchQueue.async { [walkedFolders, watching] in
                watcher.watch(walkedFolders)
                watching.leave()
            }
        }
        scanProgress = nil
        skippedFolders = progress.skipped
        if let staged = staging {
            staging = nil
            replacePhotos(with: staged)
        }
        if let failure = progress.failure {
            folderProblem = "\(failure)"
        } else if photos.isEmpty && !isGeneratingHere && !rescanWanted {
            folderProblem = "\(PhotoLibrary.LoadError.empty(scanRoot))"
        } else {
            folderProblem = nil
        }
        if rescanWanted { startScan(scanRoot, replacing: true) } else { startFactsScan() }
    }

    /// Reads the dates and sizes of the photos just listed, from the index or their headers.
    private func startFactsScan() {
        factsScan?.cancel()
        pendingFacts = []
        factsScan =
            photos.isEmpty
            ? nil
            : FactsScan(
                photos: photos, root: scanRoot, index: index,
                dimensions: dimensions)
    }

    /// Takes the facts found since the last frame; applies them twice a second and at the end:
    /// photos move to the month they were taken in.
    private func absorbFacts(time: Double) {
        guard let factsScan else { return }
        let progress = factsScan.take()
        factsProgress = progress
        pendingFacts += progress.facts
        guard progress.isDone || time - factsAppliedAt >= 0.5 else { return }
        factsAppliedAt = time
        var moved = false
        releaseShown()
        for (id, path, facts) in pendingFacts where photos.indices.contains(id) && photos[id].path == path {
            photos[id].taken = facts.taken
            let month = facts.month ?? PhotoMonth.key(of: photos[id].modified)
            if photos[id].month != month {
                photos[id].month = month
                moved = true
            }
            if photos[id].aspectRatio != facts.aspectRatio {
                photos[id].aspectRatio = facts.aspectRatio
                moved = true  // the justified grid lays it out at its own shape
            }
            if !facts.embedded.isEmpty {
                // As read from the photo: the base too, so it is not taken for an edit to save.
                var book = sidecars[photos[id].folder] ?? SidecarBook()
                let name = photos[id].name
                if PhotoSidecars.applyEmbedded(facts.embedded, to: &book.current, name: name, path: path) {
                    _ = PhotoSidecars.applyEmbedded(facts.embedded, to: &book.base, name: name, path: path)
                    sidecars[photos[id].folder] = book
                    photos[id].read(from: book.current)
                    moved = true
                }
            }
        }
        pendingFacts = []
        if moved { revision += 1 }
        if progress.isDone {
            self.factsScan = nil
            factsProgress = nil
            lastFactsReadFromFiles = progress.readFromFiles
        }
    }

    /// Lets go of the shown list (the grid's too) before `photos` changes: they share its storage
    /// when nothing is filtered, and a change would copy all of it; `updateShown` makes them again.
    private func releaseShown() {
        shown = []
        grid.photos = []
        shownKey = nil
    }

    /// A rescan's photos in place of the ones shown; the selection keeps the photos still there.
    private func replacePhotos(with fresh: [Photo]) {
        let selectedPaths = Set(selection.compactMap { photos.indices.contains($0) ? photos[$0].path : nil })
        photos = fresh
        applySidecars(editedWhileStaging)  // edits made after the walk took those folders
        editedWhileStaging = []
        favoriteCount = photos.filter(\.isFavorite).count
        revision += 1
        if !selectedPaths.isEmpty {
            selection = RowSelection(photos.filter { selectedPaths.contains($0.path) }.map(\.id))
        }
    }

    /// A found folder's sidecar as read now; edits a failed save still holds are laid over it, not dropped.
    /// A folder listed before our last save to it landed keeps our book: what the walk read may
    /// predate the save, which merged in everything on disk then (a later change by another
    /// program walks the library again).
    private func readSidecar(_ found: FoundFolder) {
        var book = sidecars[found.path] ?? SidecarBook()
        guard found.listedAt > book.savedAt else { return }
        let fresh = found.sidecar ?? FolderSidecar()
        book.current = book.pending ? FolderSidecar.merge(base: book.base, ours: book.current, theirs: fresh) : fresh
        book.base = fresh
        sidecars[found.path] = book
    }

    /// Waits for the walk under way (and the rescans it asked for) and takes what it found:
    /// for tests and tools that need the whole library before going on.
    func waitForScan() {
        if !listed { open(folder: folder) }
        while scan != nil || factsScan != nil {
            scan?.wait()
            absorbScan(time: .infinity)
            factsScan?.wait()
            absorbFacts(time: .infinity)
        }
        watching.wait()
        updateShown()
    }

    /// The ratings and favorites of `folders`' sidecars onto their photos (after a save merged
    /// another instance's edits in, or onto a walk's photos taken before an edit).
    private func applySidecars(_ folders: Set<String>) {
        guard !folders.isEmpty else { return }
        for i in photos.indices where folders.contains(photos[i].folder) {
            guard let book = sidecars[photos[i].folder] else { continue }
            photos[i].read(from: book.current)
        }
        favoriteCount = photos.filter(\.isFavorite).count
        revision += 1
    }

    /// The photos the content column shows: the sidebar's collection, filtered by name; grouped
    /// by month (when taken, else when modified; within a month in path order), except Recent.
    private func updateShown() {
        let key = (folder, filter, sidebarSelection, revision)
        if let k = shownKey, k.folder == key.0, k.filter == key.1, k.collection == key.2, k.revision == key.3 { return }
        shownKey = key
        var list = photos
        // A folder narrows to itself and its subfolders; the Library's collections cover everything.
        if case .folder? = sidebarSelection, folder != scanRoot {
            list = list.filter { Self.isUnder($0.folder, folder) }
        }
        switch sidebarSelection {
        case .favorites?: list = list.filter(\.isFavorite)
        case .recent?: list = Array(list.sorted { $0.modified > $1.modified }.prefix(60))
        default: break
        }
        let needle = filter.trimmingCharacters(in: .whitespaces).lowercased()
        if !needle.isEmpty { list = list.filter { $0.name.lowercased().contains(needle) } }
        if sidebarSelection == .recent {
            grid.sections = nil
        } else {
            // Libraries laid out by date are in order already: no sort then.
            list = PhotoMonth.grouped(list)
            grid.sections = PhotoGrid.sections(of: list)
        }
        shown = list
        shownVersion += 1
        grid.photos = list
        if !selection.isEmpty {
            let visible = Set(list.map(\.id))
            selection = RowSelection(selection.filter { visible.contains($0) })
        }
        if let dropped = pendingDrop, let photo = list.first(where: { $0.path == dropped }) {
            pendingDrop = nil
            selection = [photo.id]
            pendingReveal = photo.id
        } else if scan == nil {
            pendingDrop = nil  // the walk ended without it
        }
    }

    private func edit(_ ids: RowSelection<Int>, _ change: (inout Photo) -> Void) {
        var folders: [String] = []
        for i in photos.indices where ids.contains(photos[i].id) {
            change(&photos[i])
            let photo = photos[i]
            var book = sidecars[photo.folder] ?? SidecarBook()
            photo.write(into: &book.current)
            sidecars[photo.folder] = book
            if folders.last != photo.folder { folders.append(photo.folder) }  // photos come folder by folder
        }
        if staging != nil { editedWhileStaging.formUnion(folders) }
        saveProblem = folders.compactMap { saveSidecar($0) }.first
        favoriteCount = photos.filter(\.isFavorite).count
        revision += 1
    }

    /// Why the last edit could not be kept on disk (nil when it was).
    private(set) var saveProblem: String?
    /// Folders whose save failed: tried again every 3 s (UI time) until it lands.
    private var owedSaves: Set<String> = []
    /// A save failed and is tried again every 3 s (UI time) until it succeeds.
    var sidecarPending: Bool { !owedSaves.isEmpty }
    /// When the next try is due (nil: 3 s after the next frame starts).
    private var sidecarRetryTime: Double?

    /// Queues a save of `folder`'s sidecar (`SidecarSaver`: off the main thread); returns why
    /// it cannot be saved at all, if it cannot.
    private func saveSidecar(_ folder: String) -> String? {
        guard Self.isInside(folder, root) else {
            return "not saved: \(FileName.last(of: folder)) is a link out of the library"
        }
        guard var book = sidecars[folder] else { return nil }
        guard !book.current.isReadOnly else { return "not saved: this folder's ratings file could not be read" }
        book.pending = true
        sidecars[folder] = book
        saver.save(folder, current: book.current, base: book.base)
        return nil
    }

    /// Takes the saves that landed: what is on disk now becomes each folder's base, our edits
    /// made meanwhile stay on top, and another instance's edits merged in show; a save that
    /// failed is owed and tried again.
    private func takeLandedSaves() {
        var applied: Set<String> = []
        for landed in saver.takeLanded() {
            guard var book = sidecars[landed.folder] else { continue }
            if let written = landed.written {
                book.current = FolderSidecar.merge(base: landed.sent, ours: book.current, theirs: written)
                book.base = written
                book.savedAt = MonotonicClock.nanoseconds()
                book.pending = book.current != written  // edits made meanwhile: their own save is queued
                owedSaves.remove(landed.folder)
                applied.insert(landed.folder)
            } else {
                book.pending = true
                owedSaves.insert(landed.folder)
                sidecarRetryTime = nil
                saveProblem = "not saved yet: tried again every few seconds (see the log)"
                lastAction = "Ratings not saved yet: tried again every few seconds"
            }
            sidecars[landed.folder] = book
        }
        applySidecars(applied)  // another instance's edits, merged in, show too
    }

    /// Waits for the sidecar saves under way (`seconds` at most) and takes them: for tests, and
    /// before quitting. Returns whether they all landed.
    @discardableResult
    func finishSaves(within seconds: Double = 60) -> Bool {
        let done = saver.waitUntilDone(within: seconds)
        takeLandedSaves()
        return done
    }

    /// Whether `folder`, links resolved, lies inside `root` (links resolved): sidecars are
    /// written only there, never through a link that leaves the library.
    static func isInside(_ folder: String, _ root: String) -> Bool {
        guard let folder = LibraryWalk.canonical(folder), let root = LibraryWalk.canonical(root) else { return false }
        return folder == root || folder.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    func setFavorite(_ ids: RowSelection<Int>) {
        let makeFavorite = photos.contains { ids.contains($0.id) && !$0.isFavorite }
        edit(ids) { $0.isFavorite = makeFavorite }
        lastAction =
            (makeFavorite ? "Added \(ids.count) to Favorites" : "Removed \(ids.count) from Favorites")
            + (saveProblem.map { " (\($0))" } ?? "")
    }

    /// Sets the color label of the photos `ids` (or clears it, when they all have it already,
    /// as Lightroom's 6–9 do).
    func setLabel(_ ids: RowSelection<Int>, _ label: ColorLabel) {
        let clears = photos.allSatisfy { !ids.contains($0.id) || $0.label == label }
        edit(ids) { $0.label = clears ? nil : label }
        lastAction =
            (clears ? "Cleared the label of \(ids.count)" : "Labeled \(ids.count) \(label.rawValue)")
            + (saveProblem.map { " (\($0))" } ?? "")
    }

    /// Picks or rejects the photos `ids` (nil: neither). A reject takes the place of the stars
    /// (as in darktable, and as XMP records it: `xmp:Rating` -1).
    func setFlag(_ ids: RowSelection<Int>, _ flag: PickFlag?) {
        edit(ids) { photo in
            photo.flag = flag
            if flag == .rejected { photo.rating = 0 }
        }
        let verb =
            switch flag {
            case .picked: "Picked"
            case .rejected: "Rejected"
            case nil: "Unflagged"
            }
        lastAction = "\(verb) \(ids.count)" + (saveProblem.map { " (\($0))" } ?? "")
    }

    /// Rates the photos `ids` 0–5 stars; a rejected photo given stars is no longer rejected.
    func rate(_ ids: RowSelection<Int>, _ stars: Int) {
        edit(ids) { photo in
            photo.rating = stars
            if stars > 0 && photo.flag == .rejected { photo.flag = nil }
        }
        lastAction =
            "Rated \(ids.count) \(String(repeating: "★", count: stars))" + (saveProblem.map { " (\($0))" } ?? "")
    }

    /// A folder dropped on the window opens; a photo dropped opens its folder, selected and
    /// scrolled to. Anything else is left to other targets.
    func openDropped(_ items: [DroppedItem]) -> Bool {
        for case .file(let path) in items {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                open(folder: path)
                viewer.close()
                lastAction = "Opened \(FileName.last(of: path))"
                return true
            }
            guard ImageFormat.extensions.contains((path as NSString).pathExtension.lowercased()) else { continue }
            open(folder: (path as NSString).deletingLastPathComponent)
            viewer.close()
            pendingDrop = path  // selected and revealed once the walk has listed it
            return true
        }
        return false
    }

    func open(_ id: Int) {
        guard let index = shown.firstIndex(where: { $0.id == id }) else { return }
        viewer.show(shown, at: index)
    }

    // MARK: Persistence

    /// What survives a restart (with the window size and split positions AppHost keeps).
    struct SavedState: Codable, Equatable {
        struct SortKey: Codable, Equatable {
            var id: String
            var ascending: Bool
        }
        var nav: NavigationSplitState
        var viewMode: ViewMode
        var sort: [SortKey]
        var tableWidths: [String: Double]
        /// The table's hidden and moved columns (absent in files from before there were any).
        var columns: TableColumnCustomization<Photo>?
        var library: String
        var folder: String
    }
    private var saved: SavedState?
    /// Which of the table's columns show, in what order (the header's menu and drags change it).
    var columnCustomization = TableColumnCustomization<Photo>()

    /// Reads the saved state once; writes it whenever it changes (the store batches writes).
    private func persist(_ ui: UI) {
        guard let store = ui.persistentStore else { return }
        if !restored {
            restored = true
            if let state = store.value("browser", as: SavedState.self) {
                nav = state.nav
                viewMode = state.viewMode
                sortOrder = state.sort.compactMap { key in
                    columns().first { $0.id == key.id }?.sortDescriptor.map {
                        var d = $0
                        d.order = key.ascending ? .forward : .reverse
                        return d
                    }
                }
                ui.setTableColumnWidths("files", state.tableWidths)
                columnCustomization = state.columns ?? TableColumnCustomization()
                if state.library == root && state.folder != folder && FolderNode.listingProblem(state.folder) == nil {
                    open(folder: state.folder)
                    sidebarSelection = .folder(state.folder)
                }
                saved = state
            }
        }
        let now = SavedState(
            nav: nav, viewMode: viewMode, sort: sortOrder.map { .init(id: $0.id, ascending: $0.order == .forward) },
            tableWidths: ui.tableColumnWidths("files"), columns: columnCustomization, library: root, folder: folder)
        if now != saved {
            saved = now
            store.set(now, for: "browser")
        }
    }

    /// The library the last session browsed, if it is still a folder.
    static func lastLibrary(in store: PersistentStore?) -> String? {
        guard let path = store?.value("browser", as: SavedState.self)?.library else { return nil }
        return (try? checkFolder(path)) != nil ? path : nil
    }

    /// A clear error for a missing folder, a file, or a tree without a photo.
    nonisolated static func checkFolder(_ path: String) throws(PhotoLibrary.LoadError) {
        try PhotoLibrary.check(path)
    }

    // MARK: UI

    func build(_ ui: UI) {
        if !listed { open(folder: folder) }
        let owedBefore = !owedSaves.isEmpty
        takeLandedSaves()
        if owedBefore && owedSaves.isEmpty {
            saveProblem = nil
            lastAction = "Saved the ratings"
        }
        if sidecarPending {
            let due = sidecarRetryTime ?? ui.time + 3
            sidecarRetryTime = due
            if ui.time >= due {
                for folder in owedSaves.sorted() { _ = saveSidecar(folder) }
                sidecarRetryTime = ui.time + 3
            }
            if let next = sidecarRetryTime { ui.requestRedraw(after: next - ui.time) }
        }
        let generated = sampleGeneration.map { $0.folder == scanRoot ? $0.published : -1 } ?? -1
        if thumbnailsChanged {
            thumbnailsChanged = false
            ui.images?.filesMayHaveChanged()  // a turned photo's version changed with its orientation
        }
        if watcher?.takeChange() == true || generated != samplesSeen {
            samplesSeen = generated
            ui.images?.filesMayHaveChanged()  // an edited photo is decoded again; a file that changed may read now
            folderLister.forget()  // folders made or removed are listed again
            list()
        }
        absorbScan(time: ui.time) { ui.requestRedraw(after: $0) }
        absorbFacts(time: ui.time)
        ui.onDrop { openDropped($0) }
        persist(ui)
        updateShown()
        trashConfirmation(ui)
        clashQuestion(ui)
        if viewer.isOpen {
            viewer.build(ui)
            return
        }
        let title = FileName.last(of: folder)
        ui.navigationSplit(
            "browser", state: Binding(self, \.nav), sidebarWidth: .init(min: 170, ideal: 230, max: 360),
            contentWidth: .init(min: 300, ideal: 660, max: 1400), detailMinWidth: 260, title: title
        ) {
            sidebar(ui)
        } content: {
            content(ui)
        } detail: {
            inspector(ui)
        }
    }

    private func sidebar(_ ui: UI) {
        let before = sidebarSelection
        if let opened = folderLister.takeOpened() { expandedFolders.formUnion(opened) }  // an expand-all's next level
        let expandedBefore = expandedFolders
        sidebarInfo = ui.list("sidebar", selection: Binding(self, \.sidebarSelection), style: .sidebar) {
            ui.section("Library") {
                ui.forEach(library) { entry in
                    ListRowContent(
                        entry.title, icon: entry.icon,
                        accessory: entry.id == .favorites ? .badge(self.favoriteCount) : .none)
                }
            }
            let recent = recentLibraries(ui).filter { $0 != libraryRoot && $0 != folder }  // not the one shown
            if !recent.isEmpty {
                ui.section("Recent Libraries") {
                    ui.forEach(
                        recent.map {
                            LibraryEntry(id: .library($0), title: FileName.last(of: $0), icon: .folder)
                        }
                    ) { entry in
                        ListRowContent(entry.title, icon: entry.icon)
                    }
                }
            }
            ui.section("Folders") { folderOutline(ui) }
        }
        if let rows = sidebarInfo, ui.activeDrag != nil { folderDropDestinations(ui, rows) }
        if ui.input.modifiers.contains(.alt) {  // alt-click or alt-Right: the rest of the subtree, in the background
            for case .folder(let path) in expandedFolders.subtracting(expandedBefore) {
                if let node = path == rootNode.path ? rootNode : folderLister.node(at: path) {
                    folderLister.expandAll(from: node)
                }
            }
        }
        if let progress = folderLister.progress {
            ui.padding(8) { ui.text(progress, color: ui.theme.secondaryText) }
            ui.requestRedraw(after: 0.25)
        }
        guard sidebarSelection != before else { return }
        openSidebarSelection(ui, before: before)
    }

    /// The library's folders as an outline. Subfolders are listed only when a folder is
    /// expanded: every readable folder gets a chevron, which goes away if it turns out to have
    /// none. Alt-click expands the folder at once and lists what is below it in the background
    /// (FolderLister), opening it level by level as it lands.
    private func folderOutline(_ ui: UI) {
        ui.outlineGroup(
            [rootNode], childrenOf: { [folderLister] in folderLister.subfolders(of: $0) },
            isExpandable: { node in
                if case .readable = node.status { return true } else { return false }
            }, expanded: Binding(self, \.expandedFolders), expandAllLimit: 0
        ) { node in
            switch node.status {
            case .readable: ListRowContent(node.name, icon: .folder)
            case .unreadable(let why):
                ListRowContent(node.name, icon: .xmark, iconColor: ui.theme.destructive, secondaryText: why)
            case .loop:
                ListRowContent(
                    node.name, icon: .folder, iconColor: ui.theme.secondaryText, secondaryText: "link loop")
            case .elsewhere:
                ListRowContent(
                    node.name, icon: .folder, iconColor: ui.theme.secondaryText, secondaryText: "shown above")
            }
        }
    }

    /// Opens what was picked in the sidebar: a folder, another library (a folder that cannot
    /// be listed says why and keeps the selection), or a collection of the whole library.
    private func openSidebarSelection(_ ui: UI, before: SidebarItem?) {
        switch sidebarSelection {
        case .folder(let path)? where path != folder:
            if let problem = FolderNode.listingProblem(path) {
                lastAction = "Cannot open \(FileName.last(of: path)): \(problem)"
            } else {
                open(folder: path)
            }
        case .folder?, nil: break
        case .library(let path)?:
            if let problem = FolderNode.listingProblem(path) {
                lastAction = "Cannot open \(FileName.last(of: path)): \(problem)"
                sidebarSelection = before
            } else {
                openLibrary(path, ui)
            }
        case let collection? where folder != root:
            open(folder: root)  // All Photos, Favorites and Recent cover the whole library
            sidebarSelection = collection
        default: break
        }
        nav.preferredCompactColumn = .content
    }

    private func content(_ ui: UI) {
        ui.toolbar("browser.bar") {
            if let incomplete = watcher?.incomplete {  // the user sees what will not update by itself
                ui.padding(8) { ui.text(incomplete, color: ui.theme.secondaryText) }
            }
            if let problem = folderProblem {
                ui.padding(16) { ui.text(problem, color: ui.theme.destructive) }
                return
            }
            if shown.isEmpty {
                let empty =
                    isGeneratingHere
                    ? "Making sample photos…"
                    : scan != nil
                        ? "Looking for photos…"
                        : filter.isEmpty ? "No photos here" : "No photo matches “\(filter)”"
                ui.padding(16) { ui.text(empty, color: ui.theme.secondaryText) }
                return
            }
            // Return alone (not a command's Ctrl+Return, nor one a field or a dialog took).
            if viewMode.showsGrid, !selection.isEmpty, ui.shortcutPressed(KeyboardShortcut(.returnKey, modifiers: [])),
                let first = shown.first(where: { selection.contains($0.id) })
            {
                open(first.id)
            }
            if let reveal = pendingReveal {  // a dropped photo, scrolled to where it is drawn
                pendingReveal = nil
                if viewMode.showsGrid { grid.reveal(reveal) } else { ui.scrollTable("files", toRow: reveal) }
            }
            switch viewMode {
            case .grid, .justified:
                grid.isJustified = viewMode == .justified
                grid.selection.selected = selection
                ui.padding(8) { grid.build(ui) }
                selection = grid.selection.selected
            case .table:
                let rows = sorter.view(of: shown, sortedBy: sortOrder, version: shownVersion)
                tableRows = rows
                let info = ui.table(
                    "files", rows: rows, selection: Binding(self, \.selection), sortOrder: Binding(self, \.sortOrder),
                    isSorting: sorter.isSorting, frozenColumns: 1,
                    columnCustomization: Binding(self, \.columnCustomization),
                    contextMenu: { [unowned self] ids in self.menu(ui, ids) },
                    primaryAction: { [unowned self] ids in  // double-click or Return
                        if let first = rows.first(where: { ids.contains($0.id) }) { self.open(first.id) }
                    }
                ) {
                    for column in columns() { column }
                }
                tableInfo = info
            }
        } items: {
            self.barItems(ui)
        }
    }

    /// The bar over the photos: the view switch and the filter at the leading edge, the count
    /// (or what the selection is) after them, the selection's actions at the trailing edge
    /// (into "…" first when the window is narrow).
    private func barItems(_ ui: UI) {
        ui.toolbarItem(placement: .navigation, priority: 3) {
            self.viewModeOrigin = ui.availableRect.origin
            ui.picker(
                "", selection: &self.viewMode,
                options: [("Grid", .grid), ("Justified", .justified), ("Table", .table)], id: "viewMode")
        }
        ui.toolbarItem(placement: .navigation, priority: 2) {
            self.filterOrigin = ui.availableRect.origin
            if self.focusesFilter {
                ui.focus(ui.id("filter"))
                self.focusesFilter = false
            }
            ui.textField("Filter by name", text: &self.filter, width: 140, id: "filter")
        }
        ui.toolbarItem(placement: .navigation, priority: 1) {
            if let generation = self.sampleGeneration, self.isGeneratingHere {
                self.generationProgress(ui, generation)
            } else if self.selection.isEmpty {
                // While the first walk goes on, how far it got (a rescan shows the photos it replaces).
                let scanning =
                    (self.staging == nil
                        ? self.scanProgress.map { ", looking in folder \($0.folderCount + 1)…" } ?? "" : "")
                    + (self.factsProgress.map { ", reading dates \($0.done) of \($0.total)…" } ?? "")
                ui.text(Self.photoCount(self.shown.count) + scanning, color: ui.theme.secondaryText)
            } else {
                ui.text("\(self.selection.count) selected", color: ui.theme.secondaryText)
            }
        }
        guard !selection.isEmpty, !(sampleGeneration != nil && isGeneratingHere) else { return }
        ui.toolbarItem(placement: .secondaryAction) {
            if ui.button("Favorite", icon: .star) { self.setFavorite(self.selection) }
        }
        ui.toolbarItem(placement: .secondaryAction) {
            if ui.button("Rate") { ui.openPopup("rate") }
            ui.popup("rate") {
                for stars in (0...5).reversed()
                where ui.menuItem(stars == 0 ? "No rating" : String(repeating: "★", count: stars)) {
                    self.rate(self.selection, stars)
                }
            }
        }
        ui.toolbarItem(placement: .secondaryAction, priority: -1) {
            if ui.button("Copy Paths", style: .plain) { self.copyPaths(ui, self.selection) }
        }
    }

    /// "Making samples 12/60" and a bar, while the first run's library is written.
    private func generationProgress(_ ui: UI, _ generation: SampleGeneration) {
        let done = generation.published
        ui.text("Making samples \(done)/\(generation.count)", color: ui.theme.secondaryText)
        let bar = ui.allocate(Size(80, 6))
        let track = bar
        ui.drawList.addRoundedRect(track, radius: 3, color: ui.theme.control)
        let filled = track.width * Double(done) / Double(max(1, generation.count))
        ui.drawList.addRoundedRect(
            Rect(x: track.x, y: track.y, width: filled, height: track.height), radius: 3, color: ui.theme.accent)
    }

    /// The table's columns: Name stays first (and frozen when the table scrolls sideways); the
    /// others can be moved and hidden from the header's menu.
    func columns() -> [TableColumn<Photo>] {
        [
            TableColumn("Name", value: \Photo.name).width(min: 120, ideal: 220)
                .editable { [unowned self] photo, name in self.rename(photo, to: name) },  // F2 or a second click
            TableColumn("Kind", value: \Photo.kind).width(min: 70, ideal: 100).customizationID("kind"),
            TableColumn("Size", value: \Photo.size) { FileFormat.size($0.size) }.width(min: 70, ideal: 90).alignment(
                .trailing
            )
            .customizationID("size"),
            TableColumn("Dimensions") { [dimensions] (photo: Photo) in
                dimensions.dimensions(of: photo.path).map { "\($0.width) × \($0.height)" } ?? "…"
            }.width(min: 90, ideal: 110).customizationID("dimensions"),
            TableColumn("Modified", value: \Photo.modified) { FileFormat.date($0.modified) }.width(min: 120, ideal: 150)
                .customizationID("modified"),
            TableColumn("Rating", value: \Photo.rating) { FileFormat.stars[max(0, min(5, $0.rating))] }.width(
                min: 80, ideal: 100
            )
            .customizationID("rating"),
            TableColumn("Label", value: \Photo.marks).width(min: 70, ideal: 110).customizationID("label"),
        ]
    }

    /// The context menu of cells, rows and empty space: `ids` is empty on empty space.
    func menu(_ ui: UI, _ ids: RowSelection<Int>) {
        if ids.isEmpty {
            if ui.menuItem("Select All") { selection.selectAll(of: shown) }
            if ui.menuItem(viewMode.showsGrid ? "Show as Table" : "Show as Grid") {
                viewMode = viewMode.showsGrid ? .table : .grid
            }
            return
        }
        ui.text(
            ids.count == 1 ? (shown.first { ids.contains($0.id) }?.name ?? "") : "\(ids.count) photos",
            color: ui.theme.secondaryText)
        if ids.count == 1, ui.menuItem("Open", icon: .photo), let id = ids.first { open(id) }
        if ids.count == 1, ui.menuItem("Open in New Window"), let id = ids.first { openInWindow(ui, id) }
        if ui.menuItem("Favorite", icon: .star) { setFavorite(ids) }
        for stars in [5, 3, 1, 0]
        where ui.menuItem(stars == 0 ? "Clear Rating" : "Rate " + String(repeating: "★", count: stars)) {
            rate(ids, stars)
        }
        if ui.menuItem(ids.count == 1 ? "Copy Path" : "Copy \(ids.count) Paths") { copyPaths(ui, ids) }
    }

    func copyPaths(_ ui: UI, _ ids: RowSelection<Int>) {
        ui.clipboard.text = shown.filter { ids.contains($0.id) }.map(\.path).joined(separator: "\n")
        lastAction = "Copied \(ids.count) path\(ids.count == 1 ? "" : "s")"
    }

    private func inspector(_ ui: UI) {
        ui.scrollView("inspector") {
            ui.padding(12) {
                // A photo's ID is its index in `photos`: the selection costs O(selected), not O(photos).
                let picked = selection.sorted().compactMap { photos.indices.contains($0) ? photos[$0] : nil }
                fileJobsStatus(ui)
                if !lastAction.isEmpty { ui.text(lastAction, color: ui.theme.secondaryText) }
                guard let first = picked.first else {
                    ui.text("No selection", font: ui.font(size: 17, weight: .bold))
                    ui.text(
                        Self.photoCount(shown.count) + " in \(FileName.last(of: folder))",
                        color: ui.theme.secondaryText)
                    return
                }
                if picked.count > 1 {
                    ui.text("\(picked.count) photos", font: ui.font(size: 17, weight: .bold))
                    let bytes = picked.reduce(Int64(0)) { $0 + $1.size }
                    let rated = picked.filter { $0.rating > 0 }
                    ui.form(labelWidth: 90) {
                        ui.labeledContent("Total size", FileFormat.size(bytes))
                        ui.labeledContent("Favorites", "\(picked.filter(\.isFavorite).count)")
                        ui.labeledContent(
                            "Rated",
                            rated.isEmpty
                                ? "none" : "\(rated.count), average \(rated.map(\.rating).reduce(0, +) / rated.count) ★"
                        )
                    }
                    ratingStars(
                        ui, current: picked.allSatisfy { $0.rating == first.rating } ? first.rating : 0, ids: selection)
                    return
                }
                ui.textSelection(.enabled) {  // copyable; a long name keeps its start and its extension
                    ui.truncationMode(.middle) { ui.text(first.name, font: ui.font(size: 17, weight: .bold)) }
                }
                let preview = ui.allocate(Size(ui.availableWidth, 200), flexibleWidth: true)
                ui.asyncImage(first.path, in: preview, mode: .fit)
                ui.form(labelWidth: 90) {
                    ui.disclosureGroup("Info", initiallyExpanded: true) {
                        ui.labeledContent("Size", FileFormat.size(first.size))
                        ui.labeledContent(
                            "Dimensions",
                            dimensions.dimensions(of: first.path).map { "\($0.width) × \($0.height)" } ?? "unknown")
                        ui.labeledContent("Format", first.kind)
                        ui.labeledContent("Modified", FileFormat.date(first.modified))
                    }
                    ui.disclosureGroup("Rating", initiallyExpanded: true) {
                        ratingStars(ui, current: first.rating, ids: [first.id])
                    }
                    ui.disclosureGroup("Tags", initiallyExpanded: true) {
                        var tags = sidecars[first.folder]?.current.tags[first.name] ?? ""
                        if ui.textField("Tags", text: &tags, width: 220) {
                            sidecars[first.folder, default: SidecarBook()].current.tags[first.name] =
                                tags.isEmpty ? nil : tags
                            saveProblem = saveSidecar(first.folder)
                        }
                    }
                }
            }
        }
    }

    /// Five stars; clicking the k-th sets the rating to k (clicking the current one clears it).
    private func ratingStars(_ ui: UI, current: Int, ids: RowSelection<Int>) {
        ui.hstack(spacing: 2) {
            for k in 1...5 {
                let rect = ui.allocate(Size(24, 24))
                let r = ui.interact(ui.id("star\(k)"), rect: rect)
                let icon: Icon = k <= current ? .starFill : .star
                ui.drawIcon(
                    icon, in: rect.insetBy(dx: 2, dy: 2),
                    color: k <= current || r.isHovered ? Color(hex: 0xFFB800) : ui.theme.secondaryText)
                if r.clicked { rate(ids, k == current ? 0 : k) }
            }
        }
    }
}
