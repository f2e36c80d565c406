import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// A photo carried by a drag from the grid (to a folder of the sidebar).
struct DraggedPhoto: Equatable, Sendable {
    /// Its ID in the browser (`Photo.id`).
    let id: Int
    let path: String
}

/// The adaptive grid of hero cells over a folder of photos, shared by the photo browser,
/// `bench gallery` and `profile`: visible cells load nearest the centre first, the prefetch
/// window ahead of the scroll after them. With `sections`, the photos are grouped under
/// pinned month headers.
@MainActor
final class PhotoGrid {
    var photos: [Photo] {
        didSet { aspectRatios = nil }
    }
    /// Justified rows (each photo at its own shape, uncropped) rather than square cells.
    var isJustified = false
    /// The photos' aspect ratios for the justified layout, made once per `photos` (the layout
    /// is kept while this array is the same one).
    private var aspectRatios: [Double]?
    /// Consecutive runs of `photos` under a header each (nil: one run, no header).
    var sections: [Section]?
    /// A header's title and how many photos follow it.
    struct Section: Equatable {
        var title: String
        var count: Int
        /// Its month (`PhotoMonth`).
        var month = 0
    }
    /// The scrubber's marks for `sections`: a year where one begins, each month otherwise.
    private var marks: (of: [Section], marks: [ScrubberMark])?
    var selection = SelectionModel<Int>()
    /// Pinch / ctrl+wheel zoom: scales the adaptive minimum (180 pt).
    var zoom = 1.0

    /// `zoom` within the range pinching and Ctrl+wheel keep the grid's zoom in.
    static func clampedZoom(_ zoom: Double) -> Double { min(4, max(0.25, zoom)) }
    private(set) var info: LazyGridInfo?
    /// Called on double-click / double-tap.
    var onOpen: ((Photo) -> Void)?
    /// The photo being renamed in place (F2), and the name typed so far.
    var renaming: (id: Int, text: String, focused: Bool)?
    /// Called with the name typed when renaming ends with Return or a click elsewhere (Escape cancels).
    var onRename: ((Photo, String) -> Void)?
    /// Builds the context menu for the photos it applies to (empty: empty space); nil shows
    /// a small default menu.
    var contextMenu: ((UI, RowSelection<Int>) -> Void)?
    /// The photos the open context menu applies to.
    private(set) var menuTarget = RowSelection<Int>()

    /// Where the date rail was drawn last (nil: no rail), for scripted scrubs.
    private(set) var railRect: Rect?

    /// A photo to scroll into view when the grid is next built.
    private var revealID: Int?

    init(photos: [Photo]) { self.photos = photos }

    /// One section per run of photos of the same month ("May 2024").
    static func sections(of photos: [Photo]) -> [Section] {
        var sections: [Section] = []
        var month: Int?
        for i in photos.indices {  // by index: each photo is not copied
            if photos[i].month == month {
                sections[sections.count - 1].count += 1
            } else {
                month = photos[i].month
                sections.append(Section(title: PhotoMonth.title(of: photos[i].month), count: 1, month: photos[i].month))
            }
        }
        return sections
    }

    /// Scrolls to the photo whose ID is `id` when the grid is next built.
    func reveal(_ id: Int) { revealID = id }

    /// Marks for the date rail: the months, a year's first one labelled with the year.
    static func marks(of sections: [Section]) -> [ScrubberMark] {
        var marks: [ScrubberMark] = []
        var item = 0, year: Int?
        for section in sections {
            let y = section.month >= 0 ? section.month / 12 : (section.month - 11) / 12
            let name = PhotoMonth.names[section.month - y * 12]
            marks.append(
                ScrubberMark(
                    item: item, label: y != year ? String(y) : String(name.prefix(3)), title: section.title,
                    isMajor: y != year))
            year = y
            item += section.count
        }
        return marks
    }

    /// The hero cells' columns: as many at least 180 pt (times `zoom`) wide as fit.
    private var columns: [GridItem] { [GridItem(.adaptive(minimum: 180 * zoom), spacing: 8)] }

