import Render2D
import Imaging
import Profiling
#if canImport(Glibc)
    import Glibc
#endif

/// An icon, sized and colored like text: one of the 15 built-in shapes (`.folder`, `.star`,
/// drawn as vector shapes), or any of Material Icons' 2,000 by name (`Icon(named:)`, drawn
/// from the font through the glyph atlas).
///
/// ```swift
/// ui.label("Photos", icon: .photo)
/// ui.label("notes.txt", icon: Icon(named: "description"))
/// ui.drawIcon(.star, in: rect, color: .yellow)
/// ```
public struct Icon: Hashable, Sendable {
    /// The built-in shapes.
    enum Shape: String, CaseIterable, Sendable {
        case chevronRight, chevronDown, chevronLeft, chevronUp, folder, photo, star, starFill, checkmark,
            sidebar, trash, plus, minus, xmark, magnifyingGlass
    }

    enum Source: Hashable, Sendable {
        case shape(Shape)
        case material(String)
    }

    let source: Source

    init(_ shape: Shape) { source = .shape(shape) }

    /// The Material Icons icon `name` (lowercase words joined by underscores, as on Google's
    /// icon page: "description", "folder_open", "content_copy", "delete"). A name the font
    /// does not have draws as an empty box, as does any when the font is not installed
    /// (Debian: `fonts-material-design-icons-iconfont`, which `scripts/install-deps.sh` installs).
    public init(named name: String) { source = .material(name) }

    /// Its name: a built-in's (`"starFill"`) or the Material name it was made with.
    public var name: String {
        switch source {
        case .shape(let shape): shape.rawValue
        case .material(let name): name
        }
    }

    /// The built-in shapes, in the order they are declared.
    public static let builtIn: [Icon] = Shape.allCases.map(Icon.init)

    /// A chevron pointing right: collapsed, or onwards.
    public static let chevronRight = Icon(.chevronRight)
    /// A chevron pointing down: expanded.
    public static let chevronDown = Icon(.chevronDown)
    /// A chevron pointing left: back.
    public static let chevronLeft = Icon(.chevronLeft)
    /// A chevron pointing up.
    public static let chevronUp = Icon(.chevronUp)
    /// A folder.
    public static let folder = Icon(.folder)
    /// A photo: a landscape in a frame.
    public static let photo = Icon(.photo)
    /// A star's outline.
    public static let star = Icon(.star)
    /// A filled star: rated, favorite.
    public static let starFill = Icon(.starFill)
    /// A checkmark.
    public static let checkmark = Icon(.checkmark)
    /// A sidebar: shows or hides the leading column.
    public static let sidebar = Icon(.sidebar)
    /// A trash can: delete.
    public static let trash = Icon(.trash)
    /// A plus: add.
    public static let plus = Icon(.plus)
    /// A minus: remove.
    public static let minus = Icon(.minus)
    /// An x: close, clear.
    public static let xmark = Icon(.xmark)
    /// A magnifying glass: search.
    public static let magnifyingGlass = Icon(.magnifyingGlass)

    /// Draws the icon centred in `rect` (the smaller side is its size); `fonts` draws the
    /// Material ones. Widgets call `ui.drawIcon`.
    @MainActor
    public func draw(in rect: Rect, color: Color, fonts: FontLibrary, into list: inout DrawList) {
        switch source {
        case .shape(let shape):
            // Made once per size at the origin, then placed (on a whole pixel): a tenth of the cost.
            let s = min(rect.width, rect.height)
            list.addKeptShape(shape.rawValue, size: s, at: Point(rect.midX - s / 2, rect.midY - s / 2), color: color) {
                shape.draw(in: Rect(x: 0, y: 0, width: s, height: s), color: .white, into: &$0)
            }
        case .material(let name): Self.drawMaterial(name, in: rect, color: color, fonts: fonts, into: &list)
        }
    }

