import CSDL2

/// What changed on screen since the last frame, found from the draw commands alone.
package enum Damage: Equatable, Sendable {
    /// Nothing: the last frame's pixels are this frame's.
    case none
    /// Only these rectangles (physical pixels, clipped to the window) changed: whole tiles,
    /// or cut to where the changed commands draw in them when that is known.
    case regions([PixelRect])
    /// Everything is redrawn: the first frame, a new size or clear color, or a change over
    /// most of the window.
    case full
}

/// A rectangle of whole pixels.
package struct PixelRect: Equatable, Sendable {
    package var x: Int, y: Int, width: Int, height: Int
    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    package var area: Int { width * height }
}

/// Finds the damaged part of a frame by hashing its triangles into tiles and comparing each
/// tile's hash with the last frame's: no pixel is read.
///
/// Every triangle's vertices (position, color, texture coordinates), its texture and that
/// texture's content generation, and its scissor are mixed, in drawing order, into the hash
/// of each tile its bounds (clipped by the scissor and the window) touch. A tile whose hash
/// differs was drawn differently, so its pixels may differ; a tile whose hash is the same
/// received the same triangles in the same order from the same textures, so its pixels are
/// the same. Tiles are 32 pixels square: a caret or a hover stays a few tiles.
///
/// When this frame and the last both kept their lists (after small changes), the tracker also
/// knows what changed: the quads of the commands it hashed and of the last frame's it did not
/// repeat, less those the two share at their start and end. No pixel outside those quads'
/// bounds differs, so each damaged region is cut to what of them it holds, in one rectangle or
/// a few (whichever costs less to draw): a hover ring's four sides rather than the tiles around
/// it, a thumbnail rather than its tiles, a caret rather than two tiles.
///
/// The glyph atlas needs no generation of its own between evictions (its `generation` is in
/// the seed): a glyph's slot is never rewritten, and a composed line's shelf is handed on only
/// when none of its lines was drawn in this frame or the last (`LineShelves`), so a quad that
/// samples rewritten texels was not in the last frame, and its tiles change anyway.
///
/// ```swift
/// tracker.beginFrame(width: 1280, height: 800, seed: clearColorBits)
/// tracker.add(list) { texture in generation(of: texture) }
/// switch tracker.endFrame() { case .none: ...; case .regions(let rects): ...; case .full: ... }
/// ```
package struct DamageTracker {
    /// The side of a tile in physical pixels.
    package static let tileSize = 32
    /// Past this share of the window's tiles, the frame is redrawn whole: one pass costs
    /// less than many scissored ones.
    package static let fullShare = 0.5
    /// Past this many separate regions, they are merged into their bounding box.
    package static let maxRegions = 8
    /// What redrawing one more region costs, in pixels drawn: a software rasterizer spends
    /// about as long on a region's own draw calls (its scissor, and every command that touches
    /// it issued again) as on 8 more tiles of pixels. Measured in the browser with llvmpipe:
    /// a hover ring's four sides (4 regions, 6,000 pixels) presented in 0.21 ms where its cell
    /// (1 region, 35,000 pixels) took 0.24 ms, at about 3.5 ns a pixel.
    package static let regionCostInPixels = 8 * tileSize * tileSize
    /// What presenting one more region costs, in pixels copied, where a frame is presented by
    /// copying its regions to an X11 window (`GLX_MESA_copy_sub_buffer`, with a software GL):
    /// each copy waits for the rasterizer and puts an image to the X server, about 80 µs, where
    /// a pixel costs about 3 ns. Measured under Xvfb: a hover ring's four sides presented in
    /// 0.41 ms, their bounding box (its cell, 6 times the pixels) in 0.26 ms.
    package static let presentCostInPixels = 24_000

    private var width = 0, height = 0, columns = 0, rows = 0
    private var seed: UInt64 = 0
    private var tiles: [UInt64] = []
    private var previousTiles: [UInt64] = []
    /// False until a frame of this size and seed has been hashed: then all of it is damage.
    private var hasPrevious = false
    private var forcesFull = false
    /// This frame's lists as hashed, in the order added, and the last frame's: a command equal
    /// to one of the last frame's mixes that one's tile steps again instead of being hashed.
    private var lists: [HashedList] = []
    private var previousLists: [HashedList] = []
    private var listsAdded = 0, previousListsAdded = 0
    /// Whether this frame's lists are kept for the next frame's (see `beginFrame`).
    private var remembers = false
    /// The commands of the list being added (reused from list to list).
    private var described: [HashedCommand] = []
    /// Commands of this frame not hashed but repeated from the last frame's.
    package private(set) var commandsRepeated = 0
    /// Where this frame's changed quads (or commands) draw and the last frame's ones it does
    /// not repeat drew, when both frames kept their lists (`changesAreKnown`): no pixel outside
    /// them differs, so a damaged region shrinks to what of them it holds.
    private var changedBounds: [HashedCommand.Clip] = []
    private var changesAreKnown = false
    /// Whether regions are cut to the changes when they are known (off: whole tiles, to compare).
    package var cutsRegionsToChanges = true
    /// Past this many changed commands or quads, regions stay whole tiles.
    static let maxChangedBounds = 256
    /// Past this many quads in a list's changed commands, their bounds are noted, not the
    /// quads that changed.
    static let maxDiffedQuads = 4096
    /// The quads of the commands being compared (reused from list to list).
    private var oldQuads: [HashedQuad] = [], newQuads: [HashedQuad] = []

    package init() {}

    /// Starts hashing a frame `width`×`height` pixels; a different size or `seed` (the
    /// clear color, the atlas's generation) from the last frame's damages everything.
    /// `remembers` keeps a copy of the frame's lists, so that the next frame hashes only the
    /// commands that changed: worth it after a small change (the next is likely small too),
    /// not during a scroll, where every command changes and the copy would cost time and memory.
    package mutating func beginFrame(width: Int, height: Int, seed: UInt64, remembers: Bool = true) {
        let sizeChanged = width != self.width || height != self.height
        if sizeChanged || seed != self.seed { forcesFull = true }
        self.width = max(0, width)
        self.height = max(0, height)
        self.seed = seed
        columns = (self.width + Self.tileSize - 1) / Self.tileSize
        rows = (self.height + Self.tileSize - 1) / Self.tileSize
        swap(&tiles, &previousTiles)
        swap(&lists, &previousLists)
        previousListsAdded = listsAdded  // the slots past it are old buffers, not the last frame
        listsAdded = 0
        changesAreKnown = remembers && self.remembers
        changedBounds.removeAll(keepingCapacity: true)
        self.remembers = remembers
        commandsRepeated = 0
        if !remembers {
            lists.removeAll()
            previousLists.removeAll()
        }
        if tiles.count != columns * rows {
            tiles = [UInt64](repeating: 0, count: columns * rows)
        } else {
            tiles.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
        if previousTiles.count != tiles.count { hasPrevious = false }
    }

    /// Forgets the last frame: the next `endFrame` reports `.full` (its pixels were lost).
    package mutating func invalidate() {
        hasPrevious = false
        lists.removeAll()  // their memory too: a frame that does not hash keeps nothing
        previousLists.removeAll()
        listsAdded = 0
    }

    /// Mixes `list`'s triangles into the tiles they touch; `generation` gives a number that
    /// changes whenever a texture's pixels change.
    ///
    /// A command equal to the last frame's command in the same place (counted from the list's
    /// start, or from its end: a change shifts the commands after it) is not hashed again: the
    /// tile steps it made then are made again, which gives the same tiles. A hover, a caret or
    /// a thumbnail changes one or two of the browser's 65 or so commands.
    package mutating func add(_ list: DrawList, generation: (TextureHandle) -> UInt64) {
        let commands = list.commands
        guard !commands.isEmpty, columns > 0, rows > 0 else { return }
        let slot = listsAdded
        listsAdded += 1
        let comparable =
            remembers && hasPrevious && !forcesFull && previousTiles.count == tiles.count
            && slot < min(previousListsAdded, previousLists.count)
        let previous = comparable ? previousLists[slot] : nil
        if remembers && lists.count <= slot { lists.append(HashedList()) }
        let hashed = remembers ? lists[slot] : nil
        let columns = columns, rows = rows, window = windowClip
        var described: [HashedCommand] = [], tiles: [UInt64] = [], repeated = 0
        swap(&described, &self.described)
        swap(&tiles, &self.tiles)
        defer {
            swap(&described, &self.described)
            swap(&tiles, &self.tiles)
            commandsRepeated += repeated
        }
        list.vertices.withUnsafeBufferPointer { vertices in
            list.indices.withUnsafeBufferPointer { indices in
                tiles.withUnsafeMutableBufferPointer { tiles in
                    HashedCommand.describe(
                        commands, indices: indices, vertexCount: vertices.count, window: window,
                        findsVertices: hashed != nil, generation: generation, into: &described)
                    guard let hashed else {
                        changesAreKnown = false
                        var unnoted = UnnotedSteps()
                        for command in described where command.isDrawn {
                            _ = HashedList.hashTriangles(
                                of: command, vertices: vertices, indices: indices, into: tiles, columns: columns,
                                rows: rows, notes: &unnoted)
                        }
                        return
                    }
                    let found = previous?.matches(described, vertices: vertices, indices: indices)
                    hashed.remember(described, vertices: vertices, indices: indices)
                    for (index, command) in described.enumerated() where command.isDrawn {
                        let count: Int, bounds: HashedCommand.Clip
                        if let previous, let match = found?.matches[index] {
                            repeated += 1
                            count = previous.repeatSteps(of: match, into: tiles, notes: &hashed.steps)
                            bounds = previous.commands[match].bounds
                        } else {
                            (count, bounds) = HashedList.hashTriangles(
                                of: command, vertices: vertices, indices: indices, into: tiles, columns: columns,
                                rows: rows, notes: &hashed.steps)
                            if previous == nil { noteChange(bounds) }  // a new list: all of it is change
                        }
                        hashed.noteSteps(of: index, count: count, bounds: bounds)
                    }
                    if let previous, let found {
                        noteChangedQuads(
                            old: previous, unmatched: found.unmatched, new: hashed, changed: found.changed,
                            vertices: vertices, indices: indices)
                    }
                }
            }
        }
    }

    /// Notes where the quads that changed between the last frame's commands `unmatched` of
    /// `old` and this frame's commands `changed` of `new` (of these `vertices` and `indices`)
    /// draw or drew. The quads the two share at their start and at their end are left out:
    /// both frames draw them in the same order around the ones that changed, so a pixel that
    /// none of those touches is drawn alike. A hover ring added to a cell's overlay command is
    /// then its own quads, not the command's whole cell. Past `maxDiffedQuads`, or when more
    /// quads changed than can be noted, the commands' bounds are noted instead.
    private mutating func noteChangedQuads(
        old: HashedList, unmatched: Range<Int>, new: HashedList, changed: Range<Int>,
        vertices: UnsafeBufferPointer<SDL_Vertex>, indices: UnsafeBufferPointer<Int32>
    ) {
        guard changesAreKnown else { return }
        let quadsAtMost =
            old.commands[unmatched].reduce(0) { $0 + $1.indexCount / 3 }
            + new.commands[changed].reduce(0) { $0 + $1.indexCount / 3 }
        if quadsAtMost <= Self.maxDiffedQuads {
            oldQuads.removeAll(keepingCapacity: true)
            newQuads.removeAll(keepingCapacity: true)
            old.appendQuads(ofCommands: unmatched, to: &oldQuads)
            for command in new.commands[changed] where command.isDrawn {
                HashedList.appendQuads(of: command, vertices: vertices, indices: indices, to: &newQuads)
            }
            var start = 0
            while start < oldQuads.count, start < newQuads.count, oldQuads[start].hash == newQuads[start].hash {
                start += 1
            }
            var end = 0
            while end < oldQuads.count - start, end < newQuads.count - start,
                oldQuads[oldQuads.count - 1 - end].hash == newQuads[newQuads.count - 1 - end].hash
            {
                end += 1
            }
            let gone = oldQuads[start..<oldQuads.count - end], come = newQuads[start..<newQuads.count - end]
            if changedBounds.count + gone.count + come.count <= Self.maxChangedBounds {
                for quad in gone { noteChange(quad.bounds) }
                for quad in come { noteChange(quad.bounds) }
                return
            }
        }
        for command in old.commands[unmatched] { noteChange(command.bounds) }
        for command in new.commands[changed] { noteChange(command.bounds) }
    }

    /// Notes where a changed command or quad draws, or drew.
    private mutating func noteChange(_ bounds: HashedCommand.Clip) {
        guard changesAreKnown, !bounds.isEmpty else { return }
        guard changedBounds.count < Self.maxChangedBounds else {
            changesAreKnown = false
            return
        }
        changedBounds.append(bounds)
    }

    /// Where command `command` of the `list`th list added this frame draws (a pixel's margin
    /// around its triangles, clipped), when this frame keeps its lists; nil when it does not.
    func bounds(ofCommand command: Int, inList list: Int) -> HashedCommand.Clip? {
        guard remembers, list < min(listsAdded, lists.count), command < lists[list].commands.count else { return nil }
        return lists[list].commands[command].bounds
    }

    /// The window as a clip rectangle.
    private var windowClip: HashedCommand.Clip { HashedCommand.Clip(x0: 0, y0: 0, x1: Float(width), y1: Float(height)) }

    @inline(__always) package static func mix(_ h: UInt64, _ value: UInt64) -> UInt64 {
        var x = (h ^ value) &* 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        return x
    }

    /// A tile's hash after one more quad or triangle hashed `h` touched it.
    @inline(__always) static func step(_ tile: UInt64, _ h: UInt64) -> UInt64 { (tile ^ h) &* 0x9E37_79B9_7F4A_7C15 }

    /// Ends the frame: what differs from the last one.
    package mutating func endFrame() -> Damage {
        defer {
            hasPrevious = true
            forcesFull = false
        }
        guard hasPrevious, !forcesFull, previousTiles.count == tiles.count else { return .full }
        // Lists of the last frame that this one does not have: all they drew is change.
        for slot in listsAdded..<max(listsAdded, min(previousListsAdded, previousLists.count)) {
            for command in previousLists[slot].commands { noteChange(command.bounds) }
        }
        var changed = 0
        for i in tiles.indices where tiles[i] != previousTiles[i] { changed += 1 }
        if changed == 0 { return .none }
        if Double(changed) > Self.fullShare * Double(tiles.count) { return .full }
        return .regions(regions())
    }

    /// The changed tiles as rectangles: runs along each row, stacked where runs of
    /// neighbouring rows span the same columns; past `maxRegions`, their bounding box.
    private func regions() -> [PixelRect] {
        var rects: [PixelRect] = []
        var open: [Int: Int] = [:]  // a run's first column × 65,536 + last → its index in rects
        for ty in 0..<rows {
            var nextOpen: [Int: Int] = [:]
            var tx = 0
            while tx < columns {
                guard tiles[ty * columns + tx] != previousTiles[ty * columns + tx] else {
                    tx += 1
                    continue
                }
                let first = tx
                while tx < columns, tiles[ty * columns + tx] != previousTiles[ty * columns + tx] { tx += 1 }
                let key = first << 16 | (tx - 1)
                if let index = open[key] {
                    rects[index].height += Self.tileSize
                    nextOpen[key] = index
                } else {
                    nextOpen[key] = rects.count
                    rects.append(
                        PixelRect(
                            x: first * Self.tileSize, y: ty * Self.tileSize, width: (tx - first) * Self.tileSize,
                            height: Self.tileSize))
                }
            }
            open = nextOpen
        }
        rects = Self.mergedWhereCheaper(rects)
        if rects.count > Self.maxRegions { rects = [PixelRect.bounds(of: rects)] }
        let inWindow = rects.map { rect in
            PixelRect(
                x: rect.x, y: rect.y, width: min(rect.width, width - rect.x), height: min(rect.height, height - rect.y))
        }
        guard changesAreKnown && cutsRegionsToChanges else { return inWindow }
        let pieces = inWindow.flatMap { Self.cut($0, to: changedBounds) }
        return pieces.count <= Self.maxRegions ? pieces : inWindow.map { Self.shrunk($0, to: changedBounds) }
    }

    /// `region` cut to the whole pixels of `changes` it holds, in as many rectangles as is
    /// cheaper to draw (`regionCostInPixels`): each change joins the group whose box it grows
    /// least, when that adds fewer pixels than one more region costs, and the groups are then
    /// merged where cheaper. A hover ring becomes its four sides rather than its cell. Unchanged
    /// when it holds none of them.
    static func cut(_ region: PixelRect, to changes: [HashedCommand.Clip]) -> [PixelRect] {
        var groups: [PixelRect] = []
        for change in changes {
            guard let part = region.wholePixels(of: change) else { continue }
            var best = (group: -1, added: Int.max)
            for (index, group) in groups.enumerated() {
                let added = group.union(part).area - group.area - part.area
                if added < best.added { best = (index, added) }
            }
            if best.group >= 0, best.added < regionCostInPixels {
                groups[best.group] = groups[best.group].union(part)
            } else {
                groups.append(part)
            }
        }
        return groups.isEmpty ? [region] : mergedWhereCheaper(groups)
    }

    /// `region` cut to the whole pixels of `changes` (their bounds) it holds; unchanged when
    /// it holds none of them.
    static func shrunk(_ region: PixelRect, to changes: [HashedCommand.Clip]) -> PixelRect {
        let held = changes.compactMap { region.wholePixels(of: $0) }
        return held.isEmpty ? region : PixelRect.bounds(of: held)
    }
}

extension DamageTracker {
    /// `rects` (tile runs, which do not overlap, or groups of changes, which may) with
    /// neighbours merged into their bounding box wherever that draws fewer pixels than
    /// `regionCost` (a region's cost in pixels: `regionCostInPixels` to draw,
    /// `presentCostInPixels` to present) more than it saves in regions: first the pair whose
    /// box adds the fewest pixels, while that is under one region's cost (with whatever the
    /// box then overlaps); then all of them into one box, when that is cheaper. A small cell's ring of
    /// tiles becomes one rectangle; two changes far apart stay two. Past
    /// `maxRegions * 4` rectangles (changes scattered over the window) it is their bounding box
    /// at once: the pairwise search grows with the cube of their number.
    package static func mergedWhereCheaper(
        _ rects: [PixelRect], regionCost: Int = regionCostInPixels
    ) -> [PixelRect] {
        guard rects.count <= maxRegions * 4 else { return [PixelRect.bounds(of: rects)] }
        var rects = rects
        while rects.count > 1 {
            var best = (i: 0, j: 0, added: Int.max)
            for i in rects.indices {
                for j in rects.indices where j > i {
                    let added = rects[i].union(rects[j]).area - rects[i].area - rects[j].area
                    if added < best.added { best = (i, j, added) }
                }
            }
            guard best.added < regionCost else { break }
            var box = rects[best.i].union(rects[best.j])
            rects.remove(at: best.j)
            rects.remove(at: best.i)
            while let k = rects.firstIndex(where: { $0.overlaps(box) }) {
                box = box.union(rects.remove(at: k))
            }
            rects.append(box)
        }
        guard rects.count > 1 else { return rects }
        let box = PixelRect.bounds(of: rects)
        let separately = rects.reduce(0) { $0 + $1.area } + rects.count * regionCost
        return box.area + regionCost <= separately ? [box] : rects
    }
}

extension PixelRect {
    /// The smallest rectangle holding all of `rects` (none: an empty one at the origin).
    package static func bounds(of rects: [PixelRect]) -> PixelRect {
        guard let first = rects.first else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        var x0 = first.x, y0 = first.y, x1 = first.x + first.width, y1 = first.y + first.height
        for rect in rects.dropFirst() {
            x0 = min(x0, rect.x)
            y0 = min(y0, rect.y)
            x1 = max(x1, rect.x + rect.width)
            y1 = max(y1, rect.y + rect.height)
        }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle holding both.
    func union(_ other: PixelRect) -> PixelRect {
        let x0 = min(x, other.x), y0 = min(y, other.y)
        let x1 = max(x + width, other.x + other.width), y1 = max(y + height, other.y + other.height)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The whole pixels of `box` within this rectangle; nil when they share none.
    func wholePixels(of box: HashedCommand.Clip) -> PixelRect? {
        let x0 = max(Float(x), box.x0), y0 = max(Float(y), box.y0)
        let x1 = min(Float(x + width), box.x1), y1 = min(Float(y + height), box.y1)
        guard x0 < x1, y0 < y1 else { return nil }
        let left = Int(x0.rounded(.down)), top = Int(y0.rounded(.down))
        return PixelRect(x: left, y: top, width: Int(x1.rounded(.up)) - left, height: Int(y1.rounded(.up)) - top)
    }

    /// Whether the two share any pixel.
    package func overlaps(_ other: PixelRect) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }
}

extension Double {
    /// The value clamped to ±2^30 (NaN to 0), safe to convert to `Int` for a pixel coordinate.
    var clampedForPixels: Double { self >= -1_073_741_824 ? (self <= 1_073_741_824 ? self : 1_073_741_824) : 0 }
}
