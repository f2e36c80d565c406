import Render2D
import Imaging
import Profiling

/// Which columns of a navigation split view show (SwiftUI's `NavigationSplitViewVisibility`).
public enum NavigationSplitViewVisibility: String, Sendable, Codable, Equatable {
    /// Every column.
    case all
    /// Two columns: content and detail in a three-column view, sidebar and detail in a two-column one.
    case doubleColumn
    /// The detail alone.
    case detailOnly
}

/// `.balanced` shrinks the detail to make room for the leading columns; `.prominentDetail`
/// keeps the detail full size and shows the leading columns over it; `.automatic` decides by
/// the room there is.
public enum NavigationSplitViewStyle: Sendable, Equatable {
    /// Side by side while the detail keeps its minimum width, the content column and then the
    /// sidebar narrowing toward their minimums first. Narrower, a three-column view whose
    /// content column still fits beside the detail slides the detail out of the way of the
    /// sidebar (iPad's landscape); narrower still, or with two columns, the leading columns
    /// cover the detail (portrait).
    case automatic
    /// The detail shrinks to make room, down to its minimum width; then the content column and
    /// the sidebar narrow toward theirs; only then do the leading columns cover the detail.
    case balanced
    /// The detail keeps its size; the leading columns cover it.
    case prominentDetail
}

/// What happens when the leading columns do not fit beside the detail (UISplitViewController's
/// split behaviours): they cover it (`.overlay`), or push it aside, partly off screen (`.displace`).
public enum NavigationSplitNarrowBehavior: Sendable, Equatable {
    /// The leading columns cover the detail.
    case overlay
    /// The leading columns push the detail aside.
    case displace
}

/// A column of a navigation split view.
public enum NavigationSplitColumn: String, Sendable, Codable, Equatable {
    /// The leading column.
    case sidebar
    /// The middle column of a three-column view.
    case content
    /// The trailing column.
    case detail
}

/// Bounds of a column's width; the user resizes between `min` and `max`, starting at `ideal`.
public struct NavigationColumnWidth: Sendable, Equatable {
    /// The narrowest, the starting and the widest width, in logical pixels.
    public var min: Double, ideal: Double, max: Double
    /// Bounds of a column's width (`ideal` is clamped into `min...max`).
    public init(min: Double, ideal: Double, max: Double) {
        self.min = min
        self.max = Swift.max(min, max)
        self.ideal = Swift.min(Swift.max(ideal, min), self.max)
    }
    /// `width` within the bounds, or `ideal` when there is none.
    public func clamp(_ width: Double?) -> Double {
        guard let width, width.isFinite else { return ideal }
        return Swift.min(Swift.max(width, min), max)
    }
}

/// The user-facing state of a navigation split view: visibility, the widths the user
/// dragged, and the column a compact (one-column) layout shows. Codable, so it can persist.
public struct NavigationSplitState: Sendable, Codable, Equatable {
    /// Which columns show.
    public var visibility: NavigationSplitViewVisibility
    /// The sidebar's width the user dragged (nil: the ideal width).
    public var sidebarWidth: Double?
    /// The content column's width the user dragged (nil: the ideal width).
    public var contentWidth: Double?
    /// The column shown when the view collapses to one column. Set it to `.detail` when the
    /// user selects something, as SwiftUI's `preferredCompactColumn`; back navigation moves it.
    public var preferredCompactColumn: NavigationSplitColumn

    /// A state showing `visibility`, with `preferredCompactColumn` shown in a one-column layout.
    public init(
        visibility: NavigationSplitViewVisibility = .all, preferredCompactColumn: NavigationSplitColumn = .sidebar
    ) {
        self.visibility = visibility
        self.preferredCompactColumn = preferredCompactColumn
    }

    /// What the sidebar button does: show the leading columns, or hide them.
    public mutating func toggleSidebar(threeColumns: Bool) {
        switch visibility {
        case .all: visibility = threeColumns ? .doubleColumn : .detailOnly
        case .doubleColumn: visibility = threeColumns ? .all : .detailOnly
        case .detailOnly: visibility = .all
        }
    }

