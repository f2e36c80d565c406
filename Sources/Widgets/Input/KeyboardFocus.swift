import Render2D
import Imaging
import Profiling

/// A widget that can take keyboard focus, as built this frame: the Tab order is build order.
struct FocusEntry {
    let id: WidgetID
    /// Where it is on screen, and the clip it was drawn in (for the focus ring).
    let rect: Rect
    let clip: Rect
}

extension UI {
    /// Whether focus moved by keyboard (Tab) since the last pointer press: widgets show a focus
    /// ring then, as platforms do, and not after a click.
    public var isFocusVisible: Bool { focusIsVisible }

    /// Marks `key`'s presses this frame as handled, so the keyboard navigation that runs at the
    /// end of the frame (Tab moving focus) leaves them alone.
    ///
    /// ```swift
    /// if focused, ui.input.keys.contains(where: { $0.key == .tab }) { indent(); ui.consumeKey(.tab) }
    /// ```
    public func consumeKey(_ key: Key) { consumedKeys.insert(key.rawValue) }

    /// Whether `key` was pressed this frame and not yet handled (`consumeKey`).
    func unconsumedPress(of key: Key) -> KeyPress? {
        consumedKeys.contains(key.rawValue) ? nil : input.keys.first { $0.key == key }
    }

    /// Records a focusable widget (every `interact` with `.focus`), in build order.
    func registerFocusable(_ id: WidgetID, rect: Rect) {
        guard modalAllowsInput else { return }  // a dialog keeps Tab inside itself
        focusChain.append(FocusEntry(id: id, rect: rect, clip: drawList.clipRect))
    }

    /// Space or Return on the focused widget `id` this frame (consumed): its keyboard click.
    func keyboardActivates(_ id: WidgetID) -> Bool {
        guard focusID == id else { return false }
        for key in [Key.space, .returnKey] where unconsumedPress(of: key).map({ $0.modifiers.isEmpty }) == true {
            consumeKey(key)
            return true
        }
        return false
    }

    /// At the end of a frame: Tab and Shift-Tab move focus to the next or previous focusable
    /// widget in build order (wrapping), and the focus ring is drawn around the focused one
    /// when focus came from the keyboard.
    func finishKeyboardFocus() {
        if input.pointer.pressed { focusIsVisible = false }
        let tabs =
            consumedKeys.contains(Key.tab.rawValue)
            ? [] : input.keys.filter { $0.key == .tab && !$0.modifiers.contains(.control) }
        for tab in tabs where !focusChain.isEmpty {
            let backwards = tab.modifiers.contains(.shift)
            let current = focusChain.firstIndex { $0.id == focusID }
            let next =
                current.map { (($0 + (backwards ? -1 : 1)) % focusChain.count + focusChain.count) % focusChain.count }
                ?? (backwards ? focusChain.count - 1 : 0)
            focusID = focusChain[next].id
            focusIsVisible = true
            requestRedraw()  // the newly focused widget draws itself focused next frame
        }
        guard focusIsVisible, let entry = focusChain.first(where: { $0.id == focusID }) else { return }
        inOverlay {
            drawList.pushClip(entry.clip)
            drawList.addRectBorder(
                entry.rect.insetBy(dx: -2, dy: -2), radius: theme.cornerRadius + 2, color: theme.accent.opacity(0.8),
                thickness: 2)
            drawList.popClip()
        }
    }
}
