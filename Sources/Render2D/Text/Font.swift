import CSDL2
import TesseraAssets
#if canImport(Glibc)
    import Glibc
#endif

/// Horizontal placement of text inside a rectangle.
public enum TextAlignment: Sendable {
    /// At the start of the line (the left, for left-to-right text).
    case leading
    /// Centred.
    case center
    /// At the end of the line.
    case trailing
}

/// Where a line too long for its space is cut and "…" put in place of what is left out, as
/// SwiftUI's `Text.TruncationMode` (in reading order).
public enum TruncationMode: Sendable {
    /// Keeps the end: "…IMG_0001.jpg".
    case head
    /// Keeps both ends: "/photo…001.jpg", for paths and file names.
    case middle
    /// Keeps the start: "/photos/Trip 2…".
    case tail
}

/// A line cut to fit (`Font.cut(_:toWidth:mode:)`): what is shown, the text's first `head`
/// scalars, "…" and its last ones, with the `hidden` scalars between them left out.
package struct TextCut: Sendable {
    /// The text as drawn: "" when not even "…" fits.
    package var shown: String
    package var head: Int
    package var hidden: Int

    /// The offset in the whole text of the caret at `offset` in `shown` (after "…": where the
    /// kept end starts).
    package func textOffset(_ offset: Int) -> Int { offset <= head ? offset : offset - 1 + hidden }

    /// The offset in `shown` of the caret at `offset` in the whole text: a caret among the
    /// hidden scalars is before "…" as a selection's start, after it as its end.
    package func shownOffset(_ offset: Int, asEnd: Bool) -> Int {
        let shownCount = shown.unicodeScalars.count
        if offset <= head { return min(offset, shownCount) }
        if offset >= head + hidden { return min(offset - hidden + 1, shownCount) }
        return min(asEnd ? head + 1 : head, shownCount)
    }
}

/// Font weights shipped in `Assets/Fonts`.
public enum FontWeight: Sendable, Hashable {
    /// The body weight.
    case regular
    /// Bold.
    case bold
}

/// Loads the shipped fonts and hands out `Font`s by logical size and display scale.
///
/// ```swift
/// let fonts = try FontLibrary(atlas: window.renderer.atlas)
/// let body = fonts.font(size: 15, scale: 2) // rasterized at 30 px, measures in points
/// ```
@MainActor
public final class FontLibrary {
    /// The atlas every font of the library rasterizes into.
    public let atlas: GlyphAtlas
    private var paths: [FontWeight: String] = [:]
    /// Where characters the shipped fonts lack come from.
    public let fallback: FontFallback
    private var cache: [FontKey: Font] = [:]

    /// `weight` nil: the icon font.
    struct FontKey: Hashable {
        let pixelSize: Int
        let weight: FontWeight?
        let scale: Double
    }

    /// Opens the shipped fonts (no window required).
    public init(atlas: GlyphAtlas) throws {
        self.atlas = atlas
        fallback = FontFallback()
        let regular = try AssetLocator.path(for: "Fonts/DejaVuSans.ttf")
        paths[.regular] = regular
        // Open the regular face once now, so a broken font fails here with a clear error.
        let body = try Font(path: regular, fallback: fallback, pixelSize: 15, scale: 1, atlas: atlas)
        cache[FontKey(pixelSize: 15, weight: .regular, scale: 1)] = body
        paths[.bold] = (try? AssetLocator.path(for: "Fonts/DejaVuSans-Bold.ttf")) ?? regular
    }

    /// A library for another renderer's `atlas` that shares `other`'s font files, the installed
    /// fonts it found for fallback and its icon font: a second window looks nothing up again.
    /// Glyphs are rasterized into each atlas (an SDL renderer cannot sample another's textures).
    ///
    /// ```swift
    /// let fonts = FontLibrary(atlas: second.renderer.atlas, sharingFilesWith: first.ui.fonts)
    /// ```
    public init(atlas: GlyphAtlas, sharingFilesWith other: FontLibrary) {
        self.atlas = atlas
        paths = other.paths
        fallback = other.fallback
        icons = other.icons
    }

