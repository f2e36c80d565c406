import Render2D
import Imaging
import Profiling

/// A list's fixed facts for one frame, shared by its input and drawing code.
struct ListRowContext {
    let collector: ListCollector
    let rect: Rect
    let rowHeight: Double
    let style: ListStyle
    let editMode: Bool

    static let indent = 16.0
    static let swipeActionWidth = 76.0
    /// How much of the row's width a swipe must cross to perform the first action on release.
    static let fullSwipeFraction = 0.55

    func slotY(_ slot: Int, offset: Double, layout: ListLayout) -> Double {
        rect.y + layout.geometry.slotOffset(slot) - offset
    }

    /// The slot under screen `y` (nil outside the rows).
    func slot(atY y: Double, offset: Double, layout: ListLayout) -> Int? {
        layout.geometry.slot(atContentY: y - rect.y + offset)
    }

    /// The global row under screen `y` (nil on headers and empty space).
    func row(atY y: Double, offset: Double, layout: ListLayout) -> Int? {
        layout.geometry.row(atContentY: y - rect.y + offset)
    }

    /// Where a row at `depth` starts its content (after the indentation).
    func leading(depth: Int) -> Double { rect.x + (style == .sidebar ? 14 : 10) + Double(depth) * Self.indent }

    func chevronRect(depth: Int, rowY: Double) -> Rect {
        Rect(x: leading(depth: depth), y: rowY + (rowHeight - 12) / 2, width: 12, height: 12)
    }

    /// The red delete button at the leading edge of a deletable row in edit mode.
    func deleteRect(rowY: Double) -> Rect { Rect(x: rect.x + 8, y: rowY + (rowHeight - 20) / 2, width: 20, height: 20) }
    /// How far a row's content moves aside for its delete button.
    static let deleteWidth = 30.0

    func handleRect(rowY: Double) -> Rect { Rect(x: rect.maxX - 40, y: rowY, width: 30, height: rowHeight) }

    func idAt(_ layout: ListLayout) -> (Int) -> AnyHashable {
        { row in
            let (s, local) = layout.locate(row)
            return collector.sources[s].id(local)
        }
    }
}

extension UI {
    /// Clicks on rows, chevrons and section headers. Returns true when rows expanded or collapsed.
    func handleListPointer(
        _ r: Interaction, ctx: ListRowContext, layout: ListLayout, offset: Double, memo: StateBox<ListMemo>,
        mode: SelectionMode
    ) -> Bool {
        let p = input.pointer
        var changed = false
        let rows = RowOrder(count: layout.rowCount, idAt: ctx.idAt(layout))
        if r.clicked {
            if let slot = ctx.slot(atY: p.pressPosition.y, offset: offset, layout: layout) {
                switch layout.geometry.slot(slot) {
                case .header(let section):
                    if ctx.style == .sidebar {
                        let sectionID = ctx.collector.sections[section].id
                        if memo.value.collapsedSections.remove(sectionID) == nil {
                            memo.value.collapsedSections.insert(sectionID)
                        }
                        changed = true
                    }
                case .row(let row):
                    let (s, local) = layout.locate(row)
                    let source = ctx.collector.sources[s]
                    let disclosure = source.disclosure(local)
                    let chevron = ctx.chevronRect(
                        depth: source.depth(local), rowY: ctx.slotY(slot, offset: offset, layout: layout)
                    )
                    .offsetBy(dx: ctx.editMode && source.delete != nil ? ListRowContext.deleteWidth : 0, dy: 0)
                    let recursive = input.modifiers.contains(.alt)
                    let rowY = ctx.slotY(slot, offset: offset, layout: layout)
                    if ctx.editMode, let delete = source.delete,
                        ctx.deleteRect(rowY: rowY).insetBy(dx: -4, dy: -4).contains(p.pressPosition)
                    {
                        delete(local)
                        changed = true
                    } else if disclosure != .none && chevron.insetBy(dx: -5, dy: -5).contains(p.pressPosition) {
                        source.setExpanded(local, disclosure == .collapsed, recursive)
                        changed = true
                    } else {
                        // In edit mode a tap adds or removes a row, as a Ctrl+click does.
                        let modifiers =
                            ctx.editMode && mode == .multiple ? input.modifiers.union(.command) : input.modifiers
                        memo.value.selection.click(index: row, modifiers: modifiers, mode: mode, rows: rows)
                        if r.doubleClicked && disclosure != .none {
                            source.setExpanded(local, disclosure == .collapsed, recursive)
                            changed = true
                        }
                    }
                }
            } else if input.modifiers.isEmpty {
                memo.value.selection.selected.removeAll()
            }
        }
        if r.secondaryClicked {
            let row = ctx.row(atY: p.position.y, offset: offset, layout: layout)
            memo.value.menuIDs = Set(memo.value.selection.contextMenuTarget(index: row, mode: mode, rows: rows))
        }
        return changed
    }