    /// Back navigation in the compact layout: detail → content → sidebar.
    public mutating func goBack(threeColumns: Bool) {
        switch preferredCompactColumn {
        case .detail: preferredCompactColumn = threeColumns ? .content : .sidebar
        case .content: preferredCompactColumn = .sidebar
        case .sidebar: break
        }
    }
}

/// Where each column goes for a given width: pure, so every rule is tested without SDL.
package struct NavigationSplitLayout: Sendable, Equatable {
    public enum Mode: Sendable, Equatable {
        /// Columns side by side.
        case tiled
        /// Leading columns drawn over the full-size detail (narrow windows, `.prominentDetail`).
        case overlay
        /// Leading columns beside a full-width detail pushed partly off screen (narrow windows).
        case displace
        /// One column at a time with back navigation.
        case compact
    }
    public var mode: Mode
    public var sidebar: Rect?
    public var content: Rect?
    public var detail: Rect?

    /// Resolves the layout of `rect`.
    public static func resolve(
        _ rect: Rect, state: NavigationSplitState, style: NavigationSplitViewStyle,
        sidebarWidth: NavigationColumnWidth, contentWidth: NavigationColumnWidth?,
        detailMinWidth: Double, compactWidth: Double,
        narrowBehavior: NavigationSplitNarrowBehavior = .overlay
    ) -> NavigationSplitLayout {
        let threeColumns = contentWidth != nil
        if rect.width < compactWidth {
            var column = state.preferredCompactColumn
            if column == .content && !threeColumns { column = .detail }
            return NavigationSplitLayout(
                mode: .compact, sidebar: column == .sidebar ? rect : nil,
                content: column == .content ? rect : nil, detail: column == .detail ? rect : nil)
        }
        var leading: [(NavigationSplitColumn, Double)] = []
        switch (state.visibility, threeColumns) {
        case (.all, true):
            leading = [
                (.sidebar, sidebarWidth.clamp(state.sidebarWidth)), (.content, contentWidth!.clamp(state.contentWidth)),
            ]
        case (.doubleColumn, true): leading = [(.content, contentWidth!.clamp(state.contentWidth))]
        case (.all, false), (.doubleColumn, false): leading = [(.sidebar, sidebarWidth.clamp(state.sidebarWidth))]
        case (.detailOnly, _): leading = []
        }
        let minimum = { (column: NavigationSplitColumn) in
            column == .sidebar ? sidebarWidth.min : contentWidth!.min
        }
        // Too narrow for the columns' widths, they give way before anything covers the detail:
        // the content column first, then the sidebar, each down to its minimum.
        let fitted = shrunk(leading, toFit: rect.width - detailMinWidth, minimum: minimum)
        let mode: Mode
        let contentFits = threeColumns && contentWidth!.min + detailMinWidth <= rect.width
        switch style {
        case _ where leading.isEmpty: mode = .tiled
        case .balanced: mode = fitted != nil ? .tiled : narrowBehavior == .displace ? .displace : .overlay
        case .automatic: mode = fitted != nil ? .tiled : contentFits && leading.count == 2 ? .displace : .overlay
        case .prominentDetail: mode = .overlay
        }
        if mode == .tiled, let fitted { leading = fitted }
        var result = NavigationSplitLayout(mode: mode, sidebar: nil, content: nil, detail: nil)
        var x = rect.minX
        for (column, width) in leading {
            let w = min(width, rect.maxX - x)
            let columnRect = Rect(x: x, y: rect.y, width: max(0, w), height: rect.height)
            if column == .sidebar { result.sidebar = columnRect } else { result.content = columnRect }
            x += w
        }
        switch mode {
        case .tiled: result.detail = Rect(x: x, y: rect.y, width: max(0, rect.maxX - x), height: rect.height)
        case .displace: result.detail = Rect(x: x, y: rect.y, width: rect.width, height: rect.height)
        case .overlay, .compact: result.detail = rect
        }
        return result
    }

    /// `columns` narrowed, the last first and each to its `minimum`, until their widths add up
    /// to at most `available`; nil when even their minimums do not fit.
    private static func shrunk(
        _ columns: [(NavigationSplitColumn, Double)], toFit available: Double,
        minimum: (NavigationSplitColumn) -> Double
    ) -> [(NavigationSplitColumn, Double)]? {
        var excess = columns.reduce(0) { $0 + $1.1 } - available
        var result = columns
        for index in result.indices.reversed() where excess > 0 {
            let give = min(excess, max(0, result[index].1 - minimum(result[index].0)))
            result[index].1 -= give
            excess -= give
        }
        return excess > 0 ? nil : result
    }
}

