import Render2D
import Imaging
import Profiling

/// Pixels the app owns and draws with `ui.image` (what SwiftUI draws from a `CGImage`): RGBA,
/// 8 bits a channel, rows top to bottom. The UI uploads them to a texture the first time they
/// are drawn and again only after `update`, so a bitmap drawn every frame costs a quad.
///
/// ```swift
/// let histogram = ImageBitmap(width: 256, height: 100)
/// histogram.update { pixels in pixels.bytes[0..<4] = [255, 0, 0, 255] }   // the top-left pixel red
/// ui.image(histogram, resizable: true, interpolation: .none)
/// ```
@MainActor
public final class ImageBitmap {
    /// The pixels.
    public private(set) var pixels: PixelBuffer
    /// Counts the changes made with `update`: a texture made from an older one is made again.
    public private(set) var generation = 0
    /// Its width in pixels.
    public var width: Int { pixels.width }
    /// Its height in pixels.
    public var height: Int { pixels.height }

    /// A bitmap of `pixels`.
    public init(_ pixels: PixelBuffer) {
        self.pixels = pixels
    }

    /// A transparent bitmap `width`×`height` (each at least 1 and at most 16,384).
    public init(width: Int, height: Int) {
        pixels = PixelBuffer(width: min(max(1, width), 16_384), height: min(max(1, height), 16_384))
    }

    /// Changes the pixels in place; the next frame that draws the bitmap uploads them. The size
    /// may not change: a change that alters it leaves a transparent bitmap of the old size.
    public func update(_ change: (inout PixelBuffer) -> Void) {
        let (w, h) = (pixels.width, pixels.height)
        change(&pixels)
        if pixels.width != w || pixels.height != h || pixels.bytes.count != w * h * 4 {
            pixels = PixelBuffer(width: w, height: h)
        }
        generation += 1
    }
}

/// How a scaled image's pixels are sampled (SwiftUI's `Image.Interpolation`).
public enum ImageInterpolation: Sendable {
    /// The nearest pixel: hard edges, for pixel art, charts, and zooming in on pixels.
    case none
    /// Smoothed between pixels.
    case low
    /// Smoothed between pixels (the same sampling as `.low` on SDL's renderer).
    case medium
    /// Smoothed between pixels (the same sampling as `.low` on SDL's renderer).
    case high

    var filter: TextureFilter { self == .none ? .nearest : .linear }
}

/// The textures of the bitmaps a UI drew: made when first drawn, made again after an
/// `update`, destroyed when not drawn for a few seconds or when the bitmap is gone.
@MainActor
final class BitmapTextures {
    struct Entry {
        weak var bitmap: ImageBitmap?
        var texture: TextureHandle
        var generation: Int
        var lastFrame: Int
    }
    /// A bitmap drawn both sharp and smooth has a texture for each.
    struct Key: Hashable {
        var bitmap: ObjectIdentifier
        var filter: TextureFilter
    }
    weak var renderer: Renderer?
    private var entries: [Key: Entry] = [:]

    var count: Int { entries.count }

    /// `bitmap`'s texture sampled with `filter`, made or remade as needed (nil without a renderer).
    func texture(for bitmap: ImageBitmap, filter: TextureFilter, frame: Int) -> TextureHandle? {
        guard let renderer else { return nil }
        let key = Key(bitmap: ObjectIdentifier(bitmap), filter: filter)
        if var entry = entries[key], entry.bitmap === bitmap, entry.generation == bitmap.generation {
            entry.lastFrame = frame
            entries[key] = entry
            return entry.texture
        }
        if let old = entries.removeValue(forKey: key) { renderer.destroyTexture(old.texture) }
        let pixels = bitmap.pixels
        guard
            let texture = try? renderer.makeTexture(
                width: pixels.width, height: pixels.height, pixels: pixels, filter: filter,
                opaque: pixels.isOpaque)
        else { return nil }
        entries[key] = Entry(bitmap: bitmap, texture: texture, generation: bitmap.generation, lastFrame: frame)
        return texture
    }

    /// Destroys the textures of bitmaps gone or not drawn in the last `frames` frames.
    func sweep(frame: Int, unusedFor frames: Int = 300) {
        guard let renderer else { return }
        for (key, entry) in entries where entry.bitmap == nil || frame - entry.lastFrame > frames {
            renderer.destroyTexture(entry.texture)
            entries[key] = nil
        }
    }
}

extension UI {
    /// Draws `bitmap` (SwiftUI's `Image` of pixels the app holds). At its own size in points
    /// unless `resizable`; resizable, it takes `width` × `height` (each nil: what is available,
    /// the other side then following the bitmap's aspect ratio) and fills it (`contentMode` nil,
    /// stretched), or keeps its aspect ratio (`.fit` letterboxed, `.fill` cropped), SwiftUI's
    /// `resizable()` and `aspectRatio(contentMode:)`. `interpolation` says how scaled pixels
    /// are sampled. `label` is what a screen reader says (empty: decorative, not reported).
    ///
    /// ```swift
    /// ui.image(preview, resizable: true, contentMode: .fit, width: 240, height: 160, label: "Preview")
    /// ui.image(sprite, resizable: true, width: 128, interpolation: .none)   // 16 × 16 pixel art, blown up sharp
    /// ```
    @discardableResult
    public func image(
        _ bitmap: ImageBitmap, resizable: Bool = false, contentMode: ContentMode? = nil, width: Double? = nil,
        height: Double? = nil, interpolation: ImageInterpolation = .high, label: String = ""
    ) -> Rect {
        let natural = Size(Double(bitmap.width), Double(bitmap.height))
        let size =
            resizable
            ? Self.resizedImageSize(natural, width: width, height: height, available: availableWidth) : natural
        let rect = allocate(size)
        if !label.isEmpty {
            accessibilityElement(
                WidgetID(parent: id(label), "image"), role: .image, name: label, frame: rect, states: [.enabled],
                value: "\(bitmap.width) × \(bitmap.height) pixels")
        }
        guard let texture = bitmapTextures.texture(for: bitmap, filter: interpolation.filter, frame: frameIndex) else {
            return rect
        }
        if let contentMode {
            let placed = ImageFraming.placement(
                imageWidth: bitmap.width, imageHeight: bitmap.height, in: rect, mode: contentMode)
            drawList.addImage(texture, in: placed.rect, uv: placed.uv)
        } else {
            drawList.addImage(texture, in: rect)
        }
        return rect
    }

    /// The frame a resizable image takes: the sides given, a missing one from the image's
    /// aspect ratio, both missing the available width.
    static func resizedImageSize(_ natural: Size, width: Double?, height: Double?, available: Double) -> Size {
        let aspect = natural.height > 0 ? natural.width / natural.height : 1
        switch (width, height) {
        case let (w?, h?): return Size(max(0, w), max(0, h))
        case let (w?, nil): return Size(max(0, w), max(0, w) / aspect)
        case let (nil, h?): return Size(max(0, h) * aspect, max(0, h))
        case (nil, nil):
            let w = available.isFinite ? max(0, available) : natural.width
            return Size(w, w / aspect)
        }
    }
}
