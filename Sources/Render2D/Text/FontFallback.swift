import CSDL2

/// Finds an installed font for a character the primary font lacks, as desktop toolkits do:
/// fontconfig sorts the installed fonts for a pattern holding the character
/// (`FcFontSort`), once per block of 256 code points; each character then takes the first
/// font of its block's list that has it. Emoji that are shown as pictures by default ask
/// for a color font (Noto Color Emoji) first. A character no installed font has gets nil
/// (the caller draws one replacement glyph).
///
/// ```swift
/// let fallback = FontFallback()
/// fallback.path(for: 0x5199) // "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
/// ```
@MainActor
public final class FontFallback {
    /// Per block: the sorted candidates (nil: fontconfig had none).
    private var blocks: [UInt32: UnsafeMutablePointer<FcFontSet>?] = [:]
    private var paths: [UInt32: String?] = [:]
    /// Whether fontconfig loaded its configuration and font caches. Asked the first time a
    /// character needs a font, not at start: an app whose text the primary font covers never
    /// reads fontconfig's files (about 1 MB of heap and mapped caches: the table scene at one row
    /// peaks at 122 MB instead of 123).
    private lazy var available: Bool = {
        isStarted = true
        return FcInit() != 0
    }()

    /// A fallback with an empty cache, asking fontconfig when a character needs a font.
    public init() {}

    /// Whether fontconfig has been started (by the first character the primary font lacks).
    package private(set) var isStarted = false

    isolated deinit {
        for case let set? in blocks.values { FcFontSetDestroy(set) }
    }

    /// The file of the best installed font that has `scalar`, or nil.
    public func path(for scalar: UInt32) -> String? {
        if let known = paths[scalar] { return known }
        let found = available ? lookUp(scalar) : nil
        if paths.count < 65_536 { paths[scalar] = found }
        return found
    }

    private func lookUp(_ scalar: UInt32) -> String? {
        let color = Unicode.Scalar(scalar)?.properties.isEmojiPresentation ?? false
        let block = (scalar >> 8) << 1 | (color ? 1 : 0)
        let set: UnsafeMutablePointer<FcFontSet>?
        if let cached = blocks[block] {
            set = cached
        } else {
            set = sortedFonts(for: scalar, color: color)
            blocks[block] = set
        }
        guard let set, let fonts = set.pointee.fonts else { return nil }
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = fonts[i] else { continue }
            var charset: OpaquePointer?
            guard FcPatternGetCharSet(font, "charset", 0, &charset) == FcResultMatch, let charset,
                FcCharSetHasChar(charset, scalar) != 0
            else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(font, "file", 0, &file) == FcResultMatch, let file else { continue }
            return String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
        }
        return nil
    }

    /// Installed fonts, best first, for a pattern asking for `scalar` (in color if `color`).
    private func sortedFonts(for scalar: UInt32, color: Bool) -> UnsafeMutablePointer<FcFontSet>? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        guard let charset = FcCharSetCreate() else { return nil }
        defer { FcCharSetDestroy(charset) }
        FcCharSetAddChar(charset, scalar)
        FcPatternAddCharSet(pattern, "charset", charset)
        FcPatternAddBool(pattern, "scalable", 1)
        if color { FcPatternAddBool(pattern, "color", 1) }
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        return FcFontSort(nil, pattern, 0, nil, &result)
    }
}
