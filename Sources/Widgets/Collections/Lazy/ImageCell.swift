import Render2D
import Imaging
import Profiling

/// How an image meets its frame: whole and letterboxed (`fit`), or cropped to cover it (`fill`).
public enum ContentMode: Sendable {
    /// The whole image, letterboxed.
    case fit
    /// The frame covered, the image cropped.
    case fill
}

/// Pure geometry of drawing a `width`×`height` image in a frame.
public enum ImageFraming {
    /// Where the image goes and which part of it (0...1 texture coordinates) is shown.
    public static func placement(imageWidth: Int, imageHeight: Int, in frame: Rect, mode: ContentMode) -> (
        rect: Rect, uv: Rect
    ) {
        let full = Rect(x: 0, y: 0, width: 1, height: 1)
        guard imageWidth > 0, imageHeight > 0, frame.width > 0, frame.height > 0 else { return (frame, full) }
        let imageAspect = Double(imageWidth) / Double(imageHeight), frameAspect = frame.width / frame.height
        switch mode {
        case .fit:
            if imageAspect > frameAspect {
                let h = frame.width / imageAspect
                return (Rect(x: frame.x, y: frame.midY - h / 2, width: frame.width, height: h), full)
            }
            let w = frame.height * imageAspect
            return (Rect(x: frame.midX - w / 2, y: frame.y, width: w, height: frame.height), full)
        case .fill:
            if imageAspect > frameAspect {
                let visible = frameAspect / imageAspect
                return (frame, Rect(x: (1 - visible) / 2, y: 0, width: visible, height: 1))
            }
            let visible = imageAspect / frameAspect
            return (frame, Rect(x: 0, y: (1 - visible) / 2, width: 1, height: visible))
        }
    }

    /// How urgent a visible cell's image is: 0 at the viewport's centre, growing towards 1 at its edges.
    public static func priority(of cell: Rect, in viewport: Rect) -> Double {
        let dy = abs(cell.midY - viewport.midY) / max(1, viewport.height),
            dx = abs(cell.midX - viewport.midX) / max(1, viewport.width)
        return min(0.99, dy + dx * 0.25)
    }

    /// The thumbnail to ask for a frame of `size` points: its longer side in pixels, so that a
    /// square cell's thumbnail is drawn at its own size (`drawnAtSize`, sampled texel for pixel).
    /// A cell that changes size draws its old thumbnail until the new one is decoded. A frame
    /// larger than a window can be (16,384 px) asks for that; one that is not a number, for 1 px.
    ///
    /// ```swift
    /// let spec = ImageFraming.thumbnailSpec(for: rect.size, scale: ui.scale, mode: .fill)
    /// ```
    public static func thumbnailSpec(for size: Size, scale: Double, mode: ContentMode) -> ThumbnailSpec {
        let width = size.width * scale, height = size.height * scale
        let longest = (max(width, height) - 0.01).rounded(.up)
        let side = longest >= 1 ? Int(min(longest, Double(maxThumbnailSide))) : 1  // false for NaN too
        return ThumbnailSpec(side: side, fill: mode == .fill, drawnAtSize: abs(width - height) < 1)
    }

    /// The largest thumbnail side asked for, in pixels: a window's largest side.
    static let maxThumbnailSide = 16_384
}

