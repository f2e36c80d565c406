import CSDL2

#if canImport(Glibc)
    import Glibc
#endif

/// One step of a frame's tile hashing: `tile` mixed in the quad or triangle hash `hash`.
struct TileStep {
    var tile: Int32
    var hash: UInt64
}

/// A command as `DamageTracker` hashed it: what it samples, where it may draw, the vertices
/// its indices name, and the tile steps it made.
struct HashedCommand {
    /// A rectangle in physical pixels, with fractional edges: a clip, or where triangles draw.
    struct Clip {
        var x0: Float, y0: Float, x1: Float, y1: Float
        /// The same bits (what the hash mixes in), not merely equal values.
        func isBitwiseEqual(to other: Clip) -> Bool {
            x0.bitPattern == other.x0.bitPattern && y0.bitPattern == other.y0.bitPattern
                && x1.bitPattern == other.x1.bitPattern && y1.bitPattern == other.y1.bitPattern
        }
        /// Nothing: the start of a union.
        static let empty = Clip(x0: .infinity, y0: .infinity, x1: -.infinity, y1: -.infinity)
        var isEmpty: Bool { !(x0 < x1 && y0 < y1) }
        /// The smallest box holding both.
        func union(_ other: Clip) -> Clip {
            Clip(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
        }
    }
    var texture: UInt32
    var generation: UInt64
    var clip: Clip
    /// Its texture, generation and clip, mixed: the seed of each of its triangles' hashes.
    var seed: UInt64
    var indexStart: Int, indexCount: Int
    /// The lowest vertex its indices name and one past the highest (equal when an index is
    /// out of range: the command is then never taken for another).
    var vertexLow: Int, vertexHigh: Int
    /// Its steps in the list's `steps`.
    var stepStart = 0, stepCount = 0
    /// Where its triangles may draw: their bounds with a pixel's margin, clipped (empty when
    /// they draw nothing).
    var bounds = Clip.empty
    /// Whether its clip leaves anything to draw.
    var isDrawn: Bool { clip.x0 < clip.x1 && clip.y0 < clip.y1 }

    /// `commands` of a list of `vertexCount` vertices and these `indices`, clipped to `window`
    /// (`generation` numbers each texture's content), into `described` (emptied first); the
    /// vertices each names only when `findsVertices` (to compare it with another).
    static func describe(
        _ commands: [DrawCommand], indices: UnsafeBufferPointer<Int32>, vertexCount: Int, window: Clip,
        findsVertices: Bool, generation: (TextureHandle) -> UInt64, into described: inout [HashedCommand]
    ) {
        described.removeAll(keepingCapacity: true)
        for command in commands {
            var clip = window
            if let s = command.scissor {
                // The renderer truncates the scissor to whole pixels the same way.
                let sx = Float(Int32(clamping: Int(s.x.clampedForPixels)))
                let sy = Float(Int32(clamping: Int(s.y.clampedForPixels)))
                clip.x0 = max(clip.x0, sx)
                clip.y0 = max(clip.y0, sy)
                clip.x1 = min(clip.x1, sx + Float(max(0, Int(s.width.clampedForPixels))))
                clip.y1 = min(clip.y1, sy + Float(max(0, Int(s.height.clampedForPixels))))
            }
            let start = min(max(0, command.indexStart), indices.count)
            let end = min(start + max(0, command.indexCount), indices.count)
            var low = Int32.max, high = Int32.min
            if findsVertices {
                for i in start..<end {
                    low = min(low, indices[i])
                    high = max(high, indices[i])
                }
            }
            let valid = findsVertices && start < end && low >= 0 && Int(high) < vertexCount
            let generation = generation(command.texture)
            var seed = DamageTracker.mix(UInt64(command.texture.id), generation)
            seed = DamageTracker.mix(seed, UInt64(clip.x0.bitPattern) | UInt64(clip.y0.bitPattern) << 32)
            seed = DamageTracker.mix(seed, UInt64(clip.x1.bitPattern) | UInt64(clip.y1.bitPattern) << 32)
            described.append(
                HashedCommand(
                    texture: command.texture.id, generation: generation, clip: clip, seed: seed, indexStart: start,
                    indexCount: end - start, vertexLow: valid ? Int(low) : 0, vertexHigh: valid ? Int(high) + 1 : 0))
        }
    }
}

/// One quad or triangle as hashing sees it: its hash (the same in every tile it touches) and
/// where it may draw.
struct HashedQuad {
    var hash: UInt64
    var bounds: HashedCommand.Clip
}

/// Where hashing notes its tile steps: a `ByteCopiedBuffer`, or nowhere (`UnnotedSteps`).
protocol TileStepNotes {
    /// Room for `extra` more steps.
    mutating func reserve(_ extra: Int)
    /// Notes `step`, after `reserve` made room for it.
    mutating func appendReserved(_ step: TileStep)
}

/// Steps not noted: a frame that is not remembered.
struct UnnotedSteps: TileStepNotes {
    /// Unread. An empty struct passed `inout` gets no address of its own, and ThreadSanitizer's
    /// check of the access then reads a wild one (it crashed `DamageRedrawTests` under TSan).
    private var addressable: UInt8 = 0
    @inline(__always) func reserve(_ extra: Int) {}
    @inline(__always) func appendReserved(_ step: TileStep) {}
}

/// Elements of a bitwise-copyable type in memory of their own, grown geometrically and
/// copied as bytes: what the damage tracker writes tens of thousands of times a frame, without
/// an array's checks on every write. Its owner calls `free`.
struct ByteCopiedBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>?
    private(set) var count = 0
    private var capacity = 0

