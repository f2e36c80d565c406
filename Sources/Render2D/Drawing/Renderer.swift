import CSDL2
import CGLPresent

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
    /// An error that says what went wrong on its own (no SDL call failed).
    init(description: String) { self.description = description }
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
/// renderer.present()  // draws the frame, only where it changed, and shows it
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
    /// The side of the atlas page textures made so far.
    private var atlasTextureSide = GlyphAtlas.pageSize

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
        /// Pixels drawn again: the whole window when the frame was drawn whole, the damaged
        /// regions' area when only they were (see `redrawsOnlyDamage`), 0 when nothing changed.
        public var redrawnArea = 0
        /// Shapes that redrawing damaged regions left out or cut, because a later opaque
        /// rectangle hides them (`RegionPlan`); the region's clear counts as one.
        public var hiddenShapes = 0
        /// Whether the frame was drawn whole.
        public var fullRedraw = false
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
        if let lastFrame { SDL_DestroyTexture(lastFrame) }
        lastFrame = nil
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
        textureGenerations[texture.id, default: 0] += 1
    }

    /// Replaces a region of a texture from raw RGBA rows `pitch` bytes apart.
    public func updateTexture(
        _ texture: TextureHandle, x: Int, y: Int, width: Int, height: Int,
        bytes: UnsafeRawPointer, pitch: Int
    ) throws(RenderError) {
        guard let sdl = textures[texture.id] else { throw RenderError("unknown texture \(texture.id)") }
        var rect = SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height))
        if SDL_UpdateTexture(sdl, &rect, bytes, Int32(pitch)) != 0 { throw RenderError("SDL_UpdateTexture") }
        textureGenerations[texture.id, default: 0] += 1
    }

    /// Frees the GPU texture; drawing the handle afterwards draws nothing.
    public func destroyTexture(_ texture: TextureHandle) {
        if let sdl = textures.removeValue(forKey: texture.id) { SDL_DestroyTexture(sdl) }
        opaqueTextures.remove(texture.id)
        textureGenerations[texture.id] = nil
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

    /// Whether a frame redraws only the regions that changed since the last one (on unless
    /// `TESSERA_FULL_REDRAW=1` is in the environment).
    ///
    /// The last frame is kept in a render target. Each frame's triangles are hashed into
    /// 32-pixel tiles (`DamageTracker`); only the tiles whose hashes differ (cut to where the
    /// changed commands draw, after small changes) are cleared and
    /// drawn again, under a scissor, from the triangles that touch them less what a later
    /// opaque rectangle hides (`RegionPlan`), and the target is
    /// then copied to the window; where the window's back buffer keeps the last frame (SDL's
    /// offscreen driver, `GLX_EXT_buffer_age`), straight into it. With a software GL on X11
    /// (llvmpipe) the frame is presented by copying only its damaged regions to the window
    /// (`GLX_MESA_copy_sub_buffer`) instead of a swap, which copies the whole image. A frame that changes most of
    /// the window (a scroll, a resize) is drawn whole; while such frames come one after another,
    /// only two in sixteen are hashed, so they cost what they did without damage tracking.
    ///
    /// ```swift
    /// renderer.redrawsOnlyDamage = false  // every frame drawn whole, to compare
    /// ```
    public var redrawsOnlyDamage = SDL_getenv("TESSERA_FULL_REDRAW").map { String(cString: $0) } != "1"

    private var damageTracker = DamageTracker()
    /// The render target holding the last frame, while redrawing only damage.
    private var lastFrame: OpaquePointer?
    private var lastFrameSize = (width: 0, height: 0)
    /// Whether `lastFrame` holds the last presented frame (false after a frame drawn straight
    /// to the window, or when the target was lost).
    private var lastFrameIsCurrent = false
    /// Whole-window frames in a row: past two, frames go straight to the window.
    private var fullFramesInARow = 0
    /// Whether the last frame changed only part of the window: the next one likely will too,
    /// so its lists are kept for the one after to compare with (`DamageTracker.beginFrame`).
    private var lastFrameWasPartial = false
    /// Frames in a row whose every pixel reached the window's back buffer (0 after it was lost).
    private var framesInWindow = 0
    /// The damage of the last frames in the window, oldest first (nil: all of it), for a back
    /// buffer up to `maxBackBufferAge` frames old (double and triple buffering).
    private var windowDamageHistory: [[PixelRect]?] = []
    /// The oldest back buffer redrawn from damage; an older one is drawn whole.
    static let maxBackBufferAge = 4
    /// Whether frames are presented by copying their damaged regions to the window
    /// (`GLX_MESA_copy_sub_buffer` with a software GL on X11) rather than by a swap; nil until
    /// asked, after the first present.
    private var presentsRegions: Bool?
    /// The regions the frame drew into the window, to present (nil: all of it).
    private var regionsToPresent: [PixelRect]?
    /// Frames presented: before the first, the back buffer holds nothing.
    private var presentedFrames = 0
    /// Whether the frame in progress hashes its triangles (see `hashes(afterFullFrames:gapNs:)`).
    private var hashesFrame = true
    /// When the last frame began (monotonic ns).
    private var lastFrameNs: UInt64 = 0
    /// The frame in progress: its clear color and lists, drawn by `finishFrame`.
    private var clearColor = Color.black
    private var pendingLists: [DrawList] = []
    private var frameIsPending = false
    /// Whether the finished frame is in `lastFrame` (to be copied to the window by `present`).
    private var frameIsInTarget = false
    /// Content generations of textures replaced in place (`updateTexture`).
    private var textureGenerations: [UInt32: UInt64] = [:]
    /// What redrawing a damaged region draws (reused from region to region).
    private var regionPlan = RegionPlan()
    /// The planned draws of the regions drawn together (reused from frame to frame).
    private var regionBatch = RegionBatch()

    /// Starts a frame cleared to `clearColor` and resets the per-frame counters.
    public func beginFrame(clearColor: Color) {
        stats = Stats()
        self.clearColor = clearColor
        pendingLists.removeAll(keepingCapacity: true)
        frameIsPending = true
        let now = MonotonicClock.nanoseconds()
        hashesFrame = redrawsOnlyDamage && Self.hashes(afterFullFrames: fullFramesInARow, gapNs: now &- lastFrameNs)
        lastFrameNs = now
        guard hashesFrame else {
            damageTracker.invalidate()
            return
        }
        let (w, h) = outputSize
        let seed =
            UInt64(clearColor.r) | UInt64(clearColor.g) << 8 | UInt64(clearColor.b) << 16
            | UInt64(clearColor.a) << 24 | UInt64(atlas.generation) << 32
        damageTracker.beginFrame(width: w, height: h, seed: seed, remembers: lastFrameWasPartial)
    }

    /// Whether a frame hashes its triangles, after `fullFrames` whole-window changes in a row
    /// and `gapNs` since the last frame began. While whole-window changes come frame after
    /// frame (a scroll, an animation over the window, a bench), hashing would cost a frame of
    /// 40,000 glyphs 0.6 ms for nothing: only two frames in sixteen hash, enough to see the
    /// change end. A frame after a pause (a tenth of a second) always hashes.
    nonisolated static func hashes(afterFullFrames fullFrames: Int, gapNs: UInt64) -> Bool {
        fullFrames < 2 || gapNs > 100_000_000 || fullFrames % 16 >= 14
    }

    /// Forgets the kept frame, so the next frame is drawn whole: call it when the GPU lost
    /// the render targets' contents (`SDL_RENDER_TARGETS_RESET`, `SDL_RENDER_DEVICE_RESET`).
    /// The frames after it hash again: a frame drawn whole on request is no sign that the
    /// window keeps changing whole.
    public func invalidateLastFrame() {
        lastFrameIsCurrent = false
        framesInWindow = 0
        fullFramesInARow = 0
        lastFrameWasPartial = false
        damageTracker.invalidate()
    }

    /// Creates textures for new atlas pages and uploads what was added to them since last frame.
    private func syncAtlas() {
        if atlasTextureSide != atlas.pageSide {  // the pages grew: textures of the new size
            for texture in atlasTextures { SDL_DestroyTexture(texture) }
            atlasTextures.removeAll()
            atlasTextureSide = atlas.pageSide
        }
        atlas.drainDirtyRects { page, dirty, pixels, pitch in
            while atlasTextures.count <= page {
                let size = Int32(atlas.pageSide)
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

    /// Adds a draw list to the frame; lists are drawn in the order they are added. The frame is
    /// drawn by `present` or `readPixels`: do not change `list` before then (that would copy it).
    public func draw(_ list: DrawList) {
        syncAtlas()
        if !frameIsPending { beginFrame(clearColor: clearColor) }
        guard list.indexCount > 0 else { return }  // no command (without building the list of them)
        // The tracker takes every list kept here, in the same order: `redraw` asks it for the
        // bounds of a pending list's commands by the list's index.
        if hashesFrame {
            damageTracker.add(list) { [textureGenerations] texture in textureGenerations[texture.id] ?? 0 }
        }
        pendingLists.append(list)
    }

    /// Draws the frame begun by `beginFrame`: whole, or only where it changed.
    public func finishFrame() {
        guard frameIsPending else { return }
        frameIsPending = false
        defer { pendingLists.removeAll(keepingCapacity: true) }
        let damage = hashesFrame ? damageTracker.endFrame() : .full
        regionsToPresent = nil  // all of it, unless only regions are drawn into the window
        let (w, h) = outputSize
        fullFramesInARow = damage == .full ? fullFramesInARow + 1 : 0
        lastFrameWasPartial = damage != .full
        let age = redrawsOnlyDamage ? backBufferAge() : 0
        if (1...Self.maxBackBufferAge).contains(age) {
            drawIntoWindow(damage, backBufferAge: age, width: w, height: h)
        } else {
            drawThroughKeptFrame(damage, width: w, height: h)
        }
    }

    /// The back buffer holds the frame of `backBufferAge` frames ago: redraw this frame's damage,
    /// and that of the frames since the back buffer was drawn, straight into it.
    private func drawIntoWindow(_ damage: Damage, backBufferAge age: Int, width: Int, height: Int) {
        SDL_SetRenderTarget(handle, nil)
        frameIsInTarget = false
        lastFrameIsCurrent = false
        let thisFrame: [PixelRect]?
        switch damage {
        case .none: thisFrame = []
        case .regions(let regions): thisFrame = regions
        case .full: thisFrame = nil
        }
        let regions =
            framesInWindow >= age
            ? Self.regionsToRedraw(thisFrame: thisFrame, history: windowDamageHistory, backBufferAge: age) : nil
        windowDamageHistory.append(thisFrame)
        if windowDamageHistory.count > Self.maxBackBufferAge { windowDamageHistory.removeFirst() }
        framesInWindow += 1
        guard let regions else {
            drawWhole(width: width, height: height)
            return
        }
        redraw(regions)
        regionsToPresent = regions
    }

    /// What to redraw in a back buffer `backBufferAge` frames old: this frame's damage and that
    /// of the frames after the one it holds (`history`, oldest first); nil to draw it whole
    /// (some of them were drawn whole, or the history is too short).
    nonisolated static func regionsToRedraw(
        thisFrame: [PixelRect]?, history: [[PixelRect]?], backBufferAge age: Int
    ) -> [PixelRect]? {
        guard age >= 1, history.count >= age - 1 else { return nil }
        var regions = thisFrame
        for older in history.suffix(age - 1).reversed() {  // newest first
            regions = older.flatMap { older in regions.map { $0 + older } }
        }
        return regions
    }

    /// No back buffer to trust: the frame is kept in a render target and copied to the window
    /// by `present`; after two whole-window changes in a row, frames go straight to the window.
    private func drawThroughKeptFrame(_ damage: Damage, width: Int, height: Int) {
        // `present` copies the whole frame to the window: its back buffer then holds it too.
        framesInWindow += 1
        windowDamageHistory.append(nil)
        if windowDamageHistory.count > Self.maxBackBufferAge { windowDamageHistory.removeFirst() }
        if damage != .full, lastFrameIsCurrent, lastFrameSize == (width, height), let lastFrame {
            SDL_SetRenderTarget(handle, lastFrame)
            frameIsInTarget = true
            guard case .regions(let regions) = damage else { return }
            redraw(regions)
            return
        }
        let intoTarget = redrawsOnlyDamage && fullFramesInARow <= 2
        frameIsInTarget = intoTarget && makeLastFrameTarget(width: width, height: height)
        SDL_SetRenderTarget(handle, frameIsInTarget ? lastFrame : nil)
        lastFrameIsCurrent = frameIsInTarget
        drawWhole(width: width, height: height)
    }

    private func drawWhole(width: Int, height: Int) {
        SDL_RenderSetClipRect(handle, nil)
        SDL_SetRenderDrawColor(handle, clearColor.r, clearColor.g, clearColor.b, clearColor.a)
        SDL_RenderClear(handle)
        for list in pendingLists { submit(list) }
        stats.redrawnArea = width * height
        stats.fullRedraw = true
    }

    /// How many frames ago the window's back buffer was drawn, when the driver says: 1 on SDL's
    /// offscreen driver (one pbuffer, kept between frames), `GLX_EXT_buffer_age`'s answer on
    /// X11 (after the first present; 2 or 3 where the driver flips double or triple buffers);
    /// 0 (unknown) otherwise.
    private func backBufferAge() -> Int {
        guard name == "opengl" else { return 0 }
        // The first frame too: it is drawn whole either way, and a render target would only
        // cost its creation and one more shader for llvmpipe to compile (7 ms of a 79 ms start).
        if SDLContext.videoDriver == "offscreen" { return 1 }
        // Presenting by copying regions leaves the back buffer as it is: it holds the last frame.
        if presentsRegions == true { return 1 }
        guard presentedFrames > 0, let window = SDL_RenderGetWindow(handle) else { return 0 }
        return Int(tessera_glx_back_buffer_age(window))
    }

    /// (Re)creates the render target that keeps the last frame; false when SDL cannot.
    private func makeLastFrameTarget(width: Int, height: Int) -> Bool {
        if lastFrame != nil, lastFrameSize == (width, height) { return true }
        if let lastFrame { SDL_DestroyTexture(lastFrame) }
        lastFrame = nil
        guard width > 0, height > 0,
            let texture = SDL_CreateTexture(
                handle, tessera_pixelformat_rgba32(), Int32(SDL_TEXTUREACCESS_TARGET.rawValue), Int32(width),
                Int32(height))
        else {
            Log.error("the last frame's render target: \(String(cString: SDL_GetError())); drawing every frame whole")
            redrawsOnlyDamage = false
            return false
        }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
        SDL_SetTextureScaleMode(texture, SDL_ScaleModeNearest)
        lastFrame = texture
        lastFrameSize = (width, height)
        return true
    }

    /// Clears each of `regions` of the kept frame and draws into it, under its scissor, the
    /// triangles of every pending list that touch it, less what later opaque rectangles hide
    /// (`RegionPlan`). The regions, cut so that they share no pixel, are drawn as one batch
    /// (`RegionBatch`); past `RegionBatch.disjoint`'s limit, one region at a time.
    private func redraw(_ regions: [PixelRect]) {
        let pieces = RegionBatch.disjoint(regions, limit: 2 * regions.count + 8)
        regionPlan.prepare(for: pieces ?? regions)
        if let pieces {
            drawBatch(of: pieces[...])
        } else {
            for i in regions.indices { drawBatch(of: regions[i...i]) }
        }
    }

    /// Plans `regions` (which share no pixel), then clears and draws them as one batch.
    private func drawBatch(of regions: ArraySlice<PixelRect>) {
        regionBatch.removeAll()
        for region in regions {
            regionPlan.make(
                for: region, lists: pendingLists, solid: (atlas.whiteTexture, atlas.whiteUV),
                drawable: { $0 == .flat || sdlTexture($0) != nil },
                opaqueTexture: { $0 == .flat || opaqueTextures.contains($0.id) },
                bounds: { damageTracker.bounds(ofCommand: $1, inList: $0) })
            regionBatch.add(regionPlan)
            stats.redrawnArea += region.area
            stats.hiddenShapes += regionPlan.hiddenShapes
            stats.vertices += regionPlan.vertices.count
        }
        regionBatch.order()
        SDL_RenderSetClipRect(handle, nil)  // each piece lies within its region
        if !regionBatch.clearPieces.isEmpty {
            SDL_SetRenderDrawBlendMode(handle, SDL_BLENDMODE_NONE)
            SDL_SetRenderDrawColor(handle, clearColor.r, clearColor.g, clearColor.b, clearColor.a)
            regionBatch.clearPieces.withUnsafeBufferPointer {
                _ = SDL_RenderFillRectsF(handle, $0.baseAddress, Int32($0.count))
            }
        }
        var currentClip: SDL_Rect?
        regionBatch.vertices.withUnsafeBufferPointer { vertices in
            for draw in regionBatch.draws {
                let flat = draw.texture == .flat, texture = flat ? nil : sdlTexture(draw.texture)
                let clip = draw.needsClip ? draw.clip : nil
                if !Self.same(currentClip, clip) {
                    currentClip = clip
                    if var rect = clip {
                        SDL_RenderSetClipRect(handle, &rect)
                    } else {
                        SDL_RenderSetClipRect(handle, nil)
                    }
                }
                setBlendMode(texture: texture, of: draw.texture, opaque: draw.blendsNone)
                SDL_RenderGeometry(
                    handle, texture, vertices.baseAddress! + draw.vertexStart, Int32(draw.vertexCount), nil, 0)
                stats.drawCalls += 1
                stats.triangles += draw.vertexCount / 3
            }
        }
        SDL_RenderSetClipRect(handle, nil)
    }

    /// Sets how a draw with the texture `drawn` (`texture` in SDL) blends: not at all when it
    /// is opaque (`opaque`) and its texture is flat or of opaque pixels. SDL records the mode
    /// with each queued draw, so it may change between draws.
    private func setBlendMode(texture: OpaquePointer?, of drawn: TextureHandle, opaque: Bool) {
        if let texture, opaqueTextures.contains(drawn.id) {
            SDL_SetTextureBlendMode(texture, opaque ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
            if opaque { stats.opaqueDraws += 1 }
        } else if drawn == .flat {
            SDL_SetRenderDrawBlendMode(handle, opaque ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
            stats.flatDraws += 1
        }
    }

    /// Submits a draw list whole: one `SDL_RenderGeometry` call per command.
    private func submit(_ list: DrawList) {
        let commands = list.commands
        guard !commands.isEmpty else { return }
        var currentScissor: SDL_Rect?? = .none  // none: not set yet in this list
        list.vertices.withUnsafeBufferPointer { vertices in
            list.indices.withUnsafeBufferPointer { indices in
                for command in commands where command.indexCount > 0 {
                    let flat = command.texture == .flat, texture = flat ? nil : sdlTexture(command.texture)
                    guard flat || texture != nil else { continue }
                    let scissor = command.scissor.map(RegionPlan.pixelRect)
                    if currentScissor.map({ Self.same($0, scissor) }) != true {
                        if var rect = scissor {
                            SDL_RenderSetClipRect(handle, &rect)
                        } else {
                            SDL_RenderSetClipRect(handle, nil)
                        }
                        currentScissor = .some(scissor)
                    }
                    if flat || opaqueTextures.contains(command.texture.id) {
                        let opaque = RegionPlan.isOpaque(command, vertices: vertices, indices: indices)
                        setBlendMode(texture: texture, of: command.texture, opaque: opaque)
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

    private static func same(_ a: SDL_Rect?, _ b: SDL_Rect?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.x == b.x && a.y == b.y && a.w == b.w && a.h == b.h
    }

    /// Shows the frame.
    public func present() {
        finishFrame()
        if frameIsInTarget, let lastFrame {
            SDL_SetRenderTarget(handle, nil)
            SDL_RenderSetClipRect(handle, nil)
            SDL_RenderCopy(handle, lastFrame, nil, nil)
            frameIsInTarget = false
        }
        if presentsRegions == true, let window = SDL_RenderGetWindow(handle) {
            presentRegions(of: window)
        } else {
            SDL_RenderPresent(handle)
        }
        presentedFrames += 1
        if presentsRegions == nil, redrawsOnlyDamage, name == "opengl", SDLContext.videoDriver == "x11",
            let window = SDL_RenderGetWindow(handle)
        {
            // Asked once, after a present (the context is then current): a software GL on X11.
            presentsRegions = tessera_glx_can_copy_sub_buffer(window) != 0
            if presentsRegions == true {
                framesInWindow = 0  // the swap left the back buffer undefined
                Log.info("software GL on X11: frames present only their damaged regions (GLX_MESA_copy_sub_buffer)")
            }
        }
        if waitsForGPUAfterPresent {
            // Swapping an offscreen (pbuffer) surface does not retire the frame, and Mesa's
            // threaded llvmpipe then keeps every frame's scene: RSS grew 0.5 → 2.5 GB over
            // 1,500 frames. Reading one pixel back waits for the GPU and frees them.
            var pixel: UInt32 = 0
            var rect = SDL_Rect(x: 0, y: 0, w: 1, h: 1)
            SDL_RenderReadPixels(handle, &rect, tessera_pixelformat_rgba32(), &pixel, 4)
        }
    }

    /// Copies the regions drawn this frame (the whole window after a whole frame) from the back
    /// buffer to the window, instead of a swap, which would copy all of it. Regions near each
    /// other are copied as their bounding box: a copy costs as much as 24,000 pixels.
    private func presentRegions(of window: OpaquePointer) {
        SDL_RenderFlush(handle)
        let (w, h) = outputSize
        let regions =
            regionsToPresent.map { DamageTracker.mergedWhereCheaper($0, regionCost: DamageTracker.presentCostInPixels) }
            ?? [PixelRect(x: 0, y: 0, width: w, height: h)]
        for region in regions {
            // GL counts rows from the bottom.
            tessera_glx_copy_sub_buffer(
                window, Int32(region.x), Int32(h - region.y - region.height), Int32(region.width),
                Int32(region.height))
        }
    }

    /// Set for SDL's offscreen video driver (see `present`).
    let waitsForGPUAfterPresent = SDLContext.videoDriver == "offscreen"

    /// Reads back the frame drawn so far (call before `present`).
    public func readPixels() throws(RenderError) -> PixelBuffer {
        finishFrame()
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

    /// Writes `pixels` to `path` as a PNG file (`PNGEncoder`), replacing the file atomically:
    /// a reader sees the old file or the new one, never half of one.
    ///
    /// ```swift
    /// try Renderer.writePNG(try renderer.readPixels(), to: "/tmp/frame.png")
    /// ```
    public nonisolated static func writePNG(_ pixels: PixelBuffer, to path: String) throws(RenderError) {
        do {
            try RegularFile.replace(try PNGEncoder.encode(pixels), at: path)
        } catch {
            throw RenderError(description: "writing PNG \(path): \(error)")
        }
    }
}