    /// Arrow keys, Page Up/Down, Home/End and ctrl-A; Left/Right follow the outline rules.
    /// Returns true when rows expanded or collapsed.
    func handleListKeys(
        ctx: ListRowContext, layout: ListLayout, offset: Double, memo: StateBox<ListMemo>, mode: SelectionMode
    ) -> Bool {
        let rows = RowOrder(count: layout.rowCount, idAt: ctx.idAt(layout))
        for press in input.keys {
            if press.key == .left || press.key == .right {
                let selection = memo.value.selection
                guard let current = selection.locate(selection.cursor, hint: selection.cursorHint, rows: rows) else {
                    continue
                }
                let (s, local) = layout.locate(current)
                let source = ctx.collector.sources[s]
                let disclosure = source.disclosure(local)
                let action = OutlineArrowAction.forKey(
                    right: press.key == .right, index: local, isBranch: disclosure != .none,
                    isExpanded: disclosure == .expanded, rowCount: layout.counts[s],
                    parent: { source.parent(local) })
                switch action {
                case .expand, .collapse:
                    source.setExpanded(local, action == .expand, press.modifiers.contains(.alt))
                    return true  // the rows moved: later keys wait for the next frame's layout
                case .select(let target):
                    let row = layout.starts[s] + target
                    memo.value.selection.click(index: row, modifiers: [], mode: mode, rows: rows)
                    scrollListRowIntoView(row, ctx: ctx, layout: layout, offset: offset)
                case .none: break
                }
            } else if let target = memo.value.selection.key(
                press.key, modifiers: press.modifiers, mode: mode,
                pageSize: Int(ctx.rect.height / ctx.rowHeight), rows: rows)
            {
                scrollListRowIntoView(target, ctx: ctx, layout: layout, offset: offset)
            }
        }
        return false
    }

    private func scrollListRowIntoView(_ row: Int, ctx: ListRowContext, layout: ListLayout, offset: Double) {
        let slot = layout.geometry.slot(ofRow: row)
        let top = layout.geometry.slotOffset(slot), height = layout.geometry.slotHeight(slot)
        if top < offset {
            scrollTo("body", offset: Point(0, top))
        } else if top + height > offset + ctx.rect.height {
            scrollTo("body", offset: Point(0, top + height - ctx.rect.height))
        }
    }

