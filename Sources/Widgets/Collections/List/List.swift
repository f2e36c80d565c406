import Foundation
import Render2D
import Imaging
import Profiling

// `@inlinable` here is measured: lists and outlines are specialized for the app's element
// type. Without it (this file, List.swift, Outline.swift and OutlineFlattening.swift), `bench
// outline` (a million nodes) went from 0.245 to 0.435 ms work p50 and 0.138 to 0.285 ms build
// (medians of 3 interleaved runs, release). The figure: `bench outline` work p50.

/// How a list looks: `.plain` rows with separators and pinned section headers, or
/// `.sidebar` (rounded selection, bold section headers that collapse and expand).
public enum ListStyle: Sendable {
    /// Rows with separators, pinned section headers.
    case plain
    /// A source list: rounded selection, collapsible bold section headers.
    case sidebar
}

/// What sits at the trailing edge of a list row.
public enum ListAccessory: Sendable, Equatable {
    /// Nothing.
    case none
    /// A checkmark: chosen.
    case checkmark
    /// A chevron: the row leads somewhere.
    case disclosureIndicator
    /// A count in a capsule (unread mail, items in a folder).
    case badge(Int)
}

/// A picture at the leading edge of a list row: pixels the app holds, or an image file
/// (its thumbnail, loaded off the main thread by `ui.images`).
public enum ListRowImage: Sendable {
    /// Pixels the app holds.
    case bitmap(ImageBitmap)
    /// An image file, by path.
    case file(String)
}

/// A row's content configuration, as UIKit's: a title with an optional icon or image,
/// secondary text and an accessory, drawn directly (no layout), so rows of a million-node
/// outline cost a few quads each.
///
/// ```swift
/// ListRowContent("Inbox", icon: .folder, secondaryText: "Today", accessory: .badge(12))
/// ListRowContent("Lisbon", image: .file(cover.path), secondaryText: "212 photos")
/// ```
public struct ListRowContent: Sendable {
    /// The row's title.
    public var title: String
    /// An icon before the title.
    public var icon: Icon?
    /// A picture before the title, as tall as the row, in place of the icon.
    public var image: ListRowImage?
    /// The icon's color (nil: the accent).
    public var iconColor: Color?
    /// A value at the row's trailing edge, on the title's line, in the secondary color (the
    /// standard inspector row's value; at most 45 % of the row's width, truncated past it).
    public var secondaryText: String?
    /// What sits at the trailing edge.
    public var accessory: ListAccessory

    /// A row showing `title`, and optionally an icon or an image, secondary text and an accessory.
    public init(
        _ title: String, icon: Icon? = nil, iconColor: Color? = nil, image: ListRowImage? = nil,
        secondaryText: String? = nil,
        accessory: ListAccessory = .none
    ) {
        self.title = title
        self.icon = icon
        self.image = image
        self.iconColor = iconColor
        self.secondaryText = secondaryText
        self.accessory = accessory
    }
}

/// A button revealed by swiping a row to the left (UIKit's trailing swipe actions), or to the
/// right for `leadingSwipeActions`. Swiping
/// past most of the row's width and letting go performs the first action (a full swipe, as
/// SwiftUI's `swipeActions(allowsFullSwipe: true)`).
///
/// ```swift
/// SwipeAction("Delete", icon: .trash, isDestructive: true) { remove(item) }
/// ```
public struct SwipeAction {
    /// The button's title.
    public var title: String
    /// An icon above the title.
    public var icon: Icon?
    /// The button's color (nil: gray, or red when destructive).
    public var tint: Color?
    /// Whether the action destroys something: drawn red.
    public var isDestructive: Bool
    /// What the button does.
    public var action: () -> Void

    /// A swipe action titled `title` performing `action`.
    public init(
        _ title: String, icon: Icon? = nil, tint: Color? = nil, isDestructive: Bool = false,
        action: @escaping () -> Void
    ) {
        self.title = title
        self.icon = icon
        self.tint = tint
        self.isDestructive = isDestructive
        self.action = action
    }
}