extension UI {
    /// SwiftUI's `NavigationSplitView`: a sidebar, an optional content column and a detail,
    /// with column widths the user drags, a sidebar button, visibility by API, and layouts
    /// for narrow windows (leading columns over the detail) and compact ones (one column at
    /// a time with a back button, or your own `compact` layout).
    ///
    /// ```swift
    /// ui.navigationSplit("browser", state: Binding(self, \.nav), contentWidth: .init(min: 220, ideal: 300, max: 500)) {
    ///     sidebar()
    /// } content: {
    ///     list()
    /// } detail: {
    ///     inspector()
    /// }
    /// ```
    public func navigationSplit(
        _ name: String, state: Binding<NavigationSplitState>, style: NavigationSplitViewStyle = .balanced,
        sidebarWidth: NavigationColumnWidth = .init(min: 180, ideal: 240, max: 400),
        contentWidth: NavigationColumnWidth = .init(min: 200, ideal: 300, max: 500), detailMinWidth: Double = 320,
        compactWidth: Double = 520, narrowBehavior: NavigationSplitNarrowBehavior = .overlay, title: String = "",
        sidebar: () -> Void, content: () -> Void, detail: () -> Void, compact: (() -> Void)? = nil
    ) {
        withoutActuallyEscaping(content) { content in
            navigationColumns(
                name, state: state, style: style, sidebarWidth: sidebarWidth, contentWidth: contentWidth,
                detailMinWidth: detailMinWidth, compactWidth: compactWidth, narrowBehavior: narrowBehavior,
                title: title,
                sidebar: sidebar, content: content, detail: detail, compact: compact)
        }
    }

    /// The two-column form (sidebar | detail); `compact`, when given, replaces the one-column
    /// stack in compact widths (for example with a tab bar).
    public func navigationSplit(
        _ name: String, state: Binding<NavigationSplitState>, style: NavigationSplitViewStyle = .balanced,
        sidebarWidth: NavigationColumnWidth = .init(min: 180, ideal: 240, max: 400),
        detailMinWidth: Double = 320, compactWidth: Double = 520,
        narrowBehavior: NavigationSplitNarrowBehavior = .overlay, title: String = "",
        sidebar: () -> Void, detail: () -> Void, compact: (() -> Void)? = nil
    ) {
        navigationColumns(
            name, state: state, style: style, sidebarWidth: sidebarWidth, contentWidth: nil,
            detailMinWidth: detailMinWidth, compactWidth: compactWidth, narrowBehavior: narrowBehavior, title: title,
            sidebar: sidebar, content: nil, detail: detail, compact: compact)
    }