    /// The photos the grid shows first in a `viewport` of points at `scale` (scrolled to its
    /// top, as a window opens on it), and the thumbnail size their cells ask for; nil under
    /// month headers or in the justified layout, whose first screen is not worked out ahead.
    func firstScreen(viewport: Size, scale: Double, theme: Theme) -> (paths: [String], spec: ThumbnailSpec)? {
        guard sections == nil, !isJustified else { return nil }
        let first = LazyGridInfo.firstScreen(
            columns: columns, spacing: 8, count: photos.count, viewport: viewport, theme: theme)
        return (
            photos[first.visible].map(\.path),
            ImageFraming.thumbnailSpec(for: first.cellSize, scale: scale, mode: .fill)
        )
    }

    func build(_ ui: UI) {
        let photos = self.photos
        let gridWidth = buildDateRail(ui)  // before the grid so a jump shows in this frame
        if let id = revealID {
            revealID = nil
            ui.scrollGrid("photos", to: id, in: photos, anchor: .center)
        }
        let area = ui.availableRect
        // the grid's, the rail beside it
        let viewport = Rect(x: area.x, y: area.y, width: gridWidth, height: area.height)
        let order = RowOrder(photos)
        selection.selected.follow(order)
        let gridFocus = ui.gridFocusID("photos")
        gridKeysAndBackground(ui, viewport: viewport, order: order, gridFocus: gridFocus)
        let cell: (UI, Int, Rect) -> Void = { ui, i, rect in
            self.buildCell(ui, i, in: rect, viewport: viewport, order: order, gridFocus: gridFocus)
        }
        var built: LazyGridInfo?
        ui.frame(width: gridWidth) { built = buildGrid(ui, columns: columns, cell: cell) }
        guard let info = built else { return }
        self.info = info
        ui.prefetchImages(info) { photos[$0].path }
        ui.popup("photoMenu") {
            if let contextMenu {
                contextMenu(ui, menuTarget)
                return
            }
            ui.text(menuTarget.count == 1 ? "1 photo" : "\(menuTarget.count) photos", color: ui.theme.secondaryText)
            if !menuTarget.isEmpty, ui.menuItem("Open", icon: .photo),
                let photo = photos.first(where: { menuTarget.contains($0.id) })
            {
                onOpen?(photo)
            }
            if ui.menuItem("Select All") { selection.selectAll(rows: order) }
        }
    }

    /// The date rail beside the grid when the photos have more than one section: dragging
    /// it scrolls the grid to a date. Returns the width left for the grid.
    private func buildDateRail(_ ui: UI) -> Double {
        railRect = nil
        guard let sections, sections.count > 1 else { return ui.availableWidth }
        if marks?.of != sections { marks = (sections, Self.marks(of: sections)) }
        let area = ui.availableRect
        let gridWidth = max(0, area.width - 64)
        let rail = Rect(x: area.x + gridWidth, y: area.y, width: 64, height: area.height.isFinite ? area.height : 400)
        railRect = rail
        if let item = ui.scrubber(
            "dates", in: rail, count: photos.count, position: info?.visible.lowerBound ?? 0, marks: marks?.marks ?? [])
        {
            ui.scrollGrid("photos", toItem: item, anchor: .top)
        }
        return gridWidth
    }

    /// Empty space: a press there clears the selection; a right-click opens the menu for
    /// nothing. The grid is one Tab stop; with focus, the arrows select (Shift extends), and
    /// Home, End, Page Up and Page Down move, the current photo scrolled into view (consumed:
    /// the grid does not also scroll with them).
    private func gridKeysAndBackground(_ ui: UI, viewport: Rect, order: RowOrder<Int>, gridFocus: WidgetID) {
        let background = ui.interact(ui.id("photos.background"), rect: viewport, sense: .click)
        if ui.focusID == gridFocus, !ui.hasOpenPopup, let info {
            let rowsInView = max(1, Int(info.viewport.height / max(1, info.cellSize.height + 8)))
            for press in ui.input.keys {
                // Justified rows hold different counts: ↑ and ↓ go to the nearest photo of the next row.
                if let layout = info.justified, press.key == .up || press.key == .down,
                    press.modifiers.isDisjoint(with: [.control, .alt]),
                    let current = selection.cursorIndex(in: order)
                {
                    let target = layout.item(nearest: current, rowsAway: press.key == .up ? -1 : 1)
                    selection.moveCursor(
                        to: target, extending: press.modifiers.contains(.shift), mode: .multiple, rows: order)
                    ui.scrollGrid("photos", toItem: target)
                    ui.consumeKey(press.key)
                    continue
                }
                if let target = selection.key(
                    press.key, modifiers: press.modifiers, mode: .multiple, pageSize: rowsInView * info.columns,
                    columns: info.columns, rows: order)
                {
                    ui.scrollGrid("photos", toItem: target)
                    ui.consumeKey(press.key)
                }
            }
        }
        if background.clicked { ui.focus(gridFocus) }
        if background.clicked && ui.input.modifiers.isEmpty { selection.selected.removeAll() }
        if background.secondaryClicked {
            menuTarget = []
            ui.openPopup("photoMenu")
        }
        if ui.focusID == gridFocus && ui.menuKeyPressed() {  // the Menu key or Shift+F10: the selection's menu
            menuTarget = selection.selected
            ui.openPopup("photoMenu", at: Point(viewport.x + 24, viewport.y + 24))
        }
    }

