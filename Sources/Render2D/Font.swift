import CSDL2
import TesseraAssets
#if canImport(Glibc)
import Glibc
#endif

/// Horizontal placement of text inside a rectangle.
public enum TextAlignment: Sendable { case leading, center, trailing }

/// Font weights shipped in `Assets/Fonts`.
public enum FontWeight: Sendable, Hashable { case regular, bold }

/// Loads the shipped fonts and hands out `Font`s by logical size and display scale.
///
/// ```swift
/// let fonts = try FontLibrary(atlas: window.renderer.atlas)
/// let body = fonts.font(size: 15, scale: 2) // rasterized at 30 px, measures in points
/// ```
@MainActor
public final class FontLibrary {
    public let atlas: GlyphAtlas
    private var paths: [FontWeight: String] = [:]
    /// Where characters the shipped fonts lack come from.
    public let fallback = FontFallback()
    private var cache: [FontKey: Font] = [:]

    struct FontKey: Hashable { let pixelSize: Int; let weight: FontWeight; let scale: Double }

    /// Opens the shipped fonts (initializing SDL_ttf if needed; no window required).
    public init(atlas: GlyphAtlas) throws {
        if TTF_WasInit() == 0, TTF_Init() != 0 {
            throw Font.OpenError(path: "(TTF_Init)", message: String(cString: SDL_GetError()))
        }
        self.atlas = atlas
        let regular = try AssetLocator.path(for: "Fonts/DejaVuSans.ttf")
        paths[.regular] = regular
        // Open the regular face once now, so a broken font fails here with a clear error.
        let body = try Font(path: regular, fallback: fallback, pixelSize: 15, scale: 1, atlas: atlas)
        cache[FontKey(pixelSize: 15, weight: .regular, scale: 1)] = body
        paths[.bold] = (try? AssetLocator.path(for: "Fonts/DejaVuSans-Bold.ttf")) ?? regular
    }

    /// Open faces kept at most; the least recently asked for goes first (the 15 px body face stays).
    public var maxOpenFonts = 32
    @exclusivity(unchecked) private var uses = 0

    /// A font of `size` logical pixels for a display with `scale` physical pixels per logical one.
    /// Fonts are cached by size, weight and scale; ask again each frame rather than keeping one.
    public func font(size: Double, weight: FontWeight = .regular, scale: Double = 1) -> Font {
        let pixelSize = min(max(1, Int(((size * scale).isFinite ? size * scale : 15).rounded())), 1024)
        let key = FontKey(pixelSize: pixelSize, weight: weight, scale: scale.isFinite ? scale : 1)
        uses &+= 1
        if let font = cache[key] {
            font.lastUse = uses
            return font
        }
        do {
            let font = try Font(path: paths[weight] ?? paths[.regular]!, fallback: fallback, pixelSize: pixelSize,
                                scale: scale, atlas: atlas)
            font.lastUse = uses
            if cache.count >= max(2, maxOpenFonts) { closeLeastRecentlyUsed() }
            cache[key] = font
            return font
        } catch {
            // The file went away or broke after start-up: keep drawing with a face already open.
            Log.error("\(error); using an already open font instead")
            let fallback = cache.values.min { abs($0.pixelSize - pixelSize) < abs($1.pixelSize - pixelSize) }!
            cache[key] = fallback
            return fallback
        }
    }

    /// Closes the least recently used face (never the body face).
    private func closeLeastRecentlyUsed() {
        let body = FontKey(pixelSize: 15, weight: .regular, scale: 1)
        guard let oldest = cache.filter({ $0.key != body }).min(by: { $0.value.lastUse < $1.value.lastUse })?.key else { return }
        cache[oldest] = nil
    }

    /// Faces open now (tests, the soak).
    public var openFonts: Int { cache.count }
}

/// One face at one pixel size. Measures in logical pixels, draws from the glyph atlas:
/// each glyph is rasterized once on first use, then every run is a few quads.
///
/// ```swift
/// font.draw("Hello", in: rect, alignment: .center, color: .white, into: &list)
/// let w = font.measure("Hello")
/// ```
@MainActor
public final class Font {
    /// When `FontLibrary` last handed it out (its eviction order).
    @exclusivity(unchecked) var lastUse = 0
    private let face: OpaquePointer
    private let fallback: FontFallback
    /// Faces of fallback fonts at this size, opened when first needed (nil: failed to open).
    @exclusivity(unchecked) private var fallbackFaces: [String: OpaquePointer?] = [:]
    private let atlas: GlyphAtlas
    /// Physical pixels per logical pixel.
    public let scale: Double
    public let pixelSize: Int
    /// Ascent, descent (positive) and line height in logical pixels.
    public let ascent: Double
    public let descent: Double
    public let lineHeight: Double
    /// Glyphs rasterized for this font.
    public private(set) var glyphsRasterized = 0