/// Whether a row has a disclosure chevron and which way it points.
public enum RowDisclosure: Sendable, Equatable {
    /// No chevron: a leaf.
    case none
    /// A chevron pointing right: children hidden.
    case collapsed
    /// A chevron pointing down: children shown.
    case expanded
}

/// How a list row is drawn: a content configuration (fast path) or arbitrary widgets.
@usableFromInline
enum ListRowBody {
    case content(ListRowContent)
    case widgets(() -> Void)
}

/// A run of rows a list shows (one `forEach` or `outlineGroup`), with the element type
/// erased so the list's per-row code is not generic.
@usableFromInline
final class ListRowSource {
    let count: () -> Int
    let id: (Int) -> AnyHashable
    let depth: (Int) -> Int
    /// Resolves lazily: asks the outline for the row's children the first time.
    let disclosure: (Int) -> RowDisclosure
    let setExpanded: (_ row: Int, _ expand: Bool, _ recursive: Bool) -> Void
    let parent: (Int) -> Int?
    let body: (Int) -> ListRowBody
    let swipeActions: ((Int) -> [SwipeAction])?
    /// Revealed by swiping right (UIKit's leading swipe actions).
    let leadingSwipeActions: ((Int) -> [SwipeAction])?
    let move: ((_ from: Int, _ to: Int) -> Void)?
    /// Deletes a row: its delete button shows in edit mode.
    let delete: ((Int) -> Void)?
    let isHierarchical: Bool

    @usableFromInline
    init(
        count: @escaping () -> Int, id: @escaping (Int) -> AnyHashable, body: @escaping (Int) -> ListRowBody,
        swipeActions: ((Int) -> [SwipeAction])?, leadingSwipeActions: ((Int) -> [SwipeAction])? = nil,
        move: ((Int, Int) -> Void)?,
        delete: ((Int) -> Void)? = nil,
        hierarchy: (
            depth: (Int) -> Int, disclosure: (Int) -> RowDisclosure, setExpanded: (Int, Bool, Bool) -> Void,
            parent: (Int) -> Int?
        )? = nil
    ) {
        self.count = count
        self.id = id
        self.body = body
        self.swipeActions = swipeActions
        self.leadingSwipeActions = leadingSwipeActions
        self.move = move
        self.delete = delete
        isHierarchical = hierarchy != nil
        depth = hierarchy?.depth ?? { _ in 0 }
        disclosure = hierarchy?.disclosure ?? { _ in .none }
        setExpanded = hierarchy?.setExpanded ?? { _, _, _ in }
        parent = hierarchy?.parent ?? { _ in nil }
    }
}

/// A request to expand or collapse every outline of a list on its next frame.
@usableFromInline
enum OutlineCommand { case expandAll, collapseAll }

/// What a list's content closure registers: its row sources and section titles.
@usableFromInline
final class ListCollector {
    @usableFromInline var sources: [ListRowSource] = []
    /// Sections: title, identity (collapse state is kept by it) and the index of their first source.
    var sections: [(title: String, id: WidgetID, firstSource: Int)] = []
    @usableFromInline let command: OutlineCommand?
    init(command: OutlineCommand?) { self.command = command }
}

/// Where a list's rows are this frame: sources laid end to end, with a header slot before
/// each section. Pure arithmetic.
struct ListLayout {
    /// First global row of each source (collapsed sections contribute none).
    var starts: [Int] = []
    var counts: [Int] = []
    var geometry: RowGeometry

    init(collector: ListCollector, collapsed: Set<WidgetID>, rowHeight: Double, extents: ItemExtents?) {
        var sectionStarts: [Int] = []
        var total = 0
        var section = -1
        for (s, source) in collector.sources.enumerated() {
            while section + 1 < collector.sections.count && collector.sections[section + 1].firstSource <= s {
                section += 1
                sectionStarts.append(total)
            }
            let hidden = section >= 0 && collapsed.contains(collector.sections[section].id)
            let count = hidden ? 0 : max(0, source.count())
            starts.append(total)
            counts.append(count)
            total += count
        }
        while section + 1 < collector.sections.count {
            section += 1
            sectionStarts.append(total)
        }
        // Measured heights stay with their slot index when rows come and go, as in `lazyVStack`:
        // rows on screen are measured again each frame.
        var extents = extents
        extents?.resize(to: total + sectionStarts.count)
        geometry = RowGeometry(rowHeight: rowHeight, rowCount: total, sectionStarts: sectionStarts, extents: extents)
    }