    /// The font file `weight` is drawn from: Tessera's own fonts, found beside the executable
    /// (SwiftPM's resource bundle), in `$TESSERA_ASSETS`, or in the system's DejaVu fonts.
    public func path(of weight: FontWeight) -> String? { paths[weight] }

    /// Material Icons, when installed (`fonts-material-design-icons-iconfont`); nil, with one
    /// logged line, when it is not.
    public private(set) lazy var icons: IconFont? = {
        do { return try IconFont() } catch {
            Log.error(
                "Material Icons are not installed (apt-get install fonts-material-design-icons-iconfont): \(error); named icons draw as boxes"
            )
            return nil
        }
    }()

    /// The icon font at `size` logical pixels (an icon is about as wide and tall as its size),
    /// nil when Material Icons are not installed.
    public func iconFont(size: Double, scale: Double = 1) -> Font? {
        guard let icons else { return nil }
        return font(size: size, weight: nil, scale: scale) { icons.path }
    }

    /// Open faces kept at most; the least recently asked for goes first (the 15 px body face stays).
    public var maxOpenFonts = 32
    @exclusivity(unchecked) private var uses = 0

    /// A font of `size` logical pixels for a display with `scale` physical pixels per logical one.
    /// Fonts are cached by size, weight and scale; ask again each frame rather than keeping one.
    public func font(size: Double, weight: FontWeight = .regular, scale: Double = 1) -> Font {
        font(size: size, weight: weight, scale: scale) { paths[weight] ?? paths[.regular]! }
    }

    /// The faces asked for last, newest first: a frame asks for a handful of them over and
    /// over, and comparing keys costs less than hashing one. (Main actor only, never read
    /// while it is written: no dynamic exclusivity check, which cost as much as the lookup.)
    @exclusivity(unchecked) private var recent: [(key: FontKey, font: Font)] = []

