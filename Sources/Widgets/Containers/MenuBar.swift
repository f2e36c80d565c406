/// What a menu bar keeps between frames: the open menu, and its titles' widths (a bar too
/// narrow for them collapses into one menu button).
struct MenuBarMemo {
    var open: Int?
    /// A press on the open menu's title closed it (every press outside a popup closes it):
    /// the click that ends that press must not open it again.
    var closedByPress = false
    var titles: [String] = []
    var titleRects: [Rect] = []
    var titlesWidth = 0.0
}

/// The menu bar being built: its rectangle, where the next title goes, and whether it is collapsed.
struct MenuBarContext {
    let id: WidgetID
    let rect: Rect
    let collapsed: Bool
    var x: Double
    var index = 0
    var titles: [String] = []
    var titleRects: [Rect] = []
}

extension UI {
    /// A window's menu bar (SwiftUI's `commands` with `CommandMenu`s): menus of commands whose
    /// keyboard shortcuts work whether their menu is open or not. It opens with a click, with
    /// F10 (the first menu), or with Alt and a menu's first letter; the arrows move between
    /// and inside menus, Return chooses, Escape closes. When the window is too narrow for its
    /// titles, it collapses into one menu button.
    ///
    /// ```swift
    /// ui.menuBar {
    ///     ui.menu("File") {
    ///         if ui.menuItem("New Window", shortcut: KeyboardShortcut("n")) { openWindow() }
    ///         if ui.menuItem("Quit", shortcut: KeyboardShortcut("q")) { host.requestQuit() }
    ///     }
    ///     ui.menu("View") {
    ///         if ui.menuItem("Show HUD", shortcut: KeyboardShortcut(.f12, modifiers: [])) { showsHUD.toggle() }
    ///     }
    /// }
    /// ```
    public func menuBar(_ name: String = "menu bar", _ content: () -> Void) {
        let bid = id(name)
        let memo = stateBox(WidgetID(parent: bid, "memo"), MenuBarMemo())
        let height = theme.rowHeight + 4
        let rect = allocate(Size(availableWidth, height), flexibleWidth: true)
        drawList.addRect(rect, color: theme.surface)
        drawList.addRect(Rect(x: rect.x, y: rect.maxY - 1, width: rect.width, height: 1), color: theme.separator)
        let collapsed = memo.value.titlesWidth > rect.width - 8
        var context = MenuBarContext(id: bid, rect: rect, collapsed: collapsed, x: rect.x + 4)
        if collapsed { context.x += height + 4 }  // room for the menu button
        // The keys first, with last frame's titles: a menu they open is built in this frame.
        withID(bid) { menuBarKeys(memo, context) }
        menuBarStack.append(context)
        accessibilityContainer(bid, role: .menuBar, name: name, frame: rect) { withID(bid) { content() } }
        context = menuBarStack.removeLast()
        memo.value.titles = context.titles
        memo.value.titleRects = context.titleRects
        memo.value.titlesWidth = (context.titleRects.last?.maxX ?? rect.x) - rect.x - (collapsed ? height + 4 : 0)
        if collapsed { withID(bid) { collapsedMenuButton(memo, context) } }
    }

    /// A menu of a `menuBar`: its title in the bar, `content` (menu items, dividers) in the
    /// popup it opens. While the menu is closed, `content` runs only in frames with a key
    /// press, for its items' shortcuts: keep other work out of it.
    public func menu(_ title: String, _ content: () -> Void) {
        guard var context = menuBarStack.last else {
            Log.warn("menu(\"\(title)\") outside a menuBar is ignored")
            return
        }
        let index = context.index
        let font = self.font
        let width = font.measure(title) + 20
        let titleRect = Rect(x: context.x, y: context.rect.y + 2, width: width, height: context.rect.height - 4)
        context.x += width
        context.index += 1
        context.titles.append(title)
        context.titleRects.append(titleRect)
        menuBarStack[menuBarStack.count - 1] = context
        let memo = stateBox(WidgetID(parent: context.id, "memo"), MenuBarMemo())
        let popupName = "menu \(index)"
        let isOpen = memo.value.open == index && isPopupOpen(popupName)
        accessibilityContainer(
            id("title \(title)"), role: .menu, name: title, frame: context.collapsed ? .zero : titleRect,
            states: controlStates(isOpen ? [.hasPopup, .expanded] : [.hasPopup, .expandable])
        ) {
            menuTitleAndItems(title, index: index, at: titleRect, in: context, memo: memo, content)
        }
    }

