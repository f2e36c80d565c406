/// A point in logical pixels (points). Layout math is `Double`: scroll offsets over a
/// million rows are beyond exact `Float`.
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(0, 0)
    public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }
    /// Euclidean length of the vector from the origin to this point.
    public var length: Double { (x * x + y * y).squareRoot() }
    public func distance(to other: Point) -> Double { (self - other).length }
    public var description: String { "(\(x), \(y))" }
}

/// A size in logical pixels.
public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public init(_ width: Double, _ height: Double) { self.width = width; self.height = height }
    public init(width: Double, height: Double) { self.width = width; self.height = height }
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
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public init(origin: Point, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var origin: Point { Point(x, y) }
    public var size: Size { Size(width, height) }
    public var center: Point { Point(midX, midY) }
    public var isEmpty: Bool { !(width > 0 && height > 0) }

    /// True when `p` lies inside; the right and bottom edges are exclusive.
    public func contains(_ p: Point) -> Bool {
        p.x >= x && p.y >= y && p.x < x + width && p.y < y + height
    }
    public func contains(_ r: Rect) -> Bool {
        r.x >= x && r.y >= y && r.maxX <= maxX && r.maxY <= maxY
    }
    public func intersects(_ r: Rect) -> Bool {
        r.x < maxX && r.maxX > x && r.y < maxY && r.maxY > y
    }
    /// The overlap of two rectangles; an empty rectangle (zero size) when they do not overlap.
    public func intersection(_ r: Rect) -> Rect {
        let x0 = max(x, r.x), y0 = max(y, r.y)
        let x1 = min(maxX, r.maxX), y1 = min(maxY, r.maxY)
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
    public func union(_ r: Rect) -> Rect {
        let x0 = min(x, r.x), y0 = min(y, r.y)
        return Rect(x: x0, y: y0, width: max(maxX, r.maxX) - x0, height: max(maxY, r.maxY) - y0)
    }
    /// Shrinks by `insets` (grows for negative insets). Never returns a negative size.
    public func inset(by insets: EdgeInsets) -> Rect {
        Rect(x: x + insets.leading, y: y + insets.top,
             width: max(0, width - insets.leading - insets.trailing),
             height: max(0, height - insets.top - insets.bottom))
    }
    public func insetBy(dx: Double, dy: Double) -> Rect {
        inset(by: EdgeInsets(top: dy, leading: dx, bottom: dy, trailing: dx))
    }
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }
    public var description: String { "Rect(\(x), \(y), \(width)×\(height))" }
}

/// Insets on the four edges of a rectangle, named as in SwiftUI.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double, leading: Double, bottom: Double, trailing: Double
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top; self.leading = leading; self.bottom = bottom; self.trailing = trailing
    }
    /// The same inset on all four edges.
    public init(_ all: Double) { self.init(top: all, leading: all, bottom: all, trailing: all) }
    public init(horizontal: Double, vertical: Double) {
        self.init(top: vertical, leading: horizontal, bottom: vertical, trailing: horizontal)
    }
    public static let zero = EdgeInsets()
    public var horizontal: Double { leading + trailing }
    public var vertical: Double { top + bottom }
}

/// An sRGB color with straight (non-premultiplied) alpha, 8 bits a channel.
///
/// ```swift
/// let accent = Color(hex: 0x0A84FF)
/// let faded = accent.opacity(0.5)
/// ```
public struct Color: Hashable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) { self.r = r; self.g = g; self.b = b; self.a = a }
    /// From `0xRRGGBB`, opaque.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(r: UInt8((hex >> 16) & 0xFF), g: UInt8((hex >> 8) & 0xFF), b: UInt8(hex & 0xFF),
                  a: Color.unit(alpha))
    }
    /// From components in 0...1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.init(r: Color.unit(red), g: Color.unit(green), b: Color.unit(blue), a: Color.unit(alpha))
    }
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

    public static let clear = Color(r: 0, g: 0, b: 0, a: 0)
    public static let black = Color(r: 0, g: 0, b: 0)
    public static let white = Color(r: 255, g: 255, b: 255)
    public static let red = Color(hex: 0xFF3B30)
    public static let green = Color(hex: 0x34C759)
    public static let blue = Color(hex: 0x0A84FF)
    public static let yellow = Color(hex: 0xFFCC00)
    public static let orange = Color(hex: 0xFF9500)
    public static let gray = Color(hex: 0x8E8E93)
}
