import CSDL2
#if canImport(Glibc)
    import Glibc
#endif

/// A texture known to the `Renderer`. A small value: copy it freely; the renderer owns the
/// GPU object, created with `Renderer.makeTexture` and freed with `Renderer.destroyTexture`.
public struct TextureHandle: Hashable, Sendable {
    public let id: UInt32
    /// A handle for the renderer's texture `id`.
    public init(id: UInt32) { self.id = id }
    /// No texture: the renderer substitutes the atlas page that holds the white texel.
    public static let none = TextureHandle(id: 0)
    /// No texture at all: flat color, without blending where every vertex is opaque. A large
    /// rectangle is drawn so (see `DrawList.flatArea`), which a software rasterizer fills
    /// for half the work of sampling the white texel and blending.
    public static let flat = TextureHandle(id: 0x7FFF_FFFF)
}

/// One batched draw: a run of indices drawn with one texture and one (optional) scissor.
public struct DrawCommand: Equatable, Sendable {
    /// The texture the command's triangles sample.
    public var texture: TextureHandle
    /// Scissor rectangle in physical pixels, or nil when every vertex was clipped on the CPU.
    public var scissor: Rect?
    /// The command's first index in `indices`.
    public var indexStart: Int
    /// How many indices the command draws (three per triangle).
    public var indexCount: Int
}

/// Geometry for one frame of one layer, in physical pixels, ready for `SDL_RenderGeometry`.
///
/// The public API takes logical coordinates and multiplies by `scale`. Solid shapes sample
/// the white texel of the glyph atlas so they batch with text: a frame of rectangles and text
/// is one command per clip run (rectangles of `flatArea` pixels or more are filled flat
/// instead). Axis-aligned quads (rects, glyphs, images) are clipped on the CPU and never need
/// a scissor; other shapes that straddle a clip edge get one.
///
/// ```swift
/// list.pushClip(Rect(x: 0, y: 0, width: 200, height: 100))
/// list.addRoundedRect(Rect(x: 10, y: 10, width: 80, height: 24), radius: 6, color: .blue)
/// list.popClip()
/// ```
public struct DrawList {
    /// Vertex and index storage: grown geometrically, written through pointers, and only
    /// the first `vertexCount` / `indexCount` elements are live.
    private var vertexStorage: [SDL_Vertex] = []
    private var indexStorage: [Int32] = []
    /// How many vertices are live.
    public private(set) var vertexCount = 0
    /// How many indices are live.
    public private(set) var indexCount = 0
    /// The live vertices, in physical pixels.
    public var vertices: ArraySlice<SDL_Vertex> { vertexStorage[..<vertexCount] }
    /// The live indices, three per triangle.
    public var indices: ArraySlice<Int32> { indexStorage[..<indexCount] }
    /// Vertices and indices the storage holds room for (written, so taking memory).
    var storageCounts: (vertices: Int, indices: Int) { (vertexStorage.count, indexStorage.count) }

    /// Where each texture/scissor run starts; counts are derived when `commands` is read.
    private var runs: [DrawCommand] = []

    /// The batched draw commands, in order (empty runs left out).
    public var commands: [DrawCommand] {
        var result: [DrawCommand] = []
        result.reserveCapacity(runs.count)
        for (i, run) in runs.enumerated() {
            let end = i + 1 < runs.count ? runs[i + 1].indexStart : indexCount
            guard end > run.indexStart else { continue }
            var command = run
            command.indexCount = end - run.indexStart
            result.append(command)
        }
        return result
    }

    /// Physical pixels per logical pixel.
    public var scale: Double = 1
    /// The texture whose `whiteUV` texel is opaque white; set by the renderer each frame.
    public var solidTexture = TextureHandle.none
    /// The texture coordinates of the solid texture's white texel.
    public var whiteUV = SIMD2<Float>(0, 0)