    /// Swipe to reveal a row's trailing actions: a horizontal mouse or touch drag that starts
    /// on a row with actions opens them past half their width; a press elsewhere closes them.
    func trackSwipe(ctx: ListRowContext, layout: ListLayout, offset: Double, memo: StateBox<ListMemo>) {
        let p = input.pointer
        let swipeID = id("swipe")
        if var swipe = memo.value.swipe {
            let width = swipe.actionsRect.width
            if swipe.isDragging {
                if activeID == swipeID && p.isDown {
                    let moved = swipe.isLeading ? p.position.x - p.pressPosition.x : p.pressPosition.x - p.position.x
                    swipe.offset = min(max(0, swipe.dragStartOffset + moved), ctx.rect.width)
                    swipe.isArmed = swipe.offset > ctx.rect.width * ListRowContext.fullSwipeFraction
                } else {
                    swipe.isDragging = false
                    swipe.isOpen = !swipe.isArmed && swipe.offset > swipe.revealWidth * 0.5
                    if activeID == swipeID { activeID = nil }
                    if swipe.isArmed, swipe.source < ctx.collector.sources.count {
                        // A full swipe: the first action, then the row closes.
                        let source = ctx.collector.sources[swipe.source]
                        if swipe.local < source.count(), source.id(swipe.local) == swipe.rowID {
                            (swipe.isLeading ? source.leadingSwipeActions : source.swipeActions)?(swipe.local).first?
                                .action()
                        }
                        swipe.isArmed = false
                    }
                }
            } else {
                if p.pressed && swipe.isOpen && !(width > 0 && swipe.actionsRect.contains(p.position)) {
                    swipe.isOpen = false
                }
                let target = swipe.isOpen ? swipe.revealWidth : 0
                swipe.offset += (target - swipe.offset) * min(1, deltaTime * 18)
                if abs(target - swipe.offset) < 0.5 { swipe.offset = target } else { requestRedraw() }
            }
            memo.value.swipe = !swipe.isOpen && !swipe.isDragging && swipe.offset == 0 ? nil : swipe
        }
        // Start: a mostly horizontal drag from a row whose source has actions.
        let dx = p.position.x - p.pressPosition.x, dy = p.position.y - p.pressPosition.y
        guard memo.value.swipe?.isDragging != true, memo.value.reorder == nil, p.isDown, p.isDragging,
            ctx.rect.contains(p.pressPosition), activeID == nil || activeID == id("body.input"),
            abs(dx) > abs(dy) * 1.5,
            let row = ctx.row(atY: p.pressPosition.y, offset: offset, layout: layout)
        else { return }
        let (s, local) = layout.locate(row)
        let source = ctx.collector.sources[s]
        let rowID = source.id(local)
        let open = memo.value.swipe
        // Swiped right: the leading actions; but a row already open moves its own side (back to closed).
        let leading = open.map { $0.rowID == rowID && $0.offset > 0 ? $0.isLeading : dx > 0 } ?? (dx > 0)
        guard let actions = (leading ? source.leadingSwipeActions : source.swipeActions)?(local), !actions.isEmpty
        else { return }
        let existing = open?.rowID == rowID && open?.isLeading == leading ? open?.offset ?? 0 : 0
        memo.value.swipe = SwipeState(
            rowID: rowID, offset: existing, dragStartOffset: existing, isDragging: true, isOpen: false,
            revealWidth: Double(actions.count) * ListRowContext.swipeActionWidth, source: s, local: local,
            isLeading: leading)
        activeID = swipeID
    }

