import Render2D
import Imaging
import Profiling

extension UI {
    /// A JPEG far larger than the screen, drawn in `frame` (the whole image's place, mostly
    /// outside the view) from tiles of `tileSize` pixels decoded one region at a time
    /// (`ImageDecoder.region`): only the tiles that meet `visible` are asked for, nearest the
    /// centre first, so a 1:1 view of a 200-megapixel photo decodes a screenful, not the photo.
    /// Until a tile arrives, the image decoded at the size of `visible` stands in for it,
    /// stretched. `imageWidth`×`imageHeight` is the upright image's size in pixels. Returns how
    /// many visible tiles are still loading.
    ///
    /// ```swift
    /// let frame = Rect(x: view.midX - Double(w) / ui.scale / 2, y: view.midY - Double(h) / ui.scale / 2,
    ///                  width: Double(w) / ui.scale, height: Double(h) / ui.scale)
    /// ui.tiledImage(photo.path, imageWidth: w, imageHeight: h, in: frame, visible: view)
    /// ```
    @discardableResult
    public func tiledImage(
        _ path: String, imageWidth: Int, imageHeight: Int, in frame: Rect, visible: Rect,
        tileSize: Int = 1024
    ) -> Int {
        guard let images, imageWidth > 0, imageHeight > 0, frame.width > 0, frame.height > 0 else { return 0 }
        if isAccessibilityEnabled {
            accessibilityElement(
                id(path), role: .image, name: Self.fileName(path),
                frame: frame.intersection(visible), states: [.enabled, .sensitive],
                value: "\(imageWidth) × \(imageHeight) pixels")
        }
        // The stand-in: the whole image at the view's size.
        let preview = ImageFraming.thumbnailSpec(for: visible.size, scale: scale, mode: .fit)
        if case .ready(let texture, _, _) = images.thumbnail(for: path, spec: preview, priority: 0) {
            drawList.addImage(texture, in: frame)
        }
        let pointsPerPixel = frame.width / Double(imageWidth), tile = max(64, tileSize)
        let shown = frame.intersection(visible)
        guard shown.width > 0, shown.height > 0 else { return 0 }
        // Clamped before the conversion: a frame far off screen or vanishingly small cannot trap it.
        func pixel(_ points: Double, _ origin: Double, _ limit: Int) -> Int {
            let p = (points - origin) / pointsPerPixel
            return p.isFinite ? Int(min(Double(limit), max(0, p))) : (p > 0 ? limit : 0)
        }
        let firstColumn = pixel(shown.minX, frame.minX, imageWidth - 1) / tile
        let lastColumn = pixel(shown.maxX, frame.minX, imageWidth - 1) / tile
        let firstRow = pixel(shown.minY, frame.minY, imageHeight - 1) / tile
        let lastRow = pixel(shown.maxY, frame.minY, imageHeight - 1) / tile
        let columns = firstColumn...lastColumn
        let rows = firstRow...lastRow
        var loading = 0
        for row in rows {
            for column in columns {
                let x = column * tile, y = row * tile
                let region = ImageRegion(
                    x: x, y: y, width: min(tile, imageWidth - x), height: min(tile, imageHeight - y))
                let rect = Rect(
                    x: frame.minX + Double(x) * pointsPerPixel, y: frame.minY + Double(y) * pointsPerPixel,
                    width: Double(region.width) * pointsPerPixel, height: Double(region.height) * pointsPerPixel)
                let distance = abs(rect.midX - visible.midX) + abs(rect.midY - visible.midY)
                switch images.tile(path, region: region, priority: distance / max(1, visible.width + visible.height)) {
                case .ready(let texture, _, _): drawList.addImage(texture, in: rect)
                case .loading: loading += 1
                case .failed: break  // the stand-in stays
                }
            }
        }
        if loading > 0 { requestRedraw(after: 0.05) }
        return loading
    }
}
