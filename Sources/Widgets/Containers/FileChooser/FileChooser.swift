import Foundation
import Render2D
import Imaging
import Profiling

/// The kinds of files a chooser offers (SwiftUI's `UTType`s, by extension on Linux).
///
/// ```swift
/// ui.fileImporter(isPresented: Binding(self, \.choosing), allowedContentTypes: [.folder]) { result in … }
/// ui.fileImporter(isPresented: …, allowedContentTypes: [.image, .extensions(["pdf"])]) { result in … }
/// ```
public struct FileType: Hashable, Sendable {
    enum Kind: Hashable, Sendable { case folder, any, extensions(Set<String>) }
    let kind: Kind

    /// A folder: the chooser picks folders.
    public static let folder = FileType(kind: .folder)
    /// Any file.
    public static let item = FileType(kind: .any)
    /// The images Tessera decodes (JPEG, PNG, GIF, BMP, TGA, WebP).
    public static let image = FileType(kind: .extensions(ImageFormat.extensions))
    /// Files whose extension is one of `extensions` (compared without case).
    public static func extensions(_ extensions: Set<String>) -> FileType {
        FileType(kind: .extensions(Set(extensions.map { $0.lowercased() })))
    }

    /// Whether a file named `name` (not a folder) is of this kind.
    func accepts(fileNamed name: String) -> Bool {
        switch kind {
        case .folder: return false
        case .any: return true
        case .extensions(let set): return set.contains((name as NSString).pathExtension.lowercased())
        }
    }
}

/// Why a file chooser gave no file.
public enum FileChooserError: Error, Equatable, CustomStringConvertible {
    /// The desktop's chooser (the XDG portal) failed.
    case portal(String)

    public var description: String {
        switch self {
        case .portal(let why): "the desktop's file chooser failed: \(why)"
        }
    }
}

/// A place the chooser's sidebar offers.
struct ChooserPlace: Equatable {
    var title: String
    var path: String
    var icon: String
}

/// What an open chooser keeps between frames.
struct ChooserMemo {
    var folder = ""
    var filter = ""
    var showsHidden = false
    var selection = Set<Int>()
    var order: [KeyComparator<FolderEntry>] = []
    var places: [ChooserPlace] = []
    /// The entries shown (filtered), and what they were filtered from and by.
    var shown: [FolderEntry] = []
    var shownKey: (outcome: FolderListing.Outcome?, filter: String, hidden: Bool)?
    /// How many entries the hidden switch lets through before the filter (the status line's whole).
    var unfilteredCount = 0
    var focusedList = false
    var saveName = ""
    /// The request to the desktop's chooser, while it is asked; `builtIn` once it said there is none.
    var portal: PortalFileChooser?
    var builtIn = false
    /// Why the last choice was refused (shown in the status line until the folder changes).
    var problem: String?
}