    /// Draws the visible rows (and section headers); returns the global rows drawn.
    func drawListRows(
        ctx: ListRowContext, layout: ListLayout, offset: Double, hovered: Bool, focused: Bool,
        memo: StateBox<ListMemo>, mode: SelectionMode, frames: inout [ListRowFrame]
    ) -> Range<Int> {
        let slots = layout.geometry.visibleSlots(offset: offset, height: ctx.rect.height)
        let hoveredRow = hovered ? ctx.row(atY: input.pointer.position.y, offset: offset, layout: layout) : nil
        let selected = memo.value.selection.selected
        let swipe = memo.value.swipe
        let reorder = memo.value.reorder
        var first = Int.max, last = -1
        var measured: [(slot: Int, height: Double)] = []
        // Rows inserted under a `withAnimation` fade and slide in (rows new since the last frame
        // while the count grew); the rows shown are noted for the next frame.
        // (Last frame's rows are kept as a list, hashed into a set only when rows were inserted:
        // a row costs an append a frame, not a hash.)
        let inserting =
            memo.value.lastRowCount >= 0 && layout.rowCount > memo.value.lastRowCount && !reducesMotion
            ? currentTransaction : nil
        let shownBefore: Set<AnyHashable> = inserting == nil ? [] : Set(memo.value.shownRowIDs)
        memo.value.shownRowIDs.removeAll(keepingCapacity: true)
        for slot in slots {
            let rowRect = Rect(
                x: ctx.rect.x, y: ctx.slotY(slot, offset: offset, layout: layout), width: ctx.rect.width,
                height: layout.geometry.slotHeight(slot))
            guard case .row(let row) = layout.geometry.slot(slot) else {
                if ctx.style == .sidebar, case .header(let section) = layout.geometry.slot(slot) {
                    drawSidebarHeader(
                        ctx.collector.sections[section].title, rect: rowRect,
                        collapsed: memo.value.collapsedSections.contains(ctx.collector.sections[section].id))
                }
                continue
            }
            first = min(first, row)
            last = max(last, row)
            let (s, local) = layout.locate(row)
            let source = ctx.collector.sources[s]
            let rowID = source.id(local)
            frames.append(ListRowFrame(id: rowID, rect: rowRect.intersection(ctx.rect)))
            if let reorder, reorder.source == s, reorder.from == local {
                drawList.addRect(rowRect, color: theme.control.opacity(0.5))  // the gap the dragged row left
                continue
            }
            let isSelected = !selected.isEmpty && selected.contains(row: row, id: rowID)
            let swiped = swipe.flatMap { $0.rowID == rowID && $0.offset > 0 ? $0 : nil }
            let contentRect =
                swiped.map { openSwipedRow($0, rowRect: rowRect, source: source, local: local, memo: memo) } ?? rowRect
            memo.value.shownRowIDs.append(rowID)
            if let inserting, !shownBefore.isEmpty, !shownBefore.contains(rowID) {
                memo.value.arriving[rowID] = (time - 1.0 / 60, inserting)
            }
            let height = drawListRow(
                source, local: local, id: rowID, row: row, rowRect: rowRect, contentRect: contentRect,
                selected: isSelected,
                hovered: row == hoveredRow, focused: focused, ctx: ctx, layout: layout, memo: memo, mode: mode)
            if height != rowRect.height { measured.append((slot, height)) }
            if swiped != nil { drawList.popClip() }
            if ctx.editMode && source.move != nil {
                reorderHandle(ctx: ctx, rowRect: rowRect, source: s, local: local, memo: memo)
            }
        }
        if ctx.style == .plain && !ctx.collector.sections.isEmpty && !slots.isEmpty {
            drawSectionHeaders(
                slots, geometry: layout.geometry, titles: ctx.collector.sections.map(\.title), body: ctx.rect,
                offset: offset)
        }
        if reorder != nil { trackReorder(ctx: ctx, layout: layout, offset: offset, memo: memo) }
        if !measured.isEmpty { recordRowHeights(measured, layout: layout, offset: offset, memo: memo) }
        memo.value.lastRowCount = layout.rowCount
        if !memo.value.arriving.isEmpty {
            let shown = Set(memo.value.shownRowIDs)
            memo.value.arriving = memo.value.arriving.filter { shown.contains($0.key) }
        }
        return last >= first ? first..<(last + 1) : 0..<0
    }

    /// One row (`rowID`, the `local`-th of `source`): its background, its content (reported to
    /// a screen reader while one listens), and its arrival animation. Returns the height its
    /// content took.
    private func drawListRow(
        _ source: ListRowSource, local: Int, id rowID: AnyHashable, row: Int, rowRect: Rect, contentRect: Rect,
        selected: Bool, hovered: Bool, focused: Bool, ctx: ListRowContext, layout: ListLayout,
        memo: StateBox<ListMemo>, mode: SelectionMode
    ) -> Double {
        let rowMark = drawList.mark
        drawRowBackground(contentRect, selected: selected, hovered: hovered, focused: focused, style: ctx.style)
        let body = source.body(local)  // built once: the app's row closure runs once a frame
        let item =
            isAccessibilityEnabled
            ? openAccessibilityRow(
                source, local: local, body: body, row: row, rect: rowRect, selected: selected,
                focused: focused && memo.value.selection.cursor == rowID, memo: memo, mode: mode, layout: layout,
                ctx: ctx)
            : nil
        let height = drawRow(
            source, local: local, body: body, in: contentRect, ctx: ctx, selected: selected,
            highlighted: selected && focused)
        if let item { closeAccessibilityRow(item) }
        if !memo.value.arriving.isEmpty { animateArrival(of: rowID, drawnSince: rowMark, memo: memo) }
        return height
    }