    var rowCount: Int { geometry.rowCount }

    /// The global row showing the item whose ID is `id`, if one is shown (a scan).
    func row(withID id: AnyHashable, in collector: ListCollector) -> Int? {
        for (s, source) in collector.sources.enumerated() where s < counts.count {
            for local in 0..<counts[s] where source.id(local) == id { return starts[s] + local }
        }
        return nil
    }

    /// The source and its local row for global `row`.
    func locate(_ row: Int) -> (source: Int, local: Int) {
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= row && (counts[mid] > 0 || starts[mid] < row) { lo = mid } else { hi = mid - 1 }
        }
        while counts[lo] == 0 || row >= starts[lo] + counts[lo] { lo += 1 }  // skip empty sources
        return (lo, row - starts[lo])
    }
}

/// List state kept in the UI store.
struct ListMemo {
    var selection = SelectionModel<AnyHashable>()
    var collapsedSections: Set<WidgetID> = []
    var menuIDs: Set<AnyHashable> = []
    var command: OutlineCommand?
    var swipe: SwipeState?
    var reorder: ReorderState?
    /// How far to scroll this frame while a dragged row is held near an edge.
    var scrollCorrection = 0.0
    /// Measured row heights (nil while every row is `rowHeight` tall).
    var extents: ItemExtents?
    /// The rows drawn last frame, and how many rows there were: a row new to the screen while
    /// the count grew under a `withAnimation` was inserted.
    var shownRowIDs: [AnyHashable] = []
    var lastRowCount = -1
    /// Inserted rows fading in: when they began, and how.
    var arriving: [AnyHashable: (start: Double, animation: Animation)] = [:]
}

/// A row swiped open (or being swiped): how far its actions are revealed.
struct SwipeState {
    var rowID: AnyHashable
    var offset: Double
    var dragStartOffset: Double
    var isDragging: Bool
    var isOpen: Bool
    /// The width the actions take when fully open.
    var revealWidth: Double
    /// Where the actions were drawn last frame (a press there does not close the row).
    var actionsRect = Rect.zero
    /// The row's source and its index there (to find its actions again at the release).
    var source = 0, local = 0
    /// Dragged past most of the row: the release performs the first action (a full swipe).
    var isArmed = false
    /// Swiped right: the leading actions show, on the left.
    var isLeading = false
}

/// A row being dragged by its reorder handle.
struct ReorderState {
    var source: Int
    var from: Int
    var pointerY: Double
}

/// What a list showed this frame.
public struct ListInfo {
    /// Global indices of the rows drawn.
    public var visibleRows: Range<Int>
    /// How many rows the list has.
    public var rowCount: Int
    /// How far the list is scrolled.
    public var scrollOffset: Double
    /// The rectangle the rows scroll in.
    public var bodyRect: Rect
    /// The rows drawn, by ID, each with its rectangle within `bodyRect`: where to put a
    /// `dropDestination` for a row, or a popover.
    public var rowFrames: [ListRowFrame] = []

    /// Where the row of `id` was drawn this frame (nil: scrolled away or collapsed).
    ///
    /// ```swift
    /// if let rect = info.rect(ofRow: SidebarItem.folder(path)) { ui.dropDestination(for: Int.self, in: rect) { … } }
    /// ```
    public func rect<ID: Hashable>(ofRow id: ID) -> Rect? {
        let key = AnyHashable(id)
        return rowFrames.first { $0.id == key }?.rect
    }
}

/// A row a list drew: its ID and where it is (`ListInfo.rowFrames`).
public struct ListRowFrame {
    /// The row's ID, as `forEach` or `outlineGroup` gave it.
    public var id: AnyHashable
    /// Where it was drawn, logical pixels, clipped to the list.
    public var rect: Rect
}

