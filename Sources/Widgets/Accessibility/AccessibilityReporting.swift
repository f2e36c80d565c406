import Render2D
import Imaging
import Profiling

/// What `accessibilityLabel`, `accessibilityHint` and `accessibilityValue` give the next
/// widget reported inside them.
struct AccessibilityOverride {
    var label: String?
    var hint: String?
    var value: String?
}

/// The tree a frame builds while accessibility is on: the node being built into, and the
/// modifiers waiting for their widget.
struct AccessibilityCollector {
    var tree = AccessibilityTree()
    /// The nodes widgets are built inside now (innermost last); the root (0) at the bottom.
    var parents: [Int] = [0]
    var pendingOverride: AccessibilityOverride?
    /// Inside `accessibilityHidden(true)`: nothing is reported.
    var hiddenDepth = 0
}

/// What a screen reader or a test asked the widgets to do, carried out in the next frame.
public enum AccessibilityRequest: Sendable, Equatable {
    /// Click the widget (a button, a row, a tab, a menu item), or flip a toggle.
    case activate(WidgetID)
    /// Open or close it (an outline row, a disclosure): AT-SPI's "expand or contract" action.
    case toggleExpansion(WidgetID)
    /// Give it keyboard focus.
    case focus(WidgetID)
    /// Replace a field's text.
    case setText(WidgetID, String)
    /// Set a slider's value.
    case setValue(WidgetID, Double)
}

/// The requests a frame carries out, taken from the queue when it begins.
struct AccessibilityRequests {
    var activations: Set<WidgetID> = []
    var expansions: Set<WidgetID> = []
    var texts: [WidgetID: String] = [:]
    var values: [WidgetID: Double] = [:]
    var isEmpty: Bool { activations.isEmpty && expansions.isEmpty && texts.isEmpty && values.isEmpty }
}

extension UI {
    // MARK: Modifiers (SwiftUI's names)

    /// Names what `content` builds for screen readers, in place of its text: an icon button,
    /// an image, a photo cell. The label goes to the first widget built inside.
    ///
    /// ```swift
    /// ui.accessibilityLabel("Delete") { ui.button("", icon: .trash) }
    /// ```
    @discardableResult
    public func accessibilityLabel<R>(_ label: String, _ content: () -> R) -> R {
        accessibilityOverride({ $0.label = label }, content)
    }

    /// Tells screen readers what using the first widget built in `content` does (read after
    /// its name and value).
    ///
    /// ```swift
    /// ui.accessibilityHint("Moves the selected photos to the trash") { ui.button("Delete") }
    /// ```
    @discardableResult
    public func accessibilityHint<R>(_ hint: String, _ content: () -> R) -> R {
        accessibilityOverride({ $0.hint = hint }, content)
    }

    /// Gives the first widget built in `content` a value a screen reader reads after its name:
    /// a rating, a progress, a state its label does not say.
    ///
    /// ```swift
    /// ui.accessibilityValue("\(rating) stars") { stars(ui, rating) }
    /// ```
    @discardableResult
    public func accessibilityValue<R>(_ value: String, _ content: () -> R) -> R {
        accessibilityOverride({ $0.value = value }, content)
    }

    /// Hides everything `content` builds from screen readers when `hidden`: decoration, and
    /// text a nearby label already says.
    ///
    /// ```swift
    /// ui.accessibilityHidden(true) { ui.drawIcon(.star, in: badge, color: .yellow) }
    /// ```
    @discardableResult
    public func accessibilityHidden<R>(_ hidden: Bool, _ content: () -> R) -> R {
        guard hidden, isAccessibilityEnabled else { return content() }
        accessibility.hiddenDepth += 1
        defer { accessibility.hiddenDepth -= 1 }
        return content()
    }

