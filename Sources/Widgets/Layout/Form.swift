import Render2D
import Imaging
import Profiling

/// A form being built: controls inside lay themselves out as label | control rows.
struct FormContext {
    var labelWidth: Double
}

/// How a `picker` shows its choices.
public enum PickerStyle: Sendable {
    /// The options side by side, one of them highlighted.
    case segmented
    /// A button showing the selected option, opening a menu of the others.
    case menu
}

extension UI {
    /// Rows of controls aligned in two columns, labels on the left and controls on the right
    /// (SwiftUI's `Form`). Toggles, sliders, text fields, color wells and pickers built inside
    /// take the row layout by themselves; `section` groups them under a title.
    ///
    /// ```swift
    /// ui.form {
    ///     ui.toggle("Fill shape?", isOn: &fill)
    ///     ui.colorWell("Fill color", color: &fillColor)
    ///     ui.picker("Alignment", selection: &alignment, options: [("Left", 0), ("Center", 1)])
    /// }
    /// ```
    public func form(labelWidth: Double = 120, _ content: () -> Void) {
        formStack.append(FormContext(labelWidth: labelWidth))
        vstack(spacing: 6, content)
        formStack.removeLast()
    }

    /// In a form: allocates a full-width row of `height`, draws `title` in the label column
    /// and returns the control column. Outside a form: nil (the control lays itself out).
    /// A custom control calls it first, so it lines up with the built-in ones in a form:
    ///
    /// ```swift
    /// let rect = ui.formRow("Volume", height: 24) ?? ui.allocate(Size(200, 24))
    /// ui.drawList.addRect(rect, color: ui.theme.accent)
    /// ```
    public func formRow(_ title: String, height: Double) -> Rect? {
        guard let form = formStack.last else { return nil }
        let row = allocate(Size(availableWidth, height), flexibleWidth: true)
        let labelWidth = min(form.labelWidth, row.width * 0.45)
        font.draw(
            title, in: Rect(x: row.x, y: row.y, width: labelWidth - 8, height: row.height), alignment: .trailing,
            color: theme.text, truncation: truncation, into: &drawList)
        return Rect(x: row.x + labelWidth, y: row.y, width: max(0, row.width - labelWidth), height: row.height)
    }

    /// A label and a read-only value (SwiftUI's `LabeledContent`): a form row in a form, a
    /// "label: value" line elsewhere.
    ///
    /// ```swift
    /// ui.labeledContent("Size", "2.4 MB")
    /// ```
    public func labeledContent(_ title: String, _ value: String) {
        if let column = formRow(title, height: theme.controlHeight) {
            if isAccessibilityEnabled {
                accessibilityElement(
                    id(title), role: .label, name: title, frame: column, value: value, text: AccessibilityText(value))
            }
            font.draw(value, in: column, color: theme.secondaryText, truncation: truncation, into: &drawList)
        } else {
            text(title + ": " + value, color: theme.secondaryText)
        }
    }

    /// A color swatch; clicking it opens a small picker (a palette and an opacity slider).
    /// Returns true when the color changed.
    ///
    /// ```swift
    /// ui.colorWell("Fill color", color: &fillColor)
    /// ```
    @discardableResult
    public func colorWell(_ title: String, color: inout Color, id name: String? = nil) -> Bool {
        let wid = id(name ?? title)
        let swatchSize = Size(44, 22)
        let swatch: Rect
        if let column = formRow(title, height: theme.controlHeight) {
            swatch = Rect(
                x: column.x, y: column.midY - swatchSize.height / 2, width: swatchSize.width, height: swatchSize.height)
        } else {
            let rect = allocate(Size(font.measure(title) + 10 + swatchSize.width, theme.controlHeight))
            font.draw(title, in: rect, color: theme.text, truncation: truncation, into: &drawList)
            swatch = Rect(
                x: rect.maxX - swatchSize.width, y: rect.midY - swatchSize.height / 2, width: swatchSize.width,
                height: swatchSize.height)
        }
        // A Tab stop: Space or Return opens the picker, as a click does.
        let r = interact(wid, rect: swatch, sense: [.click, .focus, .activate])
        if r.isHovered { setCursor(.pointingHand) }
        if isAccessibilityEnabled {
            accessibilityElement(
                wid, role: .colorChooser, name: title, frame: swatch, states: controlStates(.hasPopup),
                actions: [.click],
                value: color.spokenDescription)
        }
        drawList.addRoundedRect(swatch, radius: 5, color: r.isHovered ? theme.controlHovered : theme.control)
        drawCheckerboard(swatch.insetBy(dx: 3, dy: 3))
        drawList.addRoundedRect(swatch.insetBy(dx: 3, dy: 3), radius: 3, color: color)
        drawList.addRectBorder(swatch, radius: 5, color: theme.border, thickness: 1)
        let old = color
        withID(wid) {
            if r.clicked { openPopup("picker", at: Point(swatch.x, swatch.maxY + 4)) }
            popup("picker") { colorPalette(&color) }
        }
        return color != old
    }

