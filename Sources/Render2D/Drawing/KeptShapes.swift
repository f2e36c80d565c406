import CSDL2

/// Small drawings of one color kept by `DrawList.addKeptShape`, by name, size and scale: an
/// icon is drawn frame after frame in the same few sizes, and placing its kept triangles
/// costs a fraction of tessellating its strokes, fills and fringes again.
struct KeptShapes {
    struct Key: Hashable {
        var name: String
        var size: Double, scale: Double
    }

    /// A drawing's triangles, made at the origin.
    struct Shape {
        /// Vertex positions in physical pixels, relative to the drawing's origin.
        var positions: [SIMD2<Float>] = []
        /// The share of the color's alpha each vertex takes, of 255: 255 inside, 0 at the
        /// outer edge of a fringe, less than 255 along a line thinner than a pixel.
        var alphas: [UInt8] = []
        /// Three vertex positions (in `positions`) a triangle.
        var indices: [Int32] = []
        /// The drawing's extent.
        var bounds: (x0: Float, y0: Float, x1: Float, y1: Float) = (0, 0, 0, 0)

        /// What `list` (drawn in opaque white, untextured) holds, as a shape.
        init(_ list: DrawList) {
            var lo = SIMD2<Float>(repeating: .infinity), hi = SIMD2<Float>(repeating: -.infinity)
            for vertex in list.vertices {
                let p = SIMD2(vertex.position.x, vertex.position.y)
                positions.append(p)
                alphas.append(vertex.color.a)
                lo = pointwiseMin(lo, p)
                hi = pointwiseMax(hi, p)
            }
            indices = Array(list.indices)
            if !positions.isEmpty { bounds = (lo.x, lo.y, hi.x, hi.y) }
        }
    }

    private var shapes: [Key: Shape] = [:]
    /// Drawings kept at most; past it, all are dropped and the frame's come back.
    static let capacity = 256

    subscript(key: Key) -> Shape? { shapes[key] }

    /// How many drawings are kept.
    var count: Int { shapes.count }

    /// Keeps `shape` for `key` (not when a size is not a number: such a key never matches).
    mutating func keep(_ shape: Shape, for key: Key) {
        guard key.size.isFinite, key.scale.isFinite else { return }
        if shapes.count >= Self.capacity { shapes.removeAll(keepingCapacity: true) }
        shapes[key] = shape
    }
}

extension DrawList {
    /// Draws what `draw` draws at the origin (shapes only, in one color: it is called with
    /// opaque white) with that origin at `origin`, in `color`. The first time, `draw` is
    /// called and its triangles kept under `name`, `size` and the scale; after that they are
    /// placed again. The origin is put on a whole physical pixel, so a kept drawing is the
    /// same wherever it goes, as crisp as the first. For icons.
    ///
    /// ```swift
    /// list.addKeptShape("dot", size: 8, at: origin, color: .red) { list in
    ///     list.addCircle(center: Point(4, 4), radius: 4, color: .white)
    /// }
    /// ```
    package mutating func addKeptShape(
        _ name: String, size: Double, at origin: Point, color: Color, _ draw: (inout DrawList) -> Void
    ) {
        guard color.a > 0 else { return }
        let key = KeptShapes.Key(name: name, size: size, scale: scale)
        let offset = SIMD2(Float((origin.x * scale).rounded()), Float((origin.y * scale).rounded()))
        if let shape = keptShapes[key] {
            emit(shape, offset: offset, color: color)
            return
        }
        var made = DrawList(scale: scale)
        made.solidTexture = solidTexture
        made.whiteUV = whiteUV
        draw(&made)
        let shape = KeptShapes.Shape(made)
        keptShapes.keep(shape, for: key)
        emit(shape, offset: offset, color: color)
    }
}