    /// A row swiped open: its actions drawn in the space revealed, and its content moved
    /// aside and clipped (until `popClip` after the row). Returns where the content goes.
    private func openSwipedRow(
        _ swipe: SwipeState, rowRect: Rect, source: ListRowSource, local: Int, memo: StateBox<ListMemo>
    ) -> Rect {
        let actions = (swipe.isLeading ? source.leadingSwipeActions : source.swipeActions)?(local) ?? []
        drawSwipeActions(
            swipe.isArmed ? Array(actions.prefix(1)) : actions, row: rowRect, revealed: swipe.offset,
            leading: swipe.isLeading, memo: memo)
        var contentRect = rowRect
        contentRect.x += swipe.isLeading ? swipe.offset : -swipe.offset
        drawList.pushClip(
            Rect(
                x: rowRect.x + (swipe.isLeading ? swipe.offset : 0), y: rowRect.y,
                width: max(0, rowRect.width - swipe.offset), height: rowRect.height))
        return contentRect
    }

    /// A row inserted under a `withAnimation`: what it drew since `mark` fades and slides in,
    /// until its animation is done.
    private func animateArrival(of rowID: AnyHashable, drawnSince mark: DrawList.Mark, memo: StateBox<ListMemo>) {
        guard let arrival = memo.value.arriving[rowID] else { return }
        if arrival.animation.isFinished(at: time - arrival.start) {
            memo.value.arriving[rowID] = nil
            return
        }
        let shown = min(1, max(0, arrival.animation.progress(at: time - arrival.start)))
        drawList.transform(since: mark, offset: Point(-24 * (1 - shown), 0), scale: 1, about: .zero)
        drawList.fade(since: mark, opacity: shown)
        requestRedraw()
    }

    /// Rows whose content measured another height than their slot: the slots take it (from
    /// the next frame), and a change above the top row scrolls with it, so what is on screen
    /// stays put, as in `lazyVStack`.
    private func recordRowHeights(
        _ measured: [(slot: Int, height: Double)], layout: ListLayout, offset: Double,
        memo: StateBox<ListMemo>
    ) {
        let geometry = layout.geometry
        var extents = geometry.extents ?? ItemExtents(count: geometry.slotCount, estimate: geometry.rowHeight)
        let top = geometry.slot(atContentY: max(0, offset)) ?? 0
        let topStart = extents.offset(of: top)
        for (slot, height) in measured { extents.setLength(height, of: slot) }
        memo.value.extents = extents
        memo.value.scrollCorrection += extents.offset(of: top) - topStart
        requestRedraw()
    }

    /// A row's picture, cropped to cover its square; a gray square while a file's loads.
    private func drawRowImage(_ image: ListRowImage, in frame: Rect) {
        switch image {
        case .bitmap(let bitmap):
            guard let texture = bitmapTextures.texture(for: bitmap, filter: .linear, frame: frameIndex) else { return }
            let placed = ImageFraming.placement(
                imageWidth: bitmap.width, imageHeight: bitmap.height, in: frame, mode: .fill)
            drawList.addImage(texture, in: placed.rect, uv: placed.uv)
        case .file(let path):
            let spec = ImageFraming.thumbnailSpec(for: frame.size, scale: scale, mode: .fill)
            if case .ready(let texture, let width, let height) = images?.thumbnail(for: path, spec: spec, priority: 0) {
                let placed = ImageFraming.placement(imageWidth: width, imageHeight: height, in: frame, mode: .fill)
                drawList.addImage(texture, in: placed.rect, uv: placed.uv)
            } else {
                drawList.addRoundedRect(frame, radius: 3, color: theme.control)
            }
        }
    }

    private func drawRowBackground(_ rect: Rect, selected: Bool, hovered: Bool, focused: Bool, style: ListStyle) {
        let color: Color? =
            selected ? (focused ? theme.accent : theme.controlPressed) : hovered ? theme.selection.opacity(0.45) : nil
        if style == .sidebar {
            if let color { drawList.addRoundedRect(rect.insetBy(dx: 6, dy: 1), radius: 6, color: color) }
        } else {
            drawList.addRect(rect, color: color ?? theme.surface)
        }
    }

