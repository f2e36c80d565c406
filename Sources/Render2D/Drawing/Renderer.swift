import CSDL2

/// Tightly packed 8-bit RGBA pixels (R, G, B, A byte order), the currency between decode
/// workers and the renderer. `Sendable`: safe to hand from a worker to the main thread.
public struct PixelBuffer: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// RGBA bytes, row by row from the top, `width * height * 4` of them.
    public var bytes: [UInt8]

    /// A buffer filled with `color`.
    public init(width: Int, height: Int, color: Color = .clear) {
        self.width = max(0, width)
        self.height = max(0, height)
        var row = [UInt8](repeating: 0, count: self.width * 4)
        for x in 0..<self.width {
            row[4 * x] = color.r
            row[4 * x + 1] = color.g
            row[4 * x + 2] = color.b
            row[4 * x + 3] = color.a
        }
        bytes = Array([[UInt8]](repeating: row, count: self.height).joined())
    }

    /// A buffer holding `bytes` (RGBA, row by row); the count must be `width * height * 4`.
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(bytes.count == width * height * 4, "PixelBuffer needs width*height*4 bytes")
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// Whether every pixel's alpha is 255: such an image may be drawn without blending.
    public var isOpaque: Bool {
        bytes.withUnsafeBytes { raw in
            var alphas: UInt32 = 0xFF00_0000
            for pixel in raw.bindMemory(to: UInt32.self) { alphas &= pixel }  // RGBA in memory: alpha is the high byte
            return alphas == 0xFF00_0000
        }
    }

    /// The color at `x`, `y` (from the top-left).
    public func pixel(x: Int, y: Int) -> Color {
        let i = (y * width + x) * 4
        return Color(r: bytes[i], g: bytes[i + 1], b: bytes[i + 2], a: bytes[i + 3])
    }
}

/// Errors from the SDL renderer, with SDL's own message.
public struct RenderError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// An error for the failed step `what`, with SDL's message.
    public init(_ what: String) { description = "\(what): \(String(cString: SDL_GetError()))" }
}

/// How a texture is sampled when scaled.
public enum TextureFilter: Sendable {
    /// The nearest texel: sharp pixels.
    case nearest
    /// Bilinear filtering: smooth.
    case linear
}

/// Turns `DrawList`s into batched `SDL_RenderGeometry` calls (one per texture and scissor
/// run) and owns every GPU texture, addressed by `TextureHandle` values.
///
/// ```swift
/// renderer.beginFrame(clearColor: .black)
/// renderer.draw(list)
/// renderer.present()
/// ```
@MainActor
public final class Renderer {
    /// The `SDL_Renderer*`.
    public let handle: OpaquePointer
    /// SDL's name for the backend, e.g. "opengl" or "software".
    public let name: String
    /// Glyphs and the white texel that solid shapes sample.
    public let atlas: GlyphAtlas
    /// GPU textures of the atlas pages, by page index.
    private var atlasTextures: [OpaquePointer] = []

    /// What the last frame cost the GPU side.
    public struct Stats: Sendable, Equatable {
        /// Draw calls issued (`SDL_RenderGeometry` calls).
        public var drawCalls = 0
        /// Vertices submitted.
        public var vertices = 0
        /// Triangles submitted.
        public var triangles = 0
        /// Draw calls of opaque textures at full opacity, drawn without blending.
        public var opaqueDraws = 0
        /// Draw calls of large rectangles in flat color, untextured (`TextureHandle.flat`).
        public var flatDraws = 0
        /// Zero counts.
        public init() {}
    }
    /// Counts for the frame in progress (reset by `beginFrame`).
    public private(set) var stats = Stats()

    private var textures: [UInt32: OpaquePointer] = [:]
    /// Textures made from opaque pixels (`makeTexture(opaque:)`).
    private var opaqueTextures: Set<UInt32> = []
    private var nextTextureID: UInt32 = 1

    init(handle: OpaquePointer, atlas: GlyphAtlas) {
        self.handle = handle
        self.atlas = atlas
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(handle, &info)
        name = info.name.map { String(cString: $0) } ?? "unknown"
        SDL_SetRenderDrawBlendMode(handle, SDL_BLENDMODE_BLEND)
    }

    private var destroyed = false