extension UI {
    /// SwiftUI's `fileImporter(isPresented:allowedContentTypes:allowsMultipleSelection:onCompletion:)`:
    /// while `isPresented` is true, a chooser lets the user pick files, or a folder when
    /// `allowedContentTypes` is `[.folder]`. Where the session bus has an XDG desktop portal, it
    /// is the desktop's own chooser (`org.freedesktop.portal.FileChooser`, as sandboxed apps
    /// use; the window waits under a scrim); otherwise, or with `ui.fileChooserBackend =
    /// .builtIn`, it is Tessera's, modal to the window: a path bar, places (home,
    /// its Pictures and Documents, mounted volumes, the file system), the folder's entries listed
    /// in the background (folders first, in natural order, with type-ahead), a filter, hidden
    /// files on request. Double-click or Return opens a folder or chooses a file; Backspace or
    /// Alt+↑ goes up; Escape cancels (then `onCancellation` runs, and `onCompletion` does not).
    ///
    /// ```swift
    /// ui.fileImporter(isPresented: Binding(self, \.choosingLibrary), allowedContentTypes: [.folder]) { result in
    ///     if case .success(let urls) = result, let folder = urls.first { browser.open(folder: folder.path) }
    /// }
    /// ```
    public func fileImporter(
        _ name: String = "file importer", isPresented: Binding<Bool>, allowedContentTypes: [FileType],
        allowsMultipleSelection: Bool = false, directory: String? = nil,
        onCompletion: @escaping (Result<[URL], FileChooserError>) -> Void,
        onCancellation: @escaping () -> Void = {}
    ) {
        let picksFolders = allowedContentTypes.contains(.folder)
        fileChooser(
            name, isPresented: isPresented, title: picksFolders ? "Choose a Folder" : "Open",
            primary: picksFolders ? "Choose" : "Open", directory: directory, saving: false, folders: picksFolders,
            multiple: allowsMultipleSelection
        ) { memo, entries in
            let chosen = entries.filter { memo.selection.contains($0.id) }
            if picksFolders {
                let folders = chosen.filter(\.isFolder)
                let picked = folders.isEmpty ? [memo.folder] : folders.map { Self.join(memo.folder, $0.name) }
                return Array(picked.prefix(allowsMultipleSelection ? picked.count : 1))
            }
            let files = chosen.filter { entry in
                !entry.isFolder && allowedContentTypes.contains { $0.accepts(fileNamed: entry.name) }
            }
            guard !files.isEmpty else { return nil }
            return files.prefix(allowsMultipleSelection ? files.count : 1).map { Self.join(memo.folder, $0.name) }
        } shows: { entry in
            entry.isFolder || (!picksFolders && allowedContentTypes.contains { $0.accepts(fileNamed: entry.name) })
        } finish: { result in
            if let result { onCompletion(result) } else { onCancellation() }
        }
    }

    /// SwiftUI's `fileExporter`, for the path to save to: the chooser with a name field,
    /// starting with `defaultFilename`. It gives the path; your app writes the file (ask before
    /// replacing one that exists: `confirmationDialog`).
    ///
    /// ```swift
    /// ui.fileExporter(isPresented: Binding(self, \.exporting), defaultFilename: "report.csv") { result in
    ///     if case .success(let url) = result { try? csv.write(to: url, atomically: true, encoding: .utf8) }
    /// }
    /// ```
    public func fileExporter(
        _ name: String = "file exporter", isPresented: Binding<Bool>, defaultFilename: String,
        directory: String? = nil, onCompletion: @escaping (Result<URL, FileChooserError>) -> Void,
        onCancellation: @escaping () -> Void = {}
    ) {
        fileChooser(
            name, isPresented: isPresented, title: "Save", primary: "Save", directory: directory, saving: true,
            folders: false, multiple: false, defaultName: defaultFilename
        ) { memo, _ in
            let name = memo.saveName.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
            return [Self.join(memo.folder, name)]
        } shows: { _ in
            true
        } finish: { result in
            switch result {
            case .success(let urls)?: if let url = urls.first { onCompletion(.success(url)) } else { onCancellation() }
            case .failure(let error)?: onCompletion(.failure(error))
            case nil: onCancellation()
            }
        }
    }

    /// The desktop's chooser when there is one, else the built-in one in a sheet. `finish` gets
    /// the outcome, or nil when the user cancelled.
    private func fileChooser(
        _ name: String, isPresented: Binding<Bool>, title: String, primary: String, directory: String?,
        saving: Bool, folders: Bool, multiple: Bool, defaultName: String = "",
        choose: (ChooserMemo, [FolderEntry]) -> [String]?, shows: @escaping @Sendable (FolderEntry) -> Bool,
        finish: (Result<[URL], FileChooserError>?) -> Void
    ) {
        let cid = id(name)
        let memo = stateBox(WidgetID(parent: cid, "memo"), ChooserMemo())
        let listing = stateBox(WidgetID(parent: cid, "listing"), FolderListing()).value
        guard isPresented.wrappedValue else {
            if !memo.value.folder.isEmpty || memo.value.portal != nil || memo.value.builtIn {
                memo.value = ChooserMemo()
            }  // the next opening starts afresh
            return
        }
        if usesPortalChooser(
            cid, memo: memo, isPresented: isPresented, title: title, saving: saving, folders: folders,
            multiple: multiple, defaultName: defaultName, finish: finish)
        {
            return
        }
        if memo.value.folder.isEmpty {
            memo.value.places = Self.chooserPlaces()
            memo.value.saveName = defaultName
            go(to: directory ?? UserFolders.home ?? "/", memo, listing)
        }
        let outcome = listing.result(for: memo.value.folder)
        refreshShown(memo, outcome, shows)
        let (chosen, cancelled) = withID(cid) {
            builtInChooserSheet(
                title: title, primary: primary, saving: saving, memo: memo, listing: listing, outcome: outcome,
                choose: choose)
        }
        if chosen != nil || cancelled {
            isPresented.wrappedValue = false
            memo.value = ChooserMemo()  // the next opening starts afresh
            finish(chosen.map { .success($0) })
        }
    }