    private func accessibilityOverride<R>(_ change: (inout AccessibilityOverride) -> Void, _ content: () -> R) -> R {
        guard isAccessibilityEnabled else { return content() }
        // An outer modifier wins over one inside it (an app's label over a widget's own), as in SwiftUI.
        var inner = AccessibilityOverride()
        change(&inner)
        let outer = accessibility.pendingOverride
        accessibility.pendingOverride = AccessibilityOverride(
            label: outer?.label ?? inner.label, hint: outer?.hint ?? inner.hint,
            value: outer?.value ?? inner.value)
        defer { accessibility.pendingOverride = nil }  // a modifier whose content reported nothing lapses
        return content()
    }

    // MARK: Reporting, for widgets

    /// Reports a widget a screen reader should see: its role, name and rectangle; its states
    /// and actions. Widgets call it from their immediate-mode call; so can yours. Does
    /// nothing (and costs one branch) while accessibility is off.
    ///
    /// ```swift
    /// let r = ui.interact(id, rect: rect, sense: [.click, .focus])
    /// ui.accessibilityElement(id, role: .pushButton, name: "Rotate", frame: rect, actions: [.click])
    /// ```
    public func accessibilityElement(
        _ id: WidgetID, role: AccessibilityRole, name: String, frame: Rect,
        states: AccessibilityStates = [], actions: AccessibilityActions = [],
        value: String = "", range: AccessibilityRange? = nil, text: AccessibilityText? = nil
    ) {
        guard isAccessibilityEnabled else { return }
        _ = reportAccessibility(
            id, role: role, name: name, frame: frame, states: states, actions: actions, value: value,
            range: range, text: text, collection: nil, cell: nil)
    }

    /// Reports a container (a list, a table, a dialog, a menu) and builds `content` inside it,
    /// so that what `content` reports are its children.
    ///
    /// ```swift
    /// ui.accessibilityContainer(id, role: .toolBar, name: "Tools", frame: bar) { buildTools() }
    /// ```
    @discardableResult
    public func accessibilityContainer<R>(
        _ id: WidgetID, role: AccessibilityRole, name: String, frame: Rect,
        states: AccessibilityStates = [], collection: AccessibilityCollection? = nil,
        _ content: () throws -> R
    ) rethrows -> R {
        guard isAccessibilityEnabled,
            let index = reportAccessibility(
                id, role: role, name: name, frame: frame, states: states, actions: [],
                value: "", range: nil, text: nil, collection: collection, cell: nil)
        else { return try content() }
        accessibility.parents.append(index)
        defer { accessibility.parents.removeLast() }
        return try content()
    }

    /// Adds a node under the current parent; nil when hidden. The node takes a waiting
    /// modifier's label, hint and value, and the focus and showing states of this frame.
    @usableFromInline
    func reportAccessibility(
        _ id: WidgetID, role: AccessibilityRole, name: String, frame: Rect, states: AccessibilityStates,
        actions: AccessibilityActions, value: String, range: AccessibilityRange?, text: AccessibilityText?,
        collection: AccessibilityCollection?, cell: (row: Int, column: Int)?
    ) -> Int? {
        guard accessibility.hiddenDepth == 0 else { return nil }
        var states = states.union([.visible])
        var actions = actions
        if disabledDepth > 0 {  // inside `disabled(true)`: unavailable, whatever the widget said
            states.subtract([.enabled, .sensitive, .focusable])
            actions = []
        }
        if focusID == id { states.insert(.focused) }
        if frame.intersects(drawList.clipRect) && frame.width > 0 && frame.height > 0 { states.insert(.showing) }
        var node = AccessibilityNode(
            id: id, role: role, name: name, description: "", value: value, states: states,
            actions: actions, frame: frame, range: range, text: text, collection: collection, cell: cell)
        if let o = accessibility.pendingOverride {
            accessibility.pendingOverride = nil
            if let label = o.label { node.name = label }
            if let hint = o.hint { node.description = hint }
            if let value = o.value { node.value = value }
        }
        return accessibility.tree.append(node, parent: accessibility.parents[accessibility.parents.count - 1])
    }

