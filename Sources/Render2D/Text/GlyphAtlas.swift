import CSDL2
import Glibc

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
/// The lower part of page 0 holds whole lines of text composed from their glyphs (see
/// `composeLine`): a line drawn frame after frame, such as a table cell, then costs one quad
/// instead of one per glyph, on the same texture as shapes and glyphs.
///
/// The atlas is CPU memory and needs no window: fonts measure and lay out text without one.
/// Each page has a reserved `TextureHandle`; the `Renderer` creates the GPU textures and
/// uploads the blocks written since the last frame. Only glyphs are kept on the CPU, and a
/// page's rows take memory once a glyph reaches them; composed lines go from a small staging
/// buffer to the GPU and live only there.
@MainActor
public final class GlyphAtlas {
    /// The side of each page, in pixels, until composed lines need more room.
    public nonisolated static let pageSize = 1024
    /// The side pages grow to (once) when a screen's lines do not fit in page 0's line space.
    public nonisolated static let grownPageSize = 2048
    /// The side of each page now: `pageSize`, or `grownPageSize` once lines needed the room.
    public private(set) var pageSide = GlyphAtlas.pageSize
    /// Handles with this bit set name atlas pages (the low bits are the page index).
    nonisolated static let pageHandleBit: UInt32 = 0x8000_0000

    /// Rows of page 0, at its bottom, kept for composed lines: half a page to start with; on
    /// a grown page all but the top 512 rows (3 MP, room for most of a screen crowded with
    /// labels). Composed lines live only on the GPU.
    var lineRegionHeight: Int { pageSide == Self.pageSize ? 512 : pageSide - 512 }
    /// Consecutive frames in which a line found no room in the line space, after which the
    /// pages grow (fewer: a passing burst of new text, such as a fast scroll, does not).
    static let framesShortOfLineRoomToGrow = 30
    /// Pixels of composed lines written per frame at most (the rest are drawn glyph by glyph
    /// and composed in a later frame).
    static let linePixelsPerFrame = 32 * 1024

    struct Page {
        var texture: TextureHandle
        /// RGBA, `pageSide * 4` bytes a row, mapped: the rows no glyph has reached take no
        /// memory (a page is 4 MB, 16 MB grown).
        let pixels: MappedMemory
        var shelfX = 0, shelfY = 0, shelfHeight = 0
        /// Rows from the top uploaded whole at least once (glyphs, padding and the space
        /// between): a new page goes to the GPU band by band as its shelves reach it, not 4 MB
        /// (16 MB grown) in one frame.
        var rowsUploaded = 0
        /// The rectangles written since the last upload.
        var dirty: [DirtyRect] = []
    }

    /// A block of a page to upload.
    struct DirtyRect: Equatable {
        var x, y, width, height: Int
    }

    /// Blocks uploaded one by one at most per page and frame; past it, their bounds at once.
    static let maxDirtyRects = 32

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
    /// Counted in pages of `pageSize`: a grown page counts as four.
    public var maxPages = 8
    /// Bumped when the atlas is cleared: glyphs placed before are gone. Read once per text run
    /// (main actor only, never during a write: no dynamic exclusivity check).
    @exclusivity(unchecked) public private(set) var generation = 0
    /// Whether fonts compose lines drawn in consecutive frames into single quads (on by
    /// default; off draws every glyph as its own quad, as a reference).
    public var cachesLines = true
    /// Frames begun (`beginFrame`): a composed line's space is not handed on in a frame
    /// that draws it.
    @exclusivity(unchecked) public private(set) var frame = 0
    /// Lines composed into the atlas so far.
    public private(set) var linesComposed = 0
    // Read for every line drawn; main actor only, never read during a write (no dynamic
    // exclusivity check).
    @exclusivity(unchecked) private var linePixelsLeft = GlyphAtlas.linePixelsPerFrame
    @exclusivity(unchecked) private var lineShelves = LineShelves(
        left: 0, top: GlyphAtlas.pageSize / 2, width: GlyphAtlas.pageSize, height: GlyphAtlas.pageSize / 2)
    /// Rows of page 0's line space uploaded whole at least once, from its top (see
    /// `Page.rowsUploaded`): a shelf's band is uploaded when its first line is composed.
    private var lineRowsUploaded = GlyphAtlas.pageSize - GlyphAtlas.pageSize / 2
    /// Bands of the line space to upload (before the lines composed on them).
    private var lineBands: [DirtyRect] = []
    /// The line space's shelves so far, top to bottom.
    var lineShelvesInUse: [LineShelves.Shelf] { lineShelves.shelves }
    /// Whether a line found no room in this frame, and in how many frames in a row it did.
    private var shortOfLineRoom = false, framesShortOfLineRoom = 0
    /// Lines composed since the last upload, one after another (at most a frame's
    /// `linePixelsPerFrame`), and where each goes in page 0 and starts in the buffer.
    @exclusivity(unchecked) private var lineStaging = [UInt8](repeating: 0, count: GlyphAtlas.linePixelsPerFrame * 4)
    @exclusivity(unchecked) private var stagedLines: [(block: DirtyRect, offset: Int)] = []