extension UI {
    /// A virtualized list (SwiftUI's `List`) whose content registers rows with `forEach`,
    /// `outlineGroup` and `section`. Only visible rows are drawn, so a list of 110,000
    /// outline rows scrolls like one of 100. Selection by ID as in `table`: click, ctrl,
    /// shift, arrows (Left/Right collapse and expand outline rows), touch tap, and a context
    /// menu for the selection. Rows swipe left to reveal their `swipeActions`; in `editMode`
    /// rows of a `forEach` with `onMove` show a reorder handle.
    ///
    /// ```swift
    /// ui.list("sidebar", selection: Binding(self, \.selection), style: .sidebar) {
    ///     ui.section("Library") { ui.forEach(places) { ListRowContent($0.name, icon: .photo) } }
    ///     ui.section("Canvases") { ui.outlineGroup(canvases, children: \.children) { ListRowContent($0.name) } }
    /// }
    /// ```
    @discardableResult
    public func list<ID: Hashable>(
        _ name: String, selection: Binding<Set<ID>>?, style: ListStyle = .plain,
        rowHeight: Double? = nil, editMode: Bool = false,
        contextMenu: ((Set<ID>) -> Void)? = nil, _ content: () -> Void
    ) -> ListInfo {
        let bridge = selection.map { typedSelectionBridge(name, $0) }
        return listBody(
            name, mode: selection == nil ? .none : .multiple, selection: bridge, style: style, rowHeight: rowHeight,
            editMode: editMode,
            contextMenu: contextMenu.map { menu in { ids in menu(Set(ids.compactMap { $0.base as? ID })) } },
            content)
    }

    /// A list with single selection (`ID?`).
    @discardableResult
    public func list<ID: Hashable>(
        _ name: String, selection: Binding<ID?>, style: ListStyle = .plain, rowHeight: Double? = nil,
        contextMenu: ((Set<ID>) -> Void)? = nil, _ content: () -> Void
    ) -> ListInfo {
        let asSet = Binding<Set<ID>>(
            get: { selection.wrappedValue.map { [$0] } ?? [] }, set: { selection.wrappedValue = $0.first })
        let bridge = typedSelectionBridge(name, asSet)
        return listBody(
            name, mode: .single, selection: bridge, style: style, rowHeight: rowHeight, editMode: false,
            contextMenu: contextMenu.map { menu in { ids in menu(Set(ids.compactMap { $0.base as? ID })) } }, content)
    }

    /// A list without selection.
    @discardableResult
    public func list(
        _ name: String, style: ListStyle = .plain, rowHeight: Double? = nil, editMode: Bool = false,
        _ content: () -> Void
    ) -> ListInfo {
        listBody(
            name, mode: .none, selection: nil, style: style, rowHeight: rowHeight, editMode: editMode, contextMenu: nil,
            content)
    }

    /// A flat list of `items`, each row a content configuration.
    ///
    /// ```swift
    /// ui.list("files", files, selection: Binding(self, \.picked)) { ListRowContent($0.name, icon: .photo) }
    /// ```
    @inlinable @discardableResult
    public func list<Items: RandomAccessCollection>(
        _ name: String, _ items: Items, selection: Binding<Set<Items.Element.ID>>?, style: ListStyle = .plain,
        swipeActions: ((Items.Element) -> [SwipeAction])? = nil, contextMenu: ((Set<Items.Element.ID>) -> Void)? = nil,
        row: @escaping (Items.Element) -> ListRowContent
    ) -> ListInfo where Items.Element: Identifiable, Items.Index == Int {
        list(name, selection: selection, style: style, contextMenu: contextMenu) {
            forEach(items, swipeActions: swipeActions, row: row)
        }
    }

    /// A flat list of `items` whose rows are any widgets.
    ///
    /// ```swift
    /// ui.list("people", people, selection: Binding(self, \.picked)) { ui, person in
    ///     ui.hstack { ui.text(person.name); ui.spacer(); ui.button("Call") { call(person) } }
    /// }
    /// ```
    @inlinable @discardableResult
    public func list<Items: RandomAccessCollection>(
        _ name: String, _ items: Items, selection: Binding<Set<Items.Element.ID>>?, style: ListStyle = .plain,
        contextMenu: ((Set<Items.Element.ID>) -> Void)? = nil, rowContent: @escaping (UI, Items.Element) -> Void
    ) -> ListInfo where Items.Element: Identifiable, Items.Index == Int {
        list(name, selection: selection, style: style, contextMenu: contextMenu) {
            forEach(items, rowContent: rowContent)
        }
    }