    /// Photo `i`'s cell: its picture, rating and marks (the rename field over it while
    /// renaming); a click selects, a double click opens, a drag carries it to a folder, a
    /// right-click opens its menu.
    private func buildCell(_ ui: UI, _ i: Int, in rect: Rect, viewport: Rect, order: RowOrder<Int>, gridFocus: WidgetID)
    {
        let photo = photos[i]
        // A screen reader reads the file name and date, then the rating as the value.
        // Its label and pick or reject follow, as the grid draws them.
        let r = ui.accessibilityLabel(
            ui.isAccessibilityEnabled
                ? photo.name + ", " + FileFormat.date(photo.date)
                    + (photo.marks.isEmpty ? "" : ", " + photo.marks) : ""
        ) {
            ui.heroImage(
                photo.path, in: rect, title: photo.name, rating: photo.rating,
                isSelected: selection.selected.contains(row: i, id: photo.id),
                priority: ImageFraming.priority(of: rect, in: viewport))
        }
        Self.drawMarks(ui, photo, in: rect)
        if let edit = renaming, edit.id == photo.id { renameField(ui, photo, over: rect) }
        if r.clicked {
            selection.click(index: i, modifiers: ui.input.modifiers, mode: .multiple, rows: order)
            ui.focus(gridFocus)
        }
        if r.doubleClicked { onOpen?(photo) }
        // Dragging a cell drags the selection it is in, or it alone (selected), to a folder.
        ui.draggable(r, items: dragged(i, photo, order: order)) { ui, square in
            ui.asyncImage(photo.path, in: square, mode: .fill)
        }
        if r.secondaryClicked {
            menuTarget = selection.contextMenuTarget(index: i, mode: .multiple, rows: order)
            ui.openPopup("photoMenu")
        }
    }

    /// The photos a drag starting on cell `i` carries: the selection when the cell is in it;
    /// else the cell alone, selected (as a file manager does).
    private func dragged(_ i: Int, _ photo: Photo, order: RowOrder<Int>) -> [DraggedPhoto] {
        if !selection.selected.contains(row: i, id: photo.id) {
            selection.click(index: i, modifiers: [], mode: .multiple, rows: order)
            return [DraggedPhoto(id: photo.id, path: photo.path)]
        }
        let byID = Dictionary(photos.lazy.map { ($0.id, $0.path) }, uniquingKeysWith: { first, _ in first })
        return selection.selected.compactMap { id in byID[id].map { DraggedPhoto(id: id, path: $0) } }
    }

    /// The name field over a cell being renamed: focused at once; Return or a click elsewhere
    /// renames, Escape cancels.
    private func renameField(_ ui: UI, _ photo: Photo, over rect: Rect) {
        guard var edit = renaming else { return }
        // Over the cell's title and stars, on the window's background.
        let strip = Rect(
            x: rect.x, y: rect.maxY - ui.theme.controlHeight - 12, width: rect.width,
            height: ui.theme.controlHeight + 12)
        ui.drawList.addRect(strip, color: ui.theme.background)
        let field = strip.insetBy(dx: 6, dy: 6)
        var ended: Bool?
        ui.region(field) {
            let fieldID = ui.id("rename")
            if !edit.focused {
                ui.focus(fieldID)
                edit.focused = true
            } else if ui.focusID == fieldID {
                if ui.input.keys.contains(where: { $0.key == .escape }) { ended = false }
                if ui.input.keys.contains(where: { $0.key == .returnKey }) { ended = true }
            } else {
                ended = true  // focus went elsewhere (a click): the name typed stands, as in a file manager
            }
            ui.textField("Name", text: &edit.text, width: field.width, id: "rename")
        }
        renaming = ended == nil ? edit : nil
        if ended == true { onRename?(photo, edit.text) }
    }