    /// The desktop's chooser (the portal), unless there is none or the app asked for the
    /// built-in one: asked for once, waited for under a scrim, and its answer handed to
    /// `finish`. Returns true when it handled this frame; false when the built-in one is to show.
    private func usesPortalChooser(
        _ cid: WidgetID, memo: StateBox<ChooserMemo>, isPresented: Binding<Bool>, title: String,
        saving: Bool, folders: Bool, multiple: Bool, defaultName: String,
        finish: (Result<[URL], FileChooserError>?) -> Void
    ) -> Bool {
        if !memo.value.builtIn, memo.value.portal == nil {
            let mode = PortalFileChooser.usesPortal(fileChooserBackend)
            if mode == false {
                memo.value.builtIn = true
            } else {
                memo.value.portal = PortalFileChooser(
                    title: title, save: saving, folders: folders, multiple: multiple,
                    name: saving ? defaultName : nil, requirePortal: mode == true)
            }
        }
        guard let portal = memo.value.portal else { return false }
        let outcome: Result<[URL], FileChooserError>??
        switch portal.phase {
        case .asking: outcome = .none
        case .unavailable:
            outcome = .none
            memo.value.portal = nil
            memo.value.builtIn = true
        case .chose(let urls): outcome = .some(.success(urls))
        case .cancelled: outcome = .some(nil)
        case .failed(let why): outcome = .some(.failure(.portal(why)))
        }
        if let outcome {
            isPresented.wrappedValue = false
            memo.value = ChooserMemo()  // answered: the next opening asks again
            finish(outcome)
            return true
        }
        guard memo.value.portal != nil else { return false }
        // The desktop's dialog is up: this window waits under a scrim, as for a dialog of its own.
        modal(WidgetID(parent: cid, "portal"), role: .dialog, name: title) {
            let panel = centeredPanel(Size(360, 80))
            drawPanel(panel)
            font.draw(
                "Choose in the desktop's file chooser…", in: panel, alignment: .center, color: theme.secondaryText,
                into: &drawList)
        }
        return true
    }

    /// The built-in chooser in a sheet: the path bar, the places, the folder's entries, and
    /// the name field (saving) or the status, Cancel and the primary button. Returns what was
    /// chosen this frame, and whether it was cancelled.
    private func builtInChooserSheet(
        title: String, primary: String, saving: Bool, memo: StateBox<ChooserMemo>,
        listing: FolderListing, outcome: FolderListing.Outcome?,
        choose: (ChooserMemo, [FolderEntry]) -> [String]?
    ) -> (chosen: [URL]?, cancelled: Bool) {
        var chosen: [URL]?
        var cancelled = false
        sheet(
            "sheet", isPresented: Binding(get: { !cancelled }, set: { if !$0 { cancelled = true } }), width: 780,
            height: 520
        ) {
            let area = availableRect
            let bottom = Rect(
                x: area.x, y: area.maxY - theme.controlHeight, width: area.width, height: theme.controlHeight)
            region(Rect(x: area.x, y: area.y, width: area.width, height: theme.controlHeight + 4)) {
                chooserPathBar(title, memo, listing)
            }
            let middleTop = area.y + theme.controlHeight + 12
            let middle = Rect(x: area.x, y: middleTop, width: area.width, height: max(0, bottom.minY - 12 - middleTop))
            region(Rect(x: middle.x, y: middle.y, width: 150, height: middle.height)) { chooserPlaces(memo, listing) }
            region(Rect(x: middle.x + 162, y: middle.y, width: middle.width - 162, height: middle.height)) {
                if let entry = chooserEntries(memo, listing, outcome) {  // double-clicked, or Return
                    if entry.isFolder {
                        go(to: Self.join(memo.value.folder, entry.name), memo, listing)
                    } else {
                        chosen = urls(choose(memo.value, memo.value.shown), memo)
                    }
                }
            }
            region(bottom) {
                hstack {
                    if saving {
                        text("Name:")
                        textField("File name", text: &memo.value.saveName, width: 260, id: "save name")
                    } else {
                        text(
                            memo.value.problem ?? status(outcome, memo.value),
                            color: memo.value.problem == nil ? theme.secondaryText : theme.destructive)
                    }
                    spacer()
                    if button("Cancel", id: "cancel") { cancelled = true }
                    if button(primary, style: .borderedProminent, id: "primary") {
                        chosen = urls(choose(memo.value, memo.value.shown), memo)
                    }
                }
            }
        }
        return (chosen, cancelled)
    }

