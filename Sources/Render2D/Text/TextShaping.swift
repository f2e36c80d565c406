import CSDL2

/// One glyph of a shaped line, in visual order: which face and glyph, the Unicode scalar it
/// starts from (its cluster, an index into the line's scalars), the pen position before it
/// (physical pixels from the line's start), where it is drawn relative to the pen (y down)
/// and how far it moves the pen.
struct ShapedGlyph {
    var face: Int
    var glyph: UInt32
    var cluster: Int
    var pen: Float
    var dx: Float, dy: Float
    var advance: Float
    var rightToLeft: Bool
}

/// A line shaped by HarfBuzz: glyphs left to right on screen, the line's advance, and
/// whether its paragraph direction is right to left (its first strong character is).
struct ShapedLine {
    var scalars: [UInt32]
    var glyphs: [ShapedGlyph]
    var advance: Float
    var rightToLeft = false

    /// Each scalar's share of the line's width, in logical (reading) order: a cluster's
    /// advance (a ligature, a base with its marks) is split evenly among its scalars.
    func scalarWidths() -> [Float] {
        var widths = [Float](repeating: 0, count: scalars.count)
        for (start, end, _, width) in clusterSpans() {
            let share = width / Float(end - start)
            for i in start..<end { widths[i] = share }
        }
        return widths
    }

    /// The clusters in logical order: scalar range, visual left edge and width.
    func clusterSpans() -> [(start: Int, end: Int, left: Float, width: Float)] {
        var extent: [Int: (left: Float, right: Float)] = [:]
        for g in glyphs {
            let e = extent[g.cluster] ?? (.infinity, -.infinity)
            extent[g.cluster] = (min(e.left, g.pen), max(e.right, g.pen + g.advance))
        }
        let starts = extent.keys.sorted()
        return starts.enumerated().map { k, start in
            let end = k + 1 < starts.count ? starts[k + 1] : scalars.count
            let e = extent[start]!
            return (start, end, e.left, max(0, e.right - e.left))
        }
    }
}

/// The symbol a line shows for a control character, as file managers show one in a name: a
/// tab, a newline or U+0001 in a file name is `␉`, `␊` or `␁` (Unicode's Control Pictures,
/// which DejaVu Sans has); DEL is `␡`; a byte of a file name that is not UTF-8 (`FileName`
/// keeps it as U+10FF00 + byte) is U+FFFD, the replacement character. Every other scalar is itself.
@inline(__always)
func visibleControl(_ scalar: UInt32) -> UInt32 {
    scalar < 0x20 ? 0x2400 + scalar : scalar == 0x7F ? 0x2421 : scalar >= FileName.escapeBase ? 0xFFFD : scalar
}

extension Font {
    /// Shapes `text` as one line: the Unicode bidirectional algorithm (FriBidi) gives each
    /// scalar its embedding level; the text is split into runs of one level, one face (the
    /// primary, else the fallback fontconfig picks) and one script; HarfBuzz shapes each
    /// run; the runs are put in visual order (rule L2). Control characters, which fonts draw
    /// as empty boxes or not at all, are shown as their symbols (`visibleControl`).
    func shape(_ text: String) -> ShapedLine {
        var scalars: [UInt32] = []
        scalars.reserveCapacity(text.utf8.count)
        forEachScalar(text) { scalars.append(visibleControl($0)) }
        let count = scalars.count
        guard count > 0 else { return ShapedLine(scalars: [], glyphs: [], advance: 0) }
        let (levels, rightToLeft) =
            scalars.contains(where: BidiLevels.mayNeedReordering)
            ? BidiLevels.of(scalars) : ([UInt8](repeating: 0, count: count), false)
        let faceOf = faceIndices(scalars)
        let scripts = TextScripts.resolved(scalars)

        var runs: [(start: Int, end: Int)] = []
        var start = 0
        for i in 1..<(count + 1)
        where i == count || levels[i] != levels[start] || faceOf[i] != faceOf[start] || scripts[i] != scripts[start] {
            runs.append((start, i))
            start = i
        }
        var glyphs: [ShapedGlyph] = []
        glyphs.reserveCapacity(count)
        var pen: Float = 0
        for r in BidiLevels.visualOrder(runLevels: runs.map { levels[$0.start] }) {
            let (start, end) = runs[r]
            shapeRun(
                scalars, start..<end, face: faceOf[start], script: scripts[start], rightToLeft: levels[start] & 1 == 1,
                pen: &pen, into: &glyphs)
        }
        return ShapedLine(scalars: scalars, glyphs: glyphs, advance: pen, rightToLeft: rightToLeft)
    }