    /// Changes the node last reported for `id` this frame (a container learns its children's
    /// selection after building them).
    func updateAccessibility(_ id: WidgetID, _ body: (inout AccessibilityNode) -> Void) {
        guard isAccessibilityEnabled, let index = accessibility.tree.index(of: id) else { return }
        accessibility.tree.update(index, body)
    }

    /// The states of an input control: focusable, enabled, and whatever `extra` says.
    ///
    /// ```swift
    /// ui.accessibilityElement(id, role: .checkBox, name: "Wrap", frame: rect, states: ui.controlStates(isOn ? .checked : []))
    /// ```
    public func controlStates(_ extra: AccessibilityStates = []) -> AccessibilityStates {
        extra.union([.focusable, .enabled, .sensitive])
    }

    // MARK: Requests

    /// Queues `request` for the next frame, and wakes the frame loop: how the AT-SPI bridge
    /// and `TesseraTesting`'s queries press, focus and type.
    ///
    /// ```swift
    /// if let save = ui.accessibilityTree.all(.pushButton, "Save").first { ui.perform(.activate(save.id)) }
    /// ```
    public func perform(_ request: AccessibilityRequest) {
        queuedAccessibilityRequests.append(request)
        requestRedraw()
    }

    /// At the start of a frame: what was asked since the last one becomes this frame's.
    func takeAccessibilityRequests() {
        accessibilityRequests = AccessibilityRequests()
        for request in queuedAccessibilityRequests {
            switch request {
            case .activate(let id): accessibilityRequests.activations.insert(id)
            case .toggleExpansion(let id): accessibilityRequests.expansions.insert(id)
            case .focus(let id):
                focus(id)
                focusIsVisible = true
            case .setText(let id, let text): accessibilityRequests.texts[id] = text
            case .setValue(let id, let value): accessibilityRequests.values[id] = value
            }
        }
        queuedAccessibilityRequests.removeAll()
    }

    /// Whether a screen reader (or a test) clicked widget `id` this frame: a custom control
    /// that reports the `.click` action treats it as a click.
    ///
    /// ```swift
    /// if ui.interact(id, rect: rect, sense: .click).clicked || ui.accessibilityActivated(id) { count += 1 }
    /// ```
    public func accessibilityActivated(_ id: WidgetID) -> Bool {
        !accessibilityRequests.isEmpty && accessibilityRequests.activations.contains(id)
    }

    /// Whether a screen reader asked to open or close widget `id` this frame.
    func accessibilityToggledExpansion(_ id: WidgetID) -> Bool {
        !accessibilityRequests.isEmpty && accessibilityRequests.expansions.contains(id)
    }

    /// The text a screen reader set on field `id` this frame, if it set any.
    ///
    /// ```swift
    /// if let spoken = ui.accessibilitySetText(id) { text = spoken }
    /// ```
    public func accessibilitySetText(_ id: WidgetID) -> String? {
        accessibilityRequests.isEmpty ? nil : accessibilityRequests.texts[id]
    }

    /// The value a screen reader set on slider `id` this frame, if it set any.
    ///
    /// ```swift
    /// if let value = ui.accessibilitySetValue(id) { volume = min(max(value, 0), 1) }
    /// ```
    public func accessibilitySetValue(_ id: WidgetID) -> Double? {
        accessibilityRequests.isEmpty ? nil : accessibilityRequests.values[id]
    }

    /// At the start of a frame, while accessibility is on: a new tree whose root is the window.
    func beginAccessibilityFrame() {
        guard isAccessibilityEnabled else { return }
        accessibility = AccessibilityCollector(
            tree: AccessibilityTree(
                title: accessibilityTitle, size: size,
                capacity: accessibilityTree.nodes.count + 16))
        accessibilityCellText.removeAll(keepingCapacity: true)
    }

    /// At the end of a frame: the tree becomes `accessibilityTree`.
    func endAccessibilityFrame() {
        guard isAccessibilityEnabled else { return }
        accessibilityTree = accessibility.tree
        // A right-to-left frame was laid out left to right, then mirrored: so are the nodes.
        if layoutDirection == .rightToLeft { accessibilityTree.mirror(width: size.width) }
        accessibility = AccessibilityCollector()
    }
}

