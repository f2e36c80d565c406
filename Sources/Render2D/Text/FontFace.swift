import CSDL2

/// The FreeType library every face is opened with (main actor only: FreeType's library
/// object is not thread-safe).
@MainActor
enum FreeType {
    static let library: OpaquePointer? = {
        var library: OpaquePointer?
        guard FT_Init_FreeType(&library) == 0 else {
            Log.error("FT_Init_FreeType failed: text cannot be drawn")
            return nil
        }
        return library
    }()
}

/// One font file at one pixel size: its FreeType face (glyph bitmaps) and the HarfBuzz font
/// shaping runs with it (HarfBuzz's own OpenType functions, which read advances from the
/// font's tables: through FreeType each advance cost a hinted glyph load). A color bitmap
/// face (Noto Color Emoji) is opened at its nearest strike and its glyphs are scaled to the
/// requested size.
@MainActor
final class FontFace {
    let face: FT_Face
    let shaper: OpaquePointer
    let path: String
    /// Requested size over the size the face is rasterized at (1 for outline fonts).
    let bitmapScale: Double
    /// Ascent, descent (positive) and height in physical pixels, rounded up as SDL_ttf does.
    let ascent: Int, descent: Int, height: Int
    let hasColor: Bool

    struct OpenError: Error, CustomStringConvertible {
        let path: String
        let code: Int32
        var description: String { "FreeType could not open \(path) (error \(code))" }
    }

    init(path: String, pixelSize: Int) throws {
        guard let library = FreeType.library else { throw OpenError(path: path, code: -1) }
        var opened: FT_Face?
        let error = FT_New_Face(library, path, 0, &opened)
        guard error == 0, let face = opened else { throw OpenError(path: path, code: error) }
        self.face = face
        self.path = path
        hasColor = face.pointee.face_flags & FT_FACE_FLAG_COLOR != 0
        if face.pointee.face_flags & FT_FACE_FLAG_SCALABLE != 0 {
            FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize))
            bitmapScale = 1
        } else if face.pointee.num_fixed_sizes > 0, let sizes = face.pointee.available_sizes {
            // The strike nearest the size, preferring a larger one (scaled down looks better).
            var best = 0
            for i in 0..<Int(face.pointee.num_fixed_sizes) {
                let ppem = Int(sizes[i].y_ppem >> 6), bestPPEM = Int(sizes[best].y_ppem >> 6)
                let better = bestPPEM < pixelSize ? ppem > bestPPEM : (ppem >= pixelSize && ppem < bestPPEM)
                if better { best = i }
            }
            FT_Select_Size(face, FT_Int(best))
            bitmapScale = Double(pixelSize) / Double(max(1, sizes[best].y_ppem >> 6))
        } else {
            FT_Done_Face(face)
            throw OpenError(path: path, code: -2)
        }
        let metrics = face.pointee.size.pointee.metrics
        func ceilPixels(_ value: Int) -> Int { (value + 63) >> 6 }
        if bitmapScale == 1 {
            let scale = metrics.y_scale
            ascent = ceilPixels(Int(FT_MulFix(FT_Long(face.pointee.ascender), scale)))
            descent = -ceilPixels(Int(FT_MulFix(FT_Long(face.pointee.descender), scale)))
            height = ceilPixels(Int(FT_MulFix(FT_Long(face.pointee.ascender) - FT_Long(face.pointee.descender), scale)))
        } else {
            ascent = Int((Double(metrics.ascender) / 64 * bitmapScale).rounded(.up))
            descent = Int((Double(-metrics.descender) / 64 * bitmapScale).rounded(.up))
            height = ascent + descent
        }
        let blob = hb_blob_create_from_file(path)
        let shapingFace = hb_face_create(blob, 0)
        shaper = hb_font_create(shapingFace)
        hb_face_destroy(shapingFace)
        hb_blob_destroy(blob)
        // Positions in 26.6 pixels at the requested size.
        hb_font_set_scale(shaper, Int32(pixelSize * 64), Int32(pixelSize * 64))
        hb_font_set_ppem(shaper, UInt32(pixelSize), UInt32(pixelSize))
    }

    isolated deinit {
        hb_font_destroy(shaper)
        FT_Done_Face(face)
    }

    /// The face's glyph for `scalar`, 0 when it has none.
    func glyphIndex(_ scalar: UInt32) -> UInt32 {
        UInt32(FT_Get_Char_Index(face, FT_ULong(scalar)))
    }

    /// A glyph's bitmap: straight-alpha RGBA (white with coverage for outline glyphs, the
    /// glyph's own colors for color ones), its size, and its top-left relative to the pen on
    /// the baseline. Nil for glyphs that draw nothing.
    struct Bitmap {
        var pixels: [UInt8]
        var width: Int, height: Int
        var left: Int, top: Int
        var colored: Bool
    }

    func rasterize(_ glyph: UInt32) -> Bitmap? {
        let flags = Int32(FT_LOAD_DEFAULT) | tessera_ft_load_target_light() | (hasColor ? Int32(FT_LOAD_COLOR) : 0)
        guard FT_Load_Glyph(face, glyph, flags) == 0, let slot = face.pointee.glyph else { return nil }
        if slot.pointee.format != FT_GLYPH_FORMAT_BITMAP, FT_Render_Glyph(slot, FT_RENDER_MODE_LIGHT) != 0 {
            return nil
        }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows)
        // (A negative pitch, rows stored bottom up, does not come from FreeType's own renderer.)
        let pitch = Int(bitmap.pitch)
        guard width > 0, height > 0, pitch > 0, let buffer = bitmap.buffer else { return nil }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var colored = false
        switch Int32(bitmap.pixel_mode) {
        case Int32(FT_PIXEL_MODE_GRAY.rawValue):
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    pixels[i] = 255
                    pixels[i + 1] = 255
                    pixels[i + 2] = 255
                    pixels[i + 3] = buffer[y * pitch + x]
                }
            }
        case Int32(FT_PIXEL_MODE_MONO.rawValue):
            for y in 0..<height {
                for x in 0..<width where buffer[y * pitch + x / 8] & (0x80 >> UInt8(x % 8)) != 0 {
                    let i = (y * width + x) * 4
                    pixels[i] = 255
                    pixels[i + 1] = 255
                    pixels[i + 2] = 255
                    pixels[i + 3] = 255
                }
            }
        case Int32(FT_PIXEL_MODE_BGRA.rawValue):
            colored = true
            for y in 0..<height {
                for x in 0..<width {
                    let s = y * pitch + x * 4, i = (y * width + x) * 4
                    // Premultiplied BGRA to premultiplied RGBA (made straight after scaling).
                    pixels[i] = buffer[s + 2]
                    pixels[i + 1] = buffer[s + 1]
                    pixels[i + 2] = buffer[s]
                    pixels[i + 3] = buffer[s + 3]
                }
            }
        default:
            return nil
        }
        var result = Bitmap(
            pixels: pixels, width: width, height: height, left: Int(slot.pointee.bitmap_left),
            top: Int(slot.pointee.bitmap_top), colored: colored)
        if bitmapScale != 1 { result = result.scaled(by: bitmapScale) }
        if colored { result.unpremultiply() }
        return result
    }
}