    private var clipStack: [Rect] = []
    /// Current clip in physical pixels.
    private var clipPx = Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9)
    private var path: [SIMD2<Float>] = []
    private var normals: [SIMD2<Float>] = []
    /// The shape being made, for shapes not kept.
    private var scratch = Tessellation()
    /// Rounded rectangles tessellated before, placed again by moving them.
    private(set) var roundedRects = RoundedRectShapes()
    /// Drawings of one color made before (`addKeptShape`), placed again by moving them.
    var keptShapes = KeptShapes()

    /// Whether lines of text drawn into the list are noted in `drawnText` (off by default;
    /// tests turn it on to find a widget by its label).
    public var recordsText = false
    /// The lines of text drawn since the last `reset`, where they are at least partly visible
    /// through the clip, when `recordsText` is on.
    public private(set) var drawnText: [DrawnText] = []
    /// The vertex count when each noted line was drawn: finds the upright run it moved with.
    private var drawnTextEnds: [Int] = []

    /// An empty list for a display of `scale` physical pixels per logical pixel.
    public init(scale: Double = 1) { self.scale = scale }

    /// Empties the list, keeping its capacity.
    public mutating func reset(scale: Double, solidTexture: TextureHandle, whiteUV: SIMD2<Float>) {
        vertexCount = 0
        indexCount = 0
        runs.removeAll(keepingCapacity: true)
        drawnText.removeAll(keepingCapacity: true)
        drawnTextEnds.removeAll(keepingCapacity: true)
        uprightRuns.removeAll(keepingCapacity: true)
        uprightDepth = 0
        clipStack.removeAll(keepingCapacity: true)
        clipPx = Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9)
        self.scale = scale
        self.solidTexture = solidTexture
        self.whiteUV = whiteUV
    }

    /// How many triangles the list holds.
    public var triangleCount: Int { indexCount / 3 }

    /// Makes room for `v` more vertices and `i` more indices: the storage grows by half at
    /// least (written, so resident: doubling left a screen of 34,000 glyphs 5.2 MB of
    /// vertices where it needed 2.7).
    @inline(__always)
    private mutating func reserveRoom(vertices v: Int, indices i: Int) {
        if vertexCount + v > vertexStorage.count {
            vertexStorage.append(
                contentsOf: repeatElement(
                    SDL_Vertex(), count: max(vertexCount + v - vertexStorage.count, vertexStorage.count / 2, 1024)))
        }
        if indexCount + i > indexStorage.count {
            indexStorage.append(
                contentsOf: repeatElement(
                    0, count: max(indexCount + i - indexStorage.count, indexStorage.count / 2, 1536)))
        }
    }

    @inline(__always)
    private mutating func appendVertex(_ x: Float, _ y: Float, _ color: SDL_Color, _ uv: SDL_FPoint) {
        vertexStorage[vertexCount] = SDL_Vertex(position: SDL_FPoint(x: x, y: y), color: color, tex_coord: uv)
        vertexCount += 1
    }

    @inline(__always)
    private mutating func appendTriangle(_ a: Int32, _ b: Int32, _ c: Int32) {
        indexStorage[indexCount] = a
        indexStorage[indexCount + 1] = b
        indexStorage[indexCount + 2] = c
        indexCount += 3
    }

    // MARK: Clipping

    /// Intersects the current clip with `rect` (logical) until the matching `popClip`.
    public mutating func pushClip(_ rect: Rect) {
        clipStack.append(clipPx)
        let px = Rect(
            x: (rect.x * scale).rounded(), y: (rect.y * scale).rounded(),
            width: (rect.width * scale).rounded(), height: (rect.height * scale).rounded())
        clipPx = clipPx.intersection(px)
    }

    /// Restores the clip that was current before the last `pushClip`.
    public mutating func popClip() {
        if let last = clipStack.popLast() { clipPx = last }
    }

    /// The current clip in logical coordinates.
    public var clipRect: Rect {
        Rect(x: clipPx.x / scale, y: clipPx.y / scale, width: clipPx.width / scale, height: clipPx.height / scale)
    }

    // MARK: Quads (CPU-clipped)

    /// A solid axis-aligned rectangle, its edges on whole physical pixels: a thin one (a
    /// line, a border) keeps one thickness wherever it lies, at least a pixel, so hairlines
    /// stay crisp and even at fractional scales. One of `flatArea` pixels or more (a panel, a
    /// background) is drawn untextured (`TextureHandle.flat`); smaller ones batch with text.
    public mutating func addRect(_ rect: Rect, color: Color) {
        guard color.a > 0 else { return }
        let (x0, x1) = Self.snap(rect.minX * scale, rect.maxX * scale)
        let (y0, y1) = Self.snap(rect.minY * scale, rect.maxY * scale)
        let texture = (x1 - x0) * (y1 - y0) >= Self.flatArea ? TextureHandle.flat : solidTexture
        addQuadPx(x0: x0, y0: y0, x1: x1, y1: y1, uv0: whiteUV, uv1: whiteUV, color: color, texture: texture)
    }

    /// The area in physical pixels from which a rectangle is drawn untextured: a quarter of a
    /// 256-pixel square. Filling it flat saves more than the draw call it may add costs.
    public static let flatArea = 16_384.0

    /// A span's ends on whole pixels: spans under 3 pixels keep their rounded length.
    @inline(__always)
    static func snap(_ a: Double, _ b: Double) -> (Double, Double) {
        let start = a.rounded()
        guard b > a else { return (start, start) }
        return b - a < 3 ? (start, start + max(1, (b - a).rounded())) : (start, b.rounded())
    }

    /// A textured rectangle; `uv` is the source region in 0...1 texture coordinates.
    public mutating func addImage(
        _ texture: TextureHandle, in rect: Rect,
        uv: Rect = Rect(x: 0, y: 0, width: 1, height: 1), tint: Color = .white
    ) {
        let upright = beginUpright()  // a photo is not flipped in a mirrored layout
        defer { endUpright(upright) }
        addQuadPx(
            x0: rect.minX * scale, y0: rect.minY * scale, x1: rect.maxX * scale, y1: rect.maxY * scale,
            uv0: SIMD2(Float(uv.minX), Float(uv.minY)), uv1: SIMD2(Float(uv.maxX), Float(uv.maxY)),
            color: tint, texture: texture)
    }

    /// An axis-aligned quad in physical pixels, clipped on the CPU (UVs follow the clip).
    mutating func addQuadPx(
        x0: Double, y0: Double, x1: Double, y1: Double,
        uv0: SIMD2<Float>, uv1: SIMD2<Float>, color: Color, texture: TextureHandle
    ) {
        withQuadSink(maxQuads: 1, texture: texture) { sink in
            sink.add(
                x0: Float(x0), y0: Float(y0), x1: Float(x1), y1: Float(y1), uv0: uv0, uv1: uv1,
                color: SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a), texture: texture)
        }
    }

    /// Writes up to `maxQuads` CPU-clipped quads straight into the buffers: one capacity
    /// check for a whole text run instead of ten checked appends per glyph.
    @inline(__always)
    mutating func withQuadSink(maxQuads: Int, texture: TextureHandle, _ body: (inout QuadSink) -> Void) {
        reserveRoom(vertices: maxQuads * 4, indices: maxQuads * 6)
        ensureCommand(texture: texture, scissor: nil)
        let c = clipPx
        var changes: [(indexStart: Int, texture: TextureHandle)] = []
        let (v, i) = (vertexCount, indexCount)
        var written = (v, i)
        vertexStorage.withUnsafeMutableBufferPointer { vp in
            indexStorage.withUnsafeMutableBufferPointer { ip in
                var sink = QuadSink(
                    vertices: vp.baseAddress!, indices: ip.baseAddress!,
                    clipX0: Float(c.minX), clipY0: Float(c.minY), clipX1: Float(c.maxX), clipY1: Float(c.maxY),
                    vertexCount: v, indexCount: i, texture: texture, capacity: v + maxQuads * 4)
                body(&sink)
                written = (sink.vertexCount, sink.indexCount)
                changes = sink.textureChanges
            }
        }
        for change in changes {
            runs.append(
                DrawCommand(texture: change.texture, scissor: nil, indexStart: change.indexStart, indexCount: 0))
        }
        (vertexCount, indexCount) = written
    }

    @inline(__always)
    private mutating func ensureCommand(texture: TextureHandle, scissor: Rect?) {
        if let last = runs.last {
            if last.texture == texture && last.scissor == scissor { return }
            if last.indexStart == indexCount { runs.removeLast() }
        }
        runs.append(DrawCommand(texture: texture, scissor: scissor, indexStart: indexCount, indexCount: 0))
    }

    // MARK: Shapes (anti-aliased)

    /// A filled rectangle with rounded corners and a smooth (anti-aliased) edge.
    public mutating func addRoundedRect(_ rect: Rect, radius: Double, color: Color) {
        guard color.a > 0, !rect.isEmpty else { return }
        let r = min(radius, rect.width / 2, rect.height / 2)
        if r * scale < 0.5 {
            addRect(rect, color: color)
            return
        }
        let key = RoundedRectShapes.Key(
            border: false, width: rect.width, height: rect.height, radius: r, thickness: 0, scale: scale)
        addRoundedRectShape(key, at: rect.origin, color: color) {
            $0.buildRoundedRectPath(Rect(origin: .zero, size: rect.size), radius: r)
            $0.tessellateFill()
        }
    }

    /// Places the rounded rectangle `key` with its origin at `origin`, made by `make` (into
    /// `scratch`, at the origin) the first time and kept.
    private mutating func addRoundedRectShape(
        _ key: RoundedRectShapes.Key, at origin: Point, color: Color, make: (inout DrawList) -> Void
    ) {
        let offset = SIMD2(Float(origin.x * scale), Float(origin.y * scale))
        if let shape = roundedRects[key] {
            emit(shape, offset: offset, color: color)
            return
        }
        make(&self)
        roundedRects.keep(scratch, for: key)
        emit(scratch, offset: offset, color: color)
    }

    /// The outline of a (rounded) rectangle, `thickness` logical pixels wide, drawn inside `rect`.
    public mutating func addRectBorder(_ rect: Rect, radius: Double = 0, color: Color, thickness: Double = 1) {
        guard color.a > 0, !rect.isEmpty else { return }
        if radius <= 0 {
            // Four solid quads: exact, crisp and CPU-clipped.
            addRect(Rect(x: rect.x, y: rect.y, width: rect.width, height: thickness), color: color)
            addRect(Rect(x: rect.x, y: rect.maxY - thickness, width: rect.width, height: thickness), color: color)
            addRect(
                Rect(x: rect.x, y: rect.y + thickness, width: thickness, height: max(0, rect.height - 2 * thickness)),
                color: color)
            addRect(
                Rect(
                    x: rect.maxX - thickness, y: rect.y + thickness, width: thickness,
                    height: max(0, rect.height - 2 * thickness)), color: color)
            return
        }
        let key = RoundedRectShapes.Key(
            border: true, width: rect.width, height: rect.height, radius: radius, thickness: thickness, scale: scale)
        addRoundedRectShape(key, at: rect.origin, color: color) {
            let half = thickness / 2
            let inner = Rect(origin: .zero, size: rect.size).insetBy(dx: half, dy: half)
            $0.buildRoundedRectPath(inner, radius: max(0, min(radius - half, inner.width / 2, inner.height / 2)))
            $0.tessellateStroke(thickness: thickness, closed: true)
        }
    }

    /// A straight line with square ends.
    public mutating func addLine(from a: Point, to b: Point, color: Color, thickness: Double = 1) {
        addPolyline([a, b], color: color, thickness: thickness)
    }

    /// Connected line segments with mitred joins.
    public mutating func addPolyline(_ points: [Point], color: Color, thickness: Double = 1, closed: Bool = false) {
        guard color.a > 0, points.count >= 2 else { return }
        path.removeAll(keepingCapacity: true)
        for p in points { path.append(SIMD2(Float(p.x * scale), Float(p.y * scale))) }
        strokePath(color: color, thickness: thickness, closed: closed)
    }

    /// A filled circle.
    public mutating func addCircle(center: Point, radius: Double, color: Color) {
        guard color.a > 0, radius > 0 else { return }
        path.removeAll(keepingCapacity: true)
        appendCirclePath(center: center, radius: radius)
        fillPath(color: color)
    }

    /// The outline of a circle.
    public mutating func addCircleBorder(center: Point, radius: Double, color: Color, thickness: Double = 1) {
        guard color.a > 0, radius > 0 else { return }
        path.removeAll(keepingCapacity: true)
        appendCirclePath(center: center, radius: radius)
        strokePath(color: color, thickness: thickness, closed: true)
    }

    /// A filled polygon that is star-shaped from its centroid (every convex polygon, and
    /// shapes like a five-point star), with an anti-aliased edge.
    public mutating func addPolygon(_ points: [Point], color: Color) {
        guard color.a > 0, points.count >= 3 else { return }
        path.removeAll(keepingCapacity: true)
        for p in points { path.append(SIMD2(Float(p.x * scale), Float(p.y * scale))) }
        fillPath(color: color)
    }

    /// Segments a quarter circle of `radius` takes: 2 to 24 (2 for a radius that is not a number).
    private func segmentCount(radius: Double) -> Int {
        let segments = (radius * scale / 2).rounded(.up)
        return segments >= 24 ? 24 : segments >= 2 ? Int(segments) : 2  // false for NaN
    }

    private mutating func buildRoundedRectPath(_ rect: Rect, radius r: Double) {
        path.removeAll(keepingCapacity: true)
        let arc = Self.quarterCircles[segmentCount(radius: r)]
        // The corners clockwise from the top right, each a quarter turn on from the last.
        for corner in 0..<4 {
            let cx = corner < 2 ? rect.maxX - r : rect.minX + r,
                cy = corner == 0 || corner == 3 ? rect.minY + r : rect.maxY - r
            for unit in arc {
                let d = Self.turn(unit, quarters: corner + 3)
                path.append(SIMD2(Float((cx + r * d.x) * scale), Float((cy + r * d.y) * scale)))
            }
        }
    }

    /// A circle's points, `4 × segmentCount` of them clockwise from its rightmost.
    private mutating func appendCirclePath(center: Point, radius: Double) {
        let arc = Self.quarterCircles[segmentCount(radius: radius)]
        for quarter in 0..<4 {
            for unit in arc.dropLast() {
                let d = Self.turn(unit, quarters: quarter)
                path.append(SIMD2(Float((center.x + radius * d.x) * scale), Float((center.y + radius * d.y) * scale)))
            }
        }
    }

    /// For each segment count `n` a shape may use, the unit vectors at `i / n` of a quarter
    /// turn (`i` in `0...n`): shapes turn these instead of calling `cos` and `sin` every frame.
    private static let quarterCircles: [[SIMD2<Double>]] = (0...24).map { n in
        (0...max(1, n)).map { i in
            let t = Double(i) / Double(max(1, n)) * Double.pi / 2
            return SIMD2(cos(t), sin(t))
        }
    }

    /// `v` turned `quarters` quarter turns clockwise on screen (y grows down).
    @inline(__always) private static func turn(_ v: SIMD2<Double>, quarters: Int) -> SIMD2<Double> {
        switch quarters & 3 {
        case 0: v
        case 1: SIMD2(-v.y, v.x)
        case 2: -v
        default: SIMD2(v.y, -v.x)
        }
    }

    /// Picks the command for a shape with pixel bounds `b`: nil when it is clipped away,
    /// otherwise whether it needs the scissor.
    private mutating func beginShape(bounds b: (Float, Float, Float, Float)) -> Bool {
        let c = clipPx
        let (x0, y0, x1, y1) = (Double(b.0), Double(b.1), Double(b.2), Double(b.3))
        if x1 <= c.x || y1 <= c.y || x0 >= c.maxX || y0 >= c.maxY { return false }
        let inside = x0 >= c.x && y0 >= c.y && x1 <= c.maxX && y1 <= c.maxY
        ensureCommand(texture: solidTexture, scissor: inside ? nil : c)
        return true
    }

    private func pathBounds(margin: Float) -> (x0: Float, y0: Float, x1: Float, y1: Float) {
        var lo = path[0], hi = path[0]
        for p in path {
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        }
        return (lo.x - margin, lo.y - margin, hi.x + margin, hi.y + margin)
    }

    /// Drops points that repeat their predecessor (a capsule's arcs meet in one point): a
    /// zero-length edge has no normal and would tear the anti-aliased fringe.
    private mutating func removeDuplicatePoints(closed: Bool) {
        var kept = 0
        for i in path.indices {
            let d = path[i] - (kept > 0 ? path[kept - 1] : SIMD2(.infinity, .infinity))
            if kept == 0 || (d * d).sum() > 1e-4 {
                path[kept] = path[i]
                kept += 1
            }
        }
        path.removeSubrange(kept...)
        if closed, path.count > 1 {
            let d = path[path.count - 1] - path[0]
            if (d * d).sum() <= 1e-4 { path.removeLast() }
        }
    }

    /// Places `shape` moved by `offset`, in `color`.
    private mutating func emit(_ shape: Tessellation, offset: SIMD2<Float>, color: Color) {
        let solid = Self.bits(color, alpha: UInt8(Float(color.a) * shape.solidAlpha)), fade = Self.bits(color, alpha: 0)
        shape.solid.withUnsafeBufferPointer { isSolid in
            place(shape.positions, shape.indices, bounds: shape.bounds, offset: offset) { isSolid[$0] ? solid : fade }
        }
    }

    /// Places the kept drawing `shape` moved by `offset`, in `color`.
    mutating func emit(_ shape: KeptShapes.Shape, offset: SIMD2<Float>, color: Color) {
        let alpha = UInt32(color.a), rgb = Self.bits(color, alpha: 0)
        shape.alphas.withUnsafeBufferPointer { alphas in
            place(shape.positions, shape.indices, bounds: shape.bounds, offset: offset) {
                rgb | ((alpha &* UInt32(alphas[$0]) &+ 127) / 255) << 24
            }
        }
    }

    /// `color` with `alpha`, as the bits of an `SDL_Color` (r, g, b, a in memory order): one
    /// store a vertex rather than four.
    @inline(__always)
    private static func bits(_ color: Color, alpha: UInt8) -> UInt32 {
        UInt32(color.r) | UInt32(color.g) << 8 | UInt32(color.b) << 16 | UInt32(alpha) << 24
    }

    /// Appends triangles (`indices` into `positions`, in physical pixels) moved by `offset`,
    /// vertex `k` in the color whose bits (`bits(_:alpha:)`) are `color(k)`, unless `bounds`
    /// (moved) is outside the clip.
    @inline(__always)
    private mutating func place(
        _ positions: [SIMD2<Float>], _ indices: [Int32], bounds b: (x0: Float, y0: Float, x1: Float, y1: Float),
        offset: SIMD2<Float>, color: (Int) -> UInt32
    ) {
        guard !indices.isEmpty else { return }
        guard beginShape(bounds: (b.x0 + offset.x, b.y0 + offset.y, b.x1 + offset.x, b.y1 + offset.y)) else { return }
        reserveRoom(vertices: positions.count, indices: indices.count)
        let firstVertex = vertexCount, firstIndex = indexCount
        // Through pointers, with wrapping arithmetic (`reserveRoom` made the room, and the
        // indices of a kept shape are small): no overflow checks, and the index loop vectorizes.
        // A vertex is three stores: its position, its color's 4 bytes at once, its texture
        // coordinates.
        let uv = whiteUV
        let stride = MemoryLayout<SDL_Vertex>.stride
        let colorOffset = MemoryLayout<SDL_Vertex>.offset(of: \.color)!
        let uvOffset = MemoryLayout<SDL_Vertex>.offset(of: \.tex_coord)!
        vertexStorage.withUnsafeMutableBufferPointer { out in
            positions.withUnsafeBufferPointer { positions in
                let to = UnsafeMutableRawPointer(out.baseAddress! + firstVertex)
                for k in 0..<positions.count {
                    let vertex = to + k &* stride
                    vertex.storeBytes(of: positions[k] + offset, as: SIMD2<Float>.self)
                    vertex.storeBytes(of: color(k), toByteOffset: colorOffset, as: UInt32.self)
                    vertex.storeBytes(of: uv, toByteOffset: uvOffset, as: SIMD2<Float>.self)
                }
            }
        }
        let base = Int32(firstVertex)
        indexStorage.withUnsafeMutableBufferPointer { out in
            indices.withUnsafeBufferPointer { indices in
                let to = out.baseAddress! + firstIndex
                for k in 0..<indices.count { to[k] = base &+ indices[k] }
            }
        }
        vertexCount += positions.count
        indexCount += indices.count
    }

    /// Fills `path` (star-shaped from its centroid) with a 1-pixel anti-aliased fringe.
    private mutating func fillPath(color: Color) {
        tessellateFill()
        emit(scratch, offset: .zero, color: color)
    }

    /// `path` filled (star-shaped from its centroid) with a 1-pixel anti-aliased fringe, into `scratch`.
    private mutating func tessellateFill() {
        scratch.removeAll()
        removeDuplicatePoints(closed: true)
        let n = path.count
        guard n >= 3 else { return }
        scratch.bounds = pathBounds(margin: 1)
        computeNormals(closed: true)
        // Orientation decides which side of the edge is "outside".
        var area: Float = 0
        for i in 0..<n {
            let a = path[i], b = path[(i + 1) % n]
            area += a.x * b.y - b.x * a.y
        }
        let outward: Float = area >= 0 ? 1 : -1
        var centroid = SIMD2<Float>(0, 0)
        for p in path { centroid += p }
        centroid /= Float(n)
        scratch.append(centroid, solid: true)
        for i in 0..<n {
            scratch.append(path[i] + normals[i] * (-0.5 * outward), solid: true)
            scratch.append(path[i] + normals[i] * (0.5 * outward), solid: false)
        }
        for i in 0..<n {
            let j = (i + 1) % n
            let ii = 1 + Int32(2 * i), io = ii + 1
            let ji = 1 + Int32(2 * j), jo = ji + 1
            scratch.appendTriangle(0, ii, ji)
            scratch.appendTriangle(ii, io, jo)
            scratch.appendTriangle(ii, jo, ji)
        }
    }

    /// Strokes `path` with mitred joins and a 1-pixel anti-aliased fringe on both sides.
    private mutating func strokePath(color: Color, thickness: Double, closed: Bool) {
        tessellateStroke(thickness: thickness, closed: closed)
        emit(scratch, offset: .zero, color: color)
    }

    /// `path` stroked `thickness` logical pixels wide, with mitred joins and a 1-pixel
    /// anti-aliased fringe on both sides, into `scratch`.
    private mutating func tessellateStroke(thickness: Double, closed: Bool) {
        scratch.removeAll()
        removeDuplicatePoints(closed: closed)
        let n = path.count
        guard n >= 2 else { return }
        let widthPx = Float(max(thickness * scale, 1))
        scratch.bounds = pathBounds(margin: widthPx / 2 + 1)
        computeNormals(closed: closed)
        // Thin lines get their coverage from alpha rather than a sub-pixel core (a negative
        // thickness none: the alpha must stay in 0...1 to be a byte).
        scratch.solidAlpha = max(0, min(1, Float(thickness * scale)))
        let core = max(widthPx - 1, 0) / 2
        let fringe = core + 1
        for i in 0..<n {
            let p = path[i], nm = normals[i]
            scratch.append(p - nm * fringe, solid: false)
            scratch.append(p - nm * core, solid: true)
            scratch.append(p + nm * core, solid: true)
            scratch.append(p + nm * fringe, solid: false)
        }
        for s in 0..<(closed ? n : n - 1) {
            let a = Int32(4 * s), b = Int32(4 * ((s + 1) % n))
            for k in Int32(0)..<3 {
                scratch.appendTriangle(a + k, a + k + 1, b + k + 1)
                scratch.appendTriangle(a + k, b + k + 1, b + k)
            }
        }
    }

    /// Per-vertex miter normals of `path` (scaled so the stroke keeps its width at joins).
    private mutating func computeNormals(closed: Bool) {
        let n = path.count
        normals.removeAll(keepingCapacity: true)
        func edgeNormal(_ i: Int) -> SIMD2<Float> {
            let a = path[i], b = path[(i + 1) % n]
            var d = b - a
            let len = (d * d).sum().squareRoot()
            if len > 0 { d /= len }
            return SIMD2(d.y, -d.x)
        }
        for i in 0..<n {
            let hasPrev = closed || i > 0, hasNext = closed || i < n - 1
            let prev = hasPrev ? edgeNormal((i - 1 + n) % n) : edgeNormal(i)
            let next = hasNext ? edgeNormal(i) : prev
            var m = prev + next
            let d2 = (m * m).sum()
            if d2 < 1e-6 {
                normals.append(next)
                continue
            }
            m /= d2.squareRoot()
            let cosHalf = max((m * next).sum(), 0.25)  // limit the miter to 4× the width
            normals.append(m / cosHalf)
        }
    }

    // MARK: Undo

    /// A point in the list that `truncate(to:)` can return to.
    public struct Mark: Sendable {
        let vertexCount: Int, indexCount: Int, runCount: Int, drawnTextCount: Int
    }

    /// The current end of the list, to return to with `truncate(to:)`.
    public var mark: Mark {
        Mark(vertexCount: vertexCount, indexCount: indexCount, runCount: runs.count, drawnTextCount: drawnText.count)
    }

    /// Drops everything added since `mark` (used to measure content without showing it).
    public mutating func truncate(to mark: Mark) {
        while let last = uprightRuns.last, last.start >= mark.vertexCount { uprightRuns.removeLast() }
        vertexCount = mark.vertexCount
        indexCount = mark.indexCount
        runs.removeSubrange(mark.runCount...)
        drawnText.removeSubrange(mark.drawnTextCount...)
        drawnTextEnds.removeSubrange(mark.drawnTextCount...)
    }

    /// Multiplies the opacity of everything added since `mark` by `opacity` (0...1): how a
    /// disabled control is dimmed after it drew itself.
    public mutating func fade(since mark: Mark, opacity: Double) {
        let factor = Float(min(max(opacity, 0), 1))
        vertexStorage.withUnsafeMutableBufferPointer { v in
            for i in mark.vertexCount..<vertexCount {
                v[i].color.a = UInt8((Float(v[i].color.a) * factor).rounded())
            }
        }
    }

    /// The rectangle (logical pixels) around everything added since `mark`; nil when nothing was.
    public func bounds(since mark: Mark) -> Rect? {
        guard vertexCount > mark.vertexCount else { return nil }
        var minX = Float.infinity, minY = Float.infinity, maxX = -Float.infinity, maxY = -Float.infinity
        vertexStorage.withUnsafeBufferPointer { v in
            for i in mark.vertexCount..<vertexCount {
                minX = min(minX, v[i].position.x)
                maxX = max(maxX, v[i].position.x)
                minY = min(minY, v[i].position.y)
                maxY = max(maxY, v[i].position.y)
            }
        }
        let s = scale > 0 ? scale : 1
        return Rect(
            x: Double(minX) / s, y: Double(minY) / s, width: Double(maxX - minX) / s, height: Double(maxY - minY) / s)
    }

    /// Moves everything added since `mark` by `offset` after scaling it by `scale` about `center`
    /// (logical pixels): how content comes and goes in a transition. Clip rectangles stay put.
    public mutating func transform(since mark: Mark, offset: Point, scale factor: Double, about center: Point) {
        guard offset != .zero || factor != 1 else { return }
        let s = Float(scale), k = Float(factor.isFinite ? factor : 1)
        let cx = Float(center.x) * s, cy = Float(center.y) * s, dx = Float(offset.x) * s, dy = Float(offset.y) * s
        vertexStorage.withUnsafeMutableBufferPointer { v in
            for i in mark.vertexCount..<vertexCount {
                v[i].position.x = cx + (v[i].position.x - cx) * k + dx
                v[i].position.y = cy + (v[i].position.y - cy) * k + dy
            }
        }
    }

    // MARK: Mirroring (right-to-left layouts)

    /// Whether this frame is laid out left to right and then mirrored (`mirror(width:)`): text
    /// and images drawn into it are noted as upright runs.
    public var isMirrored = false
    /// The vertex ranges that keep their orientation when the list is mirrored (text, images,
    /// a text field's inside), with their horizontal extent (physical pixels).
    private var uprightRuns: [(start: Int, end: Int, minX: Float, maxX: Float)] = []
    private var uprightDepth = 0

    /// Where an upright run starts: what is added until `endUpright` moves as a block when the
    /// list is mirrored instead of being flipped (text stays readable, photos unflipped).
    public mutating func beginUpright() -> Int {
        guard isMirrored else { return vertexCount }
        uprightDepth += 1
        return vertexCount
    }

    /// Ends an upright run begun at `start` (the outermost one is noted); `spanning` (logical)
    /// gives the block's extent, which then lands exactly on its mirrored place (a text field's
    /// inside), else the extent is what was drawn.
    public mutating func endUpright(_ start: Int, spanning extent: Rect? = nil) {
        guard isMirrored else { return }
        uprightDepth -= 1
        guard uprightDepth == 0, vertexCount > start else { return }
        if let extent {
            uprightRuns.append((start, vertexCount, Float(extent.minX * scale), Float(extent.maxX * scale)))
            return
        }
        var minX = Float.infinity, maxX = -Float.infinity
        vertexStorage.withUnsafeBufferPointer { v in
            for i in start..<vertexCount {
                minX = min(minX, v[i].position.x)
                maxX = max(maxX, v[i].position.x)
            }
        }
        uprightRuns.append((start, vertexCount, minX, maxX))
    }

    /// Mirrors the list across a window `width` wide (logical): every vertex's x flipped, the
    /// upright runs moved as blocks to their mirrored place, clip rectangles and noted text
    /// mirrored with them. A right-to-left layout is laid out left to right, then mirrored.
    public mutating func mirror(width: Double) {
        let w = Float(width * scale)
        var runs = uprightRuns[...]
        vertexStorage.withUnsafeMutableBufferPointer { v in
            var i = 0
            while i < vertexCount {
                while let run = runs.first, run.start < i { runs = runs.dropFirst() }  // (none: runs never overlap)
                if let run = runs.first, run.start == i {
                    let shift = w - run.minX - run.maxX
                    for k in run.start..<run.end { v[k].position.x += shift }
                    i = run.end
                    runs = runs.dropFirst()
                    continue
                }
                v[i].position.x = w - v[i].position.x
                i += 1
            }
        }
        for i in self.runs.indices {
            if let clip = self.runs[i].scissor {
                self.runs[i].scissor = Rect(x: Double(w) - clip.maxX, y: clip.y, width: clip.width, height: clip.height)
            }
        }
        let logical = Double(w) / scale
        // Noted text moved with its upright run (a line inside a text field moves with the field).
        var run = uprightRuns.startIndex
        for i in drawnText.indices {
            let end = drawnTextEnds[i]
            while run < uprightRuns.endIndex && uprightRuns[run].end < end { run += 1 }
            var rect = drawnText[i].rect
            if run < uprightRuns.endIndex && uprightRuns[run].start < end {
                rect.x += Double(w - uprightRuns[run].minX - uprightRuns[run].maxX) / scale
            } else {
                rect.x = logical - rect.maxX
            }
            drawnText[i] = DrawnText(text: drawnText[i].text, rect: rect)
        }
    }

    /// Notes a line of text drawn in `rect` (logical) when it shows; callers check `recordsText` first.
    mutating func noteText(_ text: String, in rect: Rect) {
        let clip = clipRect
        guard rect.maxX > clip.minX, rect.minX < clip.maxX, rect.maxY > clip.minY, rect.minY < clip.maxY else { return }
        drawnText.append(DrawnText(text: text, rect: rect))
        drawnTextEnds.append(vertexCount)
    }

}