    /// "Choose a Folder" and the path: a button per folder of it, and the hidden-files switch.
    private func chooserPathBar(_ title: String, _ memo: StateBox<ChooserMemo>, _ listing: FolderListing) {
        hstack(spacing: 2) {
            text(title, font: font(size: theme.fontSize, weight: .bold))
            spacer(minLength: 8)
            let parts = memo.value.folder.split(separator: "/").map(String.init)
            if button("/", style: .plain, id: "path root") { go(to: "/", memo, listing) }
            for (k, part) in parts.enumerated().suffix(5) {
                let path = "/" + parts.prefix(k + 1).joined(separator: "/")
                if k > 0 { text("›", color: theme.secondaryText) }
                if button(part, style: k == parts.count - 1 ? .bordered : .plain, id: "path \(k)") {
                    go(to: path, memo, listing)
                }
            }
            spacer()
            toggle("Hidden", isOn: &memo.value.showsHidden, id: "hidden")
        }
    }

    /// The sidebar of places.
    private func chooserPlaces(_ memo: StateBox<ChooserMemo>, _ listing: FolderListing) {
        vstack(spacing: 2) {
            for place in memo.value.places {
                let current = place.path == memo.value.folder
                if button(
                    place.title, icon: Icon(named: place.icon), style: current ? .bordered : .plain,
                    id: "place " + place.path)
                {
                    go(to: place.path, memo, listing)
                }
            }
        }
    }

    /// The filter and the table of the folder's entries; returns the entry double-clicked or
    /// Return pressed on this frame.
    private func chooserEntries(
        _ memo: StateBox<ChooserMemo>, _ listing: FolderListing, _ outcome: FolderListing.Outcome?
    ) -> FolderEntry? {
        var opened: FolderEntry?
        vstack(spacing: 6) {
            textField("Filter", text: &memo.value.filter, width: availableWidth, id: "filter")
            if case .failed(let why)? = outcome {
                text(
                    "“\((memo.value.folder as NSString).lastPathComponent)” cannot be read: \(why)",
                    color: theme.destructive)
                return
            }
            let rows = memo.value.shown
            let tableName = "entries"
            let tableBody = WidgetID(parent: WidgetID(parent: idStack[idStack.count - 1], tableName), "bodyInput")
            if !memo.value.focusedList {
                memo.value.focusedList = true
                focus(tableBody)
            }  // the arrows work at once
            // Backspace or Alt+↑ (outside the filter) goes up.
            if focusID != id("filter"),
                shortcutPressed(KeyboardShortcut(.backspace, modifiers: []))
                    || shortcutPressed(KeyboardShortcut(.up, modifiers: .alt))
            {
                go(to: (memo.value.folder as NSString).deletingLastPathComponent, memo, listing)
            }
            table(
                tableName, rows: rows,
                selection: Binding(get: { memo.value.selection }, set: { memo.value.selection = $0 }),
                primaryAction: { ids in opened = ids.first.flatMap { id in rows.first { $0.id == id } } }
            ) {
                TableColumn("Name", sortUsing: .string { $0.name }) { ui, entry in
                    // on the accent fill: the accent's text colour
                    let selected = memo.value.selection.contains(entry.id)
                    ui.label(
                        entry.name, icon: Icon(named: entry.isFolder ? "folder" : Self.iconName(entry.name)),
                        color: selected ? ui.theme.onAccent : nil,
                        iconColor: selected
                            ? ui.theme.onAccent : entry.isFolder ? ui.theme.accent : ui.theme.secondaryText)
                }.width(min: 160, ideal: 360)
                TableColumn("Size", sortUsing: .integer { $0.size }) { $0.isFolder ? "—" : Self.sizeText($0.size) }
                    .width(min: 70, ideal: 90).alignment(.trailing)
                TableColumn("Modified", sortUsing: .integer { $0.modified }) { Self.dateText($0.modified) }.width(
                    min: 100, ideal: 150)
            }
        }
        return opened
    }

