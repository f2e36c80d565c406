import Render2D
import Imaging
import Profiling

/// An open popup: where it is anchored and how big its content measured.
struct PopupRecord {
    var id: WidgetID
    var anchor: Point
    var size = Size.zero
    var lastFrame: Int
    /// The menu item the arrow keys reached, and how many items the menu had last frame.
    var highlighted: Int?
    var itemCount = 0
}

/// The menu being built: which item is next, which the keyboard highlights, which Return chose.
struct MenuBuildState {
    var next = 0
    var highlighted: Int?
    var chosen: Int?
    /// A closed menu of a menu bar, built only so its items' shortcuts fire: nothing is drawn.
    var shortcutsOnly = false
    /// A toolbar's "…" menu: the buttons of the items it holds show as menu items.
    var buttonsAsMenuItems = false
}

extension UI {
    /// Opens the popup `name` (in the current ID scope) at `point`, or at the pointer.
    public func openPopup(_ name: String, at point: Point? = nil) {
        let pid = id(name)
        openPopups.removeAll { $0.id == pid }
        openPopups.append(PopupRecord(id: pid, anchor: point ?? input.pointer.position, lastFrame: frameIndex))
    }

    /// Closes every open popup.
    public func closePopups() { openPopups.removeAll() }

    /// Whether the popup `name` (in the current ID scope) is open.
    public func isPopupOpen(_ name: String) -> Bool { openPopups.contains { $0.id == id(name) } }

    /// Whether any popup or menu is open: it takes the keyboard until it closes.
    public var hasOpenPopup: Bool { !openPopups.isEmpty }

    /// Builds the popup `name` when it is open: a floating panel in the overlay layer.
    ///
    /// A press outside every popup closes them and still reaches what is underneath, so the
    /// same touch can go on to scroll. Escape closes them too.
    ///
    /// ```swift
    /// if ui.button("More") { ui.openPopup("more") }
    /// ui.popup("more") { if ui.menuItem("Rename") { rename() } }
    /// ```
    public func popup(_ name: String, _ content: () -> Void) {
        let pid = id(name)
        guard let index = openPopups.firstIndex(where: { $0.id == pid }) else { return }
        openPopups[index].lastFrame = frameIndex
        let record = openPopups[index]
        let padding = 5.0
        // A popup opened from a form lays out its own controls, not form rows.
        let forms = formStack
        formStack = []
        defer { formStack = forms }
        // The topmost popup takes the arrows (move the highlight, wrapping) and Return (choose it).
        var menu = MenuBuildState(highlighted: record.highlighted)
        if index == openPopups.count - 1 && record.itemCount > 0 {
            for press in input.keys {
                switch press.key {
                case .down: menu.highlighted = ((menu.highlighted ?? -1) + 1) % record.itemCount
                case .up:
                    menu.highlighted =
                        ((menu.highlighted ?? record.itemCount) - 1 + record.itemCount) % record.itemCount
                case .returnKey, .space: menu.chosen = menu.highlighted
                default: continue
                }
                consumeKey(press.key)
            }
            openPopups[index].highlighted = menu.highlighted
        }
        let outerMenu = menuState
        menuState = menu
        defer {
            if let i = openPopups.firstIndex(where: { $0.id == pid }) { openPopups[i].itemCount = menuState.next }
            menuState = outerMenu
        }
        inOverlay {
            withID(pid) {
                if record.size == .zero {
                    // First frame: measure the content without showing it.
                    let mark = drawList.mark
                    let size = child(
                        at: Rect(x: 0, y: 0, width: self.size.width, height: self.size.height), axis: .vertical,
                        spacing: 0, alignment: .start, content)
                    drawList.truncate(to: mark)
                    // (Looked up again: what the content did may have closed popups.)
                    if let i = openPopups.firstIndex(where: { $0.id == pid }) {
                        openPopups[i].size = Size(size.width + 2 * padding, size.height + 2 * padding)
                    }
                    return
                }
                var rect = Rect(origin: record.anchor, size: record.size)
                // Keep it on screen: flip to the other side of the anchor when it would overflow.
                if rect.maxX > self.size.width {
                    rect.x = max(0, min(record.anchor.x - rect.width, self.size.width - rect.width))
                }
                if rect.maxY > self.size.height {
                    rect.y = max(0, min(record.anchor.y - rect.height, self.size.height - rect.height))
                }
                drawList.addRoundedRect(
                    rect.offsetBy(dx: 0, dy: 2).insetBy(dx: -2, dy: -2), radius: 9, color: Color.black.opacity(0.12))
                drawList.addRoundedRect(rect, radius: 7, color: theme.popupBackground)
                drawList.addRectBorder(rect, radius: 7, color: theme.border, thickness: 1)
                popupRectsThisFrame.append(rect)
                noteLandmark(.popup, name, rect)
                let size = accessibilityContainer(
                    pid, role: .popupMenu, name: name, frame: rect, states: [.enabled, .sensitive]
                ) {
                    child(
                        at: rect.insetBy(dx: padding, dy: padding), axis: .vertical, spacing: 0, alignment: .fill,
                        content)
                }
                if let i = openPopups.firstIndex(where: { $0.id == pid }) {
                    openPopups[i].size = Size(
                        max(size.width, record.size.width - 2 * padding) + 2 * padding, size.height + 2 * padding)
                }
            }
        }
    }