    /// Indentation, chevron and content (a configuration or widgets) of one row.
    /// `highlighted`: drawn on the accent color (selected in a focused list).
    /// Returns the row's height: a widget row's measured content, at least the list's row height.
    @discardableResult
    private func drawRow(
        _ source: ListRowSource, local: Int, body: ListRowBody, in rect: Rect, ctx: ListRowContext, selected: Bool,
        highlighted: Bool
    ) -> Double {
        let depth = source.depth(local)
        var x = ctx.leading(depth: depth)
        if ctx.editMode && source.delete != nil {
            let button = ctx.deleteRect(rowY: rect.y)
            drawList.addCircle(
                center: Point(button.midX, button.midY), radius: button.width / 2, color: theme.destructive)
            drawList.addRect(
                Rect(x: button.x + 5, y: button.midY - 1, width: button.width - 10, height: 2), color: .white)
            x += ListRowContext.deleteWidth
        }
        let secondaryColor = highlighted ? theme.onAccent.opacity(0.8) : theme.secondaryText
        if source.isHierarchical {
            let disclosure = source.disclosure(local)
            if disclosure != .none {
                let icon: Icon = disclosure == .expanded ? .chevronDown : .chevronRight
                drawIcon(
                    icon,
                    in: ctx.chevronRect(depth: depth, rowY: rect.y).offsetBy(dx: x - ctx.leading(depth: depth), dy: 0),
                    color: secondaryColor)
            }
            x += 18
        }
        let trailing = rect.maxX - 10 - (ctx.editMode && source.move != nil ? 34 : 0)
        if ctx.style == .plain && !selected {
            drawList.addRect(
                Rect(x: x, y: rect.maxY - 1, width: max(0, rect.maxX - x), height: 1),
                color: theme.separator.opacity(0.6))
        }
        switch body {
        case .widgets(let build):
            let cell = Rect(x: x, y: rect.y, width: max(0, trailing - x), height: rect.height)
            drawList.pushClip(cell)
            let size = withID(index: source.id(local).hashValue) {
                child(at: cell, axis: .vertical, spacing: theme.spacing, alignment: .start, build)
            }
            drawList.popClip()
            return max(ctx.rowHeight, size.height)
        case .content(let content):
            drawRowContent(content, in: rect, x: x, trailing: trailing, highlighted: highlighted, ctx: ctx)
            return ctx.rowHeight
        }
    }

    /// A `ListRowContent` row from `x` to `trailing`: its image or icon, its accessory (a
    /// checkmark, a disclosure chevron, a badge) and secondary text at the trailing end, its title.
    private func drawRowContent(
        _ content: ListRowContent, in rect: Rect, x leading: Double, trailing end: Double, highlighted: Bool,
        ctx: ListRowContext
    ) {
        let font = self.font
        var x = leading, trailing = end
        let secondaryColor = highlighted ? theme.onAccent.opacity(0.8) : theme.secondaryText
        if let image = content.image {
            let side = max(0, ctx.rowHeight - 4)
            drawRowImage(image, in: Rect(x: x, y: rect.y + (ctx.rowHeight - side) / 2, width: side, height: side))
            x += side + 6
        } else if let icon = content.icon {
            drawIcon(
                icon, in: Rect(x: x, y: rect.midY - 8, width: 16, height: 16),
                color: highlighted ? theme.onAccent : content.iconColor ?? theme.accent)
            x += 22
        }
        switch content.accessory {
        case .none: break
        case .checkmark:
            drawIcon(
                .checkmark, in: Rect(x: trailing - 14, y: rect.midY - 7, width: 14, height: 14),
                color: highlighted ? theme.onAccent : theme.accent)
            trailing -= 22
        case .disclosureIndicator:
            drawIcon(
                .chevronRight, in: Rect(x: trailing - 12, y: rect.midY - 6, width: 12, height: 12),
                color: secondaryColor)
            trailing -= 20
        case .badge(let count):
            let small = self.font(size: theme.fontSize - 3)
            let label = String(count)
            let width = small.measure(label) + 14
            let capsule = Rect(x: trailing - width, y: rect.midY - 9, width: width, height: 18)
            drawList.addRoundedRect(
                capsule, radius: 9, color: highlighted ? theme.onAccent.opacity(0.25) : theme.control)
            small.draw(label, in: capsule, alignment: .center, color: secondaryColor, into: &drawList)
            trailing -= width + 8
        }
        if let secondary = content.secondaryText {
            let width = min(font.measure(secondary), max(0, (trailing - x) * 0.45))
            font.draw(
                secondary, in: Rect(x: trailing - width, y: rect.y, width: width, height: rect.height),
                alignment: .trailing, color: secondaryColor, truncation: truncation, into: &drawList)
            trailing -= width + 10
        }
        font.draw(
            content.title, in: Rect(x: x, y: rect.y, width: max(0, trailing - x), height: ctx.rowHeight),
            color: highlighted ? theme.onAccent : theme.text, truncation: truncation, into: &drawList)
    }

