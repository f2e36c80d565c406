import Render2D

extension UI {
    /// A line of text, truncated with "…" when wider than the space available.
    ///
    /// ```swift
    /// ui.text("Hello, Tessera")
    /// ui.text("3 items", color: ui.theme.secondaryText)
    /// ```
    public func text(_ string: String, color: Color? = nil, font: Font? = nil) {
        let font = font ?? self.font
        let width = min(font.measure(string), availableWidth)
        let rect = allocate(Size(width, font.lineHeight))
        font.draw(string, in: rect, color: color ?? theme.text, into: &drawList)
    }

    /// An icon followed by a title, as SwiftUI's `Label`.
    ///
    /// ```swift
    /// ui.label("Favorites", icon: .star)
    /// ```
    public func label(_ title: String, icon: Icon, color: Color? = nil, iconColor: Color? = nil) {
        let font = self.font
        let iconSize = (font.lineHeight * 0.95).rounded()
        let gap = 6.0
        let width = min(iconSize + gap + font.measure(title), availableWidth)
        let rect = allocate(Size(width, font.lineHeight))
        let iconRect = Rect(x: rect.x, y: rect.midY - iconSize / 2, width: iconSize, height: iconSize)
        icon.draw(in: iconRect, color: iconColor ?? theme.accent, into: &drawList)
        let textRect = Rect(x: rect.x + iconSize + gap, y: rect.y, width: max(0, rect.width - iconSize - gap), height: rect.height)
        font.draw(title, in: textRect, color: color ?? theme.text, into: &drawList)
    }

    /// A thin line across the enclosing stack (horizontal in a VStack, vertical in an HStack).
    public func divider() {
        let axis = layoutStack[layoutStack.count - 1].axis
        let rect = axis == .vertical ? allocate(Size(0, 1), flexibleWidth: true) : allocate(Size(1, 0), flexibleHeight: true)
        drawList.addRect(rect, color: theme.separator)
    }
}