    /// An atlas of one page, holding the white texel solid shapes sample.
    public init() {
        addWhitePage()
    }

    private func emptyLineShelves(firstEpoch: UInt32) -> LineShelves {
        LineShelves(
            left: 0, top: pageSide - lineRegionHeight, width: pageSide, height: lineRegionHeight,
            firstEpoch: firstEpoch)
    }

    /// Starts a frame (before anything of it is drawn): clears the atlas when it holds more
    /// than `maxPages`, and renews the budget for composing lines.
    ///
    /// ```swift
    /// atlas.beginFrame() // then build and draw the frame
    /// ```
    public func beginFrame() {
        frame += 1
        linePixelsLeft = Self.linePixelsPerFrame
        framesShortOfLineRoom = shortOfLineRoom ? framesShortOfLineRoom + 1 : 0
        shortOfLineRoom = false
        if framesShortOfLineRoom >= Self.framesShortOfLineRoomToGrow && pageSide < Self.grownPageSize {
            pageSide = Self.grownPageSize
            clear()
        }
        evictIfFull()
    }

    /// Clears every page when there are more than `maxPages`. Call between frames (at a
    /// frame's start, before anything is drawn): the pages' GPU textures are reused.
    public func evictIfFull() {
        let smallPagesInOne = (pageSide / Self.pageSize) * (pageSide / Self.pageSize)
        guard pages.count > max(1, maxPages / smallPagesInOne) else { return }
        clear()
    }

    /// Empties every page (fonts rasterize again what they draw next).
    private func clear() {
        pages.removeAll()
        stagedLines.removeAll()
        lineBands.removeAll()
        generation += 1
        lineShelves = emptyLineShelves(firstEpoch: lineShelves.nextFirstEpoch)
        lineRowsUploaded = lineShelves.top
        addWhitePage()
    }

    /// Page 0, with the white block every solid shape samples.
    private func addWhitePage() {
        addPage()
        // 4×4 white block at (1,1); sample its centre so linear filtering never bleeds.
        let (_, x, y) = allocate(width: 4, height: 4)!
        for row in y..<(y + 4) {
            (pages[0].pixels.bytes + (row * pageSide + x) * 4).initializeMemory(
                as: UInt8.self, repeating: 255, count: 4 * 4)
        }
        markDirty(page: 0, y: y, height: 4)
        let size = Float(pageSide)
        whiteUV = SIMD2(Float(x + 2) / size, Float(y + 2) / size)
    }

    private func addPage() {
        let size = pageSide
        let texture = TextureHandle(id: Self.pageHandleBit | UInt32(pages.count))
        pages.append(Page(texture: texture, pixels: MappedMemory(count: size * size * 4)))
    }

    /// Uploads rows `pages[p].rowsUploaded..<end` whole, once: what is drawn from a page lies
    /// in rows uploaded, transparent where nothing was written, so no texel a quad samples, nor
    /// its neighbour, is ever the GPU's uninitialized memory.
    private func uploadRows(page p: Int, below end: Int) {
        guard end > pages[p].rowsUploaded else { return }
        markDirty(page: p, y: pages[p].rowsUploaded, height: end - pages[p].rowsUploaded)
        pages[p].rowsUploaded = end
    }

    /// Finds room for a `width`×`height` bitmap (plus 1 pixel of padding), adding a page if
    /// needed; nil when the bitmap is larger than a page.
    func allocate(width: Int, height: Int) -> (page: Int, x: Int, y: Int)? {
        let size = pageSide
        let w = width + 1, h = height + 1
        guard w < size, h < size else { return nil }
        var p = pages.count - 1
        if pages[p].shelfX + w > size {
            pages[p].shelfY += pages[p].shelfHeight
            pages[p].shelfX = 0
            pages[p].shelfHeight = 0
        }
        if pages[p].shelfY + h > (p == 0 ? size - lineRegionHeight : size) {
            addPage()
            p = pages.count - 1
        }
        let x = pages[p].shelfX + 1, y = pages[p].shelfY + 1
        pages[p].shelfX += w
        pages[p].shelfHeight = max(pages[p].shelfHeight, h)
        uploadRows(page: p, below: pages[p].shelfY + pages[p].shelfHeight)
        return (p, x, y)
    }