extension UI {
    /// An image from a file, loaded lazily through `ui.images`: a placeholder while it
    /// loads, an error tile (the reason on hover) when it cannot be read. `priority` orders
    /// the decode (lower first; visible cells use their distance to the viewport centre).
    /// Returns the cell's interaction (tap, double-click, context menu).
    ///
    /// ```swift
    /// let r = ui.asyncImage(photo.path, in: rect, mode: .fill, priority: 0)
    /// if r.doubleClicked { open(photo) }
    /// ```
    @discardableResult
    public func asyncImage(
        _ path: String, in rect: Rect, mode: ContentMode = .fill, priority: Double = 0,
        cornerRadius: Double = 6, placeholder: Color? = nil
    ) -> Interaction {
        let r = interact(id(path), rect: rect, sense: .click)  // an image is not a Tab stop; the grid holding it is
        let spec = ImageFraming.thumbnailSpec(for: rect.size, scale: scale, mode: mode)
        let state = images?.thumbnail(for: path, spec: spec, priority: priority)
        if isAccessibilityEnabled {
            // Named by its file (an app names it better with `accessibilityLabel`).
            var status = ""
            switch state {
            case .loading: status = "loading"
            case .failed, nil: status = "can't open"
            case .ready: break
            }
            // (An app's label replaces the file's name: not worked out then.)
            let name = accessibility.pendingOverride?.label != nil ? "" : Self.fileName(path)
            accessibilityElement(
                r.id, role: .image, name: name, frame: rect, states: [.enabled, .sensitive], actions: [.click],
                value: status)
        }
        guard let state else {
            drawImageError("no ImagePipeline (set ui.images)", in: rect, interaction: r)
            return r
        }
        switch state {
        case .ready(let texture, let width, let height):
            if mode == .fit && placeholder == nil {
                drawList.addRoundedRect(rect, radius: cornerRadius, color: theme.control.opacity(0.5))
            }
            let placed = ImageFraming.placement(imageWidth: width, imageHeight: height, in: rect, mode: mode)
            drawList.addImage(texture, in: placed.rect, uv: placed.uv)
        case .loading:
            drawList.addRoundedRect(rect, radius: cornerRadius, color: placeholder ?? theme.control)
            let icon = min(rect.width, rect.height) * 0.3
            drawIcon(
                .photo, in: Rect(x: rect.midX - icon / 2, y: rect.midY - icon / 2, width: icon, height: icon),
                color: theme.controlPressed)
        case .failed(let reason):
            drawImageError(reason, in: rect, interaction: r)
        }
        return r
    }

    /// Material Icons' stars, for the hero cell's rating.
    static let filledStar = Icon(named: "star"), outlinedStar = Icon(named: "star_border")

    /// Five stars, the first `rating` filled, `rect.height` high from `rect`'s leading edge:
    /// Material's stars when the icon font is there, as two runs of text (the filled ones, then
    /// the outlined ones), each a line the atlas keeps composed; else the built-in shapes.
    private func drawRating(_ rating: Int, in rect: Rect) {
        let star = rect.height, filled = max(0, min(5, rating))
        let gold = Color(hex: 0xFFCC00), dim = Color.white.opacity(0.7)
        if let icons = fonts.icons, let font = fonts.iconFont(size: star, scale: scale),
            let full = icons.scalar(named: Self.filledStar.name),
            let empty = icons.scalar(named: Self.outlinedStar.name)
        {
            let top = rect.minY + (star - font.lineHeight) / 2
            let stars = (
                String(repeating: Character(full), count: filled),
                String(repeating: Character(empty), count: 5 - filled)
            )
            let width = filled > 0 ? font.draw(stars.0, at: Point(rect.minX, top), color: gold, into: &drawList) : 0
            if filled < 5 { font.draw(stars.1, at: Point(rect.minX + width, top), color: dim, into: &drawList) }
            return
        }
        for k in 0..<5 {
            drawIcon(
                k < filled ? .starFill : .star,
                in: Rect(x: rect.minX + Double(k) * (star + 2), y: rect.minY, width: star, height: star),
                color: k < filled ? gold : dim)
        }
    }

    /// A rating as a screen reader reads it (made once, not per cell per frame).
    static let starsValues = ["0 stars", "1 star", "2 stars", "3 stars", "4 stars", "5 stars"]

