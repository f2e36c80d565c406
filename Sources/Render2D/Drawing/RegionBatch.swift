import CSDL2

/// The draws of a frame's damaged regions, planned region by region (`RegionPlan`) and drawn
/// together, with as few draw calls and changes of state as it can.
///
/// A software rasterizer pays for each draw call, and more for each change of texture,
/// blending or scissor between two (llvmpipe: 6–9 µs a call, 20–26 µs with a change), about
/// what it pays for thousands of pixels. The regions of one frame draw much the same things: a
/// hover ring cut into its four sides draws the cell, its photo and the ring in each side.
/// Regions that share no pixel cannot touch each other's pixels, so their draws may be
/// interleaved as long as each region's keep their order: then the pixels are those of drawing
/// the regions one after another. They are interleaved so that draws drawn alike follow each
/// other, and draws that need no scissor (`RegionPlan.Draw.needsClip`) and are drawn alike
/// become one call. Overlapping regions are first cut into rectangles that do not overlap
/// (`disjoint`).
///
/// ```swift
/// var batch = RegionBatch()
/// let pieces = RegionBatch.disjoint(regions, limit: 64)!  // nil: draw the regions one at a time
/// for region in pieces {
///     plan.make(for: region, lists: lists, drawable: { _ in true }, opaqueTexture: { $0 == .flat })
///     batch.add(plan)
/// }
/// batch.order()
/// // fill batch.clearPieces, then for each draw in batch.draws:
/// //     SDL_RenderGeometry(texture, batch.vertices + draw.vertexStart, draw.vertexCount, ...)
/// ```
package struct RegionBatch {
    package typealias Draw = RegionPlan.Draw

    /// Every region's pieces to clear first (each within its region).
    package private(set) var clearPieces: [SDL_FRect] = []
    /// The draws to make, in order (after `order`), and their vertices.
    package private(set) var draws: [Draw] = []
    package private(set) var vertices: [SDL_Vertex] = []
    /// Every region's draws as added, region after region, and their vertices.
    private var planned: [Draw] = []
    private var plannedVertices: [SDL_Vertex] = []
    /// Where each region's draws are in `planned`.
    private var regions: [Range<Int>] = []
    /// Scratch for `order`: the next draw of each region.
    private var heads: [Int] = []

    package init() {}

    /// Empties the batch for the next frame (its storage is kept).
    package mutating func removeAll() {
        clearPieces.removeAll(keepingCapacity: true)
        draws.removeAll(keepingCapacity: true)
        vertices.removeAll(keepingCapacity: true)
        planned.removeAll(keepingCapacity: true)
        plannedVertices.removeAll(keepingCapacity: true)
        regions.removeAll(keepingCapacity: true)
    }

    /// Adds a region's plan: its clear pieces, its draws and their vertices.
    package mutating func add(_ plan: RegionPlan) {
        clearPieces.append(contentsOf: plan.clearPieces)
        let offset = plannedVertices.count, first = planned.count
        plannedVertices.append(contentsOf: plan.vertices)
        for var draw in plan.draws {
            draw.vertexStart += offset
            planned.append(draw)
        }
        regions.append(first..<planned.count)
    }

    /// The pixels of `regions` as rectangles that share none, each region less those before
    /// it (in at most four pieces, `RegionPlan.subtract`'s); nil past `limit` rectangles.
    package static func disjoint(_ regions: [PixelRect], limit: Int) -> [PixelRect]? {
        var result: [RegionPlan.Box] = []
        var pieces: [RegionPlan.Box] = [], cut: [RegionPlan.Box] = []
        for region in regions {
            pieces = [RegionPlan.Box(region)]
            for earlier in result {
                cut.removeAll(keepingCapacity: true)
                for piece in pieces { RegionPlan.subtract(earlier, from: piece, into: &cut) }
                swap(&pieces, &cut)
            }
            result.append(contentsOf: pieces)
            if result.count > limit { return nil }
        }
        return result.map(\.pixels)
    }

    /// Orders the draws of the regions added (which must share no pixel) into `draws`: each
    /// region's in its order, and while some region's next draw is drawn like the last one, it
    /// comes next (otherwise the one drawn like the most regions' next draws, one that needs its
    /// scissor first). Consecutive draws that need no scissor and are drawn alike become one
    /// (a region's own draws drawn alike under one scissor were joined by its plan).
    package mutating func order() {
        draws.removeAll(keepingCapacity: true)
        vertices.removeAll(keepingCapacity: true)
        heads.removeAll(keepingCapacity: true)
        heads.append(contentsOf: regions.lazy.map(\.lowerBound))
        while let region = nextRegion() {
            var draw = planned[heads[region]]
            heads[region] += 1
            let start = vertices.count
            vertices.append(contentsOf: plannedVertices[draw.vertexStart..<draw.vertexStart + draw.vertexCount])
            // Only draws that need no scissor are joined here: a joined draw may hold several
            // regions' triangles, which no one region's scissor may cut.
            if let last = draws.last, !last.needsClip, !draw.needsClip, last.drawsLike(draw) {
                draws[draws.count - 1] = last.joined(draw)
                continue
            }
            draw.vertexStart = start
            draws.append(draw)
        }
    }

    /// The region whose next draw comes next; nil when every region's draws are out.
    private func nextRegion() -> Int? {
        func next(_ region: Int) -> Draw? {
            heads[region] < regions[region].upperBound ? planned[heads[region]] : nil
        }
        if let last = draws.last, let region = heads.indices.first(where: { next($0)?.drawsLike(last) == true }) {
            return region
        }
        var best: Int?, bestCount = 0
        for region in heads.indices {
            guard let draw = next(region) else { continue }
            // Draws that need no scissor wait on a tie: more of them may then be joined.
            let count =
                2 * heads.indices.reduce(0) { $0 + (next($1)?.drawsLike(draw) == true ? 1 : 0) }
                + (draw.needsClip ? 1 : 0)
            if count > bestCount { (best, bestCount) = (region, count) }
        }
        return best
    }
}