    /// Notes a block written: a neighbour to the right of the last block on the same rows
    /// (the next glyph or line on a shelf) widens it; too many blocks become their bounds.
    private func markDirty(page: Int, x: Int = 0, y: Int, width: Int? = nil, height: Int) {
        let width = width ?? pageSide
        let block = DirtyRect(x: x, y: y, width: width, height: height)
        if var last = pages[page].dirty.last, last.y == y, x >= last.x + last.width, x <= last.x + last.width + 1 {
            last.width = x + width - last.x
            last.height = max(last.height, height)
            pages[page].dirty[pages[page].dirty.count - 1] = last
        } else if pages[page].dirty.count < Self.maxDirtyRects {
            pages[page].dirty.append(block)
        } else {
            let all = pages[page].dirty + [block]
            let x0 = all.map(\.x).min()!, y0 = all.map(\.y).min()!
            let x1 = all.map { $0.x + $0.width }.max()!, y1 = all.map { $0.y + $0.height }.max()!
            pages[page].dirty = [DirtyRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)]
        }
    }

    struct AtlasFull: Error, CustomStringConvertible {
        let width: Int, height: Int
        var description: String { "glyph bitmap \(width)×\(height) larger than an atlas page" }
    }

    /// Copies a glyph's straight-alpha RGBA pixels into the atlas; returns its placement.
    func insert(rgba: [UInt8], width: Int, height: Int) throws -> (
        texture: TextureHandle, uv0: SIMD2<Float>, uv1: SIMD2<Float>
    ) {
        precondition(rgba.count == width * height * 4, "glyph bitmap size")
        guard let (p, x, y) = allocate(width: width, height: height) else {
            throw AtlasFull(width: width, height: height)
        }
        let size = pageSide
        let page = pages[p].pixels.bytes
        rgba.withUnsafeBufferPointer { src in
            for row in 0..<height {
                (page + ((y + row) * size + x) * 4).copyMemory(
                    from: src.baseAddress! + row * width * 4, byteCount: width * 4)
            }
        }
        markDirty(page: p, x: x, y: y, width: width, height: height)
        glyphCount += 1
        let s = Float(size)
        return (pages[p].texture, SIMD2(Float(x) / s, Float(y) / s), SIMD2(Float(x + width) / s, Float(y + height) / s))
    }

    /// Hands every block of every page written since the last call to `upload(page, block,
    /// its first pixel, the bytes from one row to the next)`: glyphs from their page, lines
    /// composed this frame from the staging buffer they were composed in.
    func drainDirtyRects(_ upload: (_ page: Int, _ block: DirtyRect, _ pixels: UnsafeRawPointer, _ pitch: Int) -> Void)
    {
        let size = pageSide
        for p in pages.indices where !pages[p].dirty.isEmpty {
            for block in pages[p].dirty {
                upload(p, block, pages[p].pixels.bytes + (block.y * size + block.x) * 4, size * 4)
            }
            pages[p].dirty.removeAll(keepingCapacity: true)
        }
        for band in lineBands { upload(0, band, pages[0].pixels.bytes + (band.y * size + band.x) * 4, size * 4) }
        lineBands.removeAll(keepingCapacity: true)
        lineStaging.withUnsafeBytes { staged in
            for line in stagedLines { upload(0, line.block, staged.baseAddress! + line.offset, line.block.width * 4) }
        }
        stagedLines.removeAll(keepingCapacity: true)
    }

    // MARK: Composed lines

    /// Whether the line placed as `placement` is still in the atlas; if so, it is marked as
    /// drawn in this frame (its space is not handed on before the next).
    func touch(_ placement: LinePlacement) -> Bool {
        lineShelves.touch(placement, frame: frame)
    }

    /// Composes `run`'s glyphs (all tinted glyphs on atlas pages) into one image in page 0's
    /// line space, as drawing them one by one would blend them; nil when there is no room,
    /// this frame's budget is spent, or the run has color glyphs.
    func composeLine(_ run: GlyphRun) -> LinePlacement? {
        guard cachesLines, run.texture != nil, !run.quads.isEmpty else { return nil }
        let width = Int(run.x1 - run.x0), height = Int(run.y1 - run.y0)
        // Composed in the staging buffer and uploaded from it: page 0's line space is never
        // read on the CPU, so it takes no memory there. (The buffer is full only when lines
        // were composed in frames that were not drawn.)
        var offset = 0
        if let last = stagedLines.last { offset = last.offset + last.block.width * last.block.height * 4 }
        guard width > 0, height > 0, width * height <= linePixelsLeft, offset + width * height * 4 <= lineStaging.count
        else { return nil }
        guard let (shelf, epoch, x, y) = lineShelves.place(width: width, height: height, frame: frame) else {
            shortOfLineRoom = true
            return nil
        }
        linePixelsLeft -= width * height
        // A new shelf's band (its gaps and the rows its lines leave): uploaded from page 0's
        // rows there, never written, so transparent and taking no memory.
        // (Kept apart from the page's blocks: their bounds, when there are many, must not
        // reach lines already composed, which live only on the GPU.)
        let shelfBottom = y + lineShelves.shelves[shelf].height
        if shelfBottom > lineRowsUploaded {
            lineBands.append(
                DirtyRect(
                    x: lineShelves.left, y: lineRowsUploaded, width: lineShelves.width,
                    height: shelfBottom - lineRowsUploaded))
            lineRowsUploaded = shelfBottom
        }
        let size = pageSide
        composePixels(of: run, pages: pages, side: size, into: &lineStaging, at: offset, width: width, height: height)
        stagedLines.append((DirtyRect(x: x, y: y, width: width, height: height), offset))
        linesComposed += 1
        let s = Float(size)
        return LinePlacement(
            shelf: Int32(shelf), epoch: epoch, uv0: SIMD2(Float(x) / s, Float(y) / s),
            uv1: SIMD2(Float(x + width) / s, Float(y + height) / s))
    }
}

