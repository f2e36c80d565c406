import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// Nested split panes: sidebar | (top | (detail | inspector)), a custom splitter with a
/// hide/show button, drag-to-hide on the inspector, a split whose layout toggles, and the
/// positions saved across restarts.
@MainActor
final class SplitsPage {
    private var outer = SplitState(fraction: 0.22)
    private var middle = SplitState(fraction: 0.45, layout: .vertical)
    private var inspector = SplitState(fraction: 0.7)
    private var toggleable = SplitState(fraction: 0.5)
    private var dragged: Double?
    private var loaded = false
    private var saved: [String: SplitState] = [:]

    func build(_ ui: UI) {
        if !loaded { load(ui.persistentStore) }
        ui.vstack(spacing: 0) {
            ui.padding(EdgeInsets(horizontal: 12, vertical: 6)) {
                ui.vstack(spacing: 6) {
                    ui.wrappingHStack {
                        if ui.button("Toggle layout", icon: .sidebar) { toggleable.layout.toggle() }
                        if ui.button(inspector.hidden == nil ? "Hide inspector" : "Show inspector") {
                            inspector.toggle()
                        }
                        if ui.button(outer.hidden == nil ? "Hide sidebar" : "Show sidebar") { outer.toggle(.left) }
                    }
                    // One line whatever it says: the panes under it never move while a splitter is dragged.
                    ui.text(
                        dragged.map { "dragging: \(Int(($0 * 100).rounded())) %" }
                            ?? "drag a splitter; drag the inspector's past its minimum to hide it",
                        color: ui.theme.secondaryText)
                }
            }
            ui.divider()
            ui.hSplit(
                "outer", state: Binding(self, \.outer),
                constraints: .init(minPFraction: 0.12, minSFraction: 0.4, priority: .left)
            ) {
                paneText(ui, "Sidebar", tint: .blue, lines: ["Library", "Favorites", "Recent", "Folders"])
            } right: {
                ui.vSplit(
                    "middle", state: Binding(self, \.middle), constraints: .init(minPFraction: 0.15, minSFraction: 0.25)
                ) {
                    ui.split(
                        "toggleable", state: Binding(self, \.toggleable),
                        constraints: .init(minPFraction: 0.1, minSFraction: 0.1)
                    ) {
                        paneText(
                            ui, "Primary", tint: .green,
                            lines: ["Layout: \(self.toggleable.layout.rawValue)", "Split(primary:secondary:)"])
                    } secondary: {
                        paneText(ui, "Secondary", tint: .orange, lines: ["Toggle the layout above"])
                    }
                } bottom: {
                    ui.hSplit(
                        "inspector", state: Binding(self, \.inspector),
                        constraints: .init(minPFraction: 0.35, minSFraction: 0.2, priority: .right, dragToHideS: true),
                        styling: SplitStyling(visibleThickness: 14, invisibleThickness: 14),
                        splitter: .custom(Self.buttonSplitter), onDrag: { self.dragged = $0 }
                    ) {
                        paneText(
                            ui, "Detail", tint: .gray,
                            lines: ["Nested three deep", "Priority: the inspector keeps its width"])
                    } right: {
                        paneText(ui, "Inspector", tint: .red, lines: ["Drag-to-hide", "Min 20 %"])
                        ui.padding(10) { if ui.button("Close inspector", icon: .xmark) { self.inspector.hide(.right) } }
                    }
                }
            }
        }
        if ui.input.pointer.released { dragged = nil }
        save(ui.persistentStore)
    }

    /// A splitter that is a thin bar with a button in its middle that hides or shows the inspector.
    static func buttonSplitter(_ ui: UI, _ context: SplitterContext, _ state: inout SplitState) {
        let bar = context.rect
        guard !bar.isEmpty else { return }
        ui.drawList.addRect(
            bar, color: context.isDragging || context.isHovered ? ui.theme.controlHovered : ui.theme.surface)
        ui.drawList.addRect(Rect(x: bar.minX, y: bar.y, width: 1, height: bar.height), color: ui.theme.separator)
        ui.drawList.addRect(Rect(x: bar.maxX - 1, y: bar.y, width: 1, height: bar.height), color: ui.theme.separator)
        let button = Rect(x: bar.midX - 13, y: bar.midY - 16, width: 26, height: 32)
        ui.region(button) {
            let icon: Icon = context.previewHide != nil || state.hidden != nil ? .chevronLeft : .chevronRight
            if ui.accessibilityLabel(
                "Hide or Show the Right Pane", { ui.button("", icon: icon, style: .borderedProminent, id: "hideShow") })
            {
                state.toggle(.right)
            }
        }
    }

    private func paneText(_ ui: UI, _ title: String, tint: Color, lines: [String]) {
        ui.drawList.addRect(ui.availableRect, color: tint.opacity(0.12))
        ui.padding(10) {
            ui.vstack(spacing: 4) {
                ui.text(title, font: ui.font(size: 16, weight: .bold))
                for line in lines { ui.text(line, color: ui.theme.secondaryText) }
            }
        }
    }

    private func load(_ store: PersistentStore?) {
        loaded = true
        guard let store else { return }
        outer = store.value("splits.outer", as: SplitState.self) ?? outer
        middle = store.value("splits.middle", as: SplitState.self) ?? middle
        inspector = store.value("splits.inspector", as: SplitState.self) ?? inspector
        toggleable = store.value("splits.toggleable", as: SplitState.self) ?? toggleable
    }

    private func save(_ store: PersistentStore?) {
        guard let store else { return }
        for (key, value) in [
            ("splits.outer", outer), ("splits.middle", middle), ("splits.inspector", inspector),
            ("splits.toggleable", toggleable),
        ] where saved[key] != value {
            saved[key] = value
            store.set(value, for: key)
        }
    }
}