    /// Re-filters the entries when the listing, the filter or the hidden switch changed. A
    /// filter that only grew narrows what was shown (typing into it over 100,000 entries looks
    /// at fewer each letter).
    private func refreshShown(
        _ memo: StateBox<ChooserMemo>, _ outcome: FolderListing.Outcome?,
        _ shows: @escaping @Sendable (FolderEntry) -> Bool
    ) {
        let key = (outcome, memo.value.filter, memo.value.showsHidden)
        let old = memo.value.shownKey
        if let old, old.outcome == key.0, old.filter == key.1, old.hidden == key.2 { return }
        memo.value.shownKey = key
        guard case .listed(let entries)? = outcome else {
            memo.value.shown = []
            return
        }
        profiler?.beginScope("file chooser", "filter")
        defer { profiler?.endScope() }
        let needle = memo.value.filter.lowercased()
        let showsHidden = memo.value.showsHidden
        let narrows =
            old.map { $0.outcome == key.0 && $0.hidden == key.2 && needle.contains($0.filter.lowercased()) } ?? false
        if !narrows {
            memo.value.unfilteredCount =
                Self.filtered(entries, showsHidden: showsHidden, shows: shows, needle: "").count
        }
        memo.value.shown = Self.filtered(
            narrows ? memo.value.shown : entries, showsHidden: showsHidden, shows: shows, needle: needle)
        if !memo.value.selection.isEmpty { memo.value.selection.formIntersection(memo.value.shown.map(\.id)) }
    }

    /// The entries the hidden switch, the kind (`shows`) and the filter (`needle`, lowercased)
    /// let through. Off the main actor: nothing here is checked for isolation 100,000 times.
    nonisolated static func filtered(
        _ entries: [FolderEntry], showsHidden: Bool, shows: @Sendable (FolderEntry) -> Bool,
        needle: String
    ) -> [FolderEntry] {
        entries.filter { entry in
            (showsHidden || !entry.isHidden) && shows(entry)
                && (needle.isEmpty || bytes(of: entry.foldedName, contain: needle))
        }
    }

    /// Whether `needle`'s UTF-8 is in `haystack`'s: a byte search, many times faster than
    /// Foundation's `contains`, which goes through CFString (typing a filter over 100,000 names).
    nonisolated static func bytes(of haystack: String, contain needle: String) -> Bool {
        let found = haystack.utf8.withContiguousStorageIfAvailable { h in
            needle.utf8.withContiguousStorageIfAvailable { n -> Bool in
                guard let first = n.first else { return true }
                guard n.count <= h.count else { return false }
                for i in 0...(h.count - n.count)
                where h[i] == first && memcmp(h.baseAddress! + i, n.baseAddress!, n.count) == 0 {
                    return true
                }
                return false
            }
        }
        return found.flatMap { $0 } ?? haystack.contains(needle)
    }

    private func go(to path: String, _ memo: StateBox<ChooserMemo>, _ listing: FolderListing) {
        let folder = path.isEmpty ? "/" : path
        memo.value.folder = folder
        memo.value.problem = nil
        memo.value.selection = []
        memo.value.filter = ""
        memo.value.shownKey = nil
        listing.list(folder)
        requestRedraw()
    }

    private func status(_ outcome: FolderListing.Outcome?, _ memo: ChooserMemo) -> String {
        switch outcome {
        case nil: return "Listing…"
        case .failed: return ""
        case .listed:
            return memo.shown.count == memo.unfilteredCount
                ? "\(memo.unfilteredCount) items" : "\(memo.shown.count) of \(memo.unfilteredCount) items"
        }
    }