    /// The color well's popup: eight hues in four shades, a gray ramp, and opacity.
    private func colorPalette(_ color: inout Color) {
        let cell = 20.0, gap = 3.0
        let hues: [UInt32] = [0xFF3B30, 0xFF9500, 0xFFCC00, 0x34C759, 0x00C7BE, 0x0A7AFF, 0x5856D6, 0xAF52DE]
        let shades = [0.0, 0.35, -0.3, 0.65]
        var swatches: [[Color]] = shades.map { shade in
            hues.map { hue in
                let base = Color(hex: hue)
                return shade >= 0 ? base.mix(.white, shade) : base.mix(.black, -shade)
            }
        }
        swatches.append((0..<8).map { Color(red: Double($0) / 7, green: Double($0) / 7, blue: Double($0) / 7) })
        let area = allocate(Size(Double(hues.count) * (cell + gap) - gap, Double(swatches.count) * (cell + gap) - gap))
        for (row, colors) in swatches.enumerated() {
            for (column, swatchColor) in colors.enumerated() {
                let rect = Rect(
                    x: area.x + Double(column) * (cell + gap), y: area.y + Double(row) * (cell + gap), width: cell,
                    height: cell)
                let r = interact(id(index: row * 16 + column), rect: rect)
                drawList.addRoundedRect(rect, radius: 4, color: swatchColor)
                drawList.addRectBorder(rect, radius: 4, color: theme.border.opacity(0.6), thickness: 1)
                let isCurrent = swatchColor.r == color.r && swatchColor.g == color.g && swatchColor.b == color.b
                if r.isHovered || isCurrent {
                    drawList.addRectBorder(
                        rect.insetBy(dx: -1.5, dy: -1.5), radius: 5, color: isCurrent ? theme.accent : theme.text,
                        thickness: 2)
                }
                if r.clicked { color = Color(r: swatchColor.r, g: swatchColor.g, b: swatchColor.b, a: color.a) }
            }
        }
        var alpha = Double(color.a) / 255
        if slider("Opacity", value: &alpha, in: 0...1, width: area.width - 70) { color = color.withAlpha(alpha) }
    }

    private func drawCheckerboard(_ rect: Rect) {
        let square = rect.height / 2
        var x = rect.x, column = 0
        while x < rect.maxX {
            for row in 0..<2 where (row + column) % 2 == 0 {
                drawList.addRect(
                    Rect(x: x, y: rect.y + Double(row) * square, width: min(square, rect.maxX - x), height: square),
                    color: Color(hex: 0xBBBBBB))
            }
            x += square
            column += 1
        }
    }

    /// One choice among `options` (SwiftUI's `Picker`): segments side by side, or a menu
    /// button listing them. Returns true when the selection changed.
    ///
    /// ```swift
    /// ui.picker("View", selection: &mode, options: [("Grid", .grid), ("Table", .table)])
    /// ui.picker("Font", selection: &font, options: fonts.map { ($0, $0) }, style: .menu)
    /// ```
    @discardableResult
    public func picker<Value: Equatable>(
        _ title: String, selection: inout Value, options: [(String, Value)],
        style: PickerStyle = .segmented, id name: String? = nil
    ) -> Bool {
        let pid = id(name ?? title)
        let font = self.font
        let labels = options.map(\.0)
        let widths = labels.map { font.measure($0) + 24 }
        let natural = style == .segmented ? widths.reduce(0, +) : (widths.max() ?? 40) + 24
        let control: Rect
        if let column = formRow(title, height: theme.controlHeight) {
            control = Rect(x: column.x, y: column.y, width: min(natural, column.width), height: column.height)
        } else {
            let titleWidth = title.isEmpty ? 0 : font.measure(title) + 10
            let rect = allocate(Size(titleWidth + natural, theme.controlHeight))
            if !title.isEmpty { font.draw(title, in: rect, color: theme.text, truncation: truncation, into: &drawList) }
            control = Rect(x: rect.x + titleWidth, y: rect.y, width: natural, height: rect.height)
        }
        let current = options.firstIndex { $0.1 == selection }
        let chosen = withID(pid) {
            switch style {
            case .segmented:
                segmentedPicker(
                    pid, title: title, labels: labels, widths: widths, natural: natural, control: control,
                    current: current)
            case .menu:
                menuPicker(title: title, labels: labels, control: control, current: current)
            }
        }
        guard let chosen, chosen != current else { return false }
        selection = options[chosen].1
        return true
    }