    private func shapeRun(
        _ scalars: [UInt32], _ range: Range<Int>, face faceIndex: Int, script: hb_script_t, rightToLeft: Bool,
        pen: inout Float, into glyphs: inout [ShapedGlyph]
    ) {
        let face = faces[faceIndex]
        let buffer = Self.shapingBuffer
        hb_buffer_clear_contents(buffer)
        scalars.withUnsafeBufferPointer { all in
            // (Lengths clamped: a line past Int32.max scalars is shaped in part, never trapped on.)
            hb_buffer_add_utf32(
                buffer, all.baseAddress, Int32(clamping: all.count), UInt32(clamping: range.lowerBound),
                Int32(clamping: range.count))
        }
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        if script != HB_SCRIPT_COMMON { hb_buffer_set_script(buffer, script) }
        hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(face.shaper, buffer, nil, 0)
        var n: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &n),
            let positions = hb_buffer_get_glyph_positions(buffer, &n)
        else { return }
        let unit: Float = 1 / 64
        for k in 0..<Int(n) {
            let cluster = Int(infos[k].cluster)
            var glyph = infos[k].codepoint, owner = faceIndex
            var advance = Float(positions[k].x_advance) * unit
            if glyph == 0 {  // no face has it: a control character draws nothing, others the replacement glyph
                let scalar = scalars[cluster]
                if scalar < 0x20 || (0x7F..<0xA0).contains(scalar) {
                    advance = 0
                } else {
                    (owner, glyph) = (0, replacementGlyph)
                    advance = Float(hb_font_get_glyph_h_advance(faces[0].shaper, glyph)) / 64
                }
            }
            glyphs.append(
                ShapedGlyph(
                    face: owner, glyph: glyph, cluster: cluster, pen: pen, dx: Float(positions[k].x_offset) * unit,
                    dy: -Float(positions[k].y_offset) * unit, advance: advance, rightToLeft: rightToLeft))
            pen += advance
        }
    }

    /// The face each scalar is shaped with. Marks, joiners and variation selectors stay with
    /// the face of what they attach to. Spaces and punctuation come from this font when it
    /// has them (an emoji font's space is an emoji wide), else from the face before them.
    private func faceIndices(_ scalars: [UInt32]) -> [Int] {
        var result = [Int](repeating: 0, count: scalars.count)
        for (i, s) in scalars.enumerated() {
            let previous = i > 0 ? result[i - 1] : 0
            if previous != 0 && TextScripts.attachesToPrevious(s) {
                result[i] = previous
            } else if previous != 0 && TextScripts.isCommon(s) && faces[0].glyphIndex(s) == 0
                && faces[previous].glyphIndex(s) != 0
            {
                result[i] = previous
            } else {
                result[i] = faceIndex(for: s)
            }
        }
        return result
    }
}

/// A shared HarfBuzz buffer (main actor: shaping happens while laying out a frame).
extension Font {
    @MainActor static let shapingBuffer: OpaquePointer = hb_buffer_create()
}

/// Scripts of scalars, as HarfBuzz's Unicode functions classify them.
enum TextScripts {
    private static var unicode: OpaquePointer { hb_unicode_funcs_get_default() }

    static func script(_ scalar: UInt32) -> hb_script_t { hb_unicode_script(unicode, scalar) }