    private func font(size: Double, weight: FontWeight?, scale: Double, path: () -> String) -> Font {
        let pixelSize = min(max(1, Int(((size * scale).isFinite ? size * scale : 15).rounded())), 1024)
        let key = FontKey(pixelSize: pixelSize, weight: weight, scale: scale.isFinite ? scale : 1)
        uses &+= 1
        // A loop, not `firstIndex(where:)`: a main-actor closure handed to the standard
        // library checks the executor at each call (about 200 instructions; half this lookup).
        var hit = 0
        while hit < recent.count {
            if recent[hit].key == key {
                let font = recent[hit].font
                font.lastUse = uses
                if hit > 0 { recent.swapAt(hit, hit - 1) }
                return font
            }
            hit += 1
        }
        if let font = cache[key] {
            font.lastUse = uses
            remember(key, font)
            return font
        }
        do {
            let font = try Font(
                path: path(), fallback: fallback, pixelSize: pixelSize,
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

    /// Puts `font` among the `recent` ones, halfway down (it moves up as it is asked for
    /// again), dropping the last one.
    private func remember(_ key: FontKey, _ font: Font) {
        if recent.count == 6 { recent.removeLast() }
        recent.insert((key, font), at: recent.count / 2)
    }

    /// Closes the least recently used face (never the body face).
    private func closeLeastRecentlyUsed() {
        let body = FontKey(pixelSize: 15, weight: .regular, scale: 1)
        guard let oldest = cache.filter({ $0.key != body }).min(by: { $0.value.lastUse < $1.value.lastUse })?.key else {
            return
        }
        cache[oldest] = nil
        recent.removeAll { $0.key == oldest }
    }

    /// Faces open now (tests, the soak).
    public var openFonts: Int { cache.count }
}

/// One font at one pixel size, with the installed fonts it falls back to. Lines are shaped
/// with HarfBuzz (ligatures, kerning, joining forms, marks) in bidirectional visual order;
/// each glyph is rasterized once into the atlas, then every line is a few quads. Measures in
/// logical pixels.
///
/// ```swift
/// font.draw("Hello", in: rect, alignment: .center, color: .white, into: &list)
/// let w = font.measure("Hello")
/// ```
@MainActor
public final class Font {
    /// When `FontLibrary` last handed it out (its eviction order).
    @exclusivity(unchecked) var lastUse = 0
    /// Face 0 is this font's own; the others are fallbacks, opened when first needed.
    private(set) var faces: [FontFace]
    private var fallbackSlots: [String: Int?] = [:]
    private let fallback: FontFallback
    private let atlas: GlyphAtlas
    /// Physical pixels per logical pixel.
    public let scale: Double
    /// The size the font is rasterized at, in physical pixels.
    public let pixelSize: Int
    /// The ascent above the baseline, in logical pixels.
    public let ascent: Double
    /// The descent below the baseline, in logical pixels (positive).
    public let descent: Double
    /// The distance between baselines, in logical pixels.
    public let lineHeight: Double
    /// Glyphs rasterized for this font.
    public private(set) var glyphsRasterized = 0
    /// The primary face's glyph for U+FFFD (else "?"), drawn for characters no font has.
    let replacementGlyph: UInt32

    // The caches are read on every text run. `Font` is main-actor confined and no cache is
    // read while another is written, so the dynamic exclusivity checks (about 10 % of a
    // table frame) are turned off for these properties only.
    /// The atlas generation the cached glyphs were placed in (see `GlyphAtlas.evictIfFull`).
    @exclusivity(unchecked) private var atlasGeneration = 0
    /// Glyphs placed in the atlas, by face and glyph index; nil for a glyph with no bitmap
    /// (a space), so it is not rasterized again for every line that holds one.
    @exclusivity(unchecked) private var glyphs: [UInt64: AtlasGlyph?] = [:]
    /// Lines laid out before, in sets of four picked by a hash of their bytes (the least
    /// recently used makes room): a table redraws the same cell strings frame after frame,
    /// and a cached run skips shaping. Four ways, because with two a few sets holding three
    /// of a frame's strings missed on every frame. Short lines only; cleared when the atlas
    /// moves glyphs. (A `Dictionary` keyed by `String` costs more than it saves: String
    /// hashing normalizes.)
    @exclusivity(unchecked) private var runSlots = [RunSlot](repeating: RunSlot(), count: Font.runWays * Font.runSets)
    @exclusivity(unchecked) private var runClock: UInt32 = 0
    static let runSets = 4096, runWays = 4, cachedRunLength = 64
    /// Truncations computed before, by text and width (cleared when it grows past 4,096).
    private var truncations: [TruncationKey: TextCut] = [:]
    private struct TruncationKey: Hashable {
        let text: String
        let width: Double
        let mode: TruncationMode
    }
    /// The atlas page that holds the white texel (page 0 never changes).
    private let firstPage: TextureHandle
    /// Printable ASCII in this font's own face: each character's glyph (0: none) and
    /// advance, and per pair the kerning HarfBuzz applies between them (NaN: not asked yet;
    /// infinity: the pair is substituted, a ligature such as "fi", so the line is shaped).
    /// Lines of such characters are laid out from these tables, as HarfBuzz would lay them
    /// out, without shaping them (`simpleLine`).
    @exclusivity(unchecked) private var asciiGlyphs = [UInt32](repeating: 0, count: 128)
    @exclusivity(unchecked) private var asciiAdvances = [Float](repeating: 0, count: 128)
    @exclusivity(unchecked) private var asciiPairs = [Float](repeating: .nan, count: 128 * 128)

    init(path: String, fallback: FontFallback, pixelSize: Int, scale: Double, atlas: GlyphAtlas) throws {
        let face = try FontFace(path: path, pixelSize: pixelSize)
        faces = [face]
        self.fallback = fallback
        self.atlas = atlas
        self.scale = scale
        self.pixelSize = pixelSize
        ascent = Double(face.ascent) / scale
        descent = Double(face.descent) / scale
        lineHeight = Double(face.height) / scale
        let replacement = face.glyphIndex(0xFFFD)
        replacementGlyph = replacement != 0 ? replacement : face.glyphIndex(0x3F)
        firstPage = atlas.whiteTexture
        for c in 0x20..<0x7F {
            asciiGlyphs[c] = face.glyphIndex(UInt32(c))
            asciiAdvances[c] = Float(hb_font_get_glyph_h_advance(face.shaper, asciiGlyphs[c])) / 64
        }
    }

    // MARK: Faces and glyphs

    /// Whether the font or one of its fallbacks has a glyph for `scalar` (else it draws the
    /// replacement glyph).
    public func provides(_ scalar: Unicode.Scalar) -> Bool {
        faces[faceIndex(for: scalar.value)].glyphIndex(scalar.value) != 0
    }

    /// The face that has `scalar`: this font's, else the installed font fontconfig finds for
    /// it, else this font's (which draws the replacement glyph).
    func faceIndex(for scalar: UInt32) -> Int {
        if faces[0].glyphIndex(scalar) != 0 { return 0 }
        guard let path = fallback.path(for: scalar) else { return 0 }
        if let known = fallbackSlots[path] { return known ?? 0 }
        do {
            faces.append(try FontFace(path: path, pixelSize: pixelSize))
            fallbackSlots[path] = faces.count - 1
            return faces.count - 1
        } catch {
            Log.warn("fallback font: \(error)")
            fallbackSlots[path] = .some(nil)
            return 0
        }
    }

    /// The atlas was cleared: every glyph is rasterized again when next drawn.
    private func forgetGlyphs() {
        atlasGeneration = atlas.generation
        runSlots = [RunSlot](repeating: RunSlot(), count: Self.runWays * Self.runSets)
        glyphs.removeAll()
    }

    private func atlasGlyph(face: Int, glyph: UInt32) -> AtlasGlyph? {
        let key = UInt64(face) << 32 | UInt64(glyph)
        if let known = glyphs[key] { return known }
        glyphsRasterized += 1
        var placed: AtlasGlyph?
        if let bitmap = faces[face].rasterize(glyph) {
            do {
                let at = try atlas.insert(rgba: bitmap.pixels, width: bitmap.width, height: bitmap.height)
                // Every face draws on this font's baseline.
                placed = AtlasGlyph(
                    texture: at.texture, uv0: at.uv0, uv1: at.uv1, offsetX: Float(bitmap.left),
                    offsetY: Float(faces[0].ascent - bitmap.top), width: Float(bitmap.width),
                    height: Float(bitmap.height), colored: bitmap.colored)
            } catch {
                Log.error("glyph \(glyph) of \(faces[face].path) not added to the atlas: \(error)")
            }
        }
        glyphs[key] = .some(placed)
        return placed
    }

    // MARK: Laying out

    /// `text` laid out: printable ASCII without substituted pairs from the tables, all else
    /// shaped.
    func layOut(_ text: String) -> ShapedLine {
        simpleLine(text) ?? shape(text)
    }

    /// A line of printable ASCII this font has, with no pair that HarfBuzz substitutes, laid
    /// out from the glyph, advance and pair-kerning tables; nil for any other line.
    func simpleLine(_ text: String) -> ShapedLine? {
        let count = text.utf8.count
        var glyphs: [ShapedGlyph] = []
        glyphs.reserveCapacity(count)
        var scalars: [UInt32] = []
        scalars.reserveCapacity(count)
        var pen: Float = 0
        for byte in text.utf8 {
            let c = Int(byte)
            guard c >= 0x20, c < 0x7F, asciiGlyphs[c] != 0 else { return nil }
            if let last = scalars.last {
                let kerning = pairKerning(Int(last), c)
                guard kerning.isFinite else { return nil }
                glyphs[glyphs.count - 1].advance += kerning
                pen += kerning
            }
            glyphs.append(
                ShapedGlyph(
                    face: 0, glyph: asciiGlyphs[c], cluster: scalars.count, pen: pen, dx: 0, dy: 0,
                    advance: asciiAdvances[c], rightToLeft: false))
            pen += asciiAdvances[c]
            scalars.append(UInt32(c))
        }
        return ShapedLine(scalars: scalars, glyphs: glyphs, advance: pen)
    }

    /// The kerning HarfBuzz puts between ASCII characters `a` and `b` (shaped once as a pair),
    /// or infinity when it substitutes or moves them otherwise.
    private func pairKerning(_ a: Int, _ b: Int) -> Float {
        let known = asciiPairs[a &* 128 &+ b]
        if !known.isNaN { return known }
        let pair = shape(String(decoding: [UInt8(a), UInt8(b)], as: UTF8.self)).glyphs
        var kerning = Float.infinity
        if pair.count == 2, pair[0].glyph == asciiGlyphs[a], pair[1].glyph == asciiGlyphs[b], pair[0].face == 0,
            pair[0].dx == 0, pair[0].dy == 0, pair[1].dx == 0, pair[1].dy == 0, pair[1].advance == asciiAdvances[b]
        {
            kerning = pair[0].advance - asciiAdvances[a]
        }
        asciiPairs[a &* 128 &+ b] = kerning
        return kerning
    }

    // MARK: Measuring

    /// Width of `text` in logical pixels.
    public func measure(_ text: String) -> Double {
        Double(lookUp(text).run.advance) / scale
    }

    /// `measure(text)` and `readsRightToLeft(text)` with one lookup of the line.
    public func measureLine(_ text: String) -> (width: Double, readsRightToLeft: Bool) {
        let run = lookUp(text).run
        return (Double(run.advance) / scale, run.rightToLeft)
    }

    /// `text` laid out: the run cache's entry, or laid out now (and cached when short; an
    /// entry not cached is never composed).
    private func lookUp(_ text: String) -> CachedRun {
        if atlasGeneration != atlas.generation { forgetGlyphs() }
        // (No closure here: one isolated to the main actor costs an executor check per call.)
        let hash: UInt32? = text.utf8.count <= Self.cachedRunLength ? fnv1a(text) : nil
        var set: Int?
        if let hash { set = Int(hash ^ (hash >> 16)) & (Self.runSets - 1) }
        runClock &+= 1
        if let set, let hash {
            for slot in (Self.runWays * set)..<(Self.runWays * set + Self.runWays) where runSlots[slot].hash == hash {
                if let cached = runSlots[slot].entry, cached.text == text {
                    runSlots[slot].use = runClock
                    return cached
                }
            }
        }
        let line = layOut(text)
        var quads: [GlyphRun.Quad] = []
        quads.reserveCapacity(line.glyphs.count)
        for g in line.glyphs {
            guard let a = atlasGlyph(face: g.face, glyph: g.glyph) else { continue }
            let x = (g.pen + g.dx).rounded() + a.offsetX, y = g.dy.rounded() + a.offsetY
            quads.append(
                GlyphRun.Quad(
                    x0: x, y0: y, x1: x + a.width, y1: y + a.height, uv0: a.uv0, uv1: a.uv1,
                    texture: a.texture, colored: a.colored))
        }
        let entry = CachedRun(
            text: text, run: GlyphRun(quads: quads, advance: line.advance, rightToLeft: line.rightToLeft))
        if let set, let hash, atlasGeneration == atlas.generation {  // (not if the atlas moved glyphs meanwhile)
            var slot = Self.runWays * set
            for other in (slot + 1)..<(Self.runWays * set + Self.runWays) where runSlots[other].use < runSlots[slot].use
            { slot = other }
            runSlots[slot] = RunSlot(hash: hash, use: runClock, entry: entry)
            entry.isCached = true
        }
        return entry
    }

    /// The composed image of the cached run, when it has one in the atlas or
    /// gets one now: a line is composed the second frame it is drawn in, so text that
    /// changes every frame never is.
    private func composedLine(_ cached: CachedRun) -> LinePlacement? {
        let frame = atlas.frame
        let previous = cached.lastFrame
        cached.lastFrame = frame
        if let line = cached.line, atlas.touch(line) { return line }
        guard cached.isCached, previous != 0, previous != frame, let line = atlas.composeLine(cached.run) else {
            return nil
        }
        cached.line = line
        return line
    }

    /// Logical width of every prefix of `text` in reading order: `[0, after 1st, after 2nd,
    /// ...]`, one entry per Unicode scalar plus one (for wrapping; carets of mixed-direction
    /// text come from `caretLayout`).
    public func caretOffsets(_ text: String) -> [Double] {
        var result: [Double] = [0]
        var sum: Float = 0
        for w in layOut(text).scalarWidths() {
            sum += w
            result.append(Double(sum) / scale)
        }
        return result
    }

    /// Where carets and selections of `text` go on screen (see `CaretLayout`).
    public func caretLayout(_ text: String) -> CaretLayout {
        CaretLayout(layOut(text), scale: scale)
    }

    /// `text` shortened at character boundaries, with "…" in place of what is left out (at
    /// its end in reading order for `.tail`, the left for right-to-left text), so it fits
    /// `width` logical pixels (unchanged if it fits).
    ///
    /// ```swift
    /// font.truncated("/photos/Trip 2024/IMG_0001.jpg", toWidth: 120, mode: .middle)  // "/photo…001.jpg" at 15 px
    /// ```
    public func truncated(_ text: String, toWidth width: Double, mode: TruncationMode = .tail) -> String {
        cut(text, toWidth: width, mode: mode)?.shown ?? text
    }

    /// How `truncated(_:toWidth:mode:)` cuts `text`, or nil when it fits: for selectable text,
    /// whose carets map from what is shown back to the text.
    package func cut(_ text: String, toWidth width: Double, mode: TruncationMode = .tail) -> TextCut? {
        if measure(text) <= width { return nil }
        let key = TruncationKey(text: text, width: width, mode: mode)
        if let known = truncations[key] { return known }
        if truncations.count >= 4096 { truncations.removeAll() }
        let result = cutting(text, toWidth: width, mode: mode)
        truncations[key] = result
        return result
    }

    private func cutting(_ text: String, toWidth width: Double, mode: TruncationMode) -> TextCut {
        let ellipsis = "…"
        let all = text.unicodeScalars.count
        let budget = width - measure(ellipsis)
        guard budget > 0 else {
            let fits = measure(ellipsis) <= width
            return TextCut(shown: fits ? ellipsis : "", head: 0, hidden: all)
        }
        // Each character's width (the sum of its scalars'), in reading order.
        let widths = layOut(text).scalarWidths()
        var characters: [(index: String.Index, width: Double)] = []
        var scalar = 0
        for character in text.indices {
            var sum: Float = 0
            for _ in text[character].unicodeScalars where scalar < widths.count {
                sum += widths[scalar]
                scalar += 1
            }
            characters.append((character, Double(sum) / scale))
        }
        // How many characters to keep at the start and at the end: as many as fit the budget
        // (a middle cut gives the start half of it), then fewer while shaping the result
        // (joining forms change at a cut) still overflows.
        let startBudget = mode == .tail ? budget : mode == .middle ? budget / 2 : 0
        var keptStart = 0, used = 0.0
        // (A head cut keeps no start, not even characters of no width.)
        while mode != .head && keptStart < characters.count && used + characters[keptStart].width <= startBudget {
            used += characters[keptStart].width
            keptStart += 1
        }
        var keptEnd = 0
        if mode != .tail {
            while keptEnd < characters.count - keptStart
                && used + characters[characters.count - 1 - keptEnd].width <= budget
            {
                used += characters[characters.count - 1 - keptEnd].width
                keptEnd += 1
            }
        }
        while keptStart + keptEnd > 0 {
            var head = keptStart == characters.count ? text[...] : text[..<characters[keptStart].index]
            while head.last == " " { head.removeLast() }
            var tail = keptEnd == 0 ? text[text.endIndex...] : text[characters[characters.count - keptEnd].index...]
            while tail.first == " " { tail.removeFirst() }
            let shortened = String(head) + ellipsis + String(tail)
            if measure(shortened) <= width {
                let kept = head.unicodeScalars.count
                return TextCut(shown: shortened, head: kept, hidden: all - kept - tail.unicodeScalars.count)
            }
            if keptStart >= keptEnd { keptStart -= 1 } else { keptEnd -= 1 }
        }
        return TextCut(shown: ellipsis, head: 0, hidden: all)
    }

    /// Whether `text` is a right-to-left paragraph (its first strong character is Arabic,
    /// Hebrew…): such a line starts at the right of a left-to-right layout.
    public func readsRightToLeft(_ text: String) -> Bool { lookUp(text).run.rightToLeft }

    /// How many glyphs `text` shapes to (a ligature or a cluster counts once), as drawn glyph
    /// by glyph: for benchmarks' figures.
    package func glyphCount(_ text: String) -> Int { lookUp(text).run.quads.count }

    // MARK: Drawing

    /// Draws one line of text with its top-left at `origin` (logical). Returns the logical advance.
    @discardableResult
    public func draw(_ text: String, at origin: Point, color: Color, into list: inout DrawList) -> Double {
        draw(lookUp(text), at: origin, color: color, into: &list)
    }

    /// Draws a laid-out line (`lookUp`): its composed image when it has one, else its glyphs.
    @discardableResult
    private func draw(_ entry: CachedRun, at origin: Point, color: Color, into list: inout DrawList) -> Double {
        let start = Float((origin.x * list.scale).rounded())
        let top = Float((origin.y * list.scale).rounded())
        let sdlColor = SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a)
        let upright = list.beginUpright()  // a mirrored layout moves text, never flips it
        defer { list.endUpright(upright) }
        if let line = composedLine(entry) {
            let page = firstPage
            let (x0, y0, x1, y1) = (entry.run.x0, entry.run.y0, entry.run.x1, entry.run.y1)
            list.withQuadSink(maxQuads: 1, texture: page) { sink in
                sink.add(
                    x0: start + x0, y0: top + y0, x1: start + x1, y1: top + y1, uv0: line.uv0, uv1: line.uv1,
                    color: sdlColor, texture: page)
            }
        } else {
            let run = entry.run
            list.withQuadSink(maxQuads: run.quads.count, texture: firstPage) { sink in
                sink.add(run, dx: start, dy: top, color: sdlColor)
            }
        }
        let advance = Double(entry.run.advance) / list.scale
        if list.recordsText {
            list.noteText(entry.text, in: Rect(x: origin.x, y: origin.y, width: advance, height: lineHeight))
        }
        return advance
    }

    /// Draws one line in `rect`, vertically centred, aligned horizontally, cut with "…" where
    /// `truncation` says when `truncate` is set and it does not fit.
    public func draw(
        _ text: String, in rect: Rect, alignment: TextAlignment = .leading, color: Color,
        truncate: Bool = true, truncation: TruncationMode = .tail, into list: inout DrawList
    ) {
        let y = rect.minY + (rect.height - lineHeight) / 2
        // One lookup when it fits: the run measured is the run drawn.
        let entry = lookUp(text)
        // A right-to-left paragraph starts at the right edge of a left-to-right layout (in a
        // mirrored one, the mirroring puts every leading line there).
        let alignment = alignment == .leading && entry.run.rightToLeft && !list.isMirrored ? .trailing : alignment
        if alignment == .leading {
            // One pass for the common case: draw, and redo truncated only if it overflowed.
            let mark = list.mark
            if draw(entry, at: Point(rect.minX, y), color: color, into: &list) <= rect.width || !truncate { return }
            list.truncate(to: mark)
            draw(
                truncated(text, toWidth: rect.width, mode: truncation), at: Point(rect.minX, y), color: color,
                into: &list)
            return
        }
        func x(_ width: Double) -> Double {
            alignment == .center ? rect.minX + (rect.width - width) / 2 : rect.maxX - width
        }
        let width = Double(entry.run.advance) / scale
        if !truncate || width <= rect.width {
            draw(entry, at: Point(x(width), y), color: color, into: &list)
            return
        }
        let line = truncated(text, toWidth: rect.width, mode: truncation)
        draw(line, at: Point(x(measure(line)), y), color: color, into: &list)
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
        if b0 < 0x80 {
            body(b0)
            i += 1
            continue
        }
        var need = 0, value: UInt32 = 0
        if b0 & 0xE0 == 0xC0 {
            need = 1
            value = b0 & 0x1F
        } else if b0 & 0xF0 == 0xE0 {
            need = 2
            value = b0 & 0x0F
        } else if b0 & 0xF8 == 0xF0 {
            need = 3
            value = b0 & 0x07
        } else {
            body(0xFFFD)
            i += 1
            continue
        }
        guard i + need < end else {
            body(0xFFFD)
            return
        }
        for k in 1...need { value = value << 6 | (UInt32(bytes[i + k]) & 0x3F) }
        body(value)
        i += need + 1
    }
}

/// One line laid out: each visible glyph's quad from the pen's start (physical pixels), the
/// line's advance, the quads' bounds, and their texture when they share one and none is a
/// color glyph.
struct GlyphRun {
    struct Quad {
        var x0, y0, x1, y1: Float
        var uv0, uv1: SIMD2<Float>
        var texture: TextureHandle
        /// A color glyph (emoji): drawn with its own colors, only the text's alpha applied.
        var colored: Bool
    }
    let quads: [Quad]
    let advance: Float
    let x0, y0, x1, y1: Float
    let texture: TextureHandle?
    /// The paragraph reads right to left (its first strong character is Arabic, Hebrew…).
    let rightToLeft: Bool

    init(quads: [Quad], advance: Float, rightToLeft: Bool = false) {
        self.quads = quads
        self.advance = advance
        self.rightToLeft = rightToLeft
        var (x0, y0, x1, y1): (Float, Float, Float, Float) = (.infinity, .infinity, -.infinity, -.infinity)
        var texture = quads.first?.texture
        for q in quads {
            x0 = min(x0, q.x0)
            y0 = min(y0, q.y0)
            x1 = max(x1, q.x1)
            y1 = max(y1, q.y1)
            if q.texture != texture || q.colored { texture = nil }
        }
        (self.x0, self.y0, self.x1, self.y1, self.texture) = (x0, y0, x1, y1, texture)
    }
}

/// A run cache slot: its text's hash (checked before the text, so the other ways of a set
/// cost an integer compare), when it was last used (`runClock`; 0: empty) and the entry.
/// Sixteen bytes, so a set's four ways lie in one or two cache lines.
private struct RunSlot {
    var hash: UInt32 = 0
    var use: UInt32 = 0
    var entry: CachedRun?
}

/// A run cache entry: the line's text and its layout; the atlas frame it was last drawn in
/// (0: never) and where its composed image is, if it has one (`GlyphAtlas.composeLine`).
/// A class, so marking it drawn touches memory its lookup already read, and drawing it
/// copies no layout.
final class CachedRun {
    let text: String
    let run: GlyphRun
    // Main actor only (through `Font`), never read during a write.
    @exclusivity(unchecked) var lastFrame = 0
    @exclusivity(unchecked) var line: LinePlacement?
    /// In the run cache: only such a line is composed (a long line, laid out for one draw, is not).
    @exclusivity(unchecked) var isCached = false

    init(text: String, run: GlyphRun) {
        self.text = text
        self.run = run
    }
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