    // The glyph and kerning caches are read on every text run. `Font` is main-actor
    // confined and `layoutRun` drops its local copies before the slow path writes them, so
    // overlapping access cannot happen; the dynamic exclusivity checks (about 10 % of a
    // table frame) are turned off for these properties only.
    /// The atlas generation the cached glyphs were placed in (see `GlyphAtlas.evictIfFull`).
    @exclusivity(unchecked) private var atlasGeneration = 0
    @exclusivity(unchecked) private var asciiGlyphs = [AtlasGlyph?](repeating: nil, count: 128)
    @exclusivity(unchecked) private var otherGlyphs: [UInt32: AtlasGlyph] = [:]
    /// Direct-mapped cache in front of `otherGlyphs` (and of `otherKerning` below): a repeated
    /// non-ASCII character (★, é, …) costs an array read, not a hash lookup.
    @exclusivity(unchecked) private var recentGlyphs = [(scalar: UInt32, glyph: AtlasGlyph)?](repeating: nil, count: 256)
    /// Kerning between ASCII pairs in pixels; `Int8.min` = not looked up yet.
    @exclusivity(unchecked) private var asciiKerning = [Int8](repeating: Int8.min, count: 128 * 128)
    @exclusivity(unchecked) private var otherKerning: [UInt64: Int16] = [:]
    @exclusivity(unchecked) private var recentKerning = [(key: UInt64, value: Int16)?](repeating: nil, count: 512)
    /// Lines laid out before, in sets of two picked by a hash of their bytes (the one used
    /// less recently makes room): a table redraws the same cell strings frame after frame,
    /// and a cached run skips the per-glyph lookups and kerning. Short lines only; cleared
    /// when the atlas moves glyphs. (A `Dictionary` keyed by `String` costs more than it
    /// saves: String hashing normalizes.)
    @exclusivity(unchecked) private var runs = [CachedRun?](repeating: nil, count: 2 * Font.runSets)
    /// Per set, the way used last.
    @exclusivity(unchecked) private var runRecent = [UInt8](repeating: 0, count: Font.runSets)
    static let runSets = 4096, cachedRunLength = 64
    private let hasKerning: Bool
    private let replacement: UInt32
    /// The atlas page that holds the white texel (page 0 never changes).
    private let firstPage: TextureHandle

    struct OpenError: Error, CustomStringConvertible {
        let path: String
        let message: String
        var description: String { "TTF_OpenFont(\(path)): \(message)" }
    }

    init(path: String, fallback: FontFallback, pixelSize: Int, scale: Double, atlas: GlyphAtlas) throws {
        guard let face = TTF_OpenFont(path, Int32(pixelSize)) else {
            throw OpenError(path: path, message: String(cString: SDL_GetError()))
        }
        TTF_SetFontHinting(face, TTF_HINTING_LIGHT)
        TTF_SetFontKerning(face, 1)
        self.face = face
        self.fallback = fallback
        self.atlas = atlas
        self.scale = scale
        self.pixelSize = pixelSize
        ascent = Double(TTF_FontAscent(face)) / scale
        descent = Double(-TTF_FontDescent(face)) / scale
        lineHeight = Double(TTF_FontHeight(face)) / scale
        hasKerning = TTF_GetFontKerning(face) != 0
        replacement = TTF_GlyphIsProvided32(face, 0xFFFD) != 0 ? 0xFFFD : 0x3F
        firstPage = atlas.whiteTexture
    }

    isolated deinit {
        TTF_CloseFont(face)
        for case let f? in fallbackFaces.values { TTF_CloseFont(f) }
    }

    // MARK: Glyphs

    @inline(__always)
    private func glyph(_ scalar: UInt32) -> AtlasGlyph {
        if atlasGeneration != atlas.generation { forgetGlyphs() }
        if scalar < 128 {
            if let g = asciiGlyphs[Int(scalar)] { return g }
            let g = rasterize(scalar)
            asciiGlyphs[Int(scalar)] = g
            return g
        }
        let slot = Int(scalar & 255)
        if let recent = recentGlyphs[slot], recent.scalar == scalar { return recent.glyph }
        let g = otherGlyphs[scalar] ?? rasterize(scalar)
        otherGlyphs[scalar] = g
        recentGlyphs[slot] = (scalar, g)
        return g
    }