    /// The segments side by side, one Tab stop: Left and Right choose the neighbouring one.
    /// Returns the segment chosen (the current one unless the user chose another).
    private func segmentedPicker(
        _ pid: WidgetID, title: String, labels: [String], widths: [Double], natural: Double, control: Rect,
        current: Int?
    ) -> Int? {
        var chosen = current
        registerFocusable(pid, rect: control)
        let group =
            isAccessibilityEnabled
            ? reportAccessibility(
                pid, role: .panel, name: title.isEmpty ? labels.joined(separator: ", ") : title, frame: control,
                states: controlStates(), actions: [], value: "",
                range: nil, text: nil, collection: nil, cell: nil) : nil
        if let group { accessibility.parents.append(group) }
        defer { if group != nil { accessibility.parents.removeLast() } }
        if focusID == pid, !labels.isEmpty {
            for press in input.keys where press.key == .left || press.key == .right {
                chosen = min(max(0, (chosen ?? 0) + (press.key == .right ? 1 : -1)), labels.count - 1)
            }
        }
        drawList.addRoundedRect(control, radius: theme.cornerRadius, color: theme.control)
        let scale = control.width / max(1, natural)
        var x = control.x
        for (k, label) in labels.enumerated() {
            let segment = Rect(x: x, y: control.y, width: widths[k] * scale, height: control.height)
            x += segment.width
            let r = interact(id(index: k), rect: segment)
            if r.clicked {
                chosen = k
                focus(pid)
            }
            if isAccessibilityEnabled {
                accessibilityElement(
                    r.id, role: .radioButton, name: label, frame: segment,
                    states: AccessibilityStates([.enabled, .sensitive, .checkable]).union(
                        k == chosen ? .checked : []), actions: [.click])
            }
            drawSegment(
                segment, label: label, isChosen: k == chosen, isHovered: r.isHovered,
                separated: k > 0 && k != chosen && k - 1 != chosen)
        }
        return chosen
    }

    /// A segment: raised when chosen, tinted when hovered, a hairline before it between two
    /// segments not chosen.
    private func drawSegment(_ segment: Rect, label: String, isChosen: Bool, isHovered: Bool, separated: Bool) {
        if isChosen {
            drawList.addRoundedRect(
                segment.insetBy(dx: 2, dy: 2).offsetBy(dx: 0, dy: 0.5), radius: theme.cornerRadius - 1,
                color: Color.black.opacity(0.08))
            drawList.addRoundedRect(segment.insetBy(dx: 2, dy: 2), radius: theme.cornerRadius - 1, color: theme.surface)
        } else if isHovered {
            drawList.addRoundedRect(
                segment.insetBy(dx: 2, dy: 2), radius: theme.cornerRadius - 1, color: theme.controlHovered)
        }
        if separated {
            drawList.addRect(
                Rect(x: segment.x, y: segment.y + 6, width: 1, height: segment.height - 12), color: theme.border)
        }
        font.draw(label, in: segment, alignment: .center, color: theme.text, truncation: truncation, into: &drawList)
    }

    /// A button showing the current choice; its menu lists them all, the current one checked.
    /// Returns the one chosen (the current one unless the user chose another).
    private func menuPicker(title: String, labels: [String], control: Rect, current: Int?) -> Int? {
        var chosen = current
        let r = interact(id("button"), rect: control, sense: [.click, .focus, .activate])
        if r.isHovered { setCursor(.pointingHand) }
        if isAccessibilityEnabled {
            accessibilityElement(
                r.id, role: .comboBox, name: title, frame: control, states: controlStates(.hasPopup),
                actions: [.click], value: current.map { labels[$0] } ?? "")
        }
        drawList.addRoundedRect(
            control, radius: theme.cornerRadius, color: r.isHovered ? theme.controlHovered : theme.control)
        font.draw(
            current.map { labels[$0] } ?? "—", in: control.insetBy(dx: 10, dy: 0), color: theme.text, into: &drawList)
        drawIcon(
            .chevronDown, in: Rect(x: control.maxX - 20, y: control.midY - 6, width: 12, height: 12),
            color: theme.secondaryText)
        if r.clicked { openPopup("menu", at: Point(control.x, control.maxY + 2)) }
        popup("menu") {
            for (k, label) in labels.enumerated() where menuItem(label, icon: k == current ? .checkmark : nil) {
                chosen = k
            }
        }
        return chosen
    }
}