extension FontFace.Bitmap {
    /// Box-filtered to `factor` of its size (premultiplied pixels average correctly).
    func scaled(by factor: Double) -> Self {
        let w = max(1, Int((Double(width) * factor).rounded())), h = max(1, Int((Double(height) * factor).rounded()))
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let sy0 = y * height / h, sy1 = max(sy0 + 1, (y + 1) * height / h)
            for x in 0..<w {
                let sx0 = x * width / w, sx1 = max(sx0 + 1, (x + 1) * width / w)
                var sum = SIMD4<UInt32>(repeating: 0)
                for sy in sy0..<sy1 {
                    for sx in sx0..<sx1 {
                        let i = (sy * width + sx) * 4
                        sum &+= SIMD4(
                            UInt32(pixels[i]), UInt32(pixels[i + 1]), UInt32(pixels[i + 2]), UInt32(pixels[i + 3]))
                    }
                }
                let n = UInt32((sy1 - sy0) * (sx1 - sx0)), o = (y * w + x) * 4
                for c in 0..<4 { out[o + c] = UInt8(sum[c] / n) }
            }
        }
        return Self(
            pixels: out, width: w, height: h, left: Int((Double(left) * factor).rounded()),
            top: Int((Double(top) * factor).rounded()), colored: colored)
    }

    /// Premultiplied colors made straight, as the atlas blends them.
    mutating func unpremultiply() {
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = UInt32(pixels[i + 3])
            guard a > 0, a < 255 else { continue }
            for c in 0..<3 { pixels[i + c] = UInt8(min(255, UInt32(pixels[i + c]) * 255 / a)) }
        }
    }
}
