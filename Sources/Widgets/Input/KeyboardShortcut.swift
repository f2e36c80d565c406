/// A key combination that runs a command (SwiftUI's `KeyboardShortcut`): give it to a button, a
/// menu item or a menu bar's item, and the command runs when the keys are pressed, wherever
/// focus is, and the menu shows it.
///
/// ```swift
/// if ui.button("New Window", shortcut: KeyboardShortcut("n")) { openWindow() }          // Ctrl+N
/// if ui.menuItem("Zoom In", shortcut: KeyboardShortcut("=", modifiers: .control)) { zoom += 1 }
/// ```
public struct KeyboardShortcut: Hashable, Sendable {
    /// The key.
    public var key: Key
    /// The modifiers held with it (exactly these: Ctrl+N does not fire on Ctrl+Shift+N).
    public var modifiers: KeyModifiers

    /// `key` with `modifiers` (Ctrl by default, the Linux desktop's command key).
    public init(_ key: Key, modifiers: KeyModifiers = .command) {
        self.key = key
        self.modifiers = modifiers.intersection([.shift, .control, .alt, .gui])
    }

    /// The key that types `character` with `modifiers` (Ctrl by default).
    public init(_ character: Character, modifiers: KeyModifiers = .command) {
        self.init(Key(character), modifiers: modifiers)
    }

    /// Return: a dialog's default button.
    public static let defaultAction = KeyboardShortcut(.returnKey, modifiers: [])
    /// Escape: a dialog's cancel button.
    public static let cancelAction = KeyboardShortcut(.escape, modifiers: [])

    /// How menus show it: "Ctrl+Shift+N", "F12", "Delete".
    public var label: String {
        var parts: [String] = []
        if modifiers.contains(.control) { parts.append("Ctrl") }
        if modifiers.contains(.alt) { parts.append("Alt") }
        if modifiers.contains(.shift) { parts.append("Shift") }
        if modifiers.contains(.gui) { parts.append("Super") }
        parts.append(Self.keyName(key))
        return parts.joined(separator: "+")
    }

    static func keyName(_ key: Key) -> String {
        switch key {
        case .returnKey: return "Return"
        case .escape: return "Esc"
        case .backspace: return "Backspace"
        case .tab: return "Tab"
        case .space: return "Space"
        case .delete: return "Delete"
        case .left: return "←"
        case .right: return "→"
        case .up: return "↑"
        case .down: return "↓"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "Page Up"
        case .pageDown: return "Page Down"
        case .f2: return "F2"
        case .f10: return "F10"
        case .f11: return "F11"
        case .f12: return "F12"
        default:
            guard key.rawValue > 32, key.rawValue < 0x11_0000, let scalar = Unicode.Scalar(UInt32(key.rawValue)) else {
                return "?"
            }
            return String(scalar).uppercased()
        }
    }

    /// Whether a text field's own keys include this one: typing (no modifier, or Shift), and
    /// Ctrl with the editing keys (copy, paste, cut, select all, undo, redo, word moves).
    var isTextEditingKey: Bool {
        if modifiers.isSubset(of: .shift) { return true }
        guard modifiers.subtracting(.shift) == .control else { return false }
        let editing: [Key] = [
            Key("a"), Key("c"), Key("v"), Key("x"), Key("z"), Key("y"), .left, .right, .home, .end,
            .backspace, .delete, .up, .down,
        ]
        return editing.contains(key)
    }
}

extension UI {
    /// Whether `shortcut` was pressed this frame and not yet taken; takes it (one command per
    /// press). While a text field has focus, the field keeps its own keys (typing, and Ctrl with
    /// C, V, X, A, Z, Y and the arrows); while a dialog is up, only its own widgets see keys;
    /// inside `disabled(true)`, none fires.
    ///
    /// ```swift
    /// if ui.shortcutPressed(KeyboardShortcut(.f12, modifiers: [])) { showsHUD.toggle() }
    /// ```
    public func shortcutPressed(_ shortcut: KeyboardShortcut) -> Bool {
        guard !consumedKeys.contains(shortcut.key.rawValue), modalAllowsInput, isEnabled else { return false }
        if (wantsTextInput || textInputFocusedLastFrame) && shortcut.isTextEditingKey { return false }
        let relevant: KeyModifiers = [.shift, .control, .alt, .gui]
        guard
            input.keys.contains(where: {
                $0.key == shortcut.key && $0.modifiers.intersection(relevant) == shortcut.modifiers
            })
        else { return false }
        consumeKey(shortcut.key)
        return true
    }
}