    /// A menu's title in the bar, and its items: in the popup when it is open, else off screen for their
    /// shortcuts when a key was pressed.
    private func menuTitleAndItems(
        _ title: String, index: Int, at titleRect: Rect, in context: MenuBarContext,
        memo: StateBox<MenuBarMemo>, _ content: () -> Void
    ) {
        let popupName = "menu \(index)"
        if !context.collapsed {
            let r = interact(id("title \(title)"), rect: titleRect)
            let isOpen = memo.value.open == index && isPopupOpen(popupName)
            if r.clicked {
                if memo.value.closedByPress {
                    memo.value.closedByPress = false
                } else {
                    openMenu(index, of: memo, bar: context.id, at: titleRect, highlightFirst: false)
                }
            } else if r.isHovered, let open = memo.value.open, open != index, isPopupOpen("menu \(open)") {
                // the bar tracks the pointer while a menu is open
                openMenu(index, of: memo, bar: context.id, at: titleRect, highlightFirst: false)
            }
            if isOpen || r.isHovered {
                drawList.addRoundedRect(titleRect, radius: 4, color: isOpen ? theme.accent : theme.controlHovered)
            }
            let font = self.font
            font.draw(
                title, in: titleRect, alignment: .center, color: isOpen ? theme.onAccent : theme.text, into: &drawList)
        }
        if memo.value.open == index && isPopupOpen(popupName) {
            popup(popupName, content)
        } else if !input.keys.isEmpty {
            // Closed: built for its shortcuts only, off screen, and what it drew (a divider) is
            // dropped; only in a frame with a key press, as without one no shortcut can fire
            // (a closed File, Edit and View menu were a seventh of the photo browser's build).
            let outer = menuState
            menuState = MenuBuildState(shortcutsOnly: true)
            let mark = drawList.mark
            accessibilityHidden(true) {
                _ = child(
                    at: Rect(x: -100_000, y: -100_000, width: 400, height: 400), axis: .vertical, spacing: 0,
                    alignment: .start, content)
            }
            drawList.truncate(to: mark)
            menuState = outer
        }
    }

    /// Opens menu `index` of the bar below `anchor`, with its first item highlighted when the keyboard opened it.
    /// (Named in the bar's ID scope, `bar`: the collapsed bar's list opens a menu from inside its own popup.)
    private func openMenu(
        _ index: Int, of memo: StateBox<MenuBarMemo>, bar: WidgetID, at anchor: Rect, highlightFirst: Bool
    ) {
        closePopups()
        memo.value.open = index
        openPopups.append(
            PopupRecord(
                id: WidgetID(parent: bar, "menu \(index)"), anchor: Point(anchor.minX, anchor.maxY + 2),
                lastFrame: frameIndex, highlighted: highlightFirst ? 0 : nil))
        requestRedraw()
    }

    /// F10, Alt with a title's first letter, and ← → between open menus.
    private func menuBarKeys(_ memo: StateBox<MenuBarMemo>, _ context: MenuBarContext) {
        let titles = memo.value.titles, titleRects = memo.value.titleRects
        if let open = memo.value.open, !isPopupOpen("menu \(open)") {
            // A press on the open menu's title closed it (any press outside a popup does): the
            // click it ends must not open it again.
            if input.pointer.pressed, titleRects.indices.contains(open), isPointerOver(titleRects[open]) {
                memo.value.closedByPress = true
            }
            memo.value.open = nil
        }
        guard !titles.isEmpty, titleRects.count == titles.count, modalAllowsInput else { return }
        let anchor = { (i: Int) in
            context.collapsed
                ? Rect(x: context.rect.x + 4, y: context.rect.y, width: 0, height: context.rect.height - 2)
                : titleRects[i]
        }
        if let open = memo.value.open {
            for press in input.keys where press.modifiers.isEmpty && (press.key == .left || press.key == .right) {
                let next = (open + (press.key == .right ? 1 : -1) + titles.count) % titles.count
                consumeKey(press.key)
                openMenu(next, of: memo, bar: context.id, at: anchor(next), highlightFirst: true)
                return
            }
            return
        }
        guard !hasOpenPopup else { return }
        if shortcutPressed(KeyboardShortcut(.f10, modifiers: [])) {
            openMenu(0, of: memo, bar: context.id, at: anchor(0), highlightFirst: true)
            return
        }
        for (i, title) in titles.enumerated() {
            guard let first = title.lowercased().first, first.isLetter || first.isNumber else { continue }
            if shortcutPressed(KeyboardShortcut(first, modifiers: .alt)) {
                openMenu(i, of: memo, bar: context.id, at: anchor(i), highlightFirst: true)
                return
            }
        }
    }

    /// The one button a collapsed bar shows: a menu of the menus' titles, each opening its menu.
    private func collapsedMenuButton(_ memo: StateBox<MenuBarMemo>, _ context: MenuBarContext) {
        let side = context.rect.height - 4
        let button = Rect(x: context.rect.x + 4, y: context.rect.y + 2, width: side, height: side)
        let r = interact(id("menus"), rect: button)
        if r.isHovered { drawList.addRoundedRect(button, radius: 4, color: theme.controlHovered) }
        drawIcon(Icon(named: "menu"), in: button.insetBy(dx: 3, dy: 3), color: theme.text)
        if r.clicked { openPopup("menus", at: Point(button.minX, button.maxY + 2)) }
        popup("menus") {
            for (i, title) in memo.value.titles.enumerated() where menuItem(title, icon: .chevronRight) {
                openMenu(i, of: memo, bar: context.id, at: button, highlightFirst: false)
            }
        }
    }
}
