/// Where a composed line of text lives in the atlas: its shelf and that shelf's epoch when
/// the line was placed (a shelf handed to other lines bumps its epoch), and its texels.
struct LinePlacement {
    var shelf: Int32
    var epoch: UInt32
    var uv0: SIMD2<Float>
    var uv1: SIMD2<Float>
}

/// Space for whole lines of text in one rectangle of an atlas page: shelves of one height
/// each, filled left to right. A shelf is handed on whole, least recently drawn first, and
/// never while a line on it was drawn in this frame (its quads still point at it) or the one
/// before (it is likely drawn again: taking it would only trade one composed line for
/// another, every frame). Pure bookkeeping: `GlyphAtlas` writes the pixels.
struct LineShelves {
    struct Shelf {
        var y: Int
        var height: Int
        var x = 0
        var lastFrame = 0
        var epoch: UInt32 = 0
    }

    let left: Int, top: Int, width: Int, height: Int
    private(set) var shelves: [Shelf] = []
    /// Where the next new shelf starts.
    private var nextY: Int
    /// The frame a line last found no room: the lines after it in that frame do not look.
    private var fullInFrame = 0
    /// The epoch new shelves start at: lines placed before the space was emptied never match.
    private let firstEpoch: UInt32

    init(left: Int, top: Int, width: Int, height: Int, firstEpoch: UInt32 = 0) {
        (self.left, self.top, self.width, self.height) = (left, top, width, height)
        nextY = top
        self.firstEpoch = firstEpoch
    }

    /// The epoch for the space once emptied: above every epoch handed out here.
    var nextFirstEpoch: UInt32 { (shelves.map(\.epoch).max() ?? firstEpoch) &+ 1 }

    /// Shelf heights come in steps of 4 pixels, so lines of nearby heights share shelves.
    static func shelfHeight(for height: Int) -> Int { (height + 1 + 3) / 4 * 4 }

    /// Frames a shelf goes undrawn before its lines count as gone: a new line takes such a
    /// shelf before the space grows, so the space holds about what a screen shows (all of
    /// it for a screen of text that stays, only what scrolled by lately for one that moves).
    static let idleFrames = 8

    /// Room for a `width`×`height` line drawn in `frame`: on a shelf of its height with space
    /// left, else the least recently drawn shelf idle for `idleFrames` that is tall enough
    /// (and at most twice as tall), else a new shelf, else the least recently drawn such shelf
    /// not drawn in `frame` or the frame before. Nil when none fits, and for the rest of the
    /// frame once one did not.
    mutating func place(width: Int, height: Int, frame: Int) -> (shelf: Int, epoch: UInt32, x: Int, y: Int)? {
        let w = width + 1, h = Self.shelfHeight(for: height)
        guard w <= self.width, h <= self.height, fullInFrame != frame else { return nil }
        var chosen = shelves.firstIndex { $0.height == h && $0.x + w <= self.width }
        if chosen == nil { chosen = leastRecentlyDrawn(height: h, drawnBefore: frame - Self.idleFrames) }
        if chosen == nil, nextY + h <= top + self.height {
            shelves.append(Shelf(y: nextY, height: h, epoch: firstEpoch))
            nextY += h
            chosen = shelves.count - 1
        }
        if chosen == nil { chosen = leastRecentlyDrawn(height: h, drawnBefore: frame - 1) }
        guard let i = chosen else {
            fullInFrame = frame
            return nil
        }
        let x = shelves[i].x
        shelves[i].x += w
        shelves[i].lastFrame = frame
        return (i, shelves[i].epoch, left + x, shelves[i].y)
    }

    /// The least recently drawn shelf last drawn before `frame` that holds lines `height` tall
    /// (and is at most twice as tall), emptied for new lines; nil when there is none.
    private mutating func leastRecentlyDrawn(height: Int, drawnBefore frame: Int) -> Int? {
        var oldest: Int?
        for (i, shelf) in shelves.enumerated()
        where shelf.height >= height && shelf.height <= 2 * height && shelf.lastFrame < frame {
            if oldest.map({ shelf.lastFrame < shelves[$0].lastFrame }) ?? true { oldest = i }
        }
        guard let oldest else { return nil }
        shelves[oldest].x = 0
        shelves[oldest].epoch &+= 1
        return oldest
    }

    /// Whether the line placed as `placement` is still there; if so, marks its shelf drawn
    /// in `frame`.
    mutating func touch(_ placement: LinePlacement, frame: Int) -> Bool {
        let i = Int(placement.shelf)
        guard i < shelves.count, shelves[i].epoch == placement.epoch else { return false }
        shelves[i].lastFrame = frame
        return true
    }
}
