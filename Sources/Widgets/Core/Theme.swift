import Render2D
import Imaging
import Profiling

/// Colors and metrics every widget draws with. `Theme.light` and `Theme.dark` are built in.
///
/// ```swift
/// ui.theme = .dark
/// ui.theme.accent = Color(hex: 0x30D158)
/// ```
public struct Theme: Sendable {
    /// The window's background.
    public var background: Color
    /// Panels, cards and the sidebar, set off from the background.
    public var surface: Color
    /// Body text.
    public var text: Color
    /// Labels of less importance: captions, placeholders, counts.
    public var secondaryText: Color
    /// The accent: prominent buttons, selection, focus rings, switches that are on.
    public var accent: Color
    /// Text and icons drawn on the accent.
    public var onAccent: Color
    /// A control's face at rest (buttons, fields).
    public var control: Color
    /// A control's face under the pointer.
    public var controlHovered: Color
    /// A control's face while pressed.
    public var controlPressed: Color
    /// Outlines of controls and fields.
    public var border: Color
    /// Lines between rows and sections.
    public var separator: Color
    /// The background of selected rows and cells.
    public var selection: Color
    /// Menus' and popups' background.
    public var popupBackground: Color
    /// Tooltips' background.
    public var tooltipBackground: Color
    /// Tooltips' text.
    public var tooltipText: Color
    /// The scrollbars' thumbs.
    public var scrollbar: Color
    /// Destructive actions (delete, trash).
    public var destructive: Color
    /// Whether this is a dark theme.
    public var isDark: Bool

    /// The body font's size, in logical pixels.
    public var fontSize = 15.0
    /// The default spacing between stacked widgets.
    public var spacing = 8.0
    /// The height of buttons, fields and other controls.
    public var controlHeight = 26.0
    /// The corner radius of controls.
    public var cornerRadius = 6.0
    /// The width of scrollbars.
    public var scrollbarWidth = 10.0
    /// The default row height of lists and tables.
    public var rowHeight = 24.0

    /// The light appearance, after the macOS palette.
    public static let light = Theme(
        background: Color(hex: 0xF5F5F7), surface: Color(hex: 0xFFFFFF), text: Color(hex: 0x1D1D1F),
        secondaryText: Color(hex: 0x6E6E73), accent: Color(hex: 0x0A7AFF), onAccent: .white,
        control: Color(hex: 0xE5E5EA), controlHovered: Color(hex: 0xD8D8DE), controlPressed: Color(hex: 0xC7C7CC),
        border: Color(hex: 0xC6C6C8), separator: Color(hex: 0xD1D1D6), selection: Color(hex: 0x0A7AFF, alpha: 0.25),
        popupBackground: Color(hex: 0xFFFFFF), tooltipBackground: Color(hex: 0x3A3A3C), tooltipText: .white,
        scrollbar: Color(hex: 0x000000, alpha: 0.35), destructive: Color(hex: 0xFF3B30), isDark: false)

    /// The dark appearance, after the macOS palette.
    public static let dark = Theme(
        background: Color(hex: 0x1C1C1E), surface: Color(hex: 0x2C2C2E), text: Color(hex: 0xF2F2F7),
        secondaryText: Color(hex: 0x98989D), accent: Color(hex: 0x0A84FF), onAccent: .white,
        control: Color(hex: 0x3A3A3C), controlHovered: Color(hex: 0x48484A), controlPressed: Color(hex: 0x545458),
        border: Color(hex: 0x545458), separator: Color(hex: 0x38383A), selection: Color(hex: 0x0A84FF, alpha: 0.35),
        popupBackground: Color(hex: 0x2C2C2E), tooltipBackground: Color(hex: 0xE5E5EA),
        tooltipText: Color(hex: 0x1C1C1E),
        scrollbar: Color(hex: 0xFFFFFF, alpha: 0.35), destructive: Color(hex: 0xFF453A), isDark: true)
}

/// The mouse cursor a widget asks for while the pointer is over it (or dragging it).
public enum CursorKind: Sendable, CaseIterable {
    /// The ordinary arrow.
    case arrow
    /// A hand: something to click (links).
    case pointingHand
    /// The text cursor.
    case iBeam
    /// A horizontal resize (a vertical splitter, a column's edge).
    case resizeLeftRight
    /// A vertical resize (a horizontal splitter).
    case resizeUpDown
    /// A move in any direction.
    case resizeAll
    /// The action is not possible here.
    case notAllowed
}