    /// A hierarchical list (SwiftUI's `List(_:children:selection:)`): disclosure chevrons,
    /// indentation, children read only when their parent is expanded.
    ///
    /// ```swift
    /// ui.list("files", roots, children: \.children, selection: Binding(self, \.picked)) { ListRowContent($0.name, icon: .folder) }
    /// ```
    @inlinable @discardableResult
    public func list<Node: Identifiable>(
        _ name: String, _ roots: [Node], children: KeyPath<Node, [Node]?>, selection: Binding<Set<Node.ID>>?,
        expanded: Binding<Set<Node.ID>>? = nil, style: ListStyle = .plain, contextMenu: ((Set<Node.ID>) -> Void)? = nil,
        row: @escaping (Node) -> ListRowContent
    ) -> ListInfo {
        list(name, selection: selection, style: style, contextMenu: contextMenu) {
            outlineGroup(roots, children: children, expanded: expanded, row: row)
        }
    }

    /// Rows for each of `items` inside a `list`; `onMove(from, to)` enables reordering by
    /// the handle in edit mode (`to` is the index the row ends up at), `onDelete` a delete
    /// button at each row's leading edge in edit mode (SwiftUI's `onDelete(perform:)`: the
    /// offsets of the rows to remove). `swipeActions` show when a row is swiped left,
    /// `leadingSwipeActions` when it is swiped right.
    ///
    /// ```swift
    /// ui.forEach(tasks, onMove: { tasks.move(from: $0, to: $1) }, onDelete: { for i in $0.reversed() { tasks.remove(at: i) } }) { ListRowContent($0.title) }
    /// ui.forEach(mail, leadingSwipeActions: { [SwipeAction("Read") { markRead($0) }] }) { ListRowContent($0.subject) }
    /// ```
    @inlinable
    public func forEach<Items: RandomAccessCollection>(
        _ items: Items, swipeActions: ((Items.Element) -> [SwipeAction])? = nil,
        leadingSwipeActions: ((Items.Element) -> [SwipeAction])? = nil, onMove: ((Int, Int) -> Void)? = nil,
        onDelete: ((IndexSet) -> Void)? = nil, row: @escaping (Items.Element) -> ListRowContent
    ) where Items.Element: Identifiable, Items.Index == Int {
        let base = items.startIndex
        registerRows(
            ListRowSource(
                count: { items.count }, id: { AnyHashable(items[base + $0].id) },
                body: { .content(row(items[base + $0])) },
                swipeActions: swipeActions.map { actions in { actions(items[base + $0]) } },
                leadingSwipeActions: leadingSwipeActions.map { actions in { actions(items[base + $0]) } }, move: onMove,
                delete: onDelete.map { delete in { delete(IndexSet(integer: $0)) } }))
    }

    /// Rows of any widgets for each of `items` inside a `list`.
    @inlinable
    public func forEach<Items: RandomAccessCollection>(
        _ items: Items, swipeActions: ((Items.Element) -> [SwipeAction])? = nil,
        leadingSwipeActions: ((Items.Element) -> [SwipeAction])? = nil, onMove: ((Int, Int) -> Void)? = nil,
        onDelete: ((IndexSet) -> Void)? = nil, rowContent: @escaping (UI, Items.Element) -> Void
    ) where Items.Element: Identifiable, Items.Index == Int {
        let base = items.startIndex
        registerRows(
            ListRowSource(
                count: { items.count }, id: { AnyHashable(items[base + $0].id) },
                body: { i in .widgets { rowContent(self, items[base + i]) } },
                swipeActions: swipeActions.map { actions in { actions(items[base + $0]) } },
                leadingSwipeActions: leadingSwipeActions.map { actions in { actions(items[base + $0]) } }, move: onMove,
                delete: onDelete.map { delete in { delete(IndexSet(integer: $0)) } }))
    }