/// A line of text a draw list drew, and where (logical pixels): see `DrawList.recordsText`.
public struct DrawnText: Sendable, Equatable {
    /// The text of the line.
    public var text: String
    /// Where it was drawn, in logical pixels.
    public var rect: Rect
}

/// Writes clipped quads into a `DrawList`'s buffers through raw pointers, within the room
/// `DrawList.withQuadSink` reserved. A quad on another texture starts a new command.
struct QuadSink {
    let vertices: UnsafeMutablePointer<SDL_Vertex>
    let indices: UnsafeMutablePointer<Int32>
    let clipX0: Float, clipY0: Float, clipX1: Float, clipY1: Float
    var vertexCount: Int
    var indexCount: Int
    var texture: TextureHandle
    let capacity: Int
    var textureChanges: [(indexStart: Int, texture: TextureHandle)] = []

    @inline(__always)
    mutating func add(
        x0: Float, y0: Float, x1: Float, y1: Float, uv0: SIMD2<Float>, uv1: SIMD2<Float>,
        color: SDL_Color, texture quadTexture: TextureHandle
    ) {
        let cx0 = max(x0, clipX0), cy0 = max(y0, clipY0)
        let cx1 = min(x1, clipX1), cy1 = min(y1, clipY1)
        guard cx1 > cx0, cy1 > cy0 else { return }
        precondition(vertexCount + 4 <= capacity, "QuadSink overflow")
        var u0 = uv0.x, v0 = uv0.y, u1 = uv1.x, v1 = uv1.y
        if cx0 != x0 || cx1 != x1 {
            let du = (u1 - u0) / (x1 - x0)
            u0 += (cx0 - x0) * du
            u1 -= (x1 - cx1) * du
        }
        if cy0 != y0 || cy1 != y1 {
            let dv = (v1 - v0) / (y1 - y0)
            v0 += (cy0 - y0) * dv
            v1 -= (y1 - cy1) * dv
        }
        if quadTexture != texture {
            texture = quadTexture
            textureChanges.append((indexCount, quadTexture))
        }
        let v = vertices + vertexCount
        v[0] = SDL_Vertex(position: SDL_FPoint(x: cx0, y: cy0), color: color, tex_coord: SDL_FPoint(x: u0, y: v0))
        v[1] = SDL_Vertex(position: SDL_FPoint(x: cx1, y: cy0), color: color, tex_coord: SDL_FPoint(x: u1, y: v0))
        v[2] = SDL_Vertex(position: SDL_FPoint(x: cx1, y: cy1), color: color, tex_coord: SDL_FPoint(x: u1, y: v1))
        v[3] = SDL_Vertex(position: SDL_FPoint(x: cx0, y: cy1), color: color, tex_coord: SDL_FPoint(x: u0, y: v1))
        let base = Int32(vertexCount)
        let i = indices + indexCount
        i[0] = base
        i[1] = base + 1
        i[2] = base + 2
        i[3] = base
        i[4] = base + 2
        i[5] = base + 3
        vertexCount += 4
        indexCount += 6
    }
}