    /// Room for `extra` more elements.
    @inline(__always) mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = max(count + extra, capacity * 2, 256)
        let memory = UnsafeMutablePointer<Element>.allocate(capacity: grown)
        if let base {
            UnsafeMutableRawPointer(memory).copyMemory(from: base, byteCount: count * MemoryLayout<Element>.stride)
            base.deallocate()
        }
        base = memory
        capacity = grown
    }

    /// Adds `element`, after `reserve` made room for it.
    @inline(__always) mutating func appendReserved(_ element: Element) {
        base.unsafelyUnwrapped[count] = element
        count += 1
    }

    /// Adds a copy of `elements`.
    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        reserve(elements.count)
        UnsafeMutableRawPointer(base.unsafelyUnwrapped + count).copyMemory(
            from: source, byteCount: elements.count * MemoryLayout<Element>.stride)
        count += elements.count
    }

    mutating func removeAll() { count = 0 }

    /// The elements, read-only.
    var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    mutating func free() {
        base?.deallocate()
        base = nil
        count = 0
        capacity = 0
    }
}

extension ByteCopiedBuffer: TileStepNotes where Element == TileStep {}

/// A draw list as `DamageTracker` hashed it: a copy of its vertices and indices, its commands,
/// and the tile steps each command made, so that the next frame can tell an unchanged command
/// by comparing bytes and make its steps again without hashing it.
///
/// ```swift
/// let matches = lastFrames.matches(commands, vertices: v, indices: i)  // [Int?]
/// hashed.remember(commands, vertices: v, indices: i)
/// ```
final class HashedList {
    // Only the damage tracker's one thread reaches them, one access at a time: no runtime checks.
    @exclusivity(unchecked) private var vertices = ByteCopiedBuffer<SDL_Vertex>()
    @exclusivity(unchecked) private var indices = ByteCopiedBuffer<Int32>()
    @exclusivity(unchecked) private(set) var commands: [HashedCommand] = []
    @exclusivity(unchecked) var steps = ByteCopiedBuffer<TileStep>()

    deinit {
        vertices.free()
        indices.free()
        steps.free()
    }

    /// Keeps a copy of a list's `vertices`, `indices` and `commands`, with no steps yet.
    func remember(
        _ commands: [HashedCommand], vertices: UnsafeBufferPointer<SDL_Vertex>, indices: UnsafeBufferPointer<Int32>
    ) {
        self.vertices.removeAll()
        self.vertices.append(contentsOf: vertices)
        self.indices.removeAll()
        self.indices.append(contentsOf: indices)
        self.commands = commands
        steps.removeAll()
    }

    /// Notes that command `index`'s steps are the last `count` added, and where it draws.
    func noteSteps(of index: Int, count: Int, bounds: HashedCommand.Clip) {
        commands[index].stepStart = steps.count - count
        commands[index].stepCount = count
        commands[index].bounds = bounds
    }

    /// For each of `commands` (of a list of these `vertices` and `indices`), the index of the
    /// equal command kept here: the same commands from the start, then the same from the end
    /// (a change in between shifts the ones after it). `changed`: the commands between those
    /// (none equal to a kept one); `unmatched`: the kept commands none is equal to.
    func matches(
        _ commands: [HashedCommand], vertices: UnsafeBufferPointer<SDL_Vertex>, indices: UnsafeBufferPointer<Int32>
    ) -> (matches: [Int?], changed: Range<Int>, unmatched: Range<Int>) {
        var result = [Int?](repeating: nil, count: commands.count)
        let n = commands.count, m = self.commands.count
        let kept = (vertices: self.vertices.buffer, indices: self.indices.buffer)
        func isSame(_ a: HashedCommand, _ b: HashedCommand) -> Bool {
            Self.isSame(a, vertices, indices, as: b, kept.vertices, kept.indices)
        }
        var prefix = 0
        while prefix < n, prefix < m, isSame(commands[prefix], self.commands[prefix]) {
            result[prefix] = prefix
            prefix += 1
        }
        var suffix = 0
        while suffix < n - prefix, suffix < m - prefix,
            isSame(commands[n - 1 - suffix], self.commands[m - 1 - suffix])
        {
            result[n - 1 - suffix] = m - 1 - suffix
            suffix += 1
        }
        return (result, prefix..<n - suffix, prefix..<m - suffix)
    }

