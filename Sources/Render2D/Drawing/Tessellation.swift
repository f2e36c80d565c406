/// An anti-aliased shape cut into triangles, ready to be placed: what `DrawList` fills and
/// strokes with, and keeps for rounded rectangles it draws again and again.
struct Tessellation {
    /// Vertex positions in physical pixels (relative to the shape's origin when cached).
    var positions: [SIMD2<Float>] = []
    /// Whether each vertex takes the color; the others are the transparent edge of the fringe.
    var solid: [Bool] = []
    /// Three vertex positions (in `positions`) a triangle.
    var indices: [Int32] = []
    /// The shape's extent, fringe included.
    var bounds: (x0: Float, y0: Float, x1: Float, y1: Float) = (0, 0, 0, 0)
    /// The share of the color's alpha the solid vertices take (a line thinner than a pixel
    /// gets its coverage from alpha); 1 for fills.
    var solidAlpha: Float = 1

    mutating func removeAll() {
        positions.removeAll(keepingCapacity: true)
        solid.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
        solidAlpha = 1
    }

    @inline(__always) mutating func append(_ p: SIMD2<Float>, solid isSolid: Bool) {
        positions.append(p)
        solid.append(isSolid)
    }

    @inline(__always) mutating func appendTriangle(_ a: Int32, _ b: Int32, _ c: Int32) {
        indices.append(a)
        indices.append(b)
        indices.append(c)
    }
}

/// Rounded rectangles already tessellated, by size, corner radius, border thickness and
/// scale: a window draws the same buttons, fields and cells frame after frame, each the same
/// shape in another place, and placing a kept one costs about half of making it (callgrind,
/// the photo browser: 3,265 instructions a rounded rectangle against 6,922).
struct RoundedRectShapes {
    struct Key: Hashable {
        /// A border (stroked) rather than a fill.
        var border: Bool
        var width: Double, height: Double, radius: Double, thickness: Double, scale: Double
    }

    private var shapes: [Key: Tessellation] = [:]
    /// Shapes kept at most; past it, all are dropped and the frame's shapes come back.
    static let capacity = 512

    subscript(key: Key) -> Tessellation? { shapes[key] }

    /// How many shapes are kept.
    var count: Int { shapes.count }

    /// Keeps `shape` for `key` (not when a size is not a number: such a key never matches).
    mutating func keep(_ shape: Tessellation, for key: Key) {
        guard [key.width, key.height, key.radius, key.thickness, key.scale].allSatisfy(\.isFinite) else { return }
        if shapes.count >= Self.capacity { shapes.removeAll(keepingCapacity: true) }
        shapes[key] = shape
    }
}