    /// Reports a list row (a list item, or a tree item with its expansion) and makes it the
    /// parent of the widgets the row builds; carries out a screen reader's click on it (selects
    /// it). Returns the row's node.
    private func openAccessibilityRow(
        _ source: ListRowSource, local: Int, body: ListRowBody, row: Int, rect: Rect, selected: Bool, focused: Bool,
        memo: StateBox<ListMemo>, mode: SelectionMode, layout: ListLayout, ctx: ListRowContext
    ) -> Int? {
        let rowID = source.id(local)
        let nodeID = id("row \(rowID.hashValue)")
        if accessibilityActivated(nodeID) && mode != .none {
            memo.value.selection.click(
                index: row, modifiers: [], mode: mode, rows: RowOrder(count: layout.rowCount, idAt: ctx.idAt(layout)))
            requestRedraw()
        }
        let disclosure = source.isHierarchical ? source.disclosure(local) : .none
        if disclosure != .none && accessibilityToggledExpansion(nodeID) {
            // After the rows are drawn: the rows being drawn come from the outline as it is now.
            listAccessibilityToggles.append { source.setExpanded(local, disclosure == .collapsed, false) }
            requestRedraw()
        }
        var states: AccessibilityStates = [.enabled, .sensitive, .focusable]
        if mode != .none { states.insert(.selectable) }
        if selected { states.insert(.selected) }
        if focused { states.insert(.focused) }
        switch disclosure {
        case .none: break
        case .collapsed: states.formUnion([.expandable, .collapsed])
        case .expanded: states.formUnion([.expandable, .expanded])
        }
        var name = "", value = ""
        if case .content(let content) = body { (name, value) = (content.title, content.secondaryText ?? "") }
        guard
            let node = reportAccessibility(
                nodeID, role: source.isHierarchical ? .treeItem : .listItem, name: name, frame: rect,
                states: states, actions: disclosure == .none ? .click : [.click, .expandOrCollapse],
                value: value, range: nil, text: nil, collection: nil,
                cell: (row, 0))
        else { return nil }
        accessibility.parents.append(node)
        return node
    }

    /// Ends a row `openAccessibilityRow` began; a row of widgets is named after its first named one.
    private func closeAccessibilityRow(_ node: Int) {
        accessibility.parents.removeLast()
        nameAfterChildren(node)
    }

    private func drawSidebarHeader(_ title: String, rect: Rect, collapsed: Bool) {
        let bold = font(size: theme.fontSize - 2, weight: .bold)
        bold.draw(
            title, in: Rect(x: rect.x + 14, y: rect.y + 4, width: rect.width - 44, height: rect.height - 4),
            color: theme.secondaryText, truncation: truncation, into: &drawList)
        let icon: Icon = collapsed ? .chevronRight : .chevronDown
        drawIcon(icon, in: Rect(x: rect.maxX - 26, y: rect.midY - 5, width: 12, height: 12), color: theme.secondaryText)
    }

    /// The actions behind a swiped row, sharing the revealed width; a click runs one and closes the row.
    private func drawSwipeActions(
        _ actions: [SwipeAction], row: Rect, revealed: Double, leading: Bool, memo: StateBox<ListMemo>
    ) {
        guard !actions.isEmpty else { return }
        let area = Rect(x: leading ? row.x : row.maxX - revealed, y: row.y, width: revealed, height: row.height)
        memo.value.swipe?.actionsRect = area
        let width = revealed / Double(actions.count)
        let small = font(size: theme.fontSize - 2, weight: .bold)
        for (k, action) in actions.enumerated() {
            let cell = Rect(x: area.x + Double(k) * width, y: area.y, width: width, height: area.height)
            let tint =
                action.tint
                ?? (action.isDestructive ? theme.destructive : (k == 0 ? theme.accent : theme.secondaryText))
            drawList.addRect(cell, color: tint)
            let r = interact(id("swipe.action.\(k)"), rect: cell)
            if let icon = action.icon, cell.height >= 40 {
                drawIcon(icon, in: Rect(x: cell.midX - 8, y: cell.y + 4, width: 16, height: 16), color: .white)
            }
            drawList.pushClip(cell)
            small.draw(action.title, in: cell, alignment: .center, color: .white, into: &drawList)
            drawList.popClip()
            if r.clicked {
                action.action()
                memo.value.swipe?.isOpen = false
            }
        }
    }