    /// Appends to `quads` the quads of the kept commands `range` that draw, in drawing order.
    func appendQuads(ofCommands range: Range<Int>, to quads: inout [HashedQuad]) {
        let vertices = self.vertices.buffer, indices = self.indices.buffer
        for command in commands[range] where command.isDrawn {
            Self.appendQuads(of: command, vertices: vertices, indices: indices, to: &quads)
        }
    }

    /// Whether command `a` draws exactly what `b` drew: the same texture and content
    /// generation, the same clip, and the same triangles (indices alike relative to their
    /// lowest vertex, and those vertices' bytes equal).
    private static func isSame(
        _ a: HashedCommand, _ myVertices: UnsafeBufferPointer<SDL_Vertex>, _ myIndices: UnsafeBufferPointer<Int32>,
        as b: HashedCommand, _ theirVertices: UnsafeBufferPointer<SDL_Vertex>,
        _ theirIndices: UnsafeBufferPointer<Int32>
    ) -> Bool {
        let vertexCount = a.vertexHigh - a.vertexLow
        // (`describe` keeps both ranges within their buffers, and an empty buffer has count 0.)
        guard a.texture == b.texture, a.generation == b.generation, a.clip.isBitwiseEqual(to: b.clip),
            a.indexCount == b.indexCount, vertexCount > 0, vertexCount == b.vertexHigh - b.vertexLow,
            let myVertices = myVertices.baseAddress, let theirVertices = theirVertices.baseAddress,
            let myIndices = myIndices.baseAddress, let theirIndices = theirIndices.baseAddress
        else { return false }
        let mine = myIndices + a.indexStart, theirs = theirIndices + b.indexStart
        if a.vertexLow == b.vertexLow {
            guard memcmp(mine, theirs, a.indexCount * MemoryLayout<Int32>.stride) == 0 else { return false }
        } else {
            // Every index moved by the same amount; no early exit, so that the loop vectorizes.
            let shift = Int32(truncatingIfNeeded: a.vertexLow - b.vertexLow)
            var differs: Int32 = 0
            for k in 0..<a.indexCount { differs |= mine[k] &- theirs[k] &- shift }
            guard differs == 0 else { return false }
        }
        return memcmp(
            myVertices + a.vertexLow, theirVertices + b.vertexLow, vertexCount * MemoryLayout<SDL_Vertex>.stride) == 0
    }

    /// Makes again the steps that command `index` kept here made, noting them in `notes`;
    /// returns how many.
    func repeatSteps(
        of index: Int, into tiles: UnsafeMutableBufferPointer<UInt64>, notes: inout ByteCopiedBuffer<TileStep>
    ) -> Int {
        let command = commands[index], all = steps.buffer
        let end = min(command.stepStart + command.stepCount, all.count)
        let repeated = UnsafeBufferPointer(rebasing: all[min(command.stepStart, end)..<end])
        notes.append(contentsOf: repeated)
        for step in repeated where Int(step.tile) < tiles.count {
            tiles[Int(step.tile)] = DamageTracker.step(tiles[Int(step.tile)], step.hash)
        }
        return repeated.count
    }

    /// Hashes `command`'s triangles into the tiles, noting each step in `notes`; returns how
    /// many, and the bounds of what it hashed (`HashedCommand.bounds`). The two triangles of a
    /// quad as `DrawList` writes them (a b c, a c d) go as one: one bound and one pass over the
    /// tiles for both, which halves the cost of a frame of text.
    static func hashTriangles<Notes: TileStepNotes>(
        of command: HashedCommand, vertices: UnsafeBufferPointer<SDL_Vertex>, indices: UnsafeBufferPointer<Int32>,
        into tiles: UnsafeMutableBufferPointer<UInt64>, columns: Int, rows: Int, notes: inout Notes
    ) -> (steps: Int, bounds: HashedCommand.Clip) {
        let tileSize = DamageTracker.tileSize
        let end = command.indexStart + command.indexCount
        var i = command.indexStart, noted = 0
        var bounds = HashedCommand.Clip.empty
        while i + 2 < end {
            guard let quad = nextQuad(of: command, at: &i, end: end, vertices: vertices, indices: indices) else {
                continue
            }
            let box = quad.bounds, h = quad.hash
            bounds = bounds.union(box)
            let tx0 = Int(box.x0) / tileSize, tx1 = min(columns - 1, Int(box.x1) / tileSize)
            let ty0 = Int(box.y0) / tileSize, ty1 = min(rows - 1, Int(box.y1) / tileSize)
            let touched = (tx1 - tx0 + 1) * (ty1 - ty0 + 1)
            notes.reserve(touched)
            noted += touched
            for ty in ty0...ty1 {
                let row = ty * columns
                for tx in tx0...tx1 {
                    tiles[row + tx] = DamageTracker.step(tiles[row + tx], h)
                    notes.appendReserved(TileStep(tile: Int32(truncatingIfNeeded: row + tx), hash: h))
                }
            }
        }
        return (noted, bounds)
    }