    /// Expands every outline in the list `name` on its next frame, level by level: at most
    /// 100,000 nodes are read, so a huge tree opens its upper levels rather than hanging.
    public func expandAllOutlines(inList name: String) {
        stateBox(WidgetID(parent: id(name), "memo"), ListMemo()).value.command = .expandAll
    }
    /// Collapses every outline in the list `name` on its next frame.
    public func collapseAllOutlines(inList name: String) {
        stateBox(WidgetID(parent: id(name), "memo"), ListMemo()).value.command = .collapseAll
    }

    /// Scrolls the list `name` so its top is `offset` points down.
    public func scrollList(_ name: String, toOffset offset: Double) {
        withID(id(name)) { scrollTo("body", offset: Point(0, offset)) }
    }

    /// Scrolls list `name` (in the current ID scope) to the row whose ID is `id` when it is
    /// next built (a row shown: not inside a collapsed section or outline), as SwiftUI's
    /// `ScrollViewReader.scrollTo(_:anchor:)`; found by a scan of the rows shown.
    ///
    /// ```swift
    /// ui.scrollList("messages", toRow: unread.id, anchor: .center)
    /// ```
    public func scrollList(_ name: String, toRow id: some Hashable, anchor: ScrollAnchor? = nil) {
        pendingRowScrolls[self.id(name)] = (AnyHashable(id), anchor)
    }

    /// Adds a row source to the list being built; outside a list, shows it in a list of its own.
    @usableFromInline
    func registerRows(_ source: ListRowSource) {
        if let collector = listStack.last {
            collector.sources.append(source)
        } else {
            list("rows\(idStack.count)") { registerRows(source) }
        }
    }

    /// The command (expand or collapse all) the enclosing list carries this frame.
    @usableFromInline
    var pendingOutlineCommand: OutlineCommand? { listStack.last?.command }

    /// Keeps a typed selection and the list's `AnyHashable` one in step, converting only when
    /// either side changes (not every frame).
    private func typedSelectionBridge<ID: Hashable>(_ name: String, _ typed: Binding<Set<ID>>) -> Binding<
        Set<AnyHashable>
    > {
        let box = stateBox(WidgetID(parent: id(name), "typedSelection"), (typed: Set<ID>(), erased: Set<AnyHashable>()))
        let current = typed.wrappedValue
        if current != box.value.typed { box.value = (current, Set(current.map { AnyHashable($0) })) }
        return Binding(
            get: { box.value.erased },
            set: { erased in
                let newTyped = Set(erased.compactMap { $0.base as? ID })
                box.value = (newTyped, erased)
                typed.wrappedValue = newTyped
            })
    }

    /// The row `scrollList(_:toRow:anchor:)` asked for, scrolled to.
    private func applyListScrollRequest(
        _ lid: WidgetID, layout: ListLayout, collector: ListCollector, viewport: Double, offset: Double
    ) {
        guard let request = pendingRowScrolls.removeValue(forKey: lid),
            let row = layout.row(withID: request.id, in: collector)
        else { return }
        let slot = layout.geometry.slot(ofRow: row)
        let target = ScrollAnchor.offset(
            showing: layout.geometry.slotOffset(slot), length: layout.geometry.slotHeight(slot),
            viewport: viewport, current: offset, anchor: request.anchor)
        scrollTo("body", offset: Point(0, target))
    }

    /// After the rows: a screen reader's expand and collapse requests, the scroll a dragged row
    /// or rows measured anew asked for, and the context menu.
    private func finishListFrame(_ r: Interaction, memo: StateBox<ListMemo>, contextMenu: ((Set<AnyHashable>) -> Void)?)
    {
        for toggle in listAccessibilityToggles { toggle() }
        listAccessibilityToggles.removeAll()
        if memo.value.scrollCorrection != 0 {
            // A dragged row held near an edge scrolls the list, frame after frame; rows
            // above the top measured anew move it with them.
            scrollTo("body", offset: Point(0, max(0, scrollOffset("body").y + memo.value.scrollCorrection)))
            memo.value.scrollCorrection = 0
            requestRedraw()
        }
        if r.secondaryClicked && contextMenu != nil { openPopup("menu") }
        if let contextMenu {
            let ids = memo.value.menuIDs
            popup("menu") { contextMenu(ids) }
        }
    }

