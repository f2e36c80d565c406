import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// A sortable, selectable table of 100,000 generated files with a toolbar that reacts to
/// the selection, an edit mode for touch (its EditButton), and a context menu for the selection; or, with
/// "Tree", a tree table of 1,010,100 folders and files made as they are opened.
@MainActor
final class TablePage {
    private var files: [FileRow] = []
    private let sorter = TableSorter<FileRow>(name: "files")
    private var order: [KeyComparator<FileRow>] = [KeyComparator(\FileRow.name, id: "Name")]
    /// Ranges, not a set: select-all and shift-ranges over the 100,000 rows cost O(1).
    private var selection = RowSelection<UInt64>()
    private var favorites: Set<UInt64> = []
    private var editMode = EditMode.inactive
    private var lastAction = ""
    private var treeMode = false
    private var treeOpen: Set<[Int]> = [[0]]
    private var treeSelection: Set<[Int]> = []
    private var treeOrder: [KeyComparator<FolderTreeNode>] = []
    private var showsInspector = false
    /// The files a confirmation dialog asks about moving to the trash (empty: no dialog).
    private var trashCandidates = RowSelection<UInt64>()
    private var confirmsTrash = false
    /// The search field's text, and the files whose names hold it (made when it changes).
    private var query = ""
    private var filteredQuery = ""
    private var filtered: [FileRow] = []
    private var filterVersion = 0
    private var suggestions: [String] = []

    /// Narrows the files to those whose names hold the query; the first few are its suggestions.
    private func filter() {
        filteredQuery = query
        let needle = query.lowercased()
        filtered = needle.isEmpty ? [] : files.filter { $0.name.lowercased().contains(needle) }
        suggestions = needle.isEmpty ? [] : Array(Set(filtered.prefix(200).map(\.name)).sorted().prefix(6))
        filterVersion += 1
    }

    /// The files by ID (IDs are 1…count), for the inspector.
    private func file(_ id: UInt64) -> FileRow? { id >= 1 && id <= UInt64(files.count) ? files[Int(id) - 1] : nil }

    func build(_ ui: UI) {
        if files.isEmpty { files = FileRow.generate(count: 100_000, names: .realistic) }
        if query != filteredQuery { filter() }
        let rows = sorter.view(of: query.isEmpty ? files : filtered, sortedBy: order, version: filterVersion)
        ui.toolbar("files.toolbar") {
            if treeMode {
                ui.table(
                    "tree", roots: FolderTreeNode.roots, children: { $0.children }, expanded: Binding(self, \.treeOpen),
                    selection: Binding(self, \.treeSelection), sortOrder: Binding(self, \.treeOrder),
                    primaryAction: { ids in self.lastAction = "Opened \(ids.count)" }
                ) {
                    TableColumn("Name", value: \FolderTreeNode.name).width(min: 160, ideal: 320)
                    TableColumn("Kind", value: \FolderTreeNode.kind).width(min: 70, ideal: 110)
                    TableColumn("Size", value: \FolderTreeNode.size) { FileFormat.size(Int64($0.size)) }.width(
                        min: 70, ideal: 110
                    ).alignment(.trailing)
                }
                return
            }
            ui.inspector(isPresented: Binding(self, \.showsInspector)) {
                ui.table(
                    "files", rows: rows, selection: Binding(self, \.selection), sortOrder: Binding(self, \.order),
                    isSorting: sorter.isSorting, editMode: editMode.isEditing,
                    contextMenu: { ids in
                        if ids.isEmpty {
                            if ui.menuItem("Select All", shortcut: KeyboardShortcut("a")) {
                                self.selection.selectAll(of: rows)
                            }
                        } else {
                            if ui.menuItem(ids.count == 1 ? "Open" : "Open \(ids.count) Files", icon: .photo) {
                                self.lastAction = "Opened \(ids.count)"
                            }
                            if ui.menuItem("Favorite", icon: .starFill) {
                                self.favorites.formUnion(ids)
                                self.lastAction = "Favorited \(ids.count)"
                            }
                            if ui.menuItem("Move \(ids.count) to Trash", icon: .trash, role: .destructive) {
                                self.trashCandidates = ids
                                self.confirmsTrash = true
                            }
                        }
                    }
                ) {
                    TableColumn("Name", value: \FileRow.name).width(min: 120, ideal: 280)
                    TableColumn("Kind", sortUsing: .string { $0.kind }) { $0.kind }.width(min: 70, ideal: 110)
                    TableColumn("Size", value: \FileRow.size) { FileFormat.size($0.size) }.width(min: 70, ideal: 110)
                        .alignment(.trailing)
                    TableColumn("Modified", value: \FileRow.modified) { FileFormat.date($0.modified) }.width(
                        min: 130, ideal: 170)
                    TableColumn("Rating", value: \FileRow.rating) { FileFormat.stars[Int($0.rating)] }.width(
                        min: 90, ideal: 120)
                }
            } inspector: {
                ui.padding(12) { self.details(ui) }
            }
            let count = trashCandidates.count
            ui.confirmationDialog(
                "Move \(count == 1 ? "1 file" : "\(count) files") to the trash?",
                isPresented: Binding(self, \.confirmsTrash),
                actions: [
                    DialogAction("Move to Trash", role: .destructive) { self.lastAction = "Trashed \(count) (demo)" }
                ],
                message: "The demo's files are generated: nothing on disk changes.")
        } items: {
            toolbarItems(ui)
        }
    }

