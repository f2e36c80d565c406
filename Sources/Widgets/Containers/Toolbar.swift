import Render2D
import Imaging
import Profiling

/// Where a toolbar item goes (SwiftUI's `ToolbarItemPlacement`, the placements a desktop window has).
public enum ToolbarItemPlacement: Sendable, Equatable {
    /// The leading edge of the top bar: a back button, a sidebar toggle, a title.
    case navigation
    /// The centre of the top bar.
    case principal
    /// The trailing edge of the top bar: the window's main actions, the last to overflow.
    case primaryAction
    /// Before the primary actions: the first to overflow when the window is narrow.
    case secondaryAction
    /// The centre of the bottom bar: a count, a sync state.
    case status
    /// The bottom bar, leading to trailing.
    case bottomBar

    /// The placement SwiftUI picks for an item with none: a primary action.
    public static let automatic = ToolbarItemPlacement.primaryAction

    var isBottom: Bool { self == .status || self == .bottomBar }

    /// Names an item's ID scope (a literal: an enum's description is reflected, slow per item per frame).
    var name: String {
        switch self {
        case .navigation: "navigation"
        case .principal: "principal"
        case .primaryAction: "primaryAction"
        case .secondaryAction: "secondaryAction"
        case .status: "status"
        case .bottomBar: "bottomBar"
        }
    }

    /// Which part of its bar the item sits in.
    var group: ToolbarLayout.Group {
        switch self {
        case .navigation, .bottomBar: .leading
        case .principal, .status: .center
        case .secondaryAction, .primaryAction: .trailing
        }
    }

    /// Among items of one priority, the order they overflow in (the lowest first).
    var keepRank: Int {
        switch self {
        case .secondaryAction, .bottomBar: 0
        case .principal, .status: 1
        case .primaryAction: 2
        case .navigation: 3
        }
    }
}

/// Where a bar's items go, from the widths they measured: which fit, at what x, and which
/// overflow into the bar's "…" menu. Pure: tested without a window.
struct ToolbarLayout: Equatable {
    enum Group: Equatable { case leading, center, trailing }

    struct Item: Equatable {
        var placement: ToolbarItemPlacement
        var priority: Int
        var width: Double
    }

    /// Each item's x, nil for one in the overflow menu.
    var positions: [Double?]
    /// Whether the bar shows its "…" button.
    var hasOverflow: Bool { positions.contains(nil) }

    /// Lays out `items` (in the order they were built) over a bar `width` wide: `spacing`
    /// between items and `overflowWidth` for the "…" button when not all of them fit. Items
    /// leave, lowest `priority` first, then secondary actions before the principal item before
    /// primary actions before navigation, then the last built first.
    init(items: [Item], width: Double, spacing: Double, overflowWidth: Double) {
        func extent(_ kept: [Bool]) -> Double {
            let widths = items.indices.filter { kept[$0] }.map { items[$0].width }
            return widths.reduce(0, +) + spacing * Double(max(0, widths.count - 1))
        }
        var kept = [Bool](repeating: true, count: items.count)
        if extent(kept) > width {
            let available = width - overflowWidth - spacing
            let leavingOrder = items.indices.sorted { a, b in
                let (x, y) = (items[a], items[b])
                if x.priority != y.priority { return x.priority < y.priority }
                if x.placement.keepRank != y.placement.keepRank { return x.placement.keepRank < y.placement.keepRank }
                return a > b
            }
            for index in leavingOrder where extent(kept) > available { kept[index] = false }
        }
        let trailingEdge = width - (kept.contains(false) ? overflowWidth + spacing : 0)
        var positions = [Double?](repeating: nil, count: items.count)
        var leadingEnd = 0.0
        for i in items.indices where kept[i] && items[i].placement.group == .leading {
            positions[i] = leadingEnd
            leadingEnd += items[i].width + spacing
        }
        var trailingStart = trailingEdge
        // Secondary actions before primary ones, each kind in the order built.
        let trailing =
            items.indices.filter { items[$0].placement == .secondaryAction }
            + items.indices.filter { items[$0].placement == .primaryAction }
        for i in trailing.reversed() where kept[i] {
            trailingStart -= items[i].width
            positions[i] = trailingStart
            trailingStart -= spacing
        }
        let centred = items.indices.filter { kept[$0] && items[$0].placement.group == .center }
        let centreWidth = centred.map { items[$0].width }.reduce(0, +) + spacing * Double(max(0, centred.count - 1))
        // Centred in the bar, or pushed aside by the edges' items rather than under them.
        var x = max(leadingEnd, min((width - centreWidth) / 2, trailingStart - centreWidth))
        for i in centred {
            positions[i] = x
            x += items[i].width + spacing
        }
        self.positions = positions
    }
}

/// A toolbar item built this frame: where it goes and what draws it.
struct ToolbarEntry {
    var placement: ToolbarItemPlacement
    var priority: Int
    var key: WidgetID
    var content: () -> Void
}

/// The toolbars being built, innermost last: `toolbarItem` adds to the last.
final class ToolbarCollector {
    var entries: [ToolbarEntry] = []
    var ordinal: [ToolbarItemPlacement: Int] = [:]
}