extension QuadSink {
    /// Adds a laid-out line at (`dx`, `dy`): when it lies wholly inside the clip and on one
    /// texture (the usual case), without clipping or texture checks per glyph. Color glyphs
    /// keep their colors; only `color`'s alpha applies to them.
    @inline(__always)
    mutating func add(_ run: GlyphRun, dx: Float, dy: Float, color: SDL_Color) {
        guard let runTexture = run.texture, run.x0 + dx >= clipX0, run.x1 + dx <= clipX1, run.y0 + dy >= clipY0,
            run.y1 + dy <= clipY1,
            vertexCount + run.quads.count * 4 <= capacity
        else {
            let own = SDL_Color(r: 255, g: 255, b: 255, a: color.a)
            for q in run.quads {
                add(
                    x0: dx + q.x0, y0: dy + q.y0, x1: dx + q.x1, y1: dy + q.y1, uv0: q.uv0, uv1: q.uv1,
                    color: q.colored ? own : color,
                    texture: q.texture)
            }
            return
        }
        if runTexture != texture {
            texture = runTexture
            textureChanges.append((indexCount, runTexture))
        }
        var v = vertices + vertexCount, i = indices + indexCount
        var base = Int32(vertexCount)
        for q in run.quads {
            let x0 = dx + q.x0, y0 = dy + q.y0, x1 = dx + q.x1, y1 = dy + q.y1
            v[0] = SDL_Vertex(
                position: SDL_FPoint(x: x0, y: y0), color: color, tex_coord: SDL_FPoint(x: q.uv0.x, y: q.uv0.y))
            v[1] = SDL_Vertex(
                position: SDL_FPoint(x: x1, y: y0), color: color, tex_coord: SDL_FPoint(x: q.uv1.x, y: q.uv0.y))
            v[2] = SDL_Vertex(
                position: SDL_FPoint(x: x1, y: y1), color: color, tex_coord: SDL_FPoint(x: q.uv1.x, y: q.uv1.y))
            v[3] = SDL_Vertex(
                position: SDL_FPoint(x: x0, y: y1), color: color, tex_coord: SDL_FPoint(x: q.uv0.x, y: q.uv1.y))
            i[0] = base
            i[1] = base + 1
            i[2] = base + 2
            i[3] = base
            i[4] = base + 2
            i[5] = base + 3
            v += 4
            i += 6
            base += 4
        }
        vertexCount += run.quads.count * 4
        indexCount += run.quads.count * 6
    }
}

@inline(__always) private func pointwiseMin(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> SIMD2<Float> {
    SIMD2(min(a.x, b.x), min(a.y, b.y))
}
@inline(__always) private func pointwiseMax(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> SIMD2<Float> {
    SIMD2(max(a.x, b.x), max(a.y, b.y))
}
