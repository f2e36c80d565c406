import Render2D
import Imaging
import Profiling

/// A tab built this frame.
struct TabEntry {
    var title: String
    var icon: Icon?
    var value: AnyHashable
    var content: () -> Void
}

/// The tab views whose tabs are being built, innermost last: `tab` adds to the last.
final class TabCollector {
    var tabs: [TabEntry] = []
}

extension UI {
    /// Pages behind a bar of tabs (SwiftUI's `TabView(selection:)`): the page of the tab whose
    /// value `selection` holds (the first one's when it holds none). A click or tap on a tab
    /// picks it; Ctrl+PageDown and Ctrl+PageUp go to the next and previous tab, wrapping. When
    /// the tabs do not fit the width, the bar collapses into one button showing the current
    /// tab, whose menu lists them all. Only the shown page is built.
    ///
    /// ```swift
    /// ui.tabView(selection: Binding(self, \.tab)) {
    ///     ui.tab("Photos", icon: .photo, value: Tab.photos) { photoGrid() }
    ///     ui.tab("Albums", icon: .folder, value: Tab.albums) { albumList() }
    /// }
    /// ```
    public func tabView<Tag: Hashable>(_ name: String = "tabs", selection: Binding<Tag>, _ content: () -> Void) {
        let vid = id(name)
        let outer = allocateRemaining(unboundedHeight: 400)
        let collector = collect(into: TabCollector(), on: \.tabCollectors) { withID(vid) { content() } }
        let tabs = collector.tabs
        guard !tabs.isEmpty else { return }
        let current = AnyHashable(selection.wrappedValue)
        var chosen = tabs.firstIndex { $0.value == current } ?? 0
        let barHeight = theme.controlHeight + 10
        let bar = Rect(x: outer.x, y: outer.y, width: outer.width, height: barHeight)
        withID(vid) {
            region(Rect(x: outer.x, y: bar.maxY, width: outer.width, height: max(0, outer.height - barHeight))) {
                withID(index: chosen) { tabs[chosen].content() }
            }
            if let picked = tabBar(tabs, chosen: chosen, in: bar) { chosen = picked }
            if shortcutPressed(KeyboardShortcut(.pageDown, modifiers: .control)) { chosen = (chosen + 1) % tabs.count }
            if shortcutPressed(KeyboardShortcut(.pageUp, modifiers: .control)) {
                chosen = (chosen + tabs.count - 1) % tabs.count
            }
        }
        if tabs[chosen].value != current, let value = tabs[chosen].value.base as? Tag {
            selection.wrappedValue = value
            requestRedraw()  // the page picked is built in the next frame
        }
    }

    /// A tab of the enclosing `tabView`: its title and icon in the bar, and `content`, built
    /// when it is the one shown. `value` is what the tab view's selection holds for it.
    ///
    /// ```swift
    /// ui.tab("Albums", icon: .folder, value: Tab.albums) { albumList() }
    /// ```
    public func tab(_ title: String, icon: Icon? = nil, value: some Hashable, _ content: @escaping () -> Void) {
        guard let collector = tabCollectors.last else { return content() }
        collector.tabs.append(TabEntry(title: title, icon: icon, value: AnyHashable(value), content: content))
    }

    /// The bar: each tab, or one button with the current tab's title when they do not fit.
    /// Returns the tab clicked, if any.
    private func tabBar(_ tabs: [TabEntry], chosen: Int, in bar: Rect) -> Int? {
        drawList.addRect(bar, color: theme.control.opacity(0.35))
        drawList.addRect(Rect(x: bar.x, y: bar.maxY - 1, width: bar.width, height: 1), color: theme.separator)
        let font = self.font
        let widths = tabs.map { font.measure($0.title) + ($0.icon == nil ? 0 : 22) + 28 }
        let listed = openAccessibilityContainer(id("bar"), role: .pageTabList, name: "Tabs", frame: bar)
        defer { if listed { closeAccessibilityContainer() } }
        var picked: Int?
        if widths.reduce(0, +) > bar.width - 16 {
            // Collapsed: the current tab, with a menu of them all.
            let tab = tabs[chosen]
            let width = min(bar.width - 16, widths[chosen] + 20)
            let rect = Rect(
                x: bar.x + 8, y: bar.midY - theme.controlHeight / 2, width: width, height: theme.controlHeight)
            let r = interact(id("collapsed"), rect: rect, sense: [.click, .focus, .activate])
            drawList.addRoundedRect(
                rect, radius: theme.cornerRadius, color: r.isHovered ? theme.controlHovered : theme.control)
            drawTabLabel(
                tab, in: Rect(x: rect.x, y: rect.y, width: rect.width - 20, height: rect.height), color: theme.text)
            drawIcon(
                .chevronDown, in: Rect(x: rect.maxX - 20, y: rect.midY - 6, width: 12, height: 12),
                color: theme.secondaryText)
            accessibilityElement(
                r.id, role: .comboBox, name: tab.title, frame: rect, states: controlStates(), actions: [.click])
            if r.clicked { openPopup("tabs", at: Point(rect.x, rect.maxY + 2)) }
            popup("tabs") {
                for (i, tab) in tabs.enumerated() where menuItem(tab.title, icon: i == chosen ? .checkmark : tab.icon) {
                    picked = i
                }
            }
            return picked
        }
        var x = bar.x + 8
        for (i, tab) in tabs.enumerated() {
            let rect = Rect(x: x, y: bar.y, width: widths[i], height: bar.height)
            x += widths[i]
            let r = interact(WidgetID(parent: id("tab"), index: i), rect: rect, sense: [.click, .focus, .activate])
            let isChosen = i == chosen
            if r.isHovered && !isChosen {
                drawList.addRect(rect.insetBy(dx: 0, dy: 4), color: theme.controlHovered.opacity(0.6))
            }
            if isChosen {
                drawList.addRect(
                    Rect(x: rect.x + 6, y: rect.maxY - 3, width: rect.width - 12, height: 3), color: theme.accent)
            }
            drawTabLabel(tab, in: rect, color: isChosen ? theme.text : theme.secondaryText)
            accessibilityElement(
                r.id, role: .pageTab, name: tab.title, frame: rect,
                states: controlStates(isChosen ? [.selectable, .selected] : .selectable), actions: [.click])
            if r.clicked { picked = i }
        }
        return picked
    }

    private func drawTabLabel(_ tab: TabEntry, in rect: Rect, color: Color) {
        var x = rect.x + 14
        if let icon = tab.icon {
            drawIcon(icon, in: Rect(x: x, y: rect.midY - 8, width: 16, height: 16), color: color)
            x += 22
        }
        font.draw(
            tab.title, in: Rect(x: x, y: rect.y, width: max(0, rect.maxX - x), height: rect.height), color: color,
            truncation: truncation, into: &drawList)
    }
}
