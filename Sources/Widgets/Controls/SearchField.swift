import Render2D
import Imaging
import Profiling

/// What a search field keeps between frames: the suggestion the arrow keys reached.
struct SearchFieldState {
    var highlighted: Int?
}

extension UI {
    /// A search field (SwiftUI's `searchable(text:prompt:)` with `searchSuggestions`). Built
    /// among a toolbar's items it is a primary action at the bar's trailing end; elsewhere it
    /// is drawn where it is built. While it has focus, `suggestions` (the app narrows them to
    /// the text) drop down under it: ↓ and ↑ move through them, Return or a click takes one into
    /// `text`. The clear button and Escape empty it.
    ///
    /// ```swift
    /// ui.toolbar { content() } items: {
    ///     ui.searchable(text: Binding(self, \.query), prompt: "Search photos",
    ///                   suggestions: cameras.filter { $0.localizedCaseInsensitiveContains(query) })
    /// }
    /// ```
    public func searchable(
        text: Binding<String>, prompt: String = "Search", suggestions: [String] = [], width: Double = 220
    ) {
        if !toolbarStack.isEmpty {
            toolbarItem(placement: .primaryAction, priority: 1, id: "search") {
                self.searchField(text: text, prompt: prompt, suggestions: suggestions, width: width)
            }
        } else {
            searchField(text: text, prompt: prompt, suggestions: suggestions, width: width)
        }
    }

    private func searchField(text binding: Binding<String>, prompt: String, suggestions: [String], width: Double) {
        let fid = id("search." + prompt)
        let state = stateBox(WidgetID(parent: fid, "suggestions"), SearchFieldState())
        var text = binding.wrappedValue
        let shown = Array(suggestions.prefix(8))
        let listing = focusID == fid && !shown.isEmpty
        if !listing { state.value.highlighted = nil }
        if focusID == fid && modalAllowsInput {
            // The arrows move through the suggestions; Return takes the one reached (and, in
            // the field, ends the editing); the field does not see the arrows. Escape empties it.
            input.typing.removeAll { typed in
                guard case .key(let press) = typed, listing || press.key == .escape else { return false }
                switch press.key {
                case .down: state.value.highlighted = min(shown.count - 1, (state.value.highlighted ?? -1) + 1)
                case .up: state.value.highlighted = max(0, (state.value.highlighted ?? shown.count) - 1)
                case .returnKey:
                    if let i = state.value.highlighted, i < shown.count { text = shown[i] }
                    return false
                case .escape:
                    text = ""
                    return false
                default: return false
                }
                consumeKey(press.key)
                return true
            }
        }
        hstack(spacing: 4) {
            drawIcon(.magnifyingGlass, in: allocate(Size(16, 16)), color: theme.secondaryText)
            textField(prompt, text: &text, width: width, id: "search." + prompt)
            if !text.isEmpty,
                accessibilityLabel("Clear", { button("", icon: .xmark, style: .plain, id: "search.clear") })
            {
                text = ""
                focus(fid)
            }
        }
        if text != binding.wrappedValue { binding.wrappedValue = text }
        guard listing else { return }
        let field = textInputRect  // the focused field's, set as it was built
        let rowHeight = theme.rowHeight
        // As wide as the longest suggestion (within reason), and kept inside the window.
        let panelWidth = min(max(field.width, (shown.map { font.measure($0) }.max() ?? 0) + 24), max(field.width, 480))
        let panel = Rect(
            x: max(0, min(field.x, size.width - panelWidth - 4)), y: field.maxY + 2, width: panelWidth,
            height: rowHeight * Double(shown.count) + 8)
        popupRectsThisFrame.append(panel)
        inOverlay {
            drawList.addRoundedRect(
                panel.insetBy(dx: -1, dy: -1), radius: theme.cornerRadius + 1, color: theme.separator)
            drawList.addRoundedRect(panel, radius: theme.cornerRadius, color: theme.surface)
            for (i, suggestion) in shown.enumerated() {
                let row = Rect(
                    x: panel.x + 4, y: panel.y + 4 + Double(i) * rowHeight, width: panel.width - 8, height: rowHeight)
                let r = interact(WidgetID(parent: fid, index: i), rect: row, sense: .click)
                let lit = r.isHovered || state.value.highlighted == i
                if lit { drawList.addRoundedRect(row, radius: 4, color: theme.accent) }
                font.draw(
                    suggestion, in: row.insetBy(dx: 8, dy: 0), color: lit ? theme.onAccent : theme.text, into: &drawList
                )
                accessibilityElement(
                    r.id, role: .menuItem, name: suggestion, frame: row,
                    states: AccessibilityStates([.enabled, .sensitive, .selectable]).union(lit ? .selected : []),
                    actions: [.click])
                // Taken at the press: the press moves the focus off the field, which closes the list.
                if r.isHovered && input.pointer.pressed {
                    binding.wrappedValue = suggestion
                    focus(nil)
                }
            }
        }
    }
}