    /// Whether the font or one of its fallbacks has a glyph for `scalar` (else it draws the
    /// replacement glyph).
    public func provides(_ scalar: Unicode.Scalar) -> Bool {
        faceFor(scalar.value).1 == scalar.value
    }

    /// The atlas was cleared: every glyph is rasterized again when next drawn.
    private func forgetGlyphs() {
        atlasGeneration = atlas.generation
        runs = [CachedRun?](repeating: nil, count: 2 * Self.runSets)
        asciiGlyphs = [AtlasGlyph?](repeating: nil, count: 128)
        otherGlyphs.removeAll()
        recentGlyphs = [(scalar: UInt32, glyph: AtlasGlyph)?](repeating: nil, count: 256)
    }

    /// Picks the face that has `scalar`: this one, else the installed font fontconfig finds
    /// for it, else this one's replacement glyph.
    private func faceFor(_ scalar: UInt32) -> (OpaquePointer, UInt32) {
        if TTF_GlyphIsProvided32(face, scalar) != 0 { return (face, scalar) }
        if let path = fallback.path(for: scalar), let f = fallbackFace(path), TTF_GlyphIsProvided32(f, scalar) != 0 {
            return (f, scalar)
        }
        return (face, replacement)
    }

    private func fallbackFace(_ path: String) -> OpaquePointer? {
        if let known = fallbackFaces[path] { return known }
        let opened = TTF_OpenFont(path, Int32(pixelSize))
        if opened == nil { Log.warn("fallback font \(path): \(String(cString: SDL_GetError()))") }
        if let opened {
            TTF_SetFontHinting(opened, TTF_HINTING_LIGHT)
        }
        fallbackFaces[path] = .some(opened)
        return opened
    }

