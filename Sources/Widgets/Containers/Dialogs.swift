/// A button of an alert or a confirmation dialog (SwiftUI's `Button(_:role:action:)` in a
/// dialog's actions).
///
/// ```swift
/// DialogAction("Move to Trash", role: .destructive) { trash(selection) }
/// DialogAction("Cancel", role: .cancel)
/// ```
public struct DialogAction {
    /// What a dialog's button does, which decides how it looks and which key presses it.
    public enum Role: Sendable {
        /// It destroys something: drawn red; never the default of Return.
        case destructive
        /// It changes nothing: Escape presses it.
        case cancel
    }

    /// The button's title.
    public var title: String
    /// Its role, if any.
    public var role: Role?
    /// Whether Return presses it (else Return presses the first action with no role).
    public var isDefault: Bool
    /// What it does; the dialog closes after it.
    public var action: @MainActor () -> Void

    /// A button titled `title` with `role`, running `action` (nothing by default).
    public init(
        _ title: String, role: Role? = nil, isDefault: Bool = false, action: @escaping @MainActor () -> Void = {}
    ) {
        self.title = title
        self.role = role
        self.isDefault = isDefault
        self.action = action
    }
}

/// What a dialog remembers while it is up: whether it has put focus inside itself yet.
struct DialogMemo {
    var focused = false
}

extension UI {
    /// SwiftUI's `alert(_:isPresented:actions:message:)`: a modal dialog over the window with a
    /// title, a message and buttons. The rest of the window takes no input and sits under a
    /// scrim; Tab moves only among the buttons; Return presses the default action, Escape the
    /// cancel one (or just closes). Pressing any button closes it (`isPresented` becomes false).
    ///
    /// ```swift
    /// ui.alert("Could not open “\(name)”", isPresented: Binding(self, \.showsError),
    ///          actions: [DialogAction("OK")], message: error.description)
    /// ```
    public func alert(
        _ title: String, isPresented: Binding<Bool>, actions: [DialogAction] = [DialogAction("OK")],
        message: String? = nil
    ) {
        dialog(title, isPresented: isPresented, message: message, actions: actions, stacked: false)
    }

    /// SwiftUI's `confirmationDialog(_:isPresented:actions:message:)`: a modal question before
    /// something that cannot be undone, its buttons one above the other, a Cancel button added
    /// when `actions` has none. Return never presses a destructive action by default.
    ///
    /// ```swift
    /// ui.confirmationDialog("Move \(count) photos to the trash?", isPresented: Binding(self, \.confirmsTrash),
    ///                       actions: [DialogAction("Move to Trash", role: .destructive) { trash() }])
    /// ```
    public func confirmationDialog(
        _ title: String, isPresented: Binding<Bool>, actions: [DialogAction], message: String? = nil
    ) {
        let withCancel =
            actions.contains { $0.role == .cancel } ? actions : actions + [DialogAction("Cancel", role: .cancel)]
        dialog(title, isPresented: isPresented, message: message, actions: withCancel, stacked: true)
    }

    /// SwiftUI's `sheet(isPresented:content:)`: a modal panel over the window holding your
    /// content (give it a button that sets `isPresented` to false). Escape closes it; the rest
    /// of the window takes no input while it is up.
    ///
    /// ```swift
    /// ui.sheet(isPresented: Binding(self, \.showsSettings)) {
    ///     ui.toggle("Show hidden files", isOn: &showsHidden)
    ///     if ui.button("Done", style: .borderedProminent) { showsSettings = false }
    /// }
    /// ```
    public func sheet(
        _ name: String = "sheet", isPresented: Binding<Bool>, width: Double = 480, height: Double = 320,
        _ content: () -> Void
    ) {
        guard isPresented.wrappedValue else { return }
        let did = id(name)
        modal(did, role: .dialog, name: name) {
            let panel = centeredPanel(Size(width, height))
            drawPanel(panel)
            region(panel.insetBy(dx: 20, dy: 20)) { content() }
            if unconsumedPress(of: .escape) != nil {
                consumeKey(.escape)
                isPresented.wrappedValue = false
            }
        }
    }

