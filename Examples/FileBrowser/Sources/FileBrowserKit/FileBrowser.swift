import Foundation
import Render2D
import Widgets

/// The app: a split view with the folder tree on the left and a sortable table of the
/// selected folder's files on the right.
///
/// ```swift
/// let browser = FileBrowser(root: "/home/me/Documents")
/// host.run(browser.body)
/// ```
@MainActor
public final class FileBrowser {
    public let root: Folder
    public var split = SplitState(fraction: 0.3)
    public var selectedFolder: String?
    public var expanded: Set<String> = []
    public var order = [KeyComparator(\FileEntry.name, id: "Name")]
    public var selection = RowSelection<String>()
    public private(set) var files: [FileEntry] = []
    private var filesVersion = 0
    private var subfolders: [String: [Folder]] = [:]
    private let sorter = TableSorter<FileEntry>(name: "files")

    public init(root: String) {
        self.root = Folder(path: root)
        selectedFolder = root
        expanded = [root]
        files = FolderReader.files(in: root)
    }

    public func body(_ ui: UI) {
        ui.hSplit(
            "browser", state: Binding(self, \.split),
            constraints: SplitConstraints(minPFraction: 0.15, minSFraction: 0.4)
        ) {
            sidebar(ui)
        } right: {
            fileTable(ui)
        }
    }

    private func sidebar(_ ui: UI) {
        let before = selectedFolder
        ui.list("folders", selection: Binding(self, \.selectedFolder), style: .sidebar) {
            ui.outlineGroup(
                [root], childrenOf: { self.children(of: $0) },
                expanded: Binding(self, \.expanded)
            ) { folder in
                ListRowContent(folder.name, icon: .folder)
            }
        }
        if selectedFolder != before, let folder = selectedFolder { open(folder) }
    }

    private func fileTable(_ ui: UI) {
        let rows = sorter.view(of: files, sortedBy: order, version: filesVersion)
        ui.vstack(spacing: 0) {
            ui.padding(8) {
                ui.text(selection.isEmpty ? "\(files.count) files" : "\(selection.count) of \(files.count) selected")
            }
            ui.table(
                "files", rows: rows, selection: Binding(self, \.selection), sortOrder: Binding(self, \.order),
                isSorting: sorter.isSorting
            ) {
                TableColumn("Name", value: \FileEntry.name).width(min: 120, ideal: 260)
                TableColumn("Size", value: \FileEntry.size) { $0.sizeText }.width(min: 70, ideal: 90).alignment(
                    .trailing)
                TableColumn("Modified", value: \FileEntry.modified) { $0.modifiedText }.width(min: 120, ideal: 190)
            }
        }
    }

    /// Shows the files of `path` in the table.
    public func open(_ path: String) {
        files = FolderReader.files(in: path)
        filesVersion += 1
        selection.removeAll()
    }

    private func children(of folder: Folder) -> [Folder]? {
        if let known = subfolders[folder.path] { return known.isEmpty ? nil : known }
        let found = FolderReader.subfolders(of: folder.path)
        subfolders[folder.path] = found
        return found.isEmpty ? nil : found
    }
}