    private func rasterize(_ scalar: UInt32) -> AtlasGlyph {
        glyphsRasterized += 1
        let (f, ch) = faceFor(scalar)
        var minx: Int32 = 0, maxx: Int32 = 0, miny: Int32 = 0, maxy: Int32 = 0, advance: Int32 = 0
        TTF_GlyphMetrics32(f, ch, &minx, &maxx, &miny, &maxy, &advance)
        var g = AtlasGlyph(texture: atlas.whiteTexture, uv0: .zero, uv1: .zero, offsetX: 0, offsetY: 0,
                           width: 0, height: 0, advance: Float(advance))
        // Whitespace and control characters have no bitmap.
        guard scalar > 0x20, maxx > minx || maxy > miny,
              let surface = TTF_RenderGlyph32_Blended(f, ch, SDL_Color(r: 255, g: 255, b: 255, a: 255))
        else { return g }
        defer { SDL_FreeSurface(surface) }
        // Crop to the covered pixels: the surface is one line tall, with the pen at x = min(0, minx).
        let w = Int(surface.pointee.w), h = Int(surface.pointee.h)
        let rowStride = Int(surface.pointee.pitch) / 4
        let px = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        var x0 = w, y0 = h, x1 = -1, y1 = -1
        for y in 0..<h {
            for x in 0..<w where px[y * rowStride + x] >> 24 != 0 {
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        guard x1 >= x0, y1 >= y0 else { return g }
        let cw = x1 - x0 + 1, ch2 = y1 - y0 + 1
        // A different face may have a different ascent: align baselines.
        let baselineShift = TTF_FontAscent(face) - TTF_FontAscent(f)
        do {
            let placed = try atlas.insert(surface: surface, cropX: x0, cropY: y0, width: cw, height: ch2)
            g.texture = placed.texture
            g.uv0 = placed.uv0
            g.uv1 = placed.uv1
            g.offsetX = Float(x0) + Float(min(0, minx))
            g.offsetY = Float(y0) + Float(baselineShift)
            g.width = Float(cw)
            g.height = Float(ch2)
        } catch {
            Log.error("glyph U+\(String(scalar, radix: 16)) not added to the atlas: \(error)")
        }
        return g
    }

    @inline(__always)
    private func kerning(_ a: UInt32, _ b: UInt32) -> Float {
        guard hasKerning, a != 0 else { return 0 }
        if a < 128 && b < 128 {
            let i = Int(a) &* 128 &+ Int(b)
            var k = asciiKerning[i]
            if k == Int8.min {
                k = Int8(clamping: TTF_GetFontKerningSizeGlyphs32(face, a, b))
                asciiKerning[i] = k
            }
            return Float(k)
        }
        let key = UInt64(a) << 32 | UInt64(b)
        let slot = Int((a &* 31 &+ b) & 511)
        if let recent = recentKerning[slot], recent.key == key { return Float(recent.value) }
        let k = otherKerning[key] ?? Int16(clamping: TTF_GetFontKerningSizeGlyphs32(face, a, b))
        otherKerning[key] = k
        recentKerning[slot] = (key, k)
        return Float(k)
    }

    // MARK: Measuring

    /// Width of `text` in logical pixels.
    public func measure(_ text: String) -> Double {
        Double(run(text).advance) / scale
    }

    /// `text` laid out: from the run cache, or laid out now (and cached when short).
    private func run(_ text: String) -> GlyphRun {
        if atlasGeneration != atlas.generation { forgetGlyphs() }
        let set = text.utf8.count <= Self.cachedRunLength ? Self.runSet(text) : nil
        if let set {
            for way in 0..<2 {
                if let cached = runs[2 * set + way], cached.text == text {
                    runRecent[set] = UInt8(way)
                    return cached.run
                }
            }
        }
        var quads: [GlyphRun.Quad] = []
        quads.reserveCapacity(text.utf8.count)
        let advance = layoutRun(text) { g, pen in
            guard g.width > 0 else { return }
            let x = pen + g.offsetX
            quads.append(GlyphRun.Quad(x0: x, y0: g.offsetY, x1: x + g.width, y1: g.offsetY + g.height, uv0: g.uv0, uv1: g.uv1,
                                       texture: g.texture))
        }
        let run = GlyphRun(quads: quads, advance: advance)
        if let set, atlasGeneration == atlas.generation { // (not if the atlas moved glyphs meanwhile)
            let way = 1 - Int(runRecent[set])
            runs[2 * set + way] = CachedRun(text: text, run: run)
            runRecent[set] = UInt8(way)
        }
        return run
    }

    /// The cache set of `text`: FNV-1a of its UTF-8.
    private static func runSet(_ text: String) -> Int {
        let hash = fnv1a(text)
        return Int(hash ^ (hash >> 16)) & (runSets - 1)
    }

    /// Walks `text` glyph by glyph with kerning, calling `body` with each glyph and its pen
    /// position (physical pixels from the run's start); returns the run's advance.
    ///
    /// The ASCII glyph and kerning tables are read through locals: reading a class's array
    /// property costs a dynamic exclusivity check per access, which showed as 11 % of a table
    /// frame. On a miss the tables are released before the slow path writes them (no copy).
    @inline(__always)
    private func layoutRun(_ text: String, _ body: (AtlasGlyph, Float) -> Void) -> Float {
        if atlasGeneration != atlas.generation { forgetGlyphs() } // before the table is copied
        var glyphs = asciiGlyphs
        var pairs = asciiKerning
        let kerns = hasKerning
        var pen: Float = 0
        var previous: UInt32 = 0
        forEachScalar(text) { scalar in
            if kerns && previous != 0 {
                if scalar < 128 && previous < 128 {
                    let k = pairs[Int(previous) &* 128 &+ Int(scalar)]
                    if k != Int8.min {
                        pen += Float(k)
                    } else {
                        pairs = []
                        pen += kerning(previous, scalar)
                        pairs = asciiKerning
                    }
                } else {
                    pen += kerning(previous, scalar)
                }
            }
            let g: AtlasGlyph
            if scalar < 128, let cached = glyphs[Int(scalar)] {
                g = cached
            } else if scalar < 128 {
                glyphs = []
                g = glyph(scalar)
                glyphs = asciiGlyphs
            } else {
                g = glyph(scalar)
            }
            body(g, pen)
            pen += g.advance
            previous = scalar
        }
        return pen
    }

    /// Logical x offset of every character boundary: `[0, after 1st, after 2nd, ...]`, one
    /// entry per Unicode scalar plus one (used for caret placement and hit testing).
    public func caretOffsets(_ text: String) -> [Double] {
        var result: [Double] = [0]
        _ = layoutRun(text) { g, pen in result.append(Double(pen + g.advance) / scale) }
        return result
    }

    /// `text` shortened with a trailing "…" so it fits `width` logical pixels (unchanged if it fits).
    public func truncated(_ text: String, toWidth width: Double) -> String {
        if measure(text) <= width { return text }
        let ellipsis = "…"
        let budget = width - measure(ellipsis)
        guard budget > 0 else { return measure(ellipsis) <= width ? ellipsis : "" }
        var pen: Float = 0
        var previous: UInt32 = 0
        var fitted = text.unicodeScalars.startIndex
        for index in text.unicodeScalars.indices {
            let s = text.unicodeScalars[index].value
            pen += kerning(previous, s) + glyph(s).advance
            previous = s
            if Double(pen) / scale > budget { break }
            fitted = text.unicodeScalars.index(after: index)
        }
        var result = String(text.unicodeScalars[..<fitted])
        while result.last == " " { result.removeLast() }
        return result + ellipsis
    }

    // MARK: Drawing

    /// Draws one line of text with its top-left at `origin` (logical). Returns the logical advance.
    @discardableResult
    public func draw(_ text: String, at origin: Point, color: Color, into list: inout DrawList) -> Double {
        let start = Float((origin.x * list.scale).rounded())
        let top = Float((origin.y * list.scale).rounded())
        let sdlColor = SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a)
        let run = self.run(text)
        list.withQuadSink(maxQuads: run.quads.count, texture: firstPage) { sink in sink.add(run, dx: start, dy: top, color: sdlColor) }
        return Double(run.advance) / list.scale
    }

    /// Draws one line in `rect`, vertically centred, aligned horizontally, truncated with "…"
    /// when `truncate` is set and it does not fit.
    public func draw(_ text: String, in rect: Rect, alignment: TextAlignment = .leading, color: Color,
                     truncate: Bool = true, into list: inout DrawList) {
        let y = rect.minY + (rect.height - lineHeight) / 2
        if alignment == .leading {
            // One pass for the common case: draw, and redo truncated only if it overflowed.
            let mark = list.mark
            if draw(text, at: Point(rect.minX, y), color: color, into: &list) <= rect.width || !truncate { return }
            list.truncate(to: mark)
            draw(truncated(text, toWidth: rect.width), at: Point(rect.minX, y), color: color, into: &list)
            return
        }
        var line = text
        var width = measure(text)
        if truncate && width > rect.width {
            line = truncated(text, toWidth: rect.width)
            width = measure(line)
        }
        let x = alignment == .center ? rect.minX + (rect.width - width) / 2 : rect.maxX - width
        draw(line, at: Point(x, y), color: color, into: &list)
    }
}

/// Calls `body` with each Unicode scalar of `text`, decoding its UTF-8 directly (fast for
/// the ASCII common case).
@inline(__always)
func forEachScalar(_ text: String, _ body: (UInt32) -> Void) {
    var text = text
    text.withUTF8 { bytes in decodeUTF8(bytes, body) }
}

@inline(__always)
private func decodeUTF8(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UInt32) -> Void) {
    var i = bytes.startIndex
    let end = bytes.endIndex
    while i < end {
        let b0 = UInt32(bytes[i])
        if b0 < 0x80 { body(b0); i += 1; continue }
        var need = 0, value: UInt32 = 0
        if b0 & 0xE0 == 0xC0 { need = 1; value = b0 & 0x1F }
        else if b0 & 0xF0 == 0xE0 { need = 2; value = b0 & 0x0F }
        else if b0 & 0xF8 == 0xF0 { need = 3; value = b0 & 0x07 }
        else { body(0xFFFD); i += 1; continue }
        guard i + need < end else { body(0xFFFD); return }
        for k in 1...need { value = value << 6 | (UInt32(bytes[i + k]) & 0x3F) }
        body(value)
        i += need + 1
    }
}