    /// Frees every texture and the SDL renderer; the owning `Window` calls this before it
    /// destroys the SDL window (GPU objects must go while their context still exists).
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        for texture in textures.values { SDL_DestroyTexture(texture) }
        for texture in atlasTextures { SDL_DestroyTexture(texture) }
        textures.removeAll()
        atlasTextures.removeAll()
        SDL_DestroyRenderer(handle)
    }

    isolated deinit { destroy() }

    /// The drawable size in physical pixels.
    public var outputSize: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(handle, &w, &h)
        return (Int(w), Int(h))
    }

    // MARK: Textures

    /// Creates an RGBA texture, optionally filled from `pixels` (which must match the size).
    /// An `opaque` texture (every alpha 255, as `PixelBuffer.isOpaque` says) is drawn without
    /// blending wherever its vertices are fully opaque too: the GPU then writes its pixels
    /// without reading what lies beneath.
    ///
    /// ```swift
    /// let texture = try renderer.makeTexture(width: photo.width, height: photo.height, pixels: photo, opaque: photo.isOpaque)
    /// ```
    public func makeTexture(
        width: Int, height: Int, pixels: PixelBuffer? = nil,
        filter: TextureFilter = .linear, opaque: Bool = false
    ) throws(RenderError) -> TextureHandle {
        guard width > 0, height > 0,
            let texture = SDL_CreateTexture(
                handle, tessera_pixelformat_rgba32(),
                Int32(SDL_TEXTUREACCESS_STATIC.rawValue), Int32(width), Int32(height))
        else { throw RenderError("SDL_CreateTexture \(width)×\(height)") }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        SDL_SetTextureScaleMode(texture, filter == .linear ? SDL_ScaleModeLinear : SDL_ScaleModeNearest)
        guard nextTextureID < TextureHandle.flat.id else { throw RenderError("out of texture handles") }
        let id = nextTextureID
        nextTextureID += 1
        textures[id] = texture
        if opaque { opaqueTextures.insert(id) }
        let result = TextureHandle(id: id)
        if let pixels { try updateTexture(result, x: 0, y: 0, pixels: pixels) }
        return result
    }

    /// Replaces a region of a texture with `pixels`.
    public func updateTexture(_ texture: TextureHandle, x: Int, y: Int, pixels: PixelBuffer) throws(RenderError) {
        guard let sdl = textures[texture.id] else { throw RenderError("unknown texture \(texture.id)") }
        var rect = SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(pixels.width), h: Int32(pixels.height))
        let status = pixels.bytes.withUnsafeBytes {
            SDL_UpdateTexture(sdl, &rect, $0.baseAddress, Int32(pixels.width * 4))
        }
        if status != 0 { throw RenderError("SDL_UpdateTexture") }
    }

    /// Replaces a region of a texture from raw RGBA rows `pitch` bytes apart.
    public func updateTexture(
        _ texture: TextureHandle, x: Int, y: Int, width: Int, height: Int,
        bytes: UnsafeRawPointer, pitch: Int
    ) throws(RenderError) {
        guard let sdl = textures[texture.id] else { throw RenderError("unknown texture \(texture.id)") }
        var rect = SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height))
        if SDL_UpdateTexture(sdl, &rect, bytes, Int32(pitch)) != 0 { throw RenderError("SDL_UpdateTexture") }
    }

    /// Frees the GPU texture; drawing the handle afterwards draws nothing.
    public func destroyTexture(_ texture: TextureHandle) {
        if let sdl = textures.removeValue(forKey: texture.id) { SDL_DestroyTexture(sdl) }
        opaqueTextures.remove(texture.id)
    }

    /// The size of a live texture.
    public func textureSize(_ texture: TextureHandle) -> (width: Int, height: Int)? {
        guard let sdl = textures[texture.id] else { return nil }
        var w: Int32 = 0, h: Int32 = 0
        SDL_QueryTexture(sdl, nil, nil, &w, &h)
        return (Int(w), Int(h))
    }

    /// How many textures exist now (created and not yet destroyed).
    public var liveTextureCount: Int { textures.count }

    // MARK: Frames

    /// Clears the target and resets the per-frame counters.
    public func beginFrame(clearColor: Color) {
        stats = Stats()
        SDL_RenderSetClipRect(handle, nil)
        SDL_SetRenderDrawColor(handle, clearColor.r, clearColor.g, clearColor.b, clearColor.a)
        SDL_RenderClear(handle)
    }

    /// Creates textures for new atlas pages and uploads what was added to them since last frame.
    private func syncAtlas() {
        atlas.drainDirtyRects { page, dirty, pixels, pitch in
            while atlasTextures.count <= page {
                let size = Int32(GlyphAtlas.pageSize)
                guard
                    let texture = SDL_CreateTexture(
                        handle, tessera_pixelformat_rgba32(),
                        Int32(SDL_TEXTUREACCESS_STATIC.rawValue), size, size)
                else {
                    Log.error("glyph atlas page texture: \(String(cString: SDL_GetError()))")
                    return
                }
                SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
                SDL_SetTextureScaleMode(texture, SDL_ScaleModeNearest)
                atlasTextures.append(texture)
            }
            var rect = SDL_Rect(x: Int32(dirty.x), y: Int32(dirty.y), w: Int32(dirty.width), h: Int32(dirty.height))
            SDL_UpdateTexture(atlasTextures[page], &rect, pixels, Int32(pitch))
        }
    }

    private func sdlTexture(_ texture: TextureHandle) -> OpaquePointer? {
        if texture == .none { return atlasTextures.first }
        if texture.id & GlyphAtlas.pageHandleBit != 0 {
            let page = Int(texture.id & ~GlyphAtlas.pageHandleBit)
            return page < atlasTextures.count ? atlasTextures[page] : nil
        }
        return textures[texture.id]
    }

    /// Submits a draw list: one `SDL_RenderGeometry` call per command.
    public func draw(_ list: DrawList) {
        syncAtlas()
        let commands = list.commands
        guard !commands.isEmpty else { return }
        var currentScissor: Rect?? = .none
        list.vertices.withUnsafeBufferPointer { vertices in
            list.indices.withUnsafeBufferPointer { indices in
                for command in commands where command.indexCount > 0 {
                    let flat = command.texture == .flat, texture = flat ? nil : sdlTexture(command.texture)
                    guard flat || texture != nil else { continue }
                    if currentScissor != .some(command.scissor) {
                        if let s = command.scissor {
                            var rect = SDL_Rect(
                                x: Int32(s.x), y: Int32(s.y), w: Int32(max(0, s.width)), h: Int32(max(0, s.height)))
                            SDL_RenderSetClipRect(handle, &rect)
                        } else {
                            SDL_RenderSetClipRect(handle, nil)
                        }
                        currentScissor = .some(command.scissor)
                    }
                    if let texture, opaqueTextures.contains(command.texture.id) {
                        // SDL records the blend mode with each queued draw, so it may change between draws.
                        let opaque = Self.isOpaque(command, vertices: vertices, indices: indices)
                        SDL_SetTextureBlendMode(texture, opaque ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
                        if opaque { stats.opaqueDraws += 1 }
                    } else if flat {
                        let opaque = Self.isOpaque(command, vertices: vertices, indices: indices)
                        SDL_SetRenderDrawBlendMode(handle, opaque ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
                        stats.flatDraws += 1
                    }
                    SDL_RenderGeometry(
                        handle, texture, vertices.baseAddress, Int32(vertices.count),
                        indices.baseAddress! + command.indexStart, Int32(command.indexCount))
                    stats.drawCalls += 1
                    stats.triangles += command.indexCount / 3
                }
            }
        }
        stats.vertices += list.vertices.count
        SDL_RenderSetClipRect(handle, nil)
    }

    /// Whether every vertex `command` draws is at full opacity.
    private static func isOpaque(
        _ command: DrawCommand, vertices: UnsafeBufferPointer<SDL_Vertex>,
        indices: UnsafeBufferPointer<Int32>
    ) -> Bool {
        for i in command.indexStart..<command.indexStart + command.indexCount
        where vertices[Int(indices[i])].color.a != 255 {
            return false
        }
        return true
    }

    /// Shows the frame.
    public func present() {
        SDL_RenderPresent(handle)
        if waitsForGPUAfterPresent {
            // Swapping an offscreen (pbuffer) surface does not retire the frame, and Mesa's
            // threaded llvmpipe then keeps every frame's scene: RSS grew 0.5 → 2.5 GB over
            // 1,500 frames. Reading one pixel back waits for the GPU and frees them.
            var pixel: UInt32 = 0
            var rect = SDL_Rect(x: 0, y: 0, w: 1, h: 1)
            SDL_RenderReadPixels(handle, &rect, tessera_pixelformat_rgba32(), &pixel, 4)
        }
    }

    /// Set for SDL's offscreen video driver (see `present`).
    let waitsForGPUAfterPresent = SDLContext.videoDriver == "offscreen"

    /// Reads back the frame drawn so far (call before `present`).
    public func readPixels() throws(RenderError) -> PixelBuffer {
        let (w, h) = outputSize
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        let status = bytes.withUnsafeMutableBytes {
            SDL_RenderReadPixels(handle, nil, tessera_pixelformat_rgba32(), $0.baseAddress, Int32(w * 4))
        }
        if status != 0 { throw RenderError("SDL_RenderReadPixels") }
        return PixelBuffer(width: w, height: h, bytes: bytes)
    }

    /// Writes the frame drawn so far to a PNG file (call before `present`).
    public func saveScreenshot(to path: String) throws(RenderError) {
        try Renderer.writePNG(try readPixels(), to: path)
    }

    /// Encodes `pixels` as a PNG file through SDL2_image.
    public nonisolated static func writePNG(_ pixels: PixelBuffer, to path: String) throws(RenderError) {
        var copy = pixels.bytes
        let status: Int32 = copy.withUnsafeMutableBytes { raw in
            guard
                let surface = SDL_CreateRGBSurfaceWithFormatFrom(
                    raw.baseAddress, Int32(pixels.width), Int32(pixels.height), 32, Int32(pixels.width * 4),
                    tessera_pixelformat_rgba32())
            else { return -1 }
            defer { SDL_FreeSurface(surface) }
            return IMG_SavePNG(surface, path)
        }
        if status != 0 { throw RenderError("writing PNG \(path)") }
    }
}
