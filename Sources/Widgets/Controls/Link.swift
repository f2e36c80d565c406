import Render2D
import Imaging
import Profiling

extension UI {
    /// A link (SwiftUI's `Link`): `title` in the accent color, underlined under the pointer;
    /// a click, a tap, or Return with focus opens `destination` through `openURL` (the
    /// desktop's default program for it). Returns true on the frame it was opened.
    ///
    /// ```swift
    /// ui.link("Tessera on GitHub", destination: "https://github.com/tessera-ui/tessera")
    /// ```
    @discardableResult
    public func link(_ title: String, destination: String) -> Bool {
        let font = self.font
        let rect = allocate(Size(font.measure(title), font.lineHeight + 4))
        let r = interact(id("link." + title), rect: rect, sense: [.click, .focus, .activate])
        if r.isHovered { setCursor(.pointingHand) }
        accessibilityElement(
            r.id, role: .link, name: title, frame: rect, states: controlStates(), actions: [.click], value: destination)
        let color = r.isActive ? theme.accent.mix(.black, 0.25) : theme.accent
        font.draw(title, in: rect, color: color, truncation: truncation, into: &drawList)
        if r.isHovered || focusID == r.id {
            drawList.addRect(Rect(x: rect.x, y: rect.maxY - 3, width: rect.width, height: 1), color: color)
        }
        guard r.clicked else { return false }
        _ = openURL(destination)
        return true
    }
}
