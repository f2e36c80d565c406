import Render2D
import Imaging
import Profiling

extension UI {
    /// Builds `content` disabled when `isDisabled` (SwiftUI's `.disabled(_:)`): its controls
    /// draw dimmed, take no clicks, focus, keys or screen-reader actions, their keyboard
    /// shortcuts do not fire, and screen readers read them as unavailable. Returns what
    /// `content` returns (false for a button, whatever is pressed).
    ///
    /// ```swift
    /// ui.disabled(selection.isEmpty) {
    ///     if ui.button("Delete", shortcut: KeyboardShortcut(.delete, modifiers: [])) { delete(selection) }
    /// }
    /// ```
    @discardableResult
    public func disabled<Result>(_ isDisabled: Bool, _ content: () -> Result) -> Result {
        guard isDisabled else { return content() }
        let mark = drawList.mark
        disabledDepth += 1
        defer {
            disabledDepth -= 1
            drawList.fade(since: mark, opacity: 0.4)
        }
        return content()
    }

    /// Whether controls built here take input: false inside `disabled(true)` (SwiftUI's
    /// `isEnabled` environment value), for widgets of your own.
    ///
    /// ```swift
    /// let r = ui.interact(id, rect: rect)   // nothing is hovered or clicked while disabled
    /// drawKnob(color: ui.isEnabled ? ui.theme.accent : ui.theme.secondaryText)
    /// ```
    public var isEnabled: Bool { disabledDepth == 0 }

    /// What `interact` says of a disabled control: nothing hovered, pressed or clicked, and no
    /// focus (a control disabled while it had focus gives it up).
    func disabledInteraction(_ r: Interaction) -> Interaction {
        if focusID == r.id { focusID = nil }
        if activeID == r.id { activeID = nil }
        return r
    }
}