    /// The implementation behind every `list`.
    private func listBody(
        _ name: String, mode: SelectionMode, selection: Binding<Set<AnyHashable>>?, style: ListStyle,
        rowHeight: Double?, editMode: Bool, contextMenu: ((Set<AnyHashable>) -> Void)?,
        _ content: () -> Void
    ) -> ListInfo {
        return widget("list", name) { lid, rect in
            let memo = stateBox(WidgetID(parent: lid, "memo"), ListMemo())
            noteLandmark(.list, name, rect)
            let selectionBinding = selection.map { SelectionBinding.set($0) }
            selectionBinding?.read(into: &memo.value.selection)
            let selectionAsRead = memo.value.selection.selected
            let rowH = rowHeight ?? (style == .sidebar ? theme.rowHeight + 4 : theme.rowHeight)
            var info = ListInfo(visibleRows: 0..<0, rowCount: 0, scrollOffset: 0, bodyRect: rect)

            let collector = ListCollector(command: memo.value.command)
            memo.value.command = nil
            listStack.append(collector)
            withID(lid) { content() }
            listStack.removeLast()

            drawList.pushClip(rect)
            if style == .sidebar { drawList.addRect(rect, color: theme.control.opacity(0.35)) }
            withID(lid) {
                var layout = ListLayout(
                    collector: collector, collapsed: memo.value.collapsedSections, rowHeight: rowH,
                    extents: memo.value.extents)
                let bodyID = id("body.input")
                let focused = focusID == bodyID
                let r = interact(bodyID, rect: rect, sense: [.click, .focus])
                let offset = scrollOffset("body").y
                let ctx = ListRowContext(
                    collector: collector, rect: rect, rowHeight: rowH, style: style, editMode: editMode)
                // Input first: it may expand or collapse rows, which changes the layout drawn below.
                if handleListPointer(r, ctx: ctx, layout: layout, offset: offset, memo: memo, mode: mode) {
                    layout = ListLayout(
                        collector: collector, collapsed: memo.value.collapsedSections, rowHeight: rowH,
                        extents: memo.value.extents)
                }
                if focused && !hasOpenPopup
                    && handleListKeys(ctx: ctx, layout: layout, offset: offset, memo: memo, mode: mode)
                {
                    layout = ListLayout(
                        collector: collector, collapsed: memo.value.collapsedSections, rowHeight: rowH,
                        extents: memo.value.extents)
                }
                trackSwipe(ctx: ctx, layout: layout, offset: offset, memo: memo)
                applyListScrollRequest(lid, layout: layout, collector: collector, viewport: rect.height, offset: offset)
                info.rowCount = layout.rowCount
                if memo.value.selection.selected.refersToRows {
                    // Ranges follow their rows when rows expand, collapse or move.
                    memo.value.selection.selected.follow(RowOrder(count: layout.rowCount, idAt: ctx.idAt(layout)))
                }
                let isTree = collector.sources.contains { $0.isHierarchical }
                let listed = openAccessibilityContainer(
                    bodyID, role: isTree ? .tree : .list, name: name, frame: rect,
                    states: controlStates(
                        mode == .multiple ? [.managesDescendants, .multiselectable] : .managesDescendants),
                    collection: AccessibilityCollection(rows: layout.rowCount))
                virtualScrollView("body", contentSize: Size(rect.width, layout.geometry.contentHeight), viewport: rect)
                { scroll in
                    info.scrollOffset = scroll.offset.y
                    info.visibleRows = drawListRows(
                        ctx: ctx, layout: layout, offset: scroll.offset.y, hovered: r.isHovered,
                        focused: focused, memo: memo, mode: mode, frames: &info.rowFrames)
                }
                if listed { closeAccessibilityContainer() }
                finishListFrame(r, memo: memo, contextMenu: contextMenu)
            }
            drawList.popClip()
            selectionBinding?.write(&memo.value.selection, readAs: selectionAsRead)
            return info
        }
    }
}