    /// The drag handle of a reorderable row: pressing it starts a reorder.
    private func reorderHandle(ctx: ListRowContext, rowRect: Rect, source: Int, local: Int, memo: StateBox<ListMemo>) {
        let handle = ctx.handleRect(rowY: rowRect.y)
        for k in -1...1 {
            drawList.addRect(
                Rect(x: handle.midX - 8, y: handle.midY + Double(k) * 5 - 0.75, width: 16, height: 1.5),
                color: theme.secondaryText)
        }
        let r = withID(index: source) { interact(id("reorder.\(local)"), rect: handle, sense: .drag) }
        if r.isHovered { setCursor(.resizeUpDown) }
        if r.isActive && memo.value.reorder == nil {
            memo.value.reorder = ReorderState(source: source, from: local, pointerY: input.pointer.position.y)
        }
    }

    /// While a row is dragged by its handle: the row follows the pointer over an insertion
    /// line, the list scrolls while it is held near an edge; the release calls the source's
    /// `onMove(from, to)`.
    private func trackReorder(ctx: ListRowContext, layout: ListLayout, offset: Double, memo: StateBox<ListMemo>) {
        guard var reorder = memo.value.reorder, reorder.source < layout.counts.count else {
            memo.value.reorder = nil
            return
        }
        let p = input.pointer
        let start = layout.starts[reorder.source], count = layout.counts[reorder.source]
        guard count > 0 else {
            memo.value.reorder = nil
            return
        }
        reorder.pointerY = p.position.y
        let contentY = p.position.y - ctx.rect.y + offset
        let slotUnder = contentY < 0 ? -1 : layout.geometry.slot(atContentY: contentY) ?? layout.geometry.slotCount
        let firstSlot = layout.geometry.slot(ofRow: start)
        let target = min(max(slotUnder - firstSlot, 0), count - 1)
        if p.isDown {
            memo.value.reorder = reorder
            // Near the top or bottom edge (a row and a half), the list scrolls: faster the closer.
            let edge = ctx.rowHeight * 1.5, fastest = 900.0  // points a second, at the very edge
            let intoTop = ctx.rect.minY + edge - p.position.y, intoBottom = p.position.y - (ctx.rect.maxY - edge)
            if intoTop > 0 { memo.value.scrollCorrection = -min(1, intoTop / edge) * fastest * deltaTime }
            if intoBottom > 0 { memo.value.scrollCorrection = min(1, intoBottom / edge) * fastest * deltaTime }
            let lineSlot = firstSlot + (target > reorder.from ? target + 1 : target)
            let lineY = ctx.slotY(lineSlot, offset: offset, layout: layout)
            drawList.addRect(
                Rect(x: ctx.rect.x + 8, y: lineY - 1, width: ctx.rect.width - 16, height: 2), color: theme.accent)
            let floating = Rect(
                x: ctx.rect.x + 4, y: p.position.y - ctx.rowHeight / 2, width: ctx.rect.width - 8, height: ctx.rowHeight
            )
            drawList.addRoundedRect(floating.offsetBy(dx: 0, dy: 2), radius: 6, color: Color.black.opacity(0.15))
            drawList.addRoundedRect(floating, radius: 6, color: theme.surface)
            let source = ctx.collector.sources[reorder.source]
            accessibilityHidden(true) {  // the row being dragged is reported where it was
                drawRow(
                    source, local: reorder.from, body: source.body(reorder.from), in: floating, ctx: ctx,
                    selected: false, highlighted: false)
            }
        } else {
            memo.value.reorder = nil
            if target != reorder.from { ctx.collector.sources[reorder.source].move?(reorder.from, target) }
        }
    }
}
