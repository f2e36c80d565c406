import CSDL2
#if canImport(Glibc)
import Glibc
#endif

/// A texture known to the `Renderer`. A small value: copy it freely; the renderer owns the
/// GPU object, created with `Renderer.makeTexture` and freed with `Renderer.destroyTexture`.
public struct TextureHandle: Hashable, Sendable {
    public let id: UInt32
    public init(id: UInt32) { self.id = id }
    /// No texture: the renderer substitutes the atlas page that holds the white texel.
    public static let none = TextureHandle(id: 0)
}

/// One batched draw: a run of indices drawn with one texture and one (optional) scissor.
public struct DrawCommand: Equatable, Sendable {
    public var texture: TextureHandle
    /// Scissor rectangle in physical pixels, or nil when every vertex was clipped on the CPU.
    public var scissor: Rect?
    public var indexStart: Int
    public var indexCount: Int
}

/// Geometry for one frame of one layer, in physical pixels, ready for `SDL_RenderGeometry`.
///
/// The public API takes logical coordinates and multiplies by `scale`. Solid shapes sample
/// the white texel of the glyph atlas so they batch with text: a frame of rectangles and text
/// is one command per clip run. Axis-aligned quads (rects, glyphs, images) are clipped on the
/// CPU and never need a scissor; other shapes that straddle a clip edge get one.
///
/// ```swift
/// list.pushClip(Rect(x: 0, y: 0, width: 200, height: 100))
/// list.addRoundedRect(Rect(x: 10, y: 10, width: 80, height: 24), radius: 6, color: .blue)
/// list.popClip()
/// ```
public struct DrawList {
    public private(set) var vertices: [SDL_Vertex] = []
    public private(set) var indices: [Int32] = []
    /// The batched commands; the last one's `indexCount` runs to the end of `indices`.
    public var commands: [DrawCommand] {
        guard !runs.isEmpty else { return [] }
        var result = runs
        result[result.count - 1].indexCount = indices.count - result[result.count - 1].indexStart
        return result
    }
    /// Closed commands plus the open last one (whose `indexCount` is not kept up to date).
    private var runs: [DrawCommand] = []

    /// Physical pixels per logical pixel.
    public var scale: Double = 1
    /// The texture whose `whiteUV` texel is opaque white; set by the renderer each frame.
    public var solidTexture = TextureHandle.none
    public var whiteUV = SIMD2<Float>(0, 0)