extension UI {
    /// `content` under a bar of `items` (SwiftUI's `.toolbar`): navigation items at the leading
    /// edge, the principal one in the centre, actions at the trailing edge; status and
    /// bottom-bar items in a bar under `content`, shown while there are any. Items are built
    /// each frame, so a bar reacts to the selection by building different ones. When the window
    /// is too narrow, items move into a "…" menu, lowest priority first (buttons there show as
    /// menu items).
    ///
    /// ```swift
    /// ui.toolbar {
    ///     ui.table("files", rows: rows, selection: $selection) { … }
    /// } items: {
    ///     ui.toolbarItem(placement: .navigation) { ui.text("\(selection.count) selected") }
    ///     ui.toolbarItem(placement: .primaryAction) { if ui.button("Add", icon: .plus) { add() } }
    ///     ui.toolbarItem(placement: .status) { ui.text("Synced") }
    /// }
    /// ```
    public func toolbar(_ name: String = "toolbar", _ content: () -> Void, items: () -> Void) {
        let tid = id(name)
        let outer = allocateRemaining(unboundedHeight: 400)
        let collector = collect(into: ToolbarCollector(), on: \.toolbarStack) { withID(tid) { items() } }
        let barHeight = theme.controlHeight + 12
        let top = collector.entries.filter { !$0.placement.isBottom }
        let bottom = collector.entries.filter { $0.placement.isBottom }
        let topRect = Rect(x: outer.x, y: outer.y, width: outer.width, height: top.isEmpty ? 0 : barHeight)
        let bottomRect = Rect(
            x: outer.x, y: outer.maxY - (bottom.isEmpty ? 0 : barHeight), width: outer.width,
            height: bottom.isEmpty ? 0 : barHeight)
        withID(tid) {
            if !top.isEmpty { toolbarBar(top, in: topRect, name: "top", role: .toolBar, title: name) }
        }
        region(
            Rect(x: outer.x, y: topRect.maxY, width: outer.width, height: max(0, bottomRect.minY - topRect.maxY)),
            content)
        withID(tid) {
            if !bottom.isEmpty { toolbarBar(bottom, in: bottomRect, name: "bottom", role: .statusBar, title: name) }
        }
    }

    /// An item of the enclosing `toolbar`, at `placement`; `priority` decides which items stay
    /// when the bar is too narrow for all of them (the highest stay).
    ///
    /// ```swift
    /// ui.toolbarItem(placement: .secondaryAction, priority: -1) { if ui.button("Invert") { selection.invert() } }
    /// ```
    public func toolbarItem(
        placement: ToolbarItemPlacement = .automatic, priority: Int = 0, id name: String? = nil,
        _ content: @escaping () -> Void
    ) {
        guard let collector = toolbarStack.last else { return hstack(content) }
        let ordinal = collector.ordinal[placement, default: 0]
        collector.ordinal[placement] = ordinal + 1
        let key = name.map { id($0) } ?? WidgetID(parent: id(placement.name), index: ordinal)
        collector.entries.append(ToolbarEntry(placement: placement, priority: priority, key: key, content: content))
    }

    /// One bar: its background, the items that fit at the places the layout gives them
    /// (each measured as it is drawn, for the next frame), and the "…" menu of the others.
    private func toolbarBar(
        _ entries: [ToolbarEntry], in rect: Rect, name: String, role: AccessibilityRole, title: String
    ) {
        let sizes = stateBox(id(name), [WidgetID: Size]())
        let spacing = theme.spacing, inset = 10.0
        let overflowWidth = theme.controlHeight
        let inner = rect.insetBy(dx: inset, dy: 0)
        let items = entries.map {
            ToolbarLayout.Item(placement: $0.placement, priority: $0.priority, width: sizes.value[$0.key]?.width ?? 0)
        }
        let layout = ToolbarLayout(items: items, width: inner.width, spacing: spacing, overflowWidth: overflowWidth)
        drawList.addRect(rect, color: theme.control.opacity(0.35))
        drawList.addRect(
            Rect(x: rect.x, y: role == .toolBar ? rect.maxY - 1 : rect.y, width: rect.width, height: 1),
            color: theme.separator)
        let listed = openAccessibilityContainer(id(name), role: role, name: title, frame: rect)
        var measured: [WidgetID: Size] = [:]
        drawList.pushClip(rect)
        for (entry, x) in zip(entries, layout.positions) {
            guard let x else {
                measured[entry.key] = sizes.value[entry.key]
                continue
            }
            // Centred in the bar's height, from the height it measured.
            let height = min(rect.height, sizes.value[entry.key]?.height ?? rect.height)
            let slot = Rect(
                x: inner.x + x, y: rect.y + ((rect.height - height) / 2).rounded(),
                width: max(0, inner.maxX - inner.x - x),
                height: height)
            var size = Size.zero
            withID(entry.key) {
                size = child(
                    at: slot, axis: .horizontal, spacing: spacing, alignment: .center, id: id("item"), entry.content)
            }
            measured[entry.key] = size
        }
        drawList.popClip()
        if measured != sizes.value {
            sizes.value = measured
            requestRedraw()  // the items take their measured places in the next frame
        }
        if layout.hasOverflow {
            let button = Rect(
                x: inner.maxX - overflowWidth, y: rect.midY - theme.controlHeight / 2, width: overflowWidth,
                height: theme.controlHeight)
            let menu = name + ".overflow"
            let r = interact(id(menu), rect: button, sense: [.click, .focus, .activate])
            if r.isHovered { drawList.addRoundedRect(button, radius: theme.cornerRadius, color: theme.controlHovered) }
            font.draw("…", in: button, alignment: .center, color: theme.text, into: &drawList)
            accessibilityElement(
                r.id, role: .pushButton, name: "More", frame: button, states: controlStates(), actions: [.click])
            if r.clicked { openPopup(menu, at: Point(button.maxX - 160, button.maxY + 2)) }
            popup(menu) {
                menuState.buttonsAsMenuItems = true
                for (entry, x) in zip(entries, layout.positions) where x == nil {
                    withID(entry.key) { vstack(spacing: 2, entry.content) }
                }
            }
        }
        if listed { closeAccessibilityContainer() }
    }
}
