import CSDL2

/// Google's Material Icons (Apache-2.0; Debian's `fonts-material-design-icons-iconfont`):
/// about 2,000 icons in one font, each reached by its name ("description", "folder_open",
/// "content_copy") through the font's ligatures. A name is shaped once with HarfBuzz into its
/// one glyph, and that glyph's character (in the Private Use Area) is then drawn like any
/// text: through the glyph atlas, at any scale and in any color.
///
/// ```swift
/// if let icons = fonts.icons, let glyph = icons.scalar(named: "description") {
///     fonts.iconFont(size: 16, scale: 2)?.draw(String(Character(glyph)), in: rect, alignment: .center,
///                                               color: .white, into: &list)
/// }
/// ```
@MainActor
public final class IconFont {
    /// Where Debian installs the font.
    public static let defaultPath = "/usr/share/fonts/truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf"

    /// The font file.
    public let path: String
    private let face: FontFace
    private var resolved: [String: Unicode.Scalar?] = [:]
    /// Each icon glyph's character, from the font's character map (read on the first lookup).
    private var characterOfGlyph: [UInt32: UInt32]?

    /// Opens the font at `path`; throws when it is missing or not a font.
    public init(path: String = IconFont.defaultPath) throws {
        self.path = path
        face = try FontFace(path: path, pixelSize: 24)
    }

    /// The character that draws the icon `name`, nil when the font has no such icon. Names
    /// are Material's: lowercase words joined by underscores.
    public func scalar(named name: String) -> Unicode.Scalar? {
        // A frame draws a few icons again and again (a grid's stars): comparing a short name
        // costs less than hashing it.
        var k = 0
        while k < recent.count {
            if recent[k].name == name { return recent[k].scalar }
            k += 1
        }
        let found: Unicode.Scalar?
        if let known = resolved[name] {
            found = known
        } else {
            found = look(up: name)
            if resolved.count < 4096 { resolved[name] = found }  // names come from code, but stay bounded
        }
        if recent.count == 8 { recent.removeLast() }
        recent.insert((name, found), at: 0)
        return found
    }

    /// The names asked for last, newest first. (Main actor only, never read while it is
    /// written: no dynamic exclusivity check on each name compared.)
    @exclusivity(unchecked) private var recent: [(name: String, scalar: Unicode.Scalar?)] = []

    private func look(up name: String) -> Unicode.Scalar? {
        guard !name.isEmpty, name.utf8.count <= 64,
            name.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F })
        else { return nil }
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_utf8(buffer, name, Int32(name.utf8.count), 0, Int32(name.utf8.count))
        hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(face.shaper, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), count == 1 else { return nil }
        let map = characterOfGlyph ?? readCharacterMap()
        characterOfGlyph = map
        // An icon's character is in the Private Use Area; a name that shaped to a letter is no icon.
        guard let character = map[infos[0].codepoint], (0xE000...0xF8FF).contains(character) else { return nil }
        return Unicode.Scalar(character)
    }

    private func readCharacterMap() -> [UInt32: UInt32] {
        var map: [UInt32: UInt32] = [:]
        var glyph: FT_UInt = 0
        var character = FT_Get_First_Char(face.face, &glyph)
        while glyph != 0 {
            if map[UInt32(glyph)] == nil { map[UInt32(glyph)] = UInt32(character) }
            character = FT_Get_Next_Char(face.face, character, &glyph)
        }
        return map
    }
}