    /// The bar: what is selected, what can be done with it, the view switches. Selection
    /// actions are secondary (they go into "…" first when the window is narrow).
    private func toolbarItems(_ ui: UI) {
        let shown = query.isEmpty ? "\(files.count) files" : "\(filtered.count) of \(files.count) files"
        let title = treeMode ? "1,010,100 folders and files" : selection.isEmpty ? shown : "\(selection.count) selected"
        ui.toolbarItem(placement: .navigation, priority: 2) { ui.text(title, font: ui.font(size: 15, weight: .bold)) }
        if !selection.isEmpty && !treeMode {
            ui.toolbarItem(placement: .secondaryAction) {
                if ui.button("Favorite \(self.selection.count)", icon: .starFill) {
                    self.favorites.formUnion(self.selection)
                    self.lastAction = "Favorited \(self.selection.count)"
                }
            }
            ui.toolbarItem(placement: .secondaryAction, priority: -1) {
                if ui.button("Invert") { self.selection.invert() }
            }
            ui.toolbarItem(placement: .secondaryAction) {
                if ui.button("Deselect", icon: .xmark) { self.selection.removeAll() }
            }
        }
        ui.toolbarItem(placement: .principal, priority: -2) {
            ui.text(
                self.sorter.isSorting && !self.treeMode ? "Sorting…" : self.lastAction, color: ui.theme.secondaryText)
        }
        if !treeMode {
            ui.searchable(text: Binding(self, \.query), prompt: "Search names", suggestions: suggestions, width: 180)
        }
        ui.toolbarItem(placement: .primaryAction) { ui.toggle("Tree", isOn: &self.treeMode) }
        ui.toolbarItem(placement: .primaryAction, priority: 1) { ui.editButton(Binding(self, \.editMode)) }
        if !treeMode {
            ui.toolbarItem(placement: .primaryAction, priority: 1) {
                if ui.accessibilityLabel(
                    "Inspector",
                    {
                        ui.button("", icon: Icon(named: self.showsInspector ? "info" : "info_outline"), id: "inspector")
                    })
                {
                    self.showsInspector.toggle()
                }
            }
        }
    }

    /// The inspector: the selected file's fields, or what a multiple selection adds up to.
    private func details(_ ui: UI) {
        ui.text("Details", font: ui.font(size: 15, weight: .bold))
        let ids = Array(selection.prefix(10_001))
        guard !ids.isEmpty else { return ui.text("No selection", color: ui.theme.secondaryText) }
        ui.form(labelWidth: 80) {
            if ids.count == 1, let file = file(ids[0]) {
                ui.labeledContent("Name", file.name)
                ui.labeledContent("Kind", file.kind)
                ui.labeledContent("Size", FileFormat.size(file.size))
                ui.labeledContent("Modified", FileFormat.date(file.modified))
                ui.labeledContent("Rating", FileFormat.stars[Int(file.rating)])
            } else {
                ui.labeledContent("Selected", "\(selection.count) files")
                let total = ids.prefix(10_000).compactMap(file).reduce(Int64(0)) { $0 + $1.size }
                ui.labeledContent(ids.count > 10_000 ? "First 10,000" : "Total size", FileFormat.size(total))
            }
        }
    }

    /// `--tour`: selects rows 2-5 and opens the context menu over them (for screenshots).
    func tour(frame: Int, inject: EventInjector) {
        let shift = Key(rawValue: 225 | (1 << 30))
        let row = { (i: Int) in Point(200, 44 + 38 + 28 + 24 * Double(i) + 12) }
        switch frame {
        case 3:
            inject.mouseMove(to: row(2))
            inject.mouseButton(.left, down: true, at: row(2))
        case 4: inject.mouseButton(.left, down: false, at: row(2))
        case 5:
            inject.key(shift, down: true, modifiers: .shift)
            inject.mouseMove(to: row(5))
            inject.mouseButton(.left, down: true, at: row(5))
        case 6: inject.mouseButton(.left, down: false, at: row(5))
        case 7:
            inject.key(shift, down: false)
            inject.mouseMove(to: row(3))
            inject.mouseButton(.right, down: true, at: row(3))
        case 8: inject.mouseButton(.right, down: false, at: row(3))
        default: break
        }
    }
}

/// The tree table's demo data: 100 folders of 100 folders of 100 files, made when opened.
struct FolderTreeNode: Identifiable, Sendable {
    let path: [Int]
    var id: [Int] { path }
    var name: String {
        path.count < 3 ? "Folder " + path.map(String.init).joined(separator: ".") : "file-\(path[2]).jpg"
    }
    var kind: String { path.count < 3 ? "Folder" : "JPEG image" }
    var size: Int {
        path.count < 3 ? (3 - path.count) * 100 * 250_000 : 200_000 + (path.reduce(7) { $0 &* 31 &+ $1 } & 0xFFFFF)
    }
    var children: [FolderTreeNode]? { path.count < 3 ? (0..<100).map { FolderTreeNode(path: path + [$0]) } : nil }
    static let roots = (0..<100).map { FolderTreeNode(path: [$0]) }
}
