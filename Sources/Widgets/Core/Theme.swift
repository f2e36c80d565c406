import Render2D

/// Colors and metrics every widget draws with. `Theme.light` and `Theme.dark` are built in.
///
/// ```swift
/// ui.theme = .dark
/// ui.theme.accent = Color(hex: 0x30D158)
/// ```
public struct Theme: Sendable {
    public var background: Color
    public var surface: Color
    public var text: Color
    public var secondaryText: Color
    public var accent: Color
    public var onAccent: Color
    public var control: Color
    public var controlHovered: Color
    public var controlPressed: Color
    public var border: Color
    public var separator: Color
    public var selection: Color
    public var popupBackground: Color
    public var tooltipBackground: Color
    public var tooltipText: Color
    public var scrollbar: Color
    public var destructive: Color
    public var isDark: Bool

    public var fontSize = 15.0
    public var spacing = 8.0
    public var controlHeight = 26.0
    public var cornerRadius = 6.0
    public var scrollbarWidth = 10.0
    public var rowHeight = 24.0

    public static let light = Theme(
        background: Color(hex: 0xF5F5F7), surface: Color(hex: 0xFFFFFF), text: Color(hex: 0x1D1D1F),
        secondaryText: Color(hex: 0x6E6E73), accent: Color(hex: 0x0A7AFF), onAccent: .white,
        control: Color(hex: 0xE5E5EA), controlHovered: Color(hex: 0xD8D8DE), controlPressed: Color(hex: 0xC7C7CC),
        border: Color(hex: 0xC6C6C8), separator: Color(hex: 0xD1D1D6), selection: Color(hex: 0x0A7AFF, alpha: 0.25),
        popupBackground: Color(hex: 0xFFFFFF), tooltipBackground: Color(hex: 0x3A3A3C), tooltipText: .white,
        scrollbar: Color(hex: 0x000000, alpha: 0.35), destructive: Color(hex: 0xFF3B30), isDark: false)

    public static let dark = Theme(
        background: Color(hex: 0x1C1C1E), surface: Color(hex: 0x2C2C2E), text: Color(hex: 0xF2F2F7),
        secondaryText: Color(hex: 0x98989D), accent: Color(hex: 0x0A84FF), onAccent: .white,
        control: Color(hex: 0x3A3A3C), controlHovered: Color(hex: 0x48484A), controlPressed: Color(hex: 0x545458),
        border: Color(hex: 0x545458), separator: Color(hex: 0x38383A), selection: Color(hex: 0x0A84FF, alpha: 0.35),
        popupBackground: Color(hex: 0x2C2C2E), tooltipBackground: Color(hex: 0xE5E5EA), tooltipText: Color(hex: 0x1C1C1E),
        scrollbar: Color(hex: 0xFFFFFF, alpha: 0.35), destructive: Color(hex: 0xFF453A), isDark: true)
}

/// The mouse cursor a widget asks for while the pointer is over it (or dragging it).
public enum CursorKind: Sendable, CaseIterable {
    case arrow, pointingHand, iBeam, resizeLeftRight, resizeUpDown, resizeAll, notAllowed
}