    /// The alert and the confirmation dialog.
    private func dialog(
        _ title: String, isPresented: Binding<Bool>, message: String?, actions: [DialogAction], stacked: Bool
    ) {
        guard isPresented.wrappedValue else { return }
        let did = id("dialog " + title)
        let memo = stateBox(WidgetID(parent: did, "memo"), DialogMemo())
        let font = self.font, bold = self.font(size: theme.fontSize + 1, weight: .bold)
        let lines = message.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
        let buttonWidths = actions.map { font.measure($0.title) + 24 }
        let textWidth = max(bold.measure(title), lines.map(font.measure).max() ?? 0)
        let buttonsWidth =
            stacked ? (buttonWidths.max() ?? 0) : buttonWidths.reduce(0, +) + Double(max(0, actions.count - 1)) * 8
        let width = min(max(300, max(textWidth, buttonsWidth) + 40), size.width - 24)
        let buttonsHeight = stacked ? Double(actions.count) * (theme.controlHeight + 8) : theme.controlHeight
        let height = 20 + bold.lineHeight + 8 + Double(lines.count) * font.lineHeight + 20 + buttonsHeight + 20
        let defaultIndex =
            actions.firstIndex { $0.isDefault }
            ?? actions.firstIndex { $0.role == nil } ?? actions.firstIndex { $0.role == .cancel }
        var chosen: Int?
        modal(did, role: stacked ? .dialog : .alert, name: title) {
            let panel = centeredPanel(Size(width, height))
            drawPanel(panel)
            let y = drawDialogText(title, message: message, lines: lines, in: panel, font: font, bold: bold)
            let area = Rect(x: panel.x + 20, y: y, width: panel.width - 40, height: buttonsHeight)
            region(area) {
                let buttons = {
                    for (i, action) in actions.enumerated() {
                        let style: ButtonStyle =
                            action.role == .destructive
                            ? .destructive : i == defaultIndex ? .borderedProminent : .bordered
                        if self.button(action.title, style: style, id: "action \(i)") { chosen = i }
                    }
                }
                if stacked {
                    vstack(spacing: 8, alignment: .center) { buttons() }
                } else {
                    hstack(spacing: 8) {
                        spacer()
                        buttons()
                    }
                }
            }
            // Focus moves into the dialog when it appears, to the default button: Return presses
            // the focused button, as Space does, and Tab moves among the buttons.
            if !memo.value.focused {
                memo.value.focused = true
                if let defaultIndex { focus(id("action \(defaultIndex)")) }
            }
            if chosen == nil, unconsumedPress(of: .returnKey) != nil, let defaultIndex {
                consumeKey(.returnKey)
                chosen = defaultIndex
            }
            if chosen == nil, unconsumedPress(of: .escape) != nil {
                consumeKey(.escape)
                chosen = actions.firstIndex { $0.role == .cancel } ?? -1
            }
        }
        guard let chosen else { return }
        isPresented.wrappedValue = false
        stateBox(WidgetID(parent: did, "memo"), DialogMemo()).value = DialogMemo()
        if actions.indices.contains(chosen) { actions[chosen].action() }
        requestRedraw()
    }

    /// A dialog's title and message lines from the top of `panel` (reported to a screen reader
    /// as a heading and a label). Returns where the buttons go.
    private func drawDialogText(
        _ title: String, message: String?, lines: [String], in panel: Rect, font: Font, bold: Font
    ) -> Double {
        var y = panel.y + 20
        bold.draw(
            title, in: Rect(x: panel.x + 20, y: y, width: panel.width - 40, height: bold.lineHeight),
            color: theme.text, into: &drawList)
        if isAccessibilityEnabled {
            accessibilityElement(
                id("title"), role: .heading, name: title,
                frame: Rect(
                    x: panel.x + 20, y: y, width: panel.width - 40,
                    height: bold.lineHeight + Double(lines.count) * font.lineHeight),
                text: AccessibilityText(title))
            if let message {
                accessibilityElement(
                    id("message"), role: .label, name: message, frame: panel, text: AccessibilityText(message))
            }
        }
        y += bold.lineHeight + 8
        for line in lines {
            font.draw(
                line, in: Rect(x: panel.x + 20, y: y, width: panel.width - 40, height: font.lineHeight),
                color: theme.secondaryText, into: &drawList)
            y += font.lineHeight
        }
        return y + 20
    }

    /// Builds `body` as the window's modal layer: over a scrim, in the overlay, the only part
    /// of the window that gets input (from the next frame on) until a frame does not build it.
    func modal(_ did: WidgetID, role: AccessibilityRole, name: String, _ body: () -> Void) {
        modalThisFrame = did
        let outer = buildingModal
        buildingModal = true
        let background = (input.keys, input.typing, input.text)
        if modalLastFrame != nil { (input.keys, input.typing, input.text) = modalKeyboard }
        inOverlay {
            drawList.addRect(Rect(origin: .zero, size: size), color: Color.black.opacity(0.35))
            accessibilityContainer(
                did, role: role, name: name, frame: Rect(origin: .zero, size: size),
                states: [.modal, .enabled, .sensitive]
            ) {
                withID(did) { body() }
            }
        }
        (input.keys, input.typing, input.text) = background
        buildingModal = outer
    }

    /// A panel of `panelSize`, centred in the window (a little above the middle), kept inside it.
    func centeredPanel(_ panelSize: Size) -> Rect {
        let w = min(panelSize.width, size.width - 24), h = min(panelSize.height, size.height - 24)
        return Rect(
            x: ((size.width - w) / 2).rounded(), y: max(12, ((size.height - h) * 0.4).rounded()), width: w, height: h)
    }

    func drawPanel(_ panel: Rect) {
        drawList.addRoundedRect(
            panel.offsetBy(dx: 0, dy: 3).insetBy(dx: -3, dy: -3), radius: 12, color: Color.black.opacity(0.18))
        drawList.addRoundedRect(panel, radius: 10, color: theme.popupBackground)
        drawList.addRectBorder(panel, radius: 10, color: theme.border, thickness: 1)
    }
}