    /// A context menu for a widget: opens on right-click or touch long-press over it.
    ///
    /// ```swift
    /// let row = ui.interact(rowID, rect: rowRect)
    /// ui.contextMenu(for: row) {
    ///     if ui.menuItem("Delete", icon: .trash, role: .destructive) { delete() }
    /// }
    /// ```
    /// With keyboard focus on the widget, the Menu key or Shift+F10 opens it too.
    public func contextMenu(for interaction: Interaction, _ content: () -> Void) {
        let name = "context" + interaction.id.description
        if interaction.secondaryClicked { openPopup(name) }
        if focusID == interaction.id && menuKeyPressed() {
            openPopup(name, at: Point(interaction.rect.minX + 8, interaction.rect.maxY))
        }
        popup(name, content)
    }

    /// The Menu key or Shift+F10 this frame (consumed): open the context menu of what has focus.
    public func menuKeyPressed() -> Bool {
        if unconsumedPress(of: .menu) != nil {
            consumeKey(.menu)
            return true
        }
        if let press = unconsumedPress(of: .f10), press.modifiers == .shift {
            consumeKey(.f10)
            return true
        }
        return false
    }

    /// A row in a menu; returns true when chosen (which also closes the menu), or when its
    /// `shortcut` is pressed: in a menu bar, whether its menu is open or not. The menu shows the
    /// shortcut.
    ///
    /// ```swift
    /// if ui.menuItem("Move to Trash", icon: .trash, role: .destructive, shortcut: KeyboardShortcut(.delete, modifiers: [])) { trash() }
    /// ```
    @discardableResult
    public func menuItem(
        _ title: String, icon: Icon? = nil, role: ButtonStyle = .plain, shortcut keys: KeyboardShortcut? = nil
    ) -> Bool {
        if menuState.shortcutsOnly { return keys.map(shortcutPressed) ?? false }
        let shortcut = keys?.label
        let font = self.font
        let iconSpace = 24.0
        let shortcutWidth = shortcut.map { font.measure($0) + 24 } ?? 0
        let rect = allocate(Size(iconSpace + font.measure(title) + shortcutWidth + 16, theme.rowHeight))
        var r = interact(id(title), rect: rect)
        let index = menuState.next
        menuState.next += 1
        if menuState.chosen == index && isEnabled { r.clicked = true }
        let lit = isEnabled && (r.isHovered || menuState.highlighted == index)
        if isAccessibilityEnabled {
            accessibilityElement(
                r.id, role: .menuItem, name: title, frame: rect,
                states: AccessibilityStates([.enabled, .sensitive, .selectable]).union(lit ? .selected : []),
                actions: [.click],
                value: shortcut ?? "")
        }
        let color = role == .destructive ? theme.destructive : theme.text
        if lit {
            drawList.addRoundedRect(rect, radius: 4, color: theme.accent)
        }
        let fg = lit ? theme.onAccent : color
        if let icon {
            drawIcon(icon, in: Rect(x: rect.x + 4, y: rect.midY - 8, width: 16, height: 16), color: fg)
        }
        font.draw(
            title,
            in: Rect(
                x: rect.x + iconSpace, y: rect.y, width: rect.width - iconSpace - shortcutWidth, height: rect.height),
            color: fg, into: &drawList)
        if let shortcut {
            font.draw(
                shortcut,
                in: Rect(x: rect.maxX - shortcutWidth, y: rect.y, width: shortcutWidth - 8, height: rect.height),
                alignment: .trailing, color: lit ? fg : theme.secondaryText, into: &drawList)
        }
        if r.clicked { closePopups() }
        return r.clicked || keys.map(shortcutPressed) == true
    }

    /// Shows `text` in a tooltip after the pointer rests on the widget for half a second.
    public func tooltip(_ text: String, for interaction: Interaction, delay: Double = 0.5) {
        guard interaction.isHovered && !interaction.isActive else { return }
        let rested = hoverDuration(interaction.id)
        if rested >= delay { tooltipText = text } else { requestRedraw(after: delay - rested) }
    }

    func dismissPopupsOnOutsidePress() {
        guard !openPopups.isEmpty else { return }
        let p = input.pointer
        if input.keys.contains(where: { $0.key == .escape }) {
            openPopups.removeAll()
            consumeKey(.escape)  // it closed the popup, not what the popup is over (a dialog)
            return
        }
        if (p.pressed || p.secondaryPressed) && !popupRects.contains(where: { $0.contains(p.position) }) {
            openPopups.removeAll()
        }
    }

    func drawTooltip() {
        guard let text = tooltipText else { return }
        inOverlay {
            let font = self.font
            let size = Size(font.measure(text) + 16, font.lineHeight + 8)
            var rect = Rect(origin: input.pointer.position + Point(12, 18), size: size)
            rect.x = max(0, min(rect.x, self.size.width - size.width))
            if rect.maxY > self.size.height { rect.y = input.pointer.position.y - size.height - 6 }
            drawList.addRoundedRect(rect, radius: 5, color: theme.tooltipBackground)
            font.draw(text, in: rect.insetBy(dx: 8, dy: 0), color: theme.tooltipText, into: &drawList)
        }
    }
}