// Pixel work for composed lines, outside the main actor so it carries no executor check (a
// closure written in main-actor code checks the executor each time a function such as
// `withUnsafeMutableBytes` calls it).

/// Composes `run`'s glyphs from `pages` into `staging` at `offset`: a `width` × `height`
/// block, white and transparent where no glyph covers it.
private func composePixels(
    of run: GlyphRun, pages: [GlyphAtlas.Page], side size: Int, into staging: inout [UInt8], at offset: Int,
    width: Int, height: Int
) {
    staging.withUnsafeMutableBytes { staging in
        let line = UnsafeMutableRawBufferPointer(rebasing: staging[offset..<(offset + width * height * 4)])
        // white, transparent
        line.withMemoryRebound(to: UInt32.self) { $0.update(repeating: UInt32(littleEndian: 0x00FF_FFFF)) }
        for q in run.quads {
            let page = Int(q.texture.id & ~GlyphAtlas.pageHandleBit)
            guard page < pages.count else { continue }
            let from = (Int((q.uv0.y * Float(size)).rounded()), Int((q.uv0.x * Float(size)).rounded()))
            let to = (Int(q.y0 - run.y0), Int(q.x0 - run.x0))
            composeBlend(
                from: pages[page].pixels.bytes, row: from.0, column: from.1, stride: size * 4,
                into: line.baseAddress!, row: to.0, column: to.1, stride: width * 4,
                width: Int(q.x1 - q.x0), height: Int(q.y1 - q.y0))
        }
    }
}

/// Blends a block of a page's alpha over a block of a line being composed: a + d·(1 − a), as
/// blending one glyph quad after another gives. Strides are bytes from one row to the next.
private func composeBlend(
    from source: UnsafeMutableRawPointer, row sourceRow: Int, column sourceColumn: Int, stride sourceStride: Int,
    into line: UnsafeMutableRawPointer, row lineRow: Int, column lineColumn: Int, stride lineStride: Int,
    width: Int, height: Int
) {
    let s0 = source.assumingMemoryBound(to: UInt8.self) + sourceRow * sourceStride + sourceColumn * 4 + 3
    let d0 = line.assumingMemoryBound(to: UInt8.self) + lineRow * lineStride + lineColumn * 4 + 3
    for row in 0..<height {
        let s = s0 + row * sourceStride, d = d0 + row * lineStride
        for k in 0..<width {
            let a = s[k &* 4], under = d[k &* 4]
            if under == 0 || a == 255 {
                d[k &* 4] = a
                continue
            }
            d[k &* 4] = UInt8(truncatingIfNeeded: Int(a) &+ (Int(under) &* (255 &- Int(a)) &+ 127) / 255)
        }
    }
}