    static func join(_ folder: String, _ name: String) -> String { folder == "/" ? "/" + name : folder + "/" + name }

    /// The URLs of `paths`, or nil (with the reason in `memo`) when one cannot be a URL:
    /// Foundation's `URL` on Linux turns the bytes of a name that is not UTF-8 into U+FFFD, so
    /// its URL would name another file. Such a file is listed and its folder can be opened,
    /// but it is never handed on.
    private func urls(_ paths: [String]?, _ memo: StateBox<ChooserMemo>) -> [URL]? {
        guard let paths else { return nil }
        if let bad = paths.first(where: { $0.unicodeScalars.contains { $0.value >= FileName.escapeBase } }) {
            let shown = String(
                String.UnicodeScalarView(
                    (bad as NSString).lastPathComponent.unicodeScalars.map {
                        $0.value >= FileName.escapeBase ? "\u{FFFD}" : $0
                    }))
            memo.value.problem = "“\(shown)” cannot be opened from here: its name is not UTF-8"
            return nil
        }
        return paths.map { URL(fileURLWithPath: $0) }
    }

    /// Home, its usual folders that exist, mounted volumes, and the file system.
    static func chooserPlaces() -> [ChooserPlace] {
        var places: [ChooserPlace] = []
        let fm = FileManager.default
        func isFolder(_ path: String) -> Bool {
            var folder: ObjCBool = false
            return fm.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
        }
        if let home = UserFolders.home {
            places.append(ChooserPlace(title: "Home", path: home, icon: "home"))
            for (title, icon) in [
                ("Desktop", "desktop_windows"), ("Documents", "description"), ("Downloads", "download"),
                ("Pictures", "image"),
            ] where isFolder(home + "/" + title) {
                places.append(ChooserPlace(title: title, path: home + "/" + title, icon: icon))
            }
        }
        let user = ProcessInfo.processInfo.environment["USER"] ?? ""
        for base in ["/media/" + user, "/run/media/" + user, "/mnt"] where !user.isEmpty || base == "/mnt" {
            for volume in ((try? fm.contentsOfDirectory(atPath: base)) ?? []).sorted()
            where isFolder(base + "/" + volume) {
                places.append(ChooserPlace(title: volume, path: base + "/" + volume, icon: "usb"))
            }
        }
        places.append(ChooserPlace(title: "File System", path: "/", icon: "storage"))
        return places
    }

    static func iconName(_ file: String) -> String {
        let ext = (file as NSString).pathExtension.lowercased()
        if ImageFormat.extensions.contains(ext) || ["heic", "arw", "nef", "cr2", "dng"].contains(ext) {
            return "image"
        }
        if ["mp4", "mov", "mkv", "webm", "avi"].contains(ext) { return "movie" }
        if ["mp3", "flac", "ogg", "wav", "m4a"].contains(ext) { return "audiotrack" }
        return "description"
    }

    /// "1.5 MB" (decimal units). Built by hand: the table formats its visible cells every frame.
    nonisolated static func sizeText(_ bytes: Int64) -> String {
        let units = [" B", " KB", " MB", " GB", " TB", " PB"]
        var value = Double(max(0, bytes)), unit = 0
        while value >= 999.95 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }  // 999,950 B shows as 1.0 MB
        guard unit > 0 else { return String(max(0, bytes)) + units[0] }
        let tenths = Int64((value * 10).rounded())
        return String(tenths / 10) + "." + String(tenths % 10) + units[unit]
    }

    /// "2026-11-26 14:05" in local time, built by hand like `sizeText`.
    nonisolated static func dateText(_ seconds: Int64) -> String {
        var time = time_t(truncatingIfNeeded: seconds), parts = tm()
        guard localtime_r(&time, &parts) != nil else { return "" }
        func two(_ n: Int32) -> String { n < 10 ? "0" + String(n) : String(n) }
        return String(parts.tm_year + 1900) + "-" + two(parts.tm_mon + 1) + "-" + two(parts.tm_mday) + " "
            + two(parts.tm_hour) + ":" + two(parts.tm_min)
    }
}
