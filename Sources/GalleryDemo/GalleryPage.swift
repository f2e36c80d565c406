import Render2D
import Widgets

/// The adaptive grid of hero cells over a folder of photos, shared by the gallery page,
/// `bench gallery` and `profile`: visible cells load nearest the centre first, the prefetch
/// window ahead of the scroll after them.
@MainActor
final class PhotoGrid {
    var photos: [Photo]
    var selection = SelectionModel<Int>()
    /// Pinch / ctrl+wheel zoom: scales the adaptive minimum (180 pt).
    var zoom = 1.0
    private(set) var info: LazyGridInfo?
    /// Called on double-click / double-tap.
    var onOpen: ((Photo) -> Void)?
    private var menuTarget: Set<Int> = []

    init(photos: [Photo]) { self.photos = photos }

    func build(_ ui: UI) {
        let photos = self.photos
        let columns = [GridItem(.adaptive(minimum: 180 * zoom), spacing: 8)]
        let viewport = ui.availableRect
        let info = ui.lazyVGrid("photos", columns: columns, spacing: 8, count: photos.count, zoom: Binding(self, \.zoom)) { ui, i, rect in
            let photo = photos[i]
            let r = ui.heroImage(photo.path, in: rect, title: photo.name, rating: photo.rating,
                                 isSelected: self.selection.selected.contains(photo.id), priority: ImageFraming.priority(of: rect, in: viewport))
            if r.clicked {
                self.selection.click(index: i, modifiers: ui.input.modifiers, mode: .multiple, count: photos.count) { photos[$0].id }
            }
            if r.doubleClicked { self.onOpen?(photo) }
            if r.secondaryClicked {
                self.menuTarget = self.selection.contextMenuTarget(index: i, mode: .multiple, count: photos.count) { photos[$0].id }
                ui.openPopup("photoMenu")
            }
        }
        self.info = info
        ui.prefetchImages(info) { photos[$0].path }
        ui.popup("photoMenu") {
            ui.text(menuTarget.count == 1 ? "1 photo" : "\(menuTarget.count) photos", color: ui.theme.secondaryText)
            if ui.menuItem("Open", icon: .photo), let first = menuTarget.min() { onOpen?(photos[first]) }
            if ui.menuItem("Select All") { selection.selectAll(count: photos.count) { photos[$0].id } }
        }
    }
}

/// The gallery page: a folder of photos in the adaptive grid, a zoom slider, and a
/// full-window viewer on double-click (arrows for next and previous, Escape to return).
@MainActor
final class GalleryPage {
    let folder: String?
    private var grid: PhotoGrid?
    private var loadError: String?
    private var viewing: Int?

    init(folder: String?) { self.folder = folder }

    private func load() {
        guard grid == nil && loadError == nil else { return }
        do {
            let folder = try self.folder ?? PhotoLibrary.sampleLibrary(count: 300, width: 1600, height: 1067)
            let grid = PhotoGrid(photos: try PhotoLibrary.load(folder))
            grid.onOpen = { [unowned self] photo in self.viewing = photo.id }
            self.grid = grid
        } catch {
            loadError = "\(error)"
            Log.error(loadError!)
        }
    }

    func build(_ ui: UI) {
        load()
        guard let grid else {
            ui.padding(20) { ui.text(loadError ?? "Loading…", color: ui.theme.destructive) }
            return
        }
        if let index = viewing {
            viewer(ui, grid: grid, index: index)
            return
        }
        ui.vstack(spacing: 0) {
            ui.padding(EdgeInsets(horizontal: 12, vertical: 6)) {
                ui.hstack {
                    ui.label("\(grid.photos.count) photos", icon: .photo)
                    ui.text(folder ?? "sample library", color: ui.theme.secondaryText)
                    ui.spacer()
                    ui.text(grid.selection.selected.isEmpty ? "" : "\(grid.selection.selected.count) selected", color: ui.theme.secondaryText)
                    ui.slider("Size", value: &grid.zoom, in: 0.5...3, width: 140)
                }
            }
            ui.divider()
            ui.padding(8) { grid.build(ui) }
        }
    }

    /// The photo scaled to the window (decoded at window size), with arrows and Escape.
    private func viewer(_ ui: UI, grid: PhotoGrid, index: Int) {
        for press in ui.input.keys {
            switch press.key {
            case .escape: viewing = nil
            case .right: viewing = min(grid.photos.count - 1, index + 1)
            case .left: viewing = max(0, index - 1)
            default: break
            }
        }
        let rect = ui.allocate(Size(ui.availableWidth, ui.availableRect.height), flexibleWidth: true, flexibleHeight: true)
        ui.drawList.addRect(rect, color: .black)
        let photo = grid.photos[min(index, grid.photos.count - 1)]
        let r = ui.asyncImage(photo.path, in: rect.insetBy(dx: 20, dy: 20), mode: .fit, priority: 0)
        if r.doubleClicked { viewing = nil }
        ui.font.draw("\(photo.name) — \(index + 1) of \(grid.photos.count)   ← → to move, Esc to return",
                     at: Point(rect.x + 20, rect.maxY - 22), color: .white.opacity(0.8), into: &ui.drawList)
    }
}