/// One line laid out: each visible glyph's quad from the pen's start (physical pixels), the
/// line's advance, the quads' bounds, and their texture when they share one.
struct GlyphRun {
    struct Quad {
        var x0, y0, x1, y1: Float
        var uv0, uv1: SIMD2<Float>
        var texture: TextureHandle
    }
    let quads: [Quad]
    let advance: Float
    let x0, y0, x1, y1: Float
    let texture: TextureHandle?

    init(quads: [Quad], advance: Float) {
        self.quads = quads
        self.advance = advance
        var (x0, y0, x1, y1): (Float, Float, Float, Float) = (.infinity, .infinity, -.infinity, -.infinity)
        var texture = quads.first?.texture
        for q in quads {
            x0 = min(x0, q.x0); y0 = min(y0, q.y0); x1 = max(x1, q.x1); y1 = max(y1, q.y1)
            if q.texture != texture { texture = nil }
        }
        (self.x0, self.y0, self.x1, self.y1, self.texture) = (x0, y0, x1, y1, texture)
    }
}

/// A run cache slot: the line's text and its layout.
struct CachedRun {
    let text: String
    let run: GlyphRun
}

/// FNV-1a of `text`'s UTF-8, read in place. (Outside `Font`, so the closure is not
/// main-actor isolated: an isolated one is checked at run time on every call.)
private func fnv1a(_ text: String) -> UInt32 {
    func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }
    return text.utf8.withContiguousStorageIfAvailable(hash) ?? hash(text.utf8)
}
