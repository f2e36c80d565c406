import CSDL2

/// Where a rasterized glyph lives in the atlas, and how to place it relative to the pen.
struct AtlasGlyph {
    var texture: TextureHandle
    var uv0: SIMD2<Float>
    var uv1: SIMD2<Float>
    /// Offset of the bitmap's top-left from (pen x, line top), in physical pixels.
    var offsetX: Float
    var offsetY: Float
    var width: Float
    var height: Float
    /// Drawn with its own colors (an emoji), not tinted by the text color.
    var colored: Bool
}

/// Pages that glyph bitmaps are packed into on first use (shelf packing). When a page is
/// full a new one is added. Page 0 also holds a block of opaque white texels that solid
/// shapes sample, so shapes and text share one texture and batch into one draw call.
///
/// The atlas is CPU memory and needs no window: fonts measure and lay out text without one.
/// Each page has a reserved `TextureHandle`; the `Renderer` creates the GPU textures and
/// uploads the rows written since the last frame.
@MainActor
public final class GlyphAtlas {
    /// The side of each page, in pixels.
    public static let pageSize = 1024
    /// Handles with this bit set name atlas pages (the low bits are the page index).
    nonisolated static let pageHandleBit: UInt32 = 0x8000_0000

    struct Page {
        var texture: TextureHandle
        var pixels: [UInt8]
        var shelfX = 0, shelfY = 0, shelfHeight = 0
        /// Rows touched since the last upload.
        var dirtyMinY = Int.max, dirtyMaxY = -1
    }

    private(set) var pages: [Page] = []
    /// Texture coordinate of an opaque white texel on page 0.
    public private(set) var whiteUV = SIMD2<Float>(0, 0)
    /// The first page's texture, whose white texel solid shapes sample.
    public var whiteTexture: TextureHandle { pages[0].texture }
    /// How many pages exist.
    public var pageCount: Int { pages.count }
    /// Glyph bitmaps rasterized so far.
    public private(set) var glyphCount = 0
    /// Pages kept at most: past it, `evictIfFull` clears the atlas (fonts rasterize again what
    /// they draw next), so text in many sizes and scripts cannot grow memory without end.
    public var maxPages = 8
    /// Bumped when the atlas is cleared: glyphs placed before are gone. Read once per text run
    /// (main actor only, never during a write: no dynamic exclusivity check).
    @exclusivity(unchecked) public private(set) var generation = 0

    /// An atlas of one page, holding the white texel solid shapes sample.
    public init() {
        addWhitePage()
    }

    /// Clears every page when there are more than `maxPages`. Call between frames (at a
    /// frame's start, before anything is drawn): the pages' GPU textures are reused.
    public func evictIfFull() {
        guard pages.count > max(1, maxPages) else { return }
        pages.removeAll()
        generation += 1
        addWhitePage()
    }

    /// Page 0, with the white block every solid shape samples.
    private func addWhitePage() {
        addPage()
        // 4×4 white block at (1,1); sample its centre so linear filtering never bleeds.
        let (_, x, y) = allocate(width: 4, height: 4)!
        for row in y..<(y + 4) {
            for col in x..<(x + 4) {
                let i = (row * Self.pageSize + col) * 4
                pages[0].pixels.replaceSubrange(i..<(i + 4), with: [255, 255, 255, 255])
            }
        }
        markDirty(page: 0, y: y, height: 4)
        let size = Float(Self.pageSize)
        whiteUV = SIMD2(Float(x + 2) / size, Float(y + 2) / size)
    }

    private func addPage() {
        let size = Self.pageSize
        let texture = TextureHandle(id: Self.pageHandleBit | UInt32(pages.count))
        pages.append(Page(texture: texture, pixels: [UInt8](repeating: 0, count: size * size * 4)))
        // A fully transparent page to start with: upload once so no stale GPU memory shows.
        markDirty(page: pages.count - 1, y: 0, height: size)
    }

    /// Finds room for a `width`×`height` bitmap (plus 1 pixel of padding), adding a page if
    /// needed; nil when the bitmap is larger than a page.
    func allocate(width: Int, height: Int) -> (page: Int, x: Int, y: Int)? {
        let size = Self.pageSize
        let w = width + 1, h = height + 1
        guard w < size, h < size else { return nil }
        var p = pages.count - 1
        if pages[p].shelfX + w > size {
            pages[p].shelfY += pages[p].shelfHeight
            pages[p].shelfX = 0
            pages[p].shelfHeight = 0
        }
        if pages[p].shelfY + h > size {
            addPage()
            p = pages.count - 1
        }
        let x = pages[p].shelfX + 1, y = pages[p].shelfY + 1
        pages[p].shelfX += w
        pages[p].shelfHeight = max(pages[p].shelfHeight, h)
        return (p, x, y)
    }

    private func markDirty(page: Int, y: Int, height: Int) {
        pages[page].dirtyMinY = min(pages[page].dirtyMinY, y)
        pages[page].dirtyMaxY = max(pages[page].dirtyMaxY, y + height - 1)
    }

    struct AtlasFull: Error, CustomStringConvertible {
        let width: Int, height: Int
        var description: String { "glyph bitmap \(width)×\(height) larger than an atlas page" }
    }

    /// Copies a glyph's straight-alpha RGBA pixels into the atlas; returns its placement.
    func insert(rgba: [UInt8], width: Int, height: Int) throws -> (texture: TextureHandle, uv0: SIMD2<Float>, uv1: SIMD2<Float>) {
        precondition(rgba.count == width * height * 4, "glyph bitmap size")
        guard let (p, x, y) = allocate(width: width, height: height) else {
            throw AtlasFull(width: width, height: height)
        }
        let size = Self.pageSize
        pages[p].pixels.withUnsafeMutableBufferPointer { dst in
            rgba.withUnsafeBufferPointer { src in
                for row in 0..<height {
                    let from = row * width * 4, to = ((y + row) * size + x) * 4
                    UnsafeMutableRawPointer(dst.baseAddress! + to).copyMemory(from: src.baseAddress! + from, byteCount: width * 4)
                }
            }
        }
        markDirty(page: p, y: y, height: height)
        glyphCount += 1
        let s = Float(size)
        return (pages[p].texture, SIMD2(Float(x) / s, Float(y) / s), SIMD2(Float(x + width) / s, Float(y + height) / s))
    }

    /// Hands every page's rows written since the last call to `upload(page, y, height, bytes)`.
    func drainDirtyRows(_ upload: (_ page: Int, _ y: Int, _ height: Int, _ rows: UnsafeRawPointer) -> Void) {
        let size = Self.pageSize
        for p in pages.indices where pages[p].dirtyMaxY >= 0 {
            let y0 = pages[p].dirtyMinY, y1 = pages[p].dirtyMaxY
            pages[p].pixels.withUnsafeBytes { raw in upload(p, y0, y1 - y0 + 1, raw.baseAddress! + y0 * size * 4) }
            pages[p].dirtyMinY = .max
            pages[p].dirtyMaxY = -1
        }
    }
}
