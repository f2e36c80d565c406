import Render2D

/// A small deterministic generator (xorshift64*), so that a failure names its frame.
struct SceneRandom {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Int((state &* 0x2545_F491_4F6C_DD1D) >> 33) % bound
    }
    /// A rectangle in a 320×200 window, on whole pixels or, with `fractional`, between them.
    mutating func rect(fractional: Bool = false) -> Rect {
        let fraction = fractional ? Double(next(4)) / 4 : 0
        return Rect(
            x: Double(next(300)) + fraction, y: Double(next(180)) + fraction, width: Double(1 + next(80)),
            height: Double(1 + next(60)))
    }
}

/// Shapes drawn in order, changed a little from frame to frame the way a window changes:
/// for damage tracking, which must find every pixel a change touches.
struct RandomScene {
    struct Shape {
        var rect: Rect
        var color: Color
        var kind: Kind
        /// A clip of its own, when it has one.
        var clip: Rect?
    }

    enum Kind: CaseIterable {
        case rectangle, roundedRectangle, ring, text
        /// An image of one of three textures.
        case image1, image2, image3
    }

    var shapes: [Shape]
    var random: SceneRandom
    /// Shapes land between pixels too.
    let fractional: Bool
    /// Kinds new shapes take.
    let kinds: [Kind]
    static let colors: [Color] = [.red, .green, .blue, .gray, .white, Color(r: 0, g: 0, b: 0, a: 115)]

    init(seed: UInt64, fractional: Bool = false, kinds: [Kind] = Kind.allCases) {
        random = SceneRandom(state: seed)
        self.fractional = fractional
        self.kinds = kinds
        shapes = []
        for _ in 0..<16 { shapes.append(newShape()) }
    }

    private mutating func newShape() -> Shape {
        Shape(
            rect: random.rect(fractional: fractional), color: Self.colors[random.next(Self.colors.count)],
            kind: kinds[random.next(kinds.count)])
    }

    /// One or two changes: a shape moved (by a pixel or anywhere), recolored, added, removed,
    /// clipped or unclipped; or nothing. Returns the texture whose pixels are to change (1...3)
    /// when that is the change.
    mutating func change() -> Int? {
        var texture: Int?
        for _ in 0..<(1 + random.next(2)) {
            let i = random.next(shapes.count)
            switch random.next(8) {
            case 0: shapes[i].rect = random.rect(fractional: fractional)
            case 1: shapes[i].rect.x += 1
            case 2: shapes[i].color = Self.colors[random.next(Self.colors.count)]
            case 3: shapes.insert(newShape(), at: i)
            case 4: if shapes.count > 4 { shapes.remove(at: i) }
            case 5: texture = 1 + random.next(3)
            case 6: shapes[i].clip = shapes[i].clip == nil ? random.rect(fractional: fractional) : nil
            default: break  // nothing changes
            }
        }
        return texture
    }

    /// Draws the shapes: images with `texture(1...3)`, text with `font` (none: a rectangle).
    @MainActor func draw(into list: inout DrawList, texture: (Int) -> TextureHandle, font: Font?) {
        for shape in shapes {
            if let clip = shape.clip { list.pushClip(clip) }
            switch shape.kind {
            case .rectangle: list.addRect(shape.rect, color: shape.color)
            case .roundedRectangle: list.addRoundedRect(shape.rect, radius: 6, color: shape.color)
            case .ring: list.addRectBorder(shape.rect, radius: 6, color: shape.color, thickness: 1.5)
            case .text:
                if let font {
                    font.draw("Row \(shapes.count)", at: shape.rect.origin, color: shape.color, into: &list)
                } else {
                    list.addRect(shape.rect, color: shape.color)
                }
            case .image1: list.addImage(texture(1), in: shape.rect, tint: shape.color)
            case .image2: list.addImage(texture(2), in: shape.rect, tint: .white)
            case .image3: list.addImage(texture(3), in: shape.rect, tint: shape.color.opacity(0.5))
            }
            if shape.clip != nil { list.popClip() }
        }
    }
}