    private func drawImageError(_ reason: String, in rect: Rect, interaction: Interaction) {
        drawList.addRoundedRect(rect, radius: 6, color: theme.destructive.opacity(0.12))
        drawList.addRectBorder(rect, radius: 6, color: theme.destructive.opacity(0.5), thickness: 1)
        let icon = min(rect.width, rect.height) * 0.22
        drawIcon(
            .xmark, in: Rect(x: rect.midX - icon / 2, y: rect.midY - icon, width: icon, height: icon),
            color: theme.destructive)
        font(size: theme.fontSize - 3).draw(
            "Can't open", in: Rect(x: rect.x, y: rect.midY + 4, width: rect.width, height: 18),
            alignment: .center, color: theme.destructive, into: &drawList)
        tooltip(reason, for: interaction, delay: 0.3)
    }

    /// The talk's hero cell: an image filling its frame with a banner across the bottom
    /// showing `title` and a five-star `rating` (0...5), and a selection ring.
    ///
    /// ```swift
    /// ui.heroImage(photo.path, in: rect, title: photo.name, rating: photo.rating, isSelected: selection.contains(photo.id))
    /// ```
    @discardableResult
    public func heroImage(
        _ path: String, in rect: Rect, title: String, rating: Int, isSelected: Bool = false,
        mode: ContentMode = .fill, priority: Double = 0
    ) -> Interaction {
        let r = accessibilityLabel(title) {
            accessibilityValue(Self.starsValues.indices.contains(rating) ? Self.starsValues[rating] : "\(rating) stars")
            {
                asyncImage(path, in: rect, mode: mode, priority: priority)
            }
        }
        if isAccessibilityEnabled && isSelected {
            updateAccessibility(r.id) { $0.states.formUnion([.selectable, .selected]) }
        }
        let bannerHeight = min(rect.height * 0.3, 40)
        let banner = Rect(x: rect.x, y: rect.maxY - bannerHeight, width: rect.width, height: bannerHeight)
        drawList.addRect(banner, color: Color.black.opacity(0.45))
        let small = font(size: theme.fontSize - 2)
        small.draw(
            title, in: Rect(x: banner.x + 8, y: banner.y + 2, width: banner.width - 16, height: bannerHeight / 2),
            color: .white, truncation: truncation, into: &drawList)
        drawRating(
            rating,
            in: Rect(
                x: banner.x + 8, y: banner.y + bannerHeight / 2 + 1, width: banner.width - 16,
                height: min(12, bannerHeight / 2 - 2)))
        if isSelected {
            drawList.addRectBorder(rect.insetBy(dx: -2, dy: -2), radius: 8, color: theme.accent, thickness: 3)
        } else if r.isHovered {
            drawList.addRectBorder(rect, radius: 6, color: .white.opacity(0.6), thickness: 1.5)
        }
        return r
    }
}

extension UI {
    /// Asks `ui.images` for the thumbnails of the grid's prefetch window: items ahead in the
    /// scroll direction first (priority 1.x), then behind (2.x), nearest first within each;
    /// only their embedded thumbnails while the grid scrolls fast.
    ///
    /// ```swift
    /// let info = ui.lazyVGrid(...) { ... }
    /// ui.prefetchImages(info) { photos[$0].path }
    /// ```
    public func prefetchImages(_ info: LazyGridInfo, mode: ContentMode = .fill, path: (Int) -> String) {
        guard let images else { return }
        let spec = ImageFraming.thumbnailSpec(for: info.cellSize, scale: scale, mode: mode)
        let deferred = images.defersSharpTier
        images.defersSharpTier = deferred || info.isScrollingFast  // flung: embedded thumbnails only
        defer { images.defersSharpTier = deferred }
        for (rank, range) in info.prefetch.enumerated() where !range.isEmpty {
            let nearEnd = range.lowerBound >= info.visible.upperBound
            for i in range {
                let distance = Double(nearEnd ? i - range.lowerBound : range.upperBound - 1 - i) / Double(range.count)
                // A justified grid's cells each have their own size: the thumbnail its cell will ask for.
                let itemSpec =
                    info.justified.map {
                        ImageFraming.thumbnailSpec(for: $0.frame(ofItem: i).size, scale: scale, mode: mode)
                    } ?? spec
                images.prefetch(path(i), spec: itemSpec, priority: 1 + Double(rank) + distance * 0.99)
            }
        }
    }
}
