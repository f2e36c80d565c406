import Render2D
import Imaging
import Profiling

/// How a button draws its background.
public enum ButtonStyle: Sendable {
    /// A filled control-colored capsule.
    case bordered
    /// Filled with the accent color.
    case borderedProminent
    /// Text only, highlighted on hover.
    case plain
    /// Red text for deleting things.
    case destructive
}

extension UI {
    /// A push button; returns true on the frame it is clicked (mouse release over it, or a
    /// touch tap, or Space or Return while it has focus), or its `shortcut` is pressed.
    ///
    /// ```swift
    /// if ui.button("Save", icon: .checkmark, style: .borderedProminent, shortcut: KeyboardShortcut("s")) { save() }
    /// ```
    @discardableResult
    public func button(
        _ title: String, icon: Icon? = nil, style: ButtonStyle = .bordered, id: String? = nil,
        shortcut: KeyboardShortcut? = nil
    ) -> Bool {
        if menuState.buttonsAsMenuItems {
            return menuItem(
                title.isEmpty ? (id ?? icon?.spokenName ?? "") : title, icon: icon,
                role: style == .destructive ? .destructive : .plain, shortcut: shortcut)
        }
        let font = self.font
        let iconSize = icon == nil ? 0 : (font.lineHeight * 0.9).rounded()
        let gap = icon != nil && !title.isEmpty ? 6.0 : 0
        let padding = title.isEmpty ? 6.0 : 12.0
        let width = font.measure(title) + iconSize + gap + 2 * padding
        let rect = allocate(Size(width, theme.controlHeight))
        let r = interact(self.id(id ?? title), rect: rect, sense: [.click, .focus, .activate])
        if r.isHovered { setCursor(.pointingHand) }
        if isAccessibilityEnabled {
            accessibilityElement(
                r.id, role: .pushButton, name: title.isEmpty ? (icon?.spokenName ?? id ?? "") : title, frame: rect,
                states: controlStates(), actions: [.click])
        }
        let held = r.isActive && r.isHovered
        var fg = theme.text
        switch style {
        case .bordered:
            drawList.addRoundedRect(
                rect, radius: theme.cornerRadius,
                color: held ? theme.controlPressed : r.isHovered ? theme.controlHovered : theme.control)
        case .borderedProminent:
            let base = theme.accent
            drawList.addRoundedRect(
                rect, radius: theme.cornerRadius,
                color: held ? base.mix(.black, 0.2) : r.isHovered ? base.mix(.white, 0.12) : base)
            fg = theme.onAccent
        case .plain, .destructive:
            if r.isHovered {
                drawList.addRoundedRect(rect, radius: theme.cornerRadius, color: theme.control.opacity(held ? 1 : 0.6))
            }
            fg = style == .destructive ? theme.destructive : theme.accent
        }
        // Centred; in a button squeezed narrower than its content, from its leading padding,
        // the title cut with "…" at its trailing one.
        let squeezed = rect.width < width
        let inset = min(padding, rect.width / 2)
        let contentWidth = min(width - 2 * padding, rect.width - 2 * inset)
        var x = rect.x + inset + (rect.width - 2 * inset - contentWidth) / 2
        if let icon {
            drawIcon(icon, in: Rect(x: x, y: rect.midY - iconSize / 2, width: iconSize, height: iconSize), color: fg)
            x += iconSize + gap
        }
        if !title.isEmpty {
            font.draw(
                title,
                in: Rect(x: x, y: rect.y, width: max(0, rect.maxX - (squeezed ? inset : 0) - x), height: rect.height),
                color: fg, truncation: truncation, into: &drawList)
        }
        if let shortcut, shortcutPressed(shortcut) { return true }
        return r.clicked
    }

    /// A switch with a title; flips `isOn` when clicked or tapped. Returns true when it changed.
    ///
    /// ```swift
    /// ui.toggle("Show hidden files", isOn: &showHidden)
    /// ```
    @discardableResult
    public func toggle(_ title: String, isOn: inout Bool, id: String? = nil) -> Bool {
        let font = self.font
        let trackWidth = 38.0, trackHeight = 22.0
        let rect: Rect
        var showsTitle = true
        if let column = formRow(title, height: theme.controlHeight) {
            rect = Rect(x: column.x, y: column.y, width: trackWidth, height: column.height)
            showsTitle = false
        } else {
            rect = allocate(Size(font.measure(title) + 10 + trackWidth, theme.controlHeight))
        }
        let r = interact(self.id(id ?? title), rect: rect, sense: [.click, .focus, .activate])
        if r.isHovered { setCursor(.pointingHand) }
        if r.clicked { isOn.toggle() }
        if isAccessibilityEnabled {
            accessibilityElement(
                r.id, role: .checkBox, name: title, frame: rect,
                states: controlStates(isOn ? [.checkable, .checked] : .checkable), actions: [.toggle])
        }
        let wid = self.id(id ?? title)
        // The knob slides to its new side over 0.12 s, or by the `withAnimation` in effect (a
        // spring overshoots a little); at once with reduce motion.
        let t = animatedValue(
            isOn ? 1.0 : 0, animation: currentTransaction ?? .linear(duration: 0.12), id: WidgetID(parent: wid, "knob"))
        if showsTitle {
            font.draw(
                title, in: Rect(x: rect.x, y: rect.y, width: rect.width - trackWidth - 10, height: rect.height),
                color: theme.text, truncation: truncation, into: &drawList)
        }
        let track = Rect(
            x: rect.maxX - trackWidth, y: rect.midY - trackHeight / 2, width: trackWidth, height: trackHeight)
        let off = r.isHovered ? theme.controlPressed : theme.controlHovered
        drawList.addRoundedRect(track, radius: trackHeight / 2, color: off.mix(theme.accent, t))
        let knobRadius = trackHeight / 2 - 2
        let knobX = track.minX + 2 + knobRadius + t * (trackWidth - 4 - 2 * knobRadius)
        drawList.addCircle(center: Point(knobX, track.midY), radius: knobRadius, color: .white)
        return r.clicked
    }
}
