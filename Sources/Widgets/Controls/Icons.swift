import Render2D
#if canImport(Glibc)
import Glibc
#endif

/// The built-in icon set, drawn as anti-aliased vector shapes at any scale.
///
/// ```swift
/// ui.label("Photos", icon: .photo)
/// Icon.star.draw(in: rect, color: .yellow, into: &ui.drawList)
/// ```
public enum Icon: String, CaseIterable, Sendable {
    /// A chevron pointing right: collapsed, or onwards.
    case chevronRight
    /// A chevron pointing down: expanded.
    case chevronDown
    /// A chevron pointing left: back.
    case chevronLeft
    /// A chevron pointing up.
    case chevronUp
    /// A folder.
    case folder
    /// A photo: a landscape in a frame.
    case photo
    /// A star's outline.
    case star
    /// A filled star: rated, favorite.
    case starFill
    /// A checkmark.
    case checkmark
    /// A sidebar: shows or hides the leading column.
    case sidebar
    /// A trash can: delete.
    case trash
    /// A plus: add.
    case plus
    /// A minus: remove.
    case minus
    /// An x: close, clear.
    case xmark
    /// A magnifying glass: search.
    case magnifyingGlass

    /// Draws the icon centred in `rect` (square icons use the smaller side).
    public func draw(in rect: Rect, color: Color, into list: inout DrawList) {
        let s = min(rect.width, rect.height)
        let b = Rect(x: rect.midX - s / 2, y: rect.midY - s / 2, width: s, height: s)
        func p(_ fx: Double, _ fy: Double) -> Point { Point(b.x + fx * s, b.y + fy * s) }
        let stroke = max(1.25, s / 11)
        switch self {
        case .chevronRight: list.addPolyline([p(0.38, 0.22), p(0.66, 0.5), p(0.38, 0.78)], color: color, thickness: stroke)
        case .chevronLeft: list.addPolyline([p(0.62, 0.22), p(0.34, 0.5), p(0.62, 0.78)], color: color, thickness: stroke)
        case .chevronDown: list.addPolyline([p(0.22, 0.38), p(0.5, 0.66), p(0.78, 0.38)], color: color, thickness: stroke)
        case .chevronUp: list.addPolyline([p(0.22, 0.62), p(0.5, 0.34), p(0.78, 0.62)], color: color, thickness: stroke)
        case .folder:
            list.addPolygon([p(0.08, 0.22), p(0.4, 0.22), p(0.48, 0.32), p(0.92, 0.32), p(0.92, 0.8), p(0.08, 0.8)], color: color)
        case .photo:
            let frame = Rect(x: b.x + 0.08 * s, y: b.y + 0.18 * s, width: 0.84 * s, height: 0.64 * s)
            list.addRectBorder(frame, radius: s * 0.08, color: color, thickness: stroke)
            list.addPolygon([p(0.18, 0.72), p(0.4, 0.44), p(0.56, 0.62), p(0.66, 0.52), p(0.82, 0.72)], color: color)
            list.addCircle(center: p(0.68, 0.36), radius: s * 0.07, color: color)
        case .star, .starFill:
            var points: [Point] = []
            for i in 0..<10 {
                let angle = -Double.pi / 2 + Double(i) * Double.pi / 5
                let r = i % 2 == 0 ? 0.46 : 0.19
                points.append(p(0.5 + r * cos(angle), 0.53 + r * sin(angle)))
            }
            if self == .starFill { list.addPolygon(points, color: color) } else {
                list.addPolyline(points, color: color, thickness: max(1, stroke * 0.8), closed: true)
            }
        case .checkmark: list.addPolyline([p(0.2, 0.52), p(0.42, 0.74), p(0.8, 0.28)], color: color, thickness: stroke * 1.2)
        case .sidebar:
            let frame = Rect(x: b.x + 0.08 * s, y: b.y + 0.18 * s, width: 0.84 * s, height: 0.64 * s)
            list.addRectBorder(frame, radius: s * 0.08, color: color, thickness: stroke)
            list.addRect(Rect(x: b.x + 0.36 * s, y: frame.y, width: stroke, height: frame.height), color: color)
        case .trash:
            list.addRect(Rect(x: b.x + 0.18 * s, y: b.y + 0.22 * s, width: 0.64 * s, height: stroke), color: color)
            list.addRect(Rect(x: b.x + 0.4 * s, y: b.y + 0.13 * s, width: 0.2 * s, height: stroke), color: color)
            list.addPolyline([p(0.26, 0.3), p(0.32, 0.86), p(0.68, 0.86), p(0.74, 0.3)], color: color, thickness: stroke)
        case .plus:
            list.addLine(from: p(0.5, 0.2), to: p(0.5, 0.8), color: color, thickness: stroke)
            list.addLine(from: p(0.2, 0.5), to: p(0.8, 0.5), color: color, thickness: stroke)
        case .minus: list.addLine(from: p(0.2, 0.5), to: p(0.8, 0.5), color: color, thickness: stroke)
        case .xmark:
            list.addLine(from: p(0.25, 0.25), to: p(0.75, 0.75), color: color, thickness: stroke)
            list.addLine(from: p(0.75, 0.25), to: p(0.25, 0.75), color: color, thickness: stroke)
        case .magnifyingGlass:
            list.addCircleBorder(center: p(0.44, 0.44), radius: 0.24 * s, color: color, thickness: stroke)
            list.addLine(from: p(0.62, 0.62), to: p(0.84, 0.84), color: color, thickness: stroke * 1.3)
        }
    }
}