    private var clipStack: [Rect] = []
    /// Current clip in physical pixels.
    private var clipPx = Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9)
    private var path: [SIMD2<Float>] = []
    private var normals: [SIMD2<Float>] = []

    public init(scale: Double = 1) { self.scale = scale }

    /// Empties the list, keeping its capacity.
    public mutating func reset(scale: Double, solidTexture: TextureHandle, whiteUV: SIMD2<Float>) {
        vertices.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        clipStack.removeAll(keepingCapacity: true)
        clipPx = Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9)
        self.scale = scale
        self.solidTexture = solidTexture
        self.whiteUV = whiteUV
    }

    public var triangleCount: Int { indices.count / 3 }

    // MARK: Clipping

    /// Intersects the current clip with `rect` (logical) until the matching `popClip`.
    public mutating func pushClip(_ rect: Rect) {
        clipStack.append(clipPx)
        let px = Rect(x: (rect.x * scale).rounded(), y: (rect.y * scale).rounded(),
                      width: (rect.width * scale).rounded(), height: (rect.height * scale).rounded())
        clipPx = clipPx.intersection(px)
    }

    public mutating func popClip() {
        if let last = clipStack.popLast() { clipPx = last }
    }

    /// The current clip in logical coordinates.
    public var clipRect: Rect {
        Rect(x: clipPx.x / scale, y: clipPx.y / scale, width: clipPx.width / scale, height: clipPx.height / scale)
    }

    // MARK: Quads (CPU-clipped)

    /// A solid axis-aligned rectangle.
    public mutating func addRect(_ rect: Rect, color: Color) {
        guard color.a > 0 else { return }
        addQuadPx(x0: rect.minX * scale, y0: rect.minY * scale, x1: rect.maxX * scale, y1: rect.maxY * scale,
                  uv0: whiteUV, uv1: whiteUV, color: color, texture: solidTexture)
    }

    /// A textured rectangle; `uv` is the source region in 0...1 texture coordinates.
    public mutating func addImage(_ texture: TextureHandle, in rect: Rect,
                                  uv: Rect = Rect(x: 0, y: 0, width: 1, height: 1), tint: Color = .white) {
        addQuadPx(x0: rect.minX * scale, y0: rect.minY * scale, x1: rect.maxX * scale, y1: rect.maxY * scale,
                  uv0: SIMD2(Float(uv.minX), Float(uv.minY)), uv1: SIMD2(Float(uv.maxX), Float(uv.maxY)),
                  color: tint, texture: texture)
    }

    /// An axis-aligned quad in physical pixels, clipped on the CPU (UVs follow the clip).
    @inline(__always)
    mutating func addQuadPx(x0: Double, y0: Double, x1: Double, y1: Double,
                            uv0: SIMD2<Float>, uv1: SIMD2<Float>, color: Color, texture: TextureHandle) {
        let cx0 = max(x0, clipPx.x), cy0 = max(y0, clipPx.y)
        let cx1 = min(x1, clipPx.x + clipPx.width), cy1 = min(y1, clipPx.y + clipPx.height)
        guard cx1 > cx0, cy1 > cy0 else { return }
        var u0 = uv0.x, v0 = uv0.y, u1 = uv1.x, v1 = uv1.y
        if cx0 != x0 || cx1 != x1 {
            let du = (u1 - u0) / Float(x1 - x0)
            u0 += Float(cx0 - x0) * du
            u1 -= Float(x1 - cx1) * du
        }
        if cy0 != y0 || cy1 != y1 {
            let dv = (v1 - v0) / Float(y1 - y0)
            v0 += Float(cy0 - y0) * dv
            v1 -= Float(y1 - cy1) * dv
        }
        ensureCommand(texture: texture, scissor: nil)
        let base = Int32(vertices.count)
        let c = SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a)
        let fx0 = Float(cx0), fy0 = Float(cy0), fx1 = Float(cx1), fy1 = Float(cy1)
        vertices.append(SDL_Vertex(position: SDL_FPoint(x: fx0, y: fy0), color: c, tex_coord: SDL_FPoint(x: u0, y: v0)))
        vertices.append(SDL_Vertex(position: SDL_FPoint(x: fx1, y: fy0), color: c, tex_coord: SDL_FPoint(x: u1, y: v0)))
        vertices.append(SDL_Vertex(position: SDL_FPoint(x: fx1, y: fy1), color: c, tex_coord: SDL_FPoint(x: u1, y: v1)))
        vertices.append(SDL_Vertex(position: SDL_FPoint(x: fx0, y: fy1), color: c, tex_coord: SDL_FPoint(x: u0, y: v1)))
        indices.append(base); indices.append(base + 1); indices.append(base + 2)
        indices.append(base); indices.append(base + 2); indices.append(base + 3)
    }

    @inline(__always)
    private mutating func ensureCommand(texture: TextureHandle, scissor: Rect?) {
        if let last = runs.last, last.texture == texture, last.scissor == scissor { return }
        if let last = runs.last {
            if last.indexStart == indices.count {
                runs[runs.count - 1].texture = texture
                runs[runs.count - 1].scissor = scissor
                return
            }
            runs[runs.count - 1].indexCount = indices.count - last.indexStart
        }
        runs.append(DrawCommand(texture: texture, scissor: scissor, indexStart: indices.count, indexCount: 0))
    }

    // MARK: Shapes (anti-aliased)

    /// A filled rectangle with rounded corners and a smooth (anti-aliased) edge.
    public mutating func addRoundedRect(_ rect: Rect, radius: Double, color: Color) {
        guard color.a > 0, !rect.isEmpty else { return }
        let r = min(radius, rect.width / 2, rect.height / 2)
        if r * scale < 0.5 { addRect(rect, color: color); return }
        buildRoundedRectPath(rect, radius: r)
        fillPath(color: color)
    }

    /// The outline of a (rounded) rectangle, `thickness` logical pixels wide, drawn inside `rect`.
    public mutating func addRectBorder(_ rect: Rect, radius: Double = 0, color: Color, thickness: Double = 1) {
        guard color.a > 0, !rect.isEmpty else { return }
        if radius <= 0 {
            // Four solid quads: exact, crisp and CPU-clipped.
            addRect(Rect(x: rect.x, y: rect.y, width: rect.width, height: thickness), color: color)
            addRect(Rect(x: rect.x, y: rect.maxY - thickness, width: rect.width, height: thickness), color: color)
            addRect(Rect(x: rect.x, y: rect.y + thickness, width: thickness, height: max(0, rect.height - 2 * thickness)), color: color)
            addRect(Rect(x: rect.maxX - thickness, y: rect.y + thickness, width: thickness,
                         height: max(0, rect.height - 2 * thickness)), color: color)
            return
        }
        let half = thickness / 2
        let inner = rect.insetBy(dx: half, dy: half)
        buildRoundedRectPath(inner, radius: max(0, min(radius - half, inner.width / 2, inner.height / 2)))
        strokePath(color: color, thickness: thickness, closed: true)
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
        let n = segmentCount(radius: radius) * 4
        for i in 0..<n {
            let t = Double(i) / Double(n) * 2 * Double.pi
            path.append(SIMD2(Float((center.x + radius * cos(t)) * scale), Float((center.y + radius * sin(t)) * scale)))
        }
        fillPath(color: color)
    }

    /// The outline of a circle.
    public mutating func addCircleBorder(center: Point, radius: Double, color: Color, thickness: Double = 1) {
        guard color.a > 0, radius > 0 else { return }
        path.removeAll(keepingCapacity: true)
        let n = segmentCount(radius: radius) * 4
        for i in 0..<n {
            let t = Double(i) / Double(n) * 2 * Double.pi
            path.append(SIMD2(Float((center.x + radius * cos(t)) * scale), Float((center.y + radius * sin(t)) * scale)))
        }
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

    private func segmentCount(radius: Double) -> Int {
        max(2, min(24, Int((radius * scale / 2).rounded(.up))))
    }

    private mutating func buildRoundedRectPath(_ rect: Rect, radius r: Double) {
        path.removeAll(keepingCapacity: true)
        let n = segmentCount(radius: r)
        let corners: [(Double, Double, Double)] = [
            (rect.maxX - r, rect.minY + r, -Double.pi / 2),
            (rect.maxX - r, rect.maxY - r, 0),
            (rect.minX + r, rect.maxY - r, Double.pi / 2),
            (rect.minX + r, rect.minY + r, Double.pi),
        ]
        for (cx, cy, start) in corners {
            for i in 0...n {
                let t = start + Double(i) / Double(n) * Double.pi / 2
                path.append(SIMD2(Float((cx + r * cos(t)) * scale), Float((cy + r * sin(t)) * scale)))
            }
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

    private func pathBounds(margin: Float) -> (Float, Float, Float, Float) {
        var lo = path[0], hi = path[0]
        for p in path { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        return (lo.x - margin, lo.y - margin, hi.x + margin, hi.y + margin)
    }

    /// Fills `path` (star-shaped from its centroid) with a 1-pixel anti-aliased fringe.
    private mutating func fillPath(color: Color) {
        let n = path.count
        guard n >= 3, beginShape(bounds: pathBounds(margin: 1)) else { return }
        computeNormals(closed: true)
        let solid = SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a)
        let fade = SDL_Color(r: color.r, g: color.g, b: color.b, a: 0)
        let uv = SDL_FPoint(x: whiteUV.x, y: whiteUV.y)
        // Orientation decides which side of the edge is "outside".
        var area: Float = 0
        for i in 0..<n { let a = path[i], b = path[(i + 1) % n]; area += a.x * b.y - b.x * a.y }
        let outward: Float = area >= 0 ? 1 : -1
        var centroid = SIMD2<Float>(0, 0)
        for p in path { centroid += p }
        centroid /= Float(n)
        let base = Int32(vertices.count)
        vertices.append(SDL_Vertex(position: SDL_FPoint(x: centroid.x, y: centroid.y), color: solid, tex_coord: uv))
        for i in 0..<n {
            let inner = path[i] + normals[i] * (-0.5 * outward)
            let outer = path[i] + normals[i] * (0.5 * outward)
            vertices.append(SDL_Vertex(position: SDL_FPoint(x: inner.x, y: inner.y), color: solid, tex_coord: uv))
            vertices.append(SDL_Vertex(position: SDL_FPoint(x: outer.x, y: outer.y), color: fade, tex_coord: uv))
        }
        for i in 0..<n {
            let j = (i + 1) % n
            let ii = base + 1 + Int32(2 * i), io = ii + 1
            let ji = base + 1 + Int32(2 * j), jo = ji + 1
            indices.append(base); indices.append(ii); indices.append(ji)
            indices.append(ii); indices.append(io); indices.append(jo)
            indices.append(ii); indices.append(jo); indices.append(ji)
        }
    }

    /// Strokes `path` with mitred joins and a 1-pixel anti-aliased fringe on both sides.
    private mutating func strokePath(color: Color, thickness: Double, closed: Bool) {
        let n = path.count
        guard n >= 2 else { return }
        let widthPx = Float(max(thickness * scale, 1))
        guard beginShape(bounds: pathBounds(margin: widthPx / 2 + 1)) else { return }
        computeNormals(closed: closed)
        // Thin lines get their coverage from alpha rather than a sub-pixel core.
        let alphaScale = min(1, Float(thickness * scale))
        let solid = SDL_Color(r: color.r, g: color.g, b: color.b, a: UInt8(Float(color.a) * alphaScale))
        let fade = SDL_Color(r: color.r, g: color.g, b: color.b, a: 0)
        let uv = SDL_FPoint(x: whiteUV.x, y: whiteUV.y)
        let core = max(widthPx - 1, 0) / 2
        let fringe = core + 1
        let base = Int32(vertices.count)
        for i in 0..<n {
            let p = path[i], nm = normals[i]
            let a = p - nm * fringe, b = p - nm * core, c = p + nm * core, d = p + nm * fringe
            vertices.append(SDL_Vertex(position: SDL_FPoint(x: a.x, y: a.y), color: fade, tex_coord: uv))
            vertices.append(SDL_Vertex(position: SDL_FPoint(x: b.x, y: b.y), color: solid, tex_coord: uv))
            vertices.append(SDL_Vertex(position: SDL_FPoint(x: c.x, y: c.y), color: solid, tex_coord: uv))
            vertices.append(SDL_Vertex(position: SDL_FPoint(x: d.x, y: d.y), color: fade, tex_coord: uv))
        }
        let segments = closed ? n : n - 1
        for s in 0..<segments {
            let a = base + Int32(4 * s), b = base + Int32(4 * ((s + 1) % n))
            for k in Int32(0)..<3 {
                indices.append(a + k); indices.append(a + k + 1); indices.append(b + k + 1)
                indices.append(a + k); indices.append(b + k + 1); indices.append(b + k)
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
            if d2 < 1e-6 { normals.append(next); continue }
            m /= d2.squareRoot()
            let cosHalf = max((m * next).sum(), 0.25) // limit the miter to 4× the width
            normals.append(m / cosHalf)
        }
    }

    // MARK: Undo

    /// A point in the list that `truncate(to:)` can return to.
    public struct Mark: Sendable {
        let vertexCount: Int, indexCount: Int, commandCount: Int, lastCommandIndexCount: Int
    }

    public var mark: Mark {
        Mark(vertexCount: vertices.count, indexCount: indices.count, commandCount: runs.count,
             lastCommandIndexCount: runs.last?.indexCount ?? 0)
    }

    /// Drops everything added since `mark` (used to measure content without showing it).
    public mutating func truncate(to mark: Mark) {
        vertices.removeSubrange(mark.vertexCount...)
        indices.removeSubrange(mark.indexCount...)
        runs.removeSubrange(mark.commandCount...)
        if mark.commandCount > 0 { runs[mark.commandCount - 1].indexCount = mark.lastCommandIndexCount }
    }

    // MARK: Raw access for text

    /// Appends a glyph quad in physical pixels; used by `Font`'s text runs.
    @inline(__always)
    mutating func addGlyphPx(x0: Float, y0: Float, x1: Float, y1: Float, uv0: SIMD2<Float>, uv1: SIMD2<Float>,
                             color: Color, texture: TextureHandle) {
        addQuadPx(x0: Double(x0), y0: Double(y0), x1: Double(x1), y1: Double(y1),
                  uv0: uv0, uv1: uv1, color: color, texture: texture)
    }

    /// Reserves room for `quads` more quads (text runs know their glyph count up front).
    public mutating func reserve(quads: Int) {
        vertices.reserveCapacity(vertices.count + quads * 4)
        indices.reserveCapacity(indices.count + quads * 6)
    }
}

@inline(__always) private func pointwiseMin(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> SIMD2<Float> {
    SIMD2(min(a.x, b.x), min(a.y, b.y))
}
@inline(__always) private func pointwiseMax(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> SIMD2<Float> {
    SIMD2(max(a.x, b.x), max(a.y, b.y))
}