    /// The grid itself: under month headers (pinned) when there are sections.
    private func buildGrid(_ ui: UI, columns: [GridItem], cell: @escaping (UI, Int, Rect) -> Void) -> LazyGridInfo {
        if isJustified {
            if aspectRatios == nil {
                aspectRatios = photos.map {
                    $0.aspectRatio > 0 ? Double($0.aspectRatio) : JustifiedLayout.defaultAspectRatio
                }
            }
            return ui.lazyJustifiedGrid(
                "photos", aspectRatios: aspectRatios ?? [], sections: sections?.map(\.count), rowHeight: 160,
                headerHeight: 40, pinnedViews: .sectionHeaders, zoom: Binding(self, \.zoom),
                header: { ui, s, rect in self.drawHeader(ui, s, rect) }, cell: cell)
        }
        guard let sections else {
            return ui.lazyVGrid(
                "photos", columns: columns, spacing: 8, count: photos.count, zoom: Binding(self, \.zoom), cell: cell)
        }
        return ui.lazyVGrid(
            "photos", columns: columns, spacing: 8, sections: sections.map(\.count), headerHeight: 40,
            pinnedViews: .sectionHeaders, zoom: Binding(self, \.zoom),
            header: { ui, s, rect in self.drawHeader(ui, s, rect) },
            cell: cell)
    }

    /// A month's header over its photos.
    private func drawHeader(_ ui: UI, _ s: Int, _ rect: Rect) {
        guard let sections, sections.indices.contains(s) else { return }
        // Opaque: the photos scroll under the pinned header.
        ui.drawList.addRect(rect, color: ui.theme.background.opacity(0.94))
        let titleFont = ui.font(size: ui.theme.fontSize + 3, weight: .bold)
        titleFont.draw(sections[s].title, at: Point(rect.x + 4, rect.y + 9), color: ui.theme.text, into: &ui.drawList)
        let count = sections[s].count == 1 ? "1 photo" : "\(sections[s].count) photos"
        ui.accessibilityElement(ui.id("month"), role: .heading, name: sections[s].title + ", " + count, frame: rect)
        // The count, right-aligned, only where it clears the title by a gap (a narrow column
        // keeps the month; the heading's accessible name still says how many).
        let countFont = ui.font(size: ui.theme.fontSize - 1)
        let titleEnd = rect.x + 4 + titleFont.measure(sections[s].title)
        guard titleEnd + 12 + countFont.measure(count) <= rect.maxX - 12 else { return }
        countFont.draw(
            count, in: Rect(x: rect.x, y: rect.y + 12, width: rect.width - 12, height: 18),
            alignment: .trailing, color: ui.theme.secondaryText, into: &ui.drawList)
    }

    /// The colors of the label dots, in `ColorLabel`'s order.
    static let labelColors = [Color(hex: 0xE5484D), Color(hex: 0xF5C518), Color(hex: 0x30A46C), Color(hex: 0x3E63DD)]

    /// A photo's marks over its cell: its color label as a dot in the top-right corner, a
    /// check for a pick, and a rejected photo dimmed with a cross.
    static func drawMarks(_ ui: UI, _ photo: Photo, in rect: Rect) {
        let mark = 16.0
        if photo.flag == .rejected {
            ui.drawList.addRect(rect, color: Color.black.opacity(0.55))
        }
        if let flag = photo.flag {
            let badge = Rect(x: rect.x + 6, y: rect.y + 6, width: mark + 4, height: mark + 4)
            ui.drawList.addRoundedRect(
                badge, radius: badge.width / 2, color: flag == .picked ? Color(hex: 0x30A46C) : Color(hex: 0xE5484D))
            ui.drawIcon(flag == .picked ? .checkmark : .xmark, in: badge.insetBy(dx: 3, dy: 3), color: .white)
        }
        if let label = photo.label, let index = ColorLabel.allCases.firstIndex(of: label) {
            let center = Point(rect.maxX - 6 - mark / 2, rect.y + 6 + mark / 2)
            ui.drawList.addCircle(center: center, radius: mark / 2, color: labelColors[index])
            ui.drawList.addCircleBorder(center: center, radius: mark / 2, color: .white, thickness: 1.5)
        }
    }
}
