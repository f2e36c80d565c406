import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// A photo full-window: fitted (decoded at the window's size), or zoomed, from its fitted
/// size to 8 times 1:1, by the wheel or a pinch around the pointer or the fingers, or Ctrl+=
/// and Ctrl+- around the centre (decoded a
/// tile at a time where it is larger than the screen), panned by dragging. Arrows move to the
/// next and previous photo, `Z` or a double-click switch fit and 1:1 (the digits rate, as in
/// the grid), `I` shows how the photo was taken (its EXIF), F11 fills the screen, Space starts
/// and stops a slideshow, Escape leaves fullscreen, then returns. It shows in the browser, or in a window of its own (`PhotoWindow`).
@MainActor
final class PhotoViewer {
    private(set) var photos: [Photo] = []
    private(set) var index = 0
    private(set) var isOpen = false
    /// The zoom: image pixels per physical pixel over 1 (1 is 1:1); nil fits the photo.
    private(set) var zoom: Double?
    /// The most a photo is zoomed in: 8 screen pixels per image pixel.
    static let maxZoom = 8.0
    /// Where the zoomed photo's centre is, from the view's centre.
    private var pan = Point.zero
    /// A finger's flick keeps the zoomed photo moving, slowing as a scroll view does.
    private var panMomentum = KineticScroller()
    /// Pinches (the zoom when the fingers came down, for the pinch's scale).
    private var gestures = GestureRecognizer()
    /// Centres the photo, any glide stopped.
    private func resetPan() {
        pan = .zero
        panMomentum.stop()
    }

    /// Whether a flick still moves the photo.
    var isGliding: Bool { panMomentum.isMoving }

    /// Drags move the zoomed photo; a finger's flick keeps it moving after the release (a
    /// mouse's drag stops where it is let go, as on the desktop), until it slows to a stop or
    /// meets an edge. `slack` is how far it can move from the centre each way.
    private func panByDrag(_ ui: UI, _ r: Interaction, pinching: Bool, slack: Point) {
        let touch = ui.input.pointer.kind == .touch
        if r.isActive && !pinching {
            pan = pan + r.dragDelta
            if touch { panMomentum.addSample(delta: r.dragDelta, time: ui.time) } else { panMomentum.stop() }
            if ui.input.pointer.released && touch { panMomentum.release(time: ui.time) }
        } else if pinching || ui.input.pointer.pressed {
            panMomentum.stop()
        } else if panMomentum.isMoving {
            pan = pan + panMomentum.step(dt: ui.deltaTime)
            ui.requestRedraw()
        }
        let clamped = Point(min(max(pan.x, -slack.x), slack.x), min(max(pan.y, -slack.y), slack.y))
        if clamped.x != pan.x { panMomentum.stopAxis(.horizontal) }
        if clamped.y != pan.y { panMomentum.stopAxis(.vertical) }
        pan = clamped
    }

