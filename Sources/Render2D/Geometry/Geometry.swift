/// A point in logical pixels (points). Layout math is `Double`: scroll offsets over a
/// million rows are beyond exact `Float`.
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The horizontal coordinate, growing to the right.
    public var x: Double
    /// The vertical coordinate, growing downwards.
    public var y: Double
    /// A point at `x`, `y`.
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
    /// A point at `x`, `y`.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    /// The origin.
    public static let zero = Point(0, 0)
    /// The sum of two points, as vectors.
    public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    /// The difference of two points, as vectors.
    public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    /// The point scaled by `s`, as a vector.
    public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }
    /// Euclidean length of the vector from the origin to this point.
    public var length: Double { (x * x + y * y).squareRoot() }
    /// The straight-line distance to `other`.
    public func distance(to other: Point) -> Double { (self - other).length }
    public var description: String { "(\(x), \(y))" }
}

/// A size in logical pixels.
public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The horizontal extent.
    public var width: Double
    /// The vertical extent.
    public var height: Double
    /// A size of `width` × `height`.
    public init(_ width: Double, _ height: Double) {
        self.width = width
        self.height = height
    }
    /// A size of `width` × `height`.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    /// No size at all.
    public static let zero = Size(0, 0)
    public var description: String { "\(width)×\(height)" }
}

/// An axis-aligned rectangle: origin at the top-left, y grows downwards.
///
/// ```swift
/// let r = Rect(x: 10, y: 10, width: 100, height: 20)
/// r.contains(Point(50, 15)) // true
/// ```
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The horizontal extent.
    public var width: Double
    /// The vertical extent.
    public var height: Double

    /// A rectangle from its top-left corner and its size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    /// A rectangle from its top-left corner and its size.
    public init(origin: Point, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }
    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The left edge.
    public var minX: Double { x }
    /// The top edge.
    public var minY: Double { y }
    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }
    /// The horizontal centre.
    public var midX: Double { x + width / 2 }
    /// The vertical centre.
    public var midY: Double { y + height / 2 }
    /// The top-left corner.
    public var origin: Point { Point(x, y) }
    /// The width and height.
    public var size: Size { Size(width, height) }
    /// The centre point.
    public var center: Point { Point(midX, midY) }
    public var isEmpty: Bool { !(width > 0 && height > 0) }

    /// True when `p` lies inside; the right and bottom edges are exclusive.
    public func contains(_ p: Point) -> Bool {
        p.x >= x && p.y >= y && p.x < x + width && p.y < y + height
    }
    /// Whether `r` lies entirely inside this rectangle.
    public func contains(_ r: Rect) -> Bool {
        r.x >= x && r.y >= y && r.maxX <= maxX && r.maxY <= maxY
    }
    /// Whether the two rectangles overlap (touching edges do not).
    public func intersects(_ r: Rect) -> Bool {
        r.x < maxX && r.maxX > x && r.y < maxY && r.maxY > y
    }
    /// The overlap of two rectangles; an empty rectangle (zero size) when they do not overlap.
    public func intersection(_ r: Rect) -> Rect {
        let x0 = max(x, r.x), y0 = max(y, r.y)
        let x1 = min(maxX, r.maxX), y1 = min(maxY, r.maxY)
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
    /// The smallest rectangle containing both.
    public func union(_ r: Rect) -> Rect {
        let x0 = min(x, r.x), y0 = min(y, r.y)
        return Rect(x: x0, y: y0, width: max(maxX, r.maxX) - x0, height: max(maxY, r.maxY) - y0)
    }
    /// Shrinks by `insets` (grows for negative insets). Never returns a negative size.
    public func inset(by insets: EdgeInsets) -> Rect {
        Rect(
            x: x + insets.leading, y: y + insets.top,
            width: max(0, width - insets.leading - insets.trailing),
            height: max(0, height - insets.top - insets.bottom))
    }
    /// The rectangle shrunk by `dx` on the left and right and `dy` on the top and bottom (grown when negative).
    public func insetBy(dx: Double, dy: Double) -> Rect {
        inset(by: EdgeInsets(top: dy, leading: dx, bottom: dy, trailing: dx))
    }
    /// The rectangle moved by `dx`, `dy`.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }
    public var description: String { "Rect(\(x), \(y), \(width)×\(height))" }
}

/// Insets on the four edges of a rectangle, named as in SwiftUI.
public struct EdgeInsets: Hashable, Sendable {
    /// The inset of each edge.
    public var top: Double, leading: Double, bottom: Double, trailing: Double
    /// Insets of each edge.
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }
    /// The same inset on all four edges.
    public init(_ all: Double) { self.init(top: all, leading: all, bottom: all, trailing: all) }
    /// Insets of `horizontal` on the leading and trailing edges and `vertical` on the top and bottom.
    public init(horizontal: Double, vertical: Double) {
        self.init(top: vertical, leading: horizontal, bottom: vertical, trailing: horizontal)
    }
    /// No insets.
    public static let zero = EdgeInsets()
    /// The leading and trailing insets together.
    public var horizontal: Double { leading + trailing }
    /// The top and bottom insets together.
    public var vertical: Double { top + bottom }
}

/// An sRGB color with straight (non-premultiplied) alpha, 8 bits a channel.
///
/// ```swift
/// let accent = Color(hex: 0x0A84FF)
/// let faded = accent.opacity(0.5)
/// ```
public struct Color: Hashable, Sendable {
    /// The red, green, blue and alpha components, 0 to 255 (alpha 255 is opaque).
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    /// A color from its components.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }
    /// From `0xRRGGBB`, opaque.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(
            r: UInt8((hex >> 16) & 0xFF), g: UInt8((hex >> 8) & 0xFF), b: UInt8(hex & 0xFF),
            a: Color.unit(alpha))
    }
    /// From components in 0...1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.init(r: Color.unit(red), g: Color.unit(green), b: Color.unit(blue), a: Color.unit(alpha))
    }
    /// The color with its alpha multiplied by `factor` (0...1).
    public func opacity(_ factor: Double) -> Color {
        var c = self
        c.a = Color.unit(Double(a) / 255 * factor)
        return c
    }
    /// The same color with opacity `alpha` (0...1).
    public func withAlpha(_ alpha: Double) -> Color {
        var c = self
        c.a = Color.unit(alpha)
        return c
    }
    /// Linear interpolation towards `other` by `t` in 0...1.
    public func mix(_ other: Color, _ t: Double) -> Color {
        func m(_ p: UInt8, _ q: UInt8) -> UInt8 { Color.unit((Double(p) + (Double(q) - Double(p)) * t) / 255) }
        return Color(r: m(r, other.r), g: m(g, other.g), b: m(b, other.b), a: m(a, other.a))
    }
    static func unit(_ v: Double) -> UInt8 {
        guard v.isFinite else { return 0 }
        return UInt8(max(0, min(255, (v * 255).rounded())))
    }

    /// Fully transparent.
    public static let clear = Color(r: 0, g: 0, b: 0, a: 0)
    /// Opaque black.
    public static let black = Color(r: 0, g: 0, b: 0)
    /// Opaque white.
    public static let white = Color(r: 255, g: 255, b: 255)
    /// The system red.
    public static let red = Color(hex: 0xFF3B30)
    /// The system green.
    public static let green = Color(hex: 0x34C759)
    /// The system blue (the default accent).
    public static let blue = Color(hex: 0x0A84FF)
    /// The system yellow.
    public static let yellow = Color(hex: 0xFFCC00)
    /// The system orange.
    public static let orange = Color(hex: 0xFF9500)
    /// The system gray.
    public static let gray = Color(hex: 0x8E8E93)
}
