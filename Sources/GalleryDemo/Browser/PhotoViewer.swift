import Foundation
import Render2D
import Widgets

/// A photo full-window: fitted (decoded at the window's size) or at 1:1 (decoded at full
/// size, panned by dragging). Arrows move to the next and previous photo, `Z` or a
/// double-click switch fit and 1:1 (the digits rate, as in the grid), F11 fills the screen,
/// Space starts and stops a slideshow, Escape leaves fullscreen, then returns. It shows in the
/// browser, or in a window of its own (`PhotoWindow`).
@MainActor
final class PhotoViewer {
    private(set) var photos: [Photo] = []
    private(set) var index = 0
    private(set) var isOpen = false
    private(set) var actualSize = false
    private var pan = Point.zero
    private let dimensions = DimensionCache()
    /// Whether it is a window of its own (no "New Window" button; closing closes the window).
    var isOwnWindow = false
    /// When the slideshow shows the next photo (UI time); nil when no slideshow runs.
    private(set) var slideshowNext: Double?
    /// Seconds each photo of a slideshow is shown.
    static let slideshowInterval = 3.0

    var current: Photo? { isOpen && photos.indices.contains(index) ? photos[index] : nil }

    func show(_ photos: [Photo], at index: Int) {
        guard photos.indices.contains(index) else { return }
        self.photos = photos
        self.index = index
        isOpen = true
        actualSize = false
        pan = .zero
    }

    func close() {
        isOpen = false
        slideshowNext = nil
    }

    private func move(_ step: Int) {
        index = min(max(0, index + step), photos.count - 1)
        pan = .zero
    }

    func build(_ ui: UI) {
        guard let photo = current else { return }
        // A dialog named after the photo: each move renames it, which a screen reader announces.
        let stars = photo.rating == 1 ? "1 star" : "\(photo.rating) stars"
        ui.accessibilityContainer(ui.id("viewer"), role: .dialog, name: ui.isAccessibilityEnabled
            ? "\(photo.name), \(FileFormat.date(photo.date)), \(stars), \(index + 1) of \(photos.count)" : "",
                                  frame: Rect(origin: .zero, size: ui.size)) { viewer(ui, photo) }
    }

    private func viewer(_ ui: UI, _ photo: Photo) {
        for press in ui.input.keys {
            switch press.key {
            case .escape:
                if ui.isFullscreen { ui.setFullscreen(false) } else { close() }
            case .f11: ui.setFullscreen(!ui.isFullscreen)
            case .space: slideshowNext = slideshowNext == nil ? ui.time + Self.slideshowInterval : nil
            case .right, .down: move(1)
            case .left, .up: move(-1)
            case Key("z"):
                actualSize.toggle()
                pan = .zero
            default: break
            }
        }
        if let next = slideshowNext {
            if ui.time >= next {
                if index + 1 < photos.count {
                    move(1)
                    slideshowNext = ui.time + Self.slideshowInterval
                } else {
                    slideshowNext = nil // the last photo: the slideshow ends on it
                }
            }
            if let due = slideshowNext { ui.requestRedraw(after: due - ui.time) }
        }
        let rect = ui.allocate(Size(ui.availableWidth, ui.availableRect.height), flexibleWidth: true, flexibleHeight: true)
        ui.drawList.addRect(rect, color: .black)
        ui.drawList.pushClip(rect)
        let area = rect.insetBy(dx: 12, dy: 12), fitted = area.insetBy(dx: 0, dy: 24)
        let r = ui.interact(ui.id("viewer.pan"), rect: rect, sense: [.click, .drag])
        if r.doubleClicked { actualSize.toggle(); pan = .zero }
        // The size is read from the header on a background queue: until it is known (a frame or
        // two; a cold disk may take longer), the photo stays fitted.
        if actualSize, let size = dimensions.dimensions(of: photo.path) {
            // 1:1: one image pixel per physical pixel, centred, dragged to pan within the image.
            let w = Double(size.width) / ui.scale, h = Double(size.height) / ui.scale
            if r.isActive { pan = pan + r.dragDelta }
            let slackX = max(0, (w - area.width) / 2), slackY = max(0, (h - area.height) / 2)
            pan = Point(min(max(pan.x, -slackX), slackX), min(max(pan.y, -slackY), slackY))
            if w > area.width || h > area.height { ui.setCursor(.resizeAll) }
            let frame = Rect(x: area.midX - w / 2 + pan.x, y: area.midY - h / 2 + pan.y, width: w, height: h)
            if ["jpg", "jpeg", "jpe"].contains((photo.name as NSString).pathExtension.lowercased()) {
                // Decoded a tile at a time, only where in view: a 200-megapixel photo at 1:1 costs a screenful.
                ui.tiledImage(photo.path, imageWidth: size.width, imageHeight: size.height, in: frame, visible: area)
            } else {
                ui.asyncImage(photo.path, in: frame, mode: .fit, placeholder: Color(hex: 0x1C1C1E))
            }
        } else {
            ui.asyncImage(photo.path, in: fitted, mode: .fit, placeholder: Color(hex: 0x1C1C1E))
        }
        // The neighbours load next, at the size the viewer asks for, so arrows show them at once.
        if let images = ui.images, !actualSize {
            let spec = ImageFraming.thumbnailSpec(for: fitted.size, scale: ui.scale, mode: .fit)
            for step in [1, -1] where photos.indices.contains(index + step) {
                images.prefetch(photos[index + step].path, spec: spec, priority: 1)
            }
        }
        ui.drawList.popClip()
        ui.region(Rect(x: rect.x + 12, y: rect.maxY - 40, width: rect.width - 24, height: 32)) {
            ui.hstack {
                ui.text("\(photo.name) — \(index + 1) of \(photos.count)", color: .white)
                ui.spacer()
                ui.text(slideshowNext != nil ? "Slideshow · Space stops" : "← → move · Z fit or actual size · Space slideshow · F11 fullscreen · Esc",
                        color: .white.opacity(0.7))
                if ui.button(actualSize ? "Fit" : "1:1") { actualSize.toggle(); pan = .zero }
                if !isOwnWindow && ui.button("New Window") { PhotoWindow.open(ui, photos: photos, at: index) }
                if ui.button("Close", icon: .xmark) { close() }
            }
        }
    }
}
