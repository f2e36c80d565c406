import CSDL2

/// What redrawing one damaged region draws: the frame's triangles that touch it, less what a
/// later opaque rectangle hides.
///
/// A software rasterizer pays for every pixel of every triangle under the region's scissor,
/// and a region typically holds the clear, a panel's background, a thumbnail over it, and its
/// label: three times its area. An axis-aligned rectangle drawn without blending (a `flat`
/// rectangle, or an opaque texture, at full opacity) decides its pixels alone, so what was
/// drawn under it before does not matter:
/// - a triangle, or a quad, wholly inside such a later rectangle is left out;
/// - a flat rectangle of one color, and the region's clear, are cut into the pieces that such
///   later rectangles leave uncovered.
///
/// The pixels stay those of the full frame: a pixel belongs to a rectangle when its center
/// does, the pieces share their edges with the rectangles that cut them (the same floats), and
/// a rectangle's pixels do not depend on how it is split into triangles. Shapes with a corner
/// past ±32,768 pixels or not finite are drawn as they are and hide nothing.
///
/// ```swift
/// plan.make(for: region, lists: lists, drawable: { _ in true }, opaqueTexture: { $0 == .flat })
/// for draw in plan.draws { /* SDL_RenderGeometry(texture, plan.vertices + draw.vertexStart, ...) */ }
/// ```
package struct RegionPlan {
    /// One draw call: the region's part of one command, or of consecutive commands drawn alike
    /// (the same texture, blending and clip), as `vertexCount` vertices of `vertices`, three
    /// a triangle. A software rasterizer pays for each draw call about what it pays for
    /// thousands of pixels, and a region's draws are few and small.
    package struct Draw {
        /// The list of its first command (`lists[list]`).
        package var list: Int
        /// The texture to draw with: the command's, except that a blended `flat` command is
        /// drawn with its list's `solidTexture` when that is the `solid` texture `make` was
        /// given (its vertices sample that texture's white texel, so its pixels are the same),
        /// to join the solid shapes and text around it.
        package var texture: TextureHandle
        /// Whether it is drawn without blending (opaque texture or flat, every vertex opaque).
        package var blendsNone: Bool
        /// Its scissor, cut to the region.
        package var clip: SDL_Rect
        package var vertexStart: Int, vertexCount: Int
        /// Whether it needs its scissor: false when every triangle lies within `clip`, so
        /// that it draws the same pixels without one (and may join draws of other regions).
        package var needsClip = true

        /// Whether `other` is drawn with the same texture and blending, and either the same
        /// clip or no scissor for either: the two may be one draw (`joined`).
        func drawsLike(_ other: Draw) -> Bool {
            guard texture == other.texture, blendsNone == other.blendsNone else { return false }
            return (!needsClip && !other.needsClip)
                || (clip.x == other.clip.x && clip.y == other.clip.y && clip.w == other.clip.w
                    && clip.h == other.clip.h)
        }

        /// This draw and `next` (drawn like it, its vertices right after this one's) as one.
        func joined(_ next: Draw) -> Draw {
            var draw = self
            draw.vertexCount += next.vertexCount
            draw.needsClip = needsClip || next.needsClip
            return draw
        }
    }

    /// The parts of the region to clear first (what no later opaque rectangle covers).
    package private(set) var clearPieces: [SDL_FRect] = []
    /// The commands to draw, in order.
    package private(set) var draws: [Draw] = []
    /// Their triangles' vertices.
    package private(set) var vertices: [SDL_Vertex] = []
    /// Shapes left out or cut because later opaque rectangles hide them (the clear counts).
    package private(set) var hiddenShapes = 0

    /// A rectangle with fractional edges, in physical pixels.
    struct Box: Equatable {
        var x0: Float, y0: Float, x1: Float, y1: Float
        var isEmpty: Bool { !(x0 < x1 && y0 < y1) }
        func contains(_ b: Box) -> Bool { x0 <= b.x0 && y0 <= b.y0 && b.x1 <= x1 && b.y1 <= y1 }
        func meets(_ b: Box) -> Bool { x0 < b.x1 && b.x0 < x1 && y0 < b.y1 && b.y0 < y1 }
        func cut(to b: Box) -> Box { Box(x0: max(x0, b.x0), y0: max(y0, b.y0), x1: min(x1, b.x1), y1: min(y1, b.y1)) }
        init(x0: Float, y0: Float, x1: Float, y1: Float) { (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1) }
        /// A region's pixels (exact: a window's coordinates are far below 2^24).
        init(_ rect: PixelRect) {
            self.init(
                x0: Float(rect.x), y0: Float(rect.y), x1: Float(rect.x + rect.width), y1: Float(rect.y + rect.height))
        }
        /// The pixels of a box whose edges are whole pixels.
        var pixels: PixelRect { PixelRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0)) }
    }

    /// A command's triangles that touch the region, as positions in `gathered`.
    private struct Part {
        var draw: Draw
        var flat: Bool
        var box: Box
        var start: Int, end: Int
    }

    /// The vertex indices of the triangles touching the region, three a triangle, in order.
    private var gathered: [Int32] = []
    private var parts: [Part] = []
    /// Opaque rectangles, by the position in `gathered` of the quad that draws them.
    private(set) var occluders: [(at: Int, box: Box)] = []
    private var pieces: [Box] = []
    private var nextPieces: [Box] = []
    /// This frame's regions (`prepare`), each with a pixel around it, and, for each command of
    /// more than `narrowedTriangles` triangles met so far, the indices of its triangles that
    /// touch one of them: each region walks those instead of all the command's.
    private var frameBounds: [Bounds] = []
    private var narrowed: [Int: Range<Int>] = [:]
    private var narrowedIndices: [Int32] = []
    /// Commands of at most this many triangles are walked whole for each region.
    static let narrowedTriangles = 64

    /// The most pieces a cut rectangle is split into; past it, the rest stays drawn.
    static let maxPieces = 16
    /// The most opaque rectangles a region's shapes are tested against (the largest).
    static let maxOccluders = 32
    /// Corners past this many pixels from the origin are left to the rasterizer's clipping.
    static let coordinateLimit: Float = 32_768

    package init() {}

    /// Starts a frame whose damage is `regions`, each planned by `make` in turn: a large
    /// command's triangles are then walked once for all of them, not once for each.
    mutating func prepare(for regions: [PixelRect]) {
        frameBounds = regions.count > 1 ? regions.map(Self.bounds(around:)) : []
        narrowed.removeAll(keepingCapacity: true)
        narrowedIndices.removeAll(keepingCapacity: true)
    }

    /// Plans `region`: `drawable` says whether a command's texture exists, `opaqueTexture`
    /// whether it is `.flat` or a texture of opaque pixels (drawn without blending when its
    /// vertices are opaque too). `solid` is the texture and coordinates of a white texel: a
    /// list whose `solidTexture` and `whiteUV` are those has its blended flat commands drawn
    /// with that texture (nil: they stay flat).
    ///
    /// `bounds` gives where a command (by list and command index) draws, when that is known:
    /// a command whose bounds miss the region is passed over without walking its triangles.
    mutating func make(
        for region: PixelRect, lists: [DrawList], solid: (texture: TextureHandle, whiteUV: SIMD2<Float>)? = nil,
        drawable: (TextureHandle) -> Bool, opaqueTexture: (TextureHandle) -> Bool,
        bounds: (_ list: Int, _ command: Int) -> HashedCommand.Clip? = { _, _ in nil }
    ) {
        clearPieces.removeAll(keepingCapacity: true)
        draws.removeAll(keepingCapacity: true)
        vertices.removeAll(keepingCapacity: true)
        gathered.removeAll(keepingCapacity: true)
        parts.removeAll(keepingCapacity: true)
        occluders.removeAll(keepingCapacity: true)
        hiddenShapes = 0
        for (listIndex, list) in lists.enumerated() {
            let whiteTexel = solid.map { list.solidTexture == $0.texture && list.whiteUV == $0.whiteUV } ?? false
            gather(
                list, index: listIndex, region: region, joinsSolid: whiteTexel && drawable(list.solidTexture),
                drawable: drawable, opaqueTexture: opaqueTexture, bounds: bounds)
        }
        keepLargestOccluders()
        let regionBox = Box(region)
        uncovered(regionBox, after: -1)
        if pieces != [regionBox] { hiddenShapes += 1 }
        clearPieces = pieces.map { SDL_FRect(x: $0.x0, y: $0.y0, w: $0.x1 - $0.x0, h: $0.y1 - $0.y0) }
        for (listIndex, list) in lists.enumerated() {
            list.vertices.withUnsafeBufferPointer { emit(from: $0, list: listIndex) }
        }
    }

    /// Adds `list`'s triangles that touch `region` to `gathered`, and its opaque rectangles to
    /// `occluders`; with `joinsSolid`, its blended flat commands are drawn with its solid texture.
    private mutating func gather(
        _ list: DrawList, index listIndex: Int, region: PixelRect, joinsSolid: Bool,
        drawable: (TextureHandle) -> Bool, opaqueTexture: (TextureHandle) -> Bool,
        bounds: (_ list: Int, _ command: Int) -> HashedCommand.Clip?
    ) {
        let rx0 = Float(region.x - 1), ry0 = Float(region.y - 1)
        let rx1 = Float(region.x + region.width + 1), ry1 = Float(region.y + region.height + 1)
        list.vertices.withUnsafeBufferPointer { vertices in
            list.indices.withUnsafeBufferPointer { indices in
                for (commandIndex, command) in list.commands.enumerated()
                where command.indexCount > 0 && drawable(command.texture) {
                    if let b = bounds(listIndex, commandIndex), !b.isEmpty,
                        !(b.x0 < rx1 && rx0 < b.x1 && b.y0 < ry1 && ry0 < b.y1)
                    {
                        continue  // none of its triangles reaches the region
                    }
                    guard let clip = Self.clip(command.scissor, to: region) else { continue }
                    let start = gathered.count
                    let end = min(command.indexStart + command.indexCount, indices.count)
                    let all = UnsafeBufferPointer(rebasing: indices[min(command.indexStart, end)..<end])
                    let touching =
                        !frameBounds.isEmpty && all.count / 3 > Self.narrowedTriangles
                        ? touchingTriangles(of: all, key: listIndex << 32 | commandIndex, vertices: vertices) : nil
                    narrowedIndices.withUnsafeBufferPointer { narrowed in
                        let triangles = touching.map { UnsafeBufferPointer(rebasing: narrowed[$0]) } ?? all
                        withUnsafePointer(to: Self.bounds(around: region)) { box in
                            Self.gatherTriangles(
                                triangles, vertices: vertices, touching: UnsafeBufferPointer(start: box, count: 1),
                                into: &gathered)
                        }
                    }
                    guard gathered.count > start else { continue }
                    let opaque =
                        opaqueTexture(command.texture) && Self.isOpaque(command, vertices: vertices, indices: indices)
                    let box = Box(
                        x0: Float(clip.x), y0: Float(clip.y), x1: Float(clip.x + clip.w), y1: Float(clip.y + clip.h))
                    let texture =
                        joinsSolid && command.texture == .flat && !opaque ? list.solidTexture : command.texture
                    let draw = Draw(
                        list: listIndex, texture: texture, blendsNone: opaque, clip: clip, vertexStart: 0,
                        vertexCount: 0)
                    parts.append(
                        Part(draw: draw, flat: command.texture == .flat, box: box, start: start, end: gathered.count))
                    guard opaqueTexture(command.texture) else { continue }
                    var t = start
                    while t < gathered.count {
                        let quad = quadRect(at: t, end: gathered.count, vertices: vertices)
                        // Blending an opaque pixel over another gives the opaque one exactly,
                        // so an opaque quad hides what lies under it in a blended command too.
                        if let rect = quad.rect, !rect.cut(to: box).isEmpty, color(at: t, vertices: vertices)?.a == 255
                        {
                            occluders.append((t, rect.cut(to: box)))
                        }
                        t += quad.isQuad ? 6 : 3
                    }
                }
            }
        }
    }

    /// A box to test triangles against: a region and a pixel around it.
    private typealias Bounds = (x0: Float, y0: Float, x1: Float, y1: Float)

    private static func bounds(around region: PixelRect) -> Bounds {
        (
            Float(region.x - 1), Float(region.y - 1), Float(region.x + region.width + 1),
            Float(region.y + region.height + 1)
        )
    }

    /// Appends to `gathered` the triangles of `indices` (three a triangle) that are not wholly
    /// outside every one of `boxes`, in order.
    private static func gatherTriangles(
        _ indices: UnsafeBufferPointer<Int32>, vertices: UnsafeBufferPointer<SDL_Vertex>,
        touching boxes: UnsafeBufferPointer<Bounds>, into gathered: inout [Int32]
    ) {
        var i = 0
        while i + 2 < indices.count {
            let ia = Int(indices[i]), ib = Int(indices[i + 1]), ic = Int(indices[i + 2])
            defer { i += 3 }
            // SDL would refuse an index past the vertices too.
            guard ia >= 0, ib >= 0, ic >= 0, ia < vertices.count, ib < vertices.count, ic < vertices.count
            else { continue }
            let a = vertices[ia].position, b = vertices[ib].position, c = vertices[ic].position
            // NaN corners fail these tests and keep the triangle, as a full redraw draws it.
            let touches = boxes.contains { box in
                !((a.x < box.x0 && b.x < box.x0 && c.x < box.x0) || (a.x > box.x1 && b.x > box.x1 && c.x > box.x1)
                    || (a.y < box.y0 && b.y < box.y0 && c.y < box.y0) || (a.y > box.y1 && b.y > box.y1 && c.y > box.y1))
            }
            if touches {
                gathered.append(indices[i])
                gathered.append(indices[i + 1])
                gathered.append(indices[i + 2])
            }
        }
    }

    /// Where in `narrowedIndices` those of `triangles` (a command's, keyed `key`) that touch one
    /// of the frame's regions are: found when the first region meets the command.
    private mutating func touchingTriangles(
        of triangles: UnsafeBufferPointer<Int32>, key: Int, vertices: UnsafeBufferPointer<SDL_Vertex>
    ) -> Range<Int> {
        if let range = narrowed[key] { return range }
        let start = narrowedIndices.count
        frameBounds.withUnsafeBufferPointer { boxes in
            Self.gatherTriangles(triangles, vertices: vertices, touching: boxes, into: &narrowedIndices)
        }
        narrowed[key] = start..<narrowedIndices.count
        return start..<narrowedIndices.count
    }

    /// Writes the vertices of `list`'s parts, leaving out or cutting what later rectangles hide.
    private mutating func emit(from source: UnsafeBufferPointer<SDL_Vertex>, list listIndex: Int) {
        for partIndex in parts.indices where parts[partIndex].draw.list == listIndex {
            let part = parts[partIndex]
            let first = vertices.count
            var t = part.start
            while t < part.end {
                let quad = quadRect(at: t, end: part.end, vertices: source)
                let count = quad.isQuad ? 6 : 3
                defer { t += count }
                if let bounds = shapeBounds(at: t, count: count, vertices: source) {
                    let shown = bounds.cut(to: part.box)
                    if shown.isEmpty || occluders.contains(where: { $0.at > t && $0.box.contains(shown) }) {
                        hiddenShapes += 1
                        continue
                    }
                }
                // A rectangle of one color (flat, or sampling one texel) is cut exactly: to
                // its scissor, and to what later opaque rectangles leave of it.
                if let rect = quad.rect, part.flat || sameTexel(at: t, vertices: source),
                    color(at: t, vertices: source) != nil
                {
                    let shown = rect.cut(to: part.box)
                    uncovered(shown, after: t)
                    if pieces != [shown] { hiddenShapes += 1 }
                    if pieces != [rect] {
                        let model = source[Int(gathered[t])]
                        for piece in pieces { appendRect(piece, like: model) }
                        continue
                    }
                }
                for k in t..<t + count { vertices.append(source[Int(gathered[k])]) }
            }
            guard vertices.count > first else { continue }
            var draw = part.draw
            draw.needsClip = !Self.lie(vertices[first...], within: part.box)
            draw.vertexStart = first
            draw.vertexCount = vertices.count - first
            if let last = draws.last, last.drawsLike(draw), last.vertexStart + last.vertexCount == first {
                draws[draws.count - 1] = last.joined(draw)
                continue
            }
            draws.append(draw)
        }
    }

    /// Keeps the `maxOccluders` largest opaque rectangles (in drawing order): each shape is
    /// tested against every one, so a region over a grid of a thousand flat cells would
    /// otherwise cost a thousand tests a shape.
    private mutating func keepLargestOccluders() {
        guard occluders.count > Self.maxOccluders else { return }
        func area(_ b: Box) -> Float { (b.x1 - b.x0) * (b.y1 - b.y0) }
        occluders.sort { area($0.box) > area($1.box) }
        occluders.removeLast(occluders.count - Self.maxOccluders)
        occluders.sort { $0.at < $1.at }
    }

    /// Sets `pieces` to what of `box` the opaque rectangles drawn after position `at` leave
    /// uncovered (stopping at `maxPieces`: the rest then stays drawn).
    private mutating func uncovered(_ box: Box, after at: Int) {
        pieces.removeAll(keepingCapacity: true)
        pieces.append(box)
        for occluder in occluders.reversed() {
            guard occluder.at > at else { break }
            nextPieces.removeAll(keepingCapacity: true)
            for piece in pieces { Self.subtract(occluder.box, from: piece, into: &nextPieces) }
            guard nextPieces.count <= Self.maxPieces else { break }
            swap(&pieces, &nextPieces)
            if pieces.isEmpty { break }
        }
    }

    /// `box` less `hole`, as up to four boxes: the bands above and below the hole, whole
    /// width, and those left and right of it.
    static func subtract(_ hole: Box, from box: Box, into result: inout [Box]) {
        guard hole.meets(box) else {
            result.append(box)
            return
        }
        if hole.y0 > box.y0 { result.append(Box(x0: box.x0, y0: box.y0, x1: box.x1, y1: hole.y0)) }
        if hole.y1 < box.y1 { result.append(Box(x0: box.x0, y0: hole.y1, x1: box.x1, y1: box.y1)) }
        let y0 = max(box.y0, hole.y0), y1 = min(box.y1, hole.y1)
        if hole.x0 > box.x0 { result.append(Box(x0: box.x0, y0: y0, x1: hole.x0, y1: y1)) }
        if hole.x1 < box.x1 { result.append(Box(x0: hole.x1, y0: y0, x1: box.x1, y1: y1)) }
    }

    /// Whether the triangles at `t` are a quad as `DrawList` writes one (a b c, a c d), and
    /// the rectangle it fills when it is axis-aligned, finite and within `coordinateLimit`.
    private func quadRect(
        at t: Int, end: Int, vertices: UnsafeBufferPointer<SDL_Vertex>
    ) -> (isQuad: Bool, rect: Box?) {
        guard t + 5 < end, gathered[t + 3] == gathered[t], gathered[t + 4] == gathered[t + 2] else {
            return (false, nil)
        }
        let a = vertices[Int(gathered[t])].position, b = vertices[Int(gathered[t + 1])].position
        let c = vertices[Int(gathered[t + 2])].position, d = vertices[Int(gathered[t + 5])].position
        let limit = Self.coordinateLimit
        guard abs(a.x) <= limit, abs(a.y) <= limit, abs(c.x) <= limit, abs(c.y) <= limit else { return (true, nil) }
        // a and c are opposite corners; b and d the other two, either way round.
        let corners =
            (b.x == a.x && b.y == c.y && d.x == c.x && d.y == a.y)
            || (b.x == c.x && b.y == a.y && d.x == a.x && d.y == c.y)
        let box = Box(x0: min(a.x, c.x), y0: min(a.y, c.y), x1: max(a.x, c.x), y1: max(a.y, c.y))
        return (true, corners && !box.isEmpty ? box : nil)
    }

    /// The bounds of the `count` vertices gathered at `t`; nil when a corner is not finite or
    /// past `coordinateLimit`.
    private func shapeBounds(at t: Int, count: Int, vertices: UnsafeBufferPointer<SDL_Vertex>) -> Box? {
        var box = Box(x0: .infinity, y0: .infinity, x1: -.infinity, y1: -.infinity)
        for k in t..<t + count {
            let p = vertices[Int(gathered[k])].position
            guard abs(p.x) <= Self.coordinateLimit, abs(p.y) <= Self.coordinateLimit else { return nil }
            box = Box(x0: min(box.x0, p.x), y0: min(box.y0, p.y), x1: max(box.x1, p.x), y1: max(box.y1, p.y))
        }
        return box
    }

    /// Whether every one of `vertices` lies within `box` (not when a position is not a number).
    private static func lie(_ vertices: ArraySlice<SDL_Vertex>, within box: Box) -> Bool {
        vertices.allSatisfy { v in
            v.position.x >= box.x0 && v.position.x <= box.x1 && v.position.y >= box.y0 && v.position.y <= box.y1
        }
    }

    /// Whether the quad at `t` samples one texel: its four corners have the same texture
    /// coordinates.
    private func sameTexel(at t: Int, vertices: UnsafeBufferPointer<SDL_Vertex>) -> Bool {
        let first = vertices[Int(gathered[t])].tex_coord
        func same(_ k: Int) -> Bool {
            let uv = vertices[Int(gathered[k])].tex_coord
            return uv.x == first.x && uv.y == first.y
        }
        return same(t + 1) && same(t + 2) && same(t + 5)
    }

    /// The color of the quad at `t` when its four corners have the same one.
    private func color(at t: Int, vertices: UnsafeBufferPointer<SDL_Vertex>) -> SDL_Color? {
        func same(_ a: SDL_Color, _ b: SDL_Color) -> Bool { a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a }
        let first = vertices[Int(gathered[t])].color
        guard same(first, vertices[Int(gathered[t + 1])].color), same(first, vertices[Int(gathered[t + 2])].color),
            same(first, vertices[Int(gathered[t + 5])].color)
        else { return nil }
        return first
    }

    private mutating func appendRect(_ box: Box, like model: SDL_Vertex) {
        func corner(_ x: Float, _ y: Float) -> SDL_Vertex {
            var v = model
            v.position = SDL_FPoint(x: x, y: y)
            return v
        }
        let a = corner(box.x0, box.y0), c = corner(box.x1, box.y1)
        vertices.append(a)
        vertices.append(corner(box.x1, box.y0))
        vertices.append(c)
        vertices.append(a)
        vertices.append(c)
        vertices.append(corner(box.x0, box.y1))
    }

    /// `scissor` (none: the whole target) in whole pixels, as the renderer sets it, cut to
    /// `region`; nil when they do not meet.
    private static func clip(_ scissor: Rect?, to region: PixelRect) -> SDL_Rect? {
        var x0 = region.x, y0 = region.y, x1 = region.x + region.width, y1 = region.y + region.height
        if let s = scissor.map(pixelRect) {
            x0 = max(x0, Int(s.x))
            y0 = max(y0, Int(s.y))
            x1 = min(x1, Int(s.x) + Int(s.w))
            y1 = min(y1, Int(s.y) + Int(s.h))
        }
        guard x0 < x1, y0 < y1 else { return nil }
        return SDL_Rect(x: Int32(x0), y: Int32(y0), w: Int32(x1 - x0), h: Int32(y1 - y0))
    }

    /// A scissor in whole pixels, truncated the way `DamageTracker` hashes it.
    package static func pixelRect(_ scissor: Rect) -> SDL_Rect {
        SDL_Rect(
            x: Int32(clamping: Int(scissor.x.clampedForPixels)), y: Int32(clamping: Int(scissor.y.clampedForPixels)),
            w: Int32(clamping: max(0, Int(scissor.width.clampedForPixels))),
            h: Int32(clamping: max(0, Int(scissor.height.clampedForPixels))))
    }

    /// Whether every vertex `command` draws is at full opacity.
    package static func isOpaque(
        _ command: DrawCommand, vertices: UnsafeBufferPointer<SDL_Vertex>, indices: UnsafeBufferPointer<Int32>
    ) -> Bool {
        for i in command.indexStart..<command.indexStart + command.indexCount
        where vertices[Int(indices[i])].color.a != 255 {
            return false
        }
        return true
    }
}