    /// The implementation behind both forms of `navigationSplit`.
    private func navigationColumns(
        _ name: String, state: Binding<NavigationSplitState>, style: NavigationSplitViewStyle,
        sidebarWidth: NavigationColumnWidth, contentWidth: NavigationColumnWidth?,
        detailMinWidth: Double, compactWidth: Double, narrowBehavior: NavigationSplitNarrowBehavior,
        title: String, sidebar: () -> Void, content: (() -> Void)?, detail: () -> Void,
        compact: (() -> Void)?
    ) {
        widget("navigation split", name, unboundedHeight: 0) { nid, rect in
            let threeColumns = content != nil
            let toolbarHeight = 40.0
            let toolbar = Rect(x: rect.x, y: rect.y, width: rect.width, height: min(toolbarHeight, rect.height))
            let body = Rect(x: rect.x, y: toolbar.maxY, width: rect.width, height: max(0, rect.height - toolbar.height))

            if body.width < compactWidth, let compact {
                pane(rect, compact)
                return
            }
            let isCompact = body.width < compactWidth
            navigationToolbar(
                toolbar, nid, state: state, isCompact: isCompact, threeColumns: threeColumns, title: title)

            // Resolved after the toolbar, so its buttons take effect in this frame.
            let resolve = { (visibility: NavigationSplitViewVisibility) in
                var shown = state.wrappedValue
                shown.visibility = visibility
                return NavigationSplitLayout.resolve(
                    body, state: shown, style: style, sidebarWidth: sidebarWidth, contentWidth: contentWidth,
                    detailMinWidth: detailMinWidth, compactWidth: compactWidth, narrowBehavior: narrowBehavior)
            }
            let target = resolve(state.wrappedValue.visibility)
            let (layout, slide) = slidingColumns(
                target, id: WidgetID(parent: nid, "slide"), visibility: state.wrappedValue.visibility,
                body: body, resolve: resolve)
            // Detail first: in the overlay mode the leading columns are drawn over it.
            if let detailRect = layout.detail { pane(detailRect.intersection(body), detailRect, detail) }
            if layout.mode != .compact {
                if let rect = layout.detail {
                    noteColumn("\(name).detail", width: rect.width, minimum: min(detailMinWidth, body.width))
                }
                if let rect = layout.sidebar {
                    noteColumn("\(name).sidebar", width: rect.width, minimum: min(sidebarWidth.min, body.width))
                }
                if let rect = layout.content, let contentWidth {
                    noteColumn("\(name).content", width: rect.width, minimum: min(contentWidth.min, body.width))
                }
            }
            if layout.mode == .overlay || layout.mode == .displace {
                let covered = (layout.content ?? layout.sidebar).map { $0.maxX } ?? body.minX
                let scrim = Rect(x: covered, y: body.y, width: max(0, body.maxX - covered), height: body.height)
                drawList.addRect(scrim, color: Color.black.opacity(0.25))
                // A tap on the dimmed detail dismisses the overlaid columns; it reaches nothing else.
                if interact(WidgetID(parent: nid, "scrim"), rect: scrim).clicked {
                    state.wrappedValue.visibility = .detailOnly
                }
            }
            for (column, columnRect) in [(NavigationSplitColumn.sidebar, layout.sidebar), (.content, layout.content)] {
                guard let columnRect else { continue }
                drawList.addRect(
                    columnRect, color: column == .sidebar ? theme.surface.mix(theme.background, 0.5) : theme.surface)
                if column == .sidebar { pane(columnRect, sidebar) } else if let content { pane(columnRect, content) }
                if layout.mode == .compact || slide != 0 { continue }  // no resize handles while the columns slide
                columnResizeHandle(
                    column, columnRect, nid, state: state, sidebarWidth: sidebarWidth, contentWidth: contentWidth)
            }
        }
    }

    /// The toolbar: the sidebar button (or, compact, the back button) and the title.
    private func navigationToolbar(
        _ toolbar: Rect, _ nid: WidgetID, state: Binding<NavigationSplitState>, isCompact: Bool,
        threeColumns: Bool, title: String
    ) {
        drawList.addRect(toolbar, color: theme.surface)
        drawList.addRect(
            Rect(x: toolbar.x, y: toolbar.maxY - 1, width: toolbar.width, height: 1), color: theme.separator)
        pane(toolbar.insetBy(dx: 8, dy: 7)) {
            withID(nid) {
                hstack {
                    if isCompact {
                        if state.wrappedValue.preferredCompactColumn != .sidebar {
                            let back =
                                state.wrappedValue.preferredCompactColumn == .detail && threeColumns
                                ? "Content" : "Sidebar"
                            if button(back, icon: .chevronLeft, style: .plain, id: "back") {
                                state.wrappedValue.goBack(threeColumns: threeColumns)
                            }
                        }
                    } else if accessibilityLabel(
                        "Toggle Sidebar", { button("", icon: .sidebar, style: .plain, id: "toggleSidebar") })
                    {
                        state.wrappedValue.toggleSidebar(threeColumns: threeColumns)
                    }
                    if !title.isEmpty { text(title, font: font(size: theme.fontSize, weight: .bold)) }
                }
            }
        }
    }