    @MainActor
    private static func drawMaterial(
        _ name: String, in rect: Rect, color: Color, fonts: FontLibrary, into list: inout DrawList
    ) {
        let s = min(rect.width, rect.height)
        let box = Rect(x: rect.midX - s / 2, y: rect.midY - s / 2, width: s, height: s)
        guard let scalar = fonts.icons?.scalar(named: name), let font = fonts.iconFont(size: s, scale: list.scale)
        else {
            list.addRectBorder(
                box.insetBy(dx: s * 0.15, dy: s * 0.15), radius: s * 0.08, color: color, thickness: max(1, s / 12))
            return
        }
        // The glyphs fill their em square, which the font centres on its line.
        font.draw(String(Character(scalar)), in: box, alignment: .center, color: color, truncate: false, into: &list)
    }
}

extension Icon.Shape {
    /// Draws the shape centred in `rect` (square icons use the smaller side).
    func draw(in rect: Rect, color: Color, into list: inout DrawList) {
        let s = min(rect.width, rect.height)
        let b = Rect(x: rect.midX - s / 2, y: rect.midY - s / 2, width: s, height: s)
        func p(_ fx: Double, _ fy: Double) -> Point { Point(b.x + fx * s, b.y + fy * s) }
        let stroke = max(1.25, s / 11)
        switch self {
        case .chevronRight:
            list.addPolyline([p(0.38, 0.22), p(0.66, 0.5), p(0.38, 0.78)], color: color, thickness: stroke)
        case .chevronLeft:
            list.addPolyline([p(0.62, 0.22), p(0.34, 0.5), p(0.62, 0.78)], color: color, thickness: stroke)
        case .chevronDown:
            list.addPolyline([p(0.22, 0.38), p(0.5, 0.66), p(0.78, 0.38)], color: color, thickness: stroke)
        case .chevronUp:
            list.addPolyline([p(0.22, 0.62), p(0.5, 0.34), p(0.78, 0.62)], color: color, thickness: stroke)
        case .folder:
            list.addPolygon(
                [p(0.08, 0.22), p(0.4, 0.22), p(0.48, 0.32), p(0.92, 0.32), p(0.92, 0.8), p(0.08, 0.8)], color: color)
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
            if self == .starFill {
                list.addPolygon(points, color: color)
            } else {
                list.addPolyline(points, color: color, thickness: max(1, stroke * 0.8), closed: true)
            }
        case .checkmark:
            list.addPolyline([p(0.2, 0.52), p(0.42, 0.74), p(0.8, 0.28)], color: color, thickness: stroke * 1.2)
        case .sidebar:
            let frame = Rect(x: b.x + 0.08 * s, y: b.y + 0.18 * s, width: 0.84 * s, height: 0.64 * s)
            list.addRectBorder(frame, radius: s * 0.08, color: color, thickness: stroke)
            list.addRect(Rect(x: b.x + 0.36 * s, y: frame.y, width: stroke, height: frame.height), color: color)
        case .trash:
            list.addRect(Rect(x: b.x + 0.18 * s, y: b.y + 0.22 * s, width: 0.64 * s, height: stroke), color: color)
            list.addRect(Rect(x: b.x + 0.4 * s, y: b.y + 0.13 * s, width: 0.2 * s, height: stroke), color: color)
            list.addPolyline(
                [p(0.26, 0.3), p(0.32, 0.86), p(0.68, 0.86), p(0.74, 0.3)], color: color, thickness: stroke)
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

extension UI {
    /// Draws `icon` centred in `rect` in `color`, into the layer being built.
    ///
    /// ```swift
    /// ui.drawIcon(Icon(named: "description"), in: Rect(x: 8, y: 4, width: 16, height: 16), color: ui.theme.accent)
    /// ```
    public func drawIcon(_ icon: Icon, in rect: Rect, color: Color) {
        icon.draw(in: rect, color: color, fonts: fonts, into: &drawList)
    }
}