extension UI {
    /// The last component of `path`, found by its bytes (a `Character` walk of a long path cost
    /// a photo cell more than the rest of its node).
    static func fileName(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// A number as a screen reader reads it: whole numbers without decimals, others with two.
    func spokenNumber(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let hundredths = (value * 100).rounded() / 100
        return String(hundredths)
    }
}

extension TextEditState {
    /// A field's text with this caret and selection, for its accessibility node (the caret
    /// only while it has focus).
    func accessibilityText(_ text: String, focused: Bool) -> AccessibilityText {
        let count = text.unicodeScalars.count
        guard focused else { return AccessibilityText(text) }
        let selection = hasSelection ? self.selection.clamped(to: 0..<count) : nil
        return AccessibilityText(text, caret: min(caret, count), selection: selection)
    }
}

extension Icon {
    /// The icon's name as words, for an icon button with no title ("arrow_back": "arrow back").
    var spokenName: String { String(name.map { $0 == "_" || $0 == "." ? " " : $0 }) }
}

extension Color {
    /// The color as a screen reader reads a color well's value: "#3478F6", and the opacity when it is not opaque.
    var spokenDescription: String {
        let hex = [r, g, b].map { v in
            String(v, radix: 16, uppercase: true).count == 1
                ? "0" + String(v, radix: 16, uppercase: true)
                : String(v, radix: 16, uppercase: true)
        }
        return "#" + hex.joined() + (a == 255 ? "" : ", \(Int((Double(a) / 255 * 100).rounded())) % opaque")
    }
}

extension UI {
    /// Reports a container and makes it the parent of what is reported next, until
    /// `closeAccessibilityContainer`: for containers built across several calls. Returns
    /// whether it opened (false while accessibility is off or hidden).
    @usableFromInline
    func openAccessibilityContainer(
        _ id: WidgetID, role: AccessibilityRole, name: String, frame: Rect,
        states: AccessibilityStates = [], collection: AccessibilityCollection? = nil
    ) -> Bool {
        guard isAccessibilityEnabled,
            let index = reportAccessibility(
                id, role: role, name: name, frame: frame, states: states, actions: [], value: "",
                range: nil, text: nil, collection: collection, cell: nil)
        else { return false }
        accessibility.parents.append(index)
        return true
    }

    /// Ends the container `openAccessibilityContainer` opened.
    @usableFromInline
    func closeAccessibilityContainer() { accessibility.parents.removeLast() }

    /// Item `index` of a lazy stack or grid, built by `body` from `origin`: a list item whose
    /// children are what the item builds, its frame the size `body` measured.
    func accessibilityItem(_ index: Int, id itemID: WidgetID, at origin: Point, _ body: () -> Size) -> Size {
        guard isAccessibilityEnabled else { return body() }
        guard
            let node = reportAccessibility(
                itemID, role: .listItem, name: "", frame: Rect(origin: origin, size: .zero),
                states: [.enabled, .sensitive], actions: [], value: "", range: nil, text: nil,
                collection: nil, cell: (index, 0))
        else { return body() }
        accessibility.parents.append(node)
        let size = body()
        accessibility.parents.removeLast()
        accessibility.tree.update(node) { $0.frame = Rect(origin: origin, size: size) }
        nameAfterChildren(node)
        return size
    }

    /// Names an unnamed container (a row, a cell, an item) after its first named child: a
    /// photo cell is read as its photo.
    func nameAfterChildren(_ node: Int) {
        guard accessibility.tree.nodes[node].name.isEmpty else { return }
        var name: String?
        for child in accessibility.tree.nodes[node].children where !accessibility.tree.nodes[child].name.isEmpty {
            name = accessibility.tree.nodes[child].name
            break
        }
        // (Read first, then written: a copy of the nodes alive across the write would copy them all.)
        if let name { accessibility.tree.update(node) { $0.name = name } }
    }
}