    /// Spaces, digits, punctuation: characters shared by all scripts.
    static func isCommon(_ scalar: UInt32) -> Bool {
        let s = script(scalar)
        return s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED || s == HB_SCRIPT_UNKNOWN
    }

    /// Combining marks, joiners, variation selectors, emoji modifiers and tags: characters
    /// that belong with the one before them.
    static func attachesToPrevious(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x200C, 0x200D, 0xFE00...0xFE0F, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F, 0xE0100...0xE01EF: return true
        default:
            let category = hb_unicode_general_category(unicode, scalar)
            return category == HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK
                || category == HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK
                || category == HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK
        }
    }

    /// Each scalar's script, with common characters taking the script around them (the one
    /// before, or for leading ones the first that follows); all common stays common.
    static func resolved(_ scalars: [UInt32]) -> [hb_script_t] {
        var result = scalars.map(script)
        var previous: hb_script_t?
        for i in result.indices {
            let s = result[i]
            if s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED || s == HB_SCRIPT_UNKNOWN {
                if let previous { result[i] = previous }
            } else {
                previous = s
            }
        }
        if let first = result.first(where: {
            $0 != HB_SCRIPT_COMMON && $0 != HB_SCRIPT_INHERITED && $0 != HB_SCRIPT_UNKNOWN
        }) {
            for i in result.indices {
                let s = result[i]
                guard s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED || s == HB_SCRIPT_UNKNOWN else { break }
                result[i] = first
            }
        } else {
            result = result.map { _ in HB_SCRIPT_COMMON }
        }
        return result
    }
}

/// The Unicode bidirectional algorithm (FriBidi) for one line.
public enum BidiLevels {
    /// Whether `scalar` can make a line anything but plain left to right: a right-to-left
    /// letter (Hebrew, Arabic, Syriac, Thaana, N'Ko, …) or an explicit direction mark.
    @inline(__always)
    static func mayNeedReordering(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0..<0x0590: return false
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Each scalar's embedding level (odd: right to left), and whether the paragraph reads
    /// right to left: its first strong character does (left to right when there is none).
    static func of(_ scalars: [UInt32]) -> (levels: [UInt8], rightToLeft: Bool) {
        let n = Int32(clamping: scalars.count)
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: scalars.count)
        var brackets = [FriBidiBracketType](repeating: 0, count: scalars.count)
        var levels = [FriBidiLevel](repeating: 0, count: scalars.count)
        var direction = tessera_fribidi_par_auto()
        scalars.withUnsafeBufferPointer { text in
            fribidi_get_bidi_types(text.baseAddress, n, &types)
            fribidi_get_bracket_types(text.baseAddress, n, types, &brackets)
        }
        guard fribidi_get_par_embedding_levels_ex(types, brackets, n, &direction, &levels) != 0 else {
            return ([UInt8](repeating: 0, count: scalars.count), false)
        }
        return (levels.map { UInt8(bitPattern: $0) }, tessera_fribidi_is_rtl(direction) != 0)
    }

    /// The visual order of runs with these levels (rule L2): from the highest level down to
    /// the lowest odd one, every maximal sequence of runs at that level or above is reversed.
    ///
    /// ```swift
    /// BidiLevels.visualOrder(runLevels: [0, 1, 0]) // [0, 1, 2]
    /// BidiLevels.visualOrder(runLevels: [1, 2, 1]) // [2, 1, 0]
    /// ```
    public static func visualOrder(runLevels: [UInt8]) -> [Int] {
        var order = Array(runLevels.indices)
        guard let highest = runLevels.max(), highest > 0 else { return order }
        let lowestOdd = runLevels.filter { $0 & 1 == 1 }.min() ?? highest
        var level = highest
        while level >= lowestOdd && level > 0 {
            var i = 0
            while i < order.count {
                guard runLevels[order[i]] >= level else {
                    i += 1
                    continue
                }
                var j = i
                while j < order.count && runLevels[order[j]] >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            level -= 1
        }
        return order
    }
}