    /// A resize handle on a column's trailing edge: dragged, the column takes the width (within
    /// its bounds); double-clicked, it goes back to its ideal width.
    private func columnResizeHandle(
        _ column: NavigationSplitColumn, _ columnRect: Rect, _ nid: WidgetID, state: Binding<NavigationSplitState>,
        sidebarWidth: NavigationColumnWidth, contentWidth: NavigationColumnWidth?
    ) {
        let edge = Rect(x: columnRect.maxX - 1, y: columnRect.y, width: 1, height: columnRect.height)
        let handleID = WidgetID(parent: nid, column.rawValue)
        let styling = SplitStyling()
        let r = splitterHandle(handleID, splitter: edge, horizontal: true, styling: styling)
        let startBox = stateBox(WidgetID(parent: handleID, "start"), 0.0)
        if r.pressed { startBox.value = columnRect.width }
        if r.isActive && input.pointer.isDragging {
            let width = startBox.value + input.pointer.position.x - input.pointer.pressPosition.x
            if column == .sidebar {
                state.wrappedValue.sidebarWidth = sidebarWidth.clamp(width)
            } else {
                state.wrappedValue.contentWidth = contentWidth?.clamp(width)
            }
        }
        if r.doubleClicked {
            if column == .sidebar {
                state.wrappedValue.sidebarWidth = nil
            } else {
                state.wrappedValue.contentWidth = nil
            }  // back to the ideal width
        }
        drawSplitterLine(edge, horizontal: true, styling: styling, emphasized: r.isHovered || r.isActive)
        claimSplitterPress(r)
    }

    /// The columns as drawn while they slide: when the visibility changes (the sidebar button,
    /// or a `withAnimation`), the leading columns' trailing edge moves to its new place over
    /// 0.22 s (at once with reduce motion); columns that leave are drawn sliding out, the detail
    /// beside them following the edge. Returns the layout to draw and how far the columns are
    /// from where they rest (0: at rest).
    private func slidingColumns(
        _ target: NavigationSplitLayout, id: WidgetID, visibility: NavigationSplitViewVisibility, body: Rect,
        resolve: (NavigationSplitViewVisibility) -> NavigationSplitLayout
    ) -> (NavigationSplitLayout, Double) {
        let memo = stateBox(id, (visibility: visibility, leaving: NavigationSplitViewVisibility?.none))
        let changed = memo.value.visibility != visibility && target.mode != .compact
        if changed { memo.value = (visibility, memo.value.visibility) }
        func edge(_ layout: NavigationSplitLayout) -> Double {
            (layout.content ?? layout.sidebar).map(\.maxX) ?? body.minX
        }
        let shown = animatedValue(
            edge(target), animation: changed ? currentTransaction ?? .easeOut(duration: 0.22) : nil,
            id: WidgetID(parent: id, "edge"))
        guard shown != edge(target), target.mode != .compact else {
            memo.value.leaving = nil
            return (target, 0)
        }
        // Growing: the columns shown now slide in; shrinking: the ones that were shown slide out.
        var drawn = shown < edge(target) || memo.value.leaving == nil ? target : resolve(memo.value.leaving!)
        let offset = shown - edge(drawn)
        drawn.sidebar = drawn.sidebar?.offsetBy(dx: offset, dy: 0)
        drawn.content = drawn.content?.offsetBy(dx: offset, dy: 0)
        if target.mode == .tiled || target.mode == .displace {
            drawn.detail = Rect(
                x: shown, y: body.y, width: target.mode == .tiled ? max(0, body.maxX - shown) : body.width,
                height: body.height)
        }
        return (drawn, offset)
    }
}