    /// Where the photo was drawn in the last frame (nil until its size is known).
    private(set) var shownFrame: Rect?
    private var zoomAtPinchStart: Double?
    /// The photos' sizes, read from their headers in the background.
    let dimensions = DimensionCache()
    /// Their EXIF, read in the background for the info overlay.
    let info = PhotoInfoCache()
    /// Whether the info overlay shows (`I`).
    private(set) var showsInfo = false
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
        zoom = nil
        resetPan()
    }

    func close() {
        isOpen = false
        slideshowNext = nil
    }

    private func move(_ step: Int) {
        index = min(max(0, index + step), photos.count - 1)
        resetPan()
    }

    /// Fit, or 1:1 (`Z`, a double-click, the button).
    private func toggleActualSize() {
        zoom = zoom == nil ? 1 : nil
        resetPan()
    }

    /// Zooms to `newZoom` (clamped between the fitted size and `maxZoom`; at or under the
    /// fitted size it fits) keeping the image point under `anchor` where it is (along an axis
    /// where the photo is smaller than the view, it stays centred).
    private func zoom(to newZoom: Double, around anchor: Point, area: Rect, fit: Double) {
        let old = zoom ?? fit
        let clamped = min(max(newZoom, fit), Self.maxZoom)
        guard clamped.isFinite, old > 0 else { return }
        if clamped <= fit * 1.0001 {
            zoom = nil
            resetPan()
            return
        }
        // The point under the anchor, from the image's centre, scales with the zoom.
        let center = Point(area.midX + pan.x, area.midY + pan.y)
        let ratio = clamped / old
        pan = Point(
            anchor.x - area.midX - (anchor.x - center.x) * ratio, anchor.y - area.midY - (anchor.y - center.y) * ratio)
        zoom = clamped
    }

    func build(_ ui: UI) {
        guard let photo = current else { return }
        // A dialog named after the photo: each move renames it, which a screen reader announces.
        let stars = photo.rating == 1 ? "1 star" : "\(photo.rating) stars"
        ui.accessibilityContainer(
            ui.id("viewer"), role: .dialog,
            name: ui.isAccessibilityEnabled
                ? "\(photo.name), \(FileFormat.date(photo.date)), \(stars), \(index + 1) of \(photos.count)" : "",
            frame: Rect(origin: .zero, size: ui.size)
        ) { viewer(ui, photo) }
    }

    private func viewer(_ ui: UI, _ photo: Photo) {
        let keyZoom = viewerKeys(ui)
        advanceSlideshow(ui)
        let rect = ui.allocate(
            Size(ui.availableWidth, ui.availableRect.height), flexibleWidth: true, flexibleHeight: true)
        ui.drawList.addRect(rect, color: .black)
        ui.drawList.pushClip(rect)
        let area = rect.insetBy(dx: 12, dy: 12), fitted = area.insetBy(dx: 0, dy: 24)
        let r = ui.interact(ui.id("viewer.pan"), rect: rect, sense: [.click, .drag])
        if r.doubleClicked { toggleActualSize() }
        // The size is read from the header on a background queue: until it is known (a frame or
        // two; a cold disk may take longer), the photo stays fitted.
        if let size = dimensions.dimensions(of: photo.path), size.width > 0, size.height > 0 {
            showPhoto(ui, photo, size: size, r, keyZoom: keyZoom, rect: rect, area: area, fitted: fitted)
        } else {
            ui.asyncImage(photo.path, in: fitted, mode: .fit, placeholder: Color(hex: 0x1C1C1E))
        }
        // The neighbours load next, at the size the viewer asks for, so arrows show them at once.
        if let images = ui.images, zoom == nil {
            let spec = ImageFraming.thumbnailSpec(for: fitted.size, scale: ui.scale, mode: .fit)
            for step in [1, -1] where photos.indices.contains(index + step) {
                images.prefetch(photos[index + step].path, spec: spec, priority: 1)
            }
        }
        ui.drawList.popClip()
        if showsInfo { infoOverlay(ui, photo, in: rect) }
        viewerBar(ui, photo, in: Rect(x: rect.x + 12, y: rect.maxY - 40, width: rect.width - 24, height: 32))
    }

    /// The viewer's keys: Escape leaves full screen or closes, F11, Space starts or stops the
    /// slideshow, the arrows move, Z toggles 1:1, I the info. Returns the zoom step Ctrl+= or
    /// Ctrl+- asked for (around the centre).
    private func viewerKeys(_ ui: UI) -> Double? {
        var keyZoom: Double?
        for press in ui.input.keys {
            switch press.key {
            case .escape:
                if ui.isFullscreen { ui.setFullscreen(false) } else { close() }
            case .f11: ui.setFullscreen(!ui.isFullscreen)
            case .space: slideshowNext = slideshowNext == nil ? ui.time + Self.slideshowInterval : nil
            case .right, .down: move(1)
            case .left, .up: move(-1)
            case Key("z"): toggleActualSize()
            case Key("i"): showsInfo.toggle()
            case Key("=") where press.modifiers.contains(.control): keyZoom = 1.25
            case Key("-") where press.modifiers.contains(.control): keyZoom = 0.8
            default: break
            }
        }
        return keyZoom
    }

    /// A running slideshow moves on when its time comes, and ends on the last photo.
    private func advanceSlideshow(_ ui: UI) {
        guard let next = slideshowNext else { return }
        if ui.time >= next {
            if index + 1 < photos.count {
                move(1)
                slideshowNext = ui.time + Self.slideshowInterval
            } else {
                slideshowNext = nil  // the last photo: the slideshow ends on it
            }
        }
        if let due = slideshowNext { ui.requestRedraw(after: due - ui.time) }
    }

    /// The photo of known pixel `size`, fitted or zoomed: the wheel and pinches zoom around the
    /// pointer and the fingers, a drag pans a zoomed photo, and a JPEG at half size or more is
    /// decoded a tile at a time where in view.
    private func showPhoto(
        _ ui: UI, _ photo: Photo, size: (width: Int, height: Int), _ r: Interaction, keyZoom: Double?,
        rect: Rect, area: Rect, fitted: Rect
    ) {
        let w = Double(size.width) / ui.scale, h = Double(size.height) / ui.scale  // at 1:1, in points
        let fit = min(fitted.width / w, fitted.height / h)
        if r.isHovered && ui.input.wheel.y != 0 {
            let notches = ui.input.wheel.y / EventPump().wheelStep
            zoom(to: (zoom ?? fit) * pow(1.25, notches), around: ui.input.pointer.position, area: area, fit: fit)
        }
        if let step = keyZoom {
            zoom(to: (zoom ?? fit) * step, around: Point(area.midX, area.midY), area: area, fit: fit)
        }
        var pinching = false
        for case .pinch(let scale, let center) in gestures.update(ui.input, time: ui.time) where rect.contains(center) {
            let start = zoomAtPinchStart ?? (zoom ?? fit)
            zoomAtPinchStart = start
            zoom(to: start * scale, around: center, area: area, fit: fit)
            pinching = true
        }
        if !pinching { zoomAtPinchStart = nil }
        shownFrame = Rect(x: fitted.midX - w * fit / 2, y: fitted.midY - h * fit / 2, width: w * fit, height: h * fit)
        guard let zoom else {
            ui.asyncImage(photo.path, in: fitted, mode: .fit, placeholder: Color(hex: 0x1C1C1E))
            return
        }
        let zw = w * zoom, zh = h * zoom
        let slackX = max(0, (zw - area.width) / 2), slackY = max(0, (zh - area.height) / 2)
        panByDrag(ui, r, pinching: pinching, slack: Point(slackX, slackY))
        if zw > area.width || zh > area.height { ui.setCursor(.resizeAll) }
        let frame = Rect(x: area.midX - zw / 2 + pan.x, y: area.midY - zh / 2 + pan.y, width: zw, height: zh)
        shownFrame = frame
        if zoom >= 0.5, ["jpg", "jpeg", "jpe"].contains((photo.name as NSString).pathExtension.lowercased()) {
            // Decoded a tile at a time, only where in view: a 200-megapixel photo at 1:1 costs a screenful.
            ui.tiledImage(photo.path, imageWidth: size.width, imageHeight: size.height, in: frame, visible: area)
        } else {
            ui.asyncImage(photo.path, in: frame, mode: .fit, placeholder: Color(hex: 0x1C1C1E))
        }
    }

    /// The bar along the bottom: the photo's name and place, the zoom, the keys, and Fit or
    /// 1:1, New Window and Close.
    private func viewerBar(_ ui: UI, _ photo: Photo, in bar: Rect) {
        ui.region(bar) {
            ui.hstack {
                ui.text("\(photo.name) — \(index + 1) of \(photos.count)", color: .white)
                ui.spacer()
                if let zoom { ui.text("\(Int((zoom * 100).rounded())) %", color: .white) }
                ui.text(
                    slideshowNext != nil
                        ? "Slideshow · Space stops"
                        : "← → · wheel zooms · Z 1:1 · I info · Space slideshow · F11 · Esc",
                    color: .white.opacity(0.7))
                if ui.button(zoom != nil ? "Fit" : "1:1") { toggleActualSize() }
                if !isOwnWindow && ui.button("New Window") { PhotoWindow.open(ui, photos: photos, at: index) }
                if ui.button("Close", icon: .xmark) { close() }
            }
        }
    }

    /// How the photo was taken, over its top-left corner: its name and size, then its EXIF.
    private func infoOverlay(_ ui: UI, _ photo: Photo, in rect: Rect) {
        var lines = [("Name", photo.name), ("Size", FileFormat.size(photo.size))]
        if let size = dimensions.dimensions(of: photo.path) {
            lines.append(("Dimensions", "\(size.width) × \(size.height)"))
        }
        switch info.info(of: photo.path) {
        case .some(.some(let exif)): lines += exif.lines
        case .some(.none): lines.append(("EXIF", "none"))
        case .none: lines.append(("EXIF", "reading…"))
        }
        let font = ui.font(size: 13), line = 20.0
        let panel = Rect(
            x: rect.x + 16, y: rect.y + 16, width: min(360, rect.width - 32), height: Double(lines.count) * line + 16)
        ui.drawList.addRoundedRect(panel, radius: 8, color: Color.black.opacity(0.7))
        for (k, (what, value)) in lines.enumerated() {
            let y = panel.y + 8 + Double(k) * line
            font.draw(
                what, in: Rect(x: panel.x + 12, y: y, width: 100, height: line), color: .white.opacity(0.65),
                into: &ui.drawList)
            font.draw(
                font.truncated(value, toWidth: panel.width - 128),
                in: Rect(x: panel.x + 116, y: y, width: panel.width - 128, height: line),
                color: .white, into: &ui.drawList)
        }
        ui.accessibilityElement(
            ui.id("viewer.info"), role: .panel, name: lines.map { "\($0.0): \($0.1)" }.joined(separator: ", "),
            frame: panel)
    }
}