    /// Appends to `quads` each quad or triangle of `command` that draws, as hashing sees it, in
    /// drawing order.
    static func appendQuads(
        of command: HashedCommand, vertices: UnsafeBufferPointer<SDL_Vertex>, indices: UnsafeBufferPointer<Int32>,
        to quads: inout [HashedQuad]
    ) {
        let end = command.indexStart + command.indexCount
        quads.reserveCapacity(quads.count + command.indexCount / 6 + 1)
        var i = command.indexStart
        while i + 2 < end {
            if let quad = nextQuad(of: command, at: &i, end: end, vertices: vertices, indices: indices) {
                quads.append(quad)
            }
        }
    }

    /// The quad (two triangles a b c, a c d) or triangle of `command` at index `i` of `indices`,
    /// moving `i` past it: its hash (the command's seed, its vertices' positions, colors and
    /// texture coordinates) and its bounds with a pixel's margin, clipped. Nil when it draws
    /// nothing: clipped away, or an index out of range.
    @inline(__always) private static func nextQuad(
        of command: HashedCommand, at i: inout Int, end: Int, vertices: UnsafeBufferPointer<SDL_Vertex>,
        indices: UnsafeBufferPointer<Int32>
    ) -> HashedQuad? {
        let clip = command.clip, count = vertices.count
        let a = Int(indices[i]), b = Int(indices[i + 1]), c = Int(indices[i + 2])
        let isQuad = i + 5 < end && Int(indices[i + 3]) == a && Int(indices[i + 4]) == c
        let d = isQuad ? Int(indices[i + 5]) : c
        i += isQuad ? 6 : 3
        guard a >= 0, b >= 0, c >= 0, d >= 0, a < count, b < count, c < count, d < count else { return nil }
        let va = vertices[a], vb = vertices[b], vc = vertices[c], vd = vertices[d]
        // Bounds with a pixel's margin, clipped; NaN-safe (a NaN corner fails every test).
        let x0 = max(clip.x0, min(va.position.x, vb.position.x, vc.position.x, vd.position.x) - 1)
        let x1 = min(clip.x1, max(va.position.x, vb.position.x, vc.position.x, vd.position.x) + 1)
        let y0 = max(clip.y0, min(va.position.y, vb.position.y, vc.position.y, vd.position.y) - 1)
        let y1 = min(clip.y1, max(va.position.y, vb.position.y, vc.position.y, vd.position.y) + 1)
        guard x0 < x1, y0 < y1, x0 >= clip.x0, y0 >= clip.y0, x1 <= clip.x1, y1 <= clip.y1 else { return nil }
        var h = DamageTracker.mix(command.seed, vertexBits(va) ^ vertexBits(vc) &* 0x1_0000_01B3)
        h = DamageTracker.mix(h, vertexBits(vb) ^ vertexBits(vd) &* 0x1_0000_01B3 ^ (isQuad ? 1 : 0))
        h = DamageTracker.mix(
            h, colorAndUV(va) ^ colorAndUV(vb) &* 31 ^ colorAndUV(vc) &* 1009 ^ colorAndUV(vd) &* 65_537)
        return HashedQuad(hash: h, bounds: HashedCommand.Clip(x0: x0, y0: y0, x1: x1, y1: y1))
    }

    @inline(__always) private static func vertexBits(_ v: SDL_Vertex) -> UInt64 {
        UInt64(v.position.x.bitPattern) | UInt64(v.position.y.bitPattern) << 32
    }

    @inline(__always) private static func colorAndUV(_ v: SDL_Vertex) -> UInt64 {
        let color = UInt64(v.color.r) | UInt64(v.color.g) << 8 | UInt64(v.color.b) << 16 | UInt64(v.color.a) << 24
        return color ^ UInt64(v.tex_coord.x.bitPattern) << 32 ^ UInt64(v.tex_coord.y.bitPattern) &* 0x1_0000_01B3
    }
}
