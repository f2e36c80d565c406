import Render2D
import Imaging
import Profiling

/// The navigation stack being built: `navigationLink` pushes onto its path, `navigationTitle`
/// names the page it shows.
final class NavigationStackContext {
    let push: (AnyHashable) -> Bool
    var title: String?
    init(push: @escaping (AnyHashable) -> Bool) { self.push = push }
}

/// What a navigation stack keeps between frames: each level's title (for the back button)
/// and a touch swipe from the leading edge under way.
struct NavigationStackMemo {
    var titles: [String] = []
    /// How far the finger has pulled the page from the leading edge (nil: no swipe).
    var swipe: Double?
}

extension UI {
    /// A stack of pages (SwiftUI's `NavigationStack(path:)` with `navigationDestination(for:)`):
    /// `root` while `path` is empty, else the page `navigationDestination` builds for the last
    /// value of `path`. A bar over the page shows its title (`navigationTitle`) and, once
    /// something was pushed, a back button named after the page before. Back goes one level
    /// up: the button, Alt+Left, the mouse's back button, or on a touch screen a swipe from the
    /// leading edge. `navigationLink(_:value:)` pushes; so does appending to `path`, which the
    /// app owns and may save (make `Value` `Codable`) and restore.
    ///
    /// ```swift
    /// enum Route: Hashable, Codable { case album(Int), photo(Int) }
    /// ui.navigationStack(path: Binding(self, \.path), title: "Albums") {
    ///     for album in albums { ui.navigationLink(album.name, value: Route.album(album.id)) }
    /// } navigationDestination: { route in
    ///     switch route {
    ///     case .album(let id): ui.navigationTitle(albums[id].name); albumPage(id)
    ///     case .photo(let id): photoPage(id)
    ///     }
    /// }
    /// ```
    public func navigationStack<Value: Hashable>(
        _ name: String = "navigation", path: Binding<[Value]>, title: String = "",
        _ root: () -> Void, navigationDestination: (Value) -> Void
    ) {
        let sid = id(name)
        let outer = allocateRemaining(unboundedHeight: 400)
        let memo = stateBox(WidgetID(parent: sid, "memo"), NavigationStackMemo())
        // A swipe let go since the last frame goes back (or not) before anything is drawn.
        if let pulled = memo.value.swipe, !input.pointer.isDown {
            memo.value.swipe = nil
            if pulled > outer.width / 3 && !path.wrappedValue.isEmpty { path.wrappedValue.removeLast() }
        }
        let shown = path.wrappedValue
        let depth = shown.count
        let barHeight = theme.controlHeight + 12
        let bar = Rect(x: outer.x, y: outer.y, width: outer.width, height: barHeight)
        let body = Rect(x: outer.x, y: bar.maxY, width: outer.width, height: max(0, outer.height - barHeight))
        let pull = depth > 0 ? memo.value.swipe ?? 0 : 0

        let context = NavigationStackContext(push: { value in
            guard let value = value.base as? Value else { return false }
            path.wrappedValue.append(value)
            return true
        })
        navigationStacks.append(context)
        drawList.pushClip(outer)
        if pull > 0 { drawList.addRect(body, color: theme.background.mix(.black, 0.2)) }
        withID(sid) {
            withID(index: depth) {
                region(body.offsetBy(dx: pull, dy: 0)) {
                    drawList.addRect(body.offsetBy(dx: pull, dy: 0), color: theme.background)
                    if let top = shown.last { navigationDestination(top) } else { root() }
                }
            }
        }
        navigationStacks.removeLast()

        // The titles of the levels shown; a level's is known once it was on screen.
        let pageTitle = context.title ?? (depth == 0 ? title : "")
        if memo.value.titles.count > depth + 1 { memo.value.titles.removeLast(memo.value.titles.count - depth - 1) }
        while memo.value.titles.count < depth + 1 { memo.value.titles.append("") }
        memo.value.titles[depth] = pageTitle
        let previous = depth > 0 ? memo.value.titles[depth - 1] : ""
        var goesBack = false
        withID(sid) {
            goesBack = navigationBar(
                bar, title: pageTitle, back: depth > 0 ? (previous.isEmpty ? "Back" : previous) : nil)
            if depth > 0 {
                trackEdgeSwipe(body, memo: memo)
                if shortcutPressed(KeyboardShortcut(.left, modifiers: .alt)) { goesBack = true }
                if input.backPressed && outer.contains(input.pointer.position) && modalAllowsInput { goesBack = true }
            } else {
                memo.value.swipe = nil
            }
        }
        drawList.popClip()
        if goesBack && !path.wrappedValue.isEmpty { path.wrappedValue.removeLast() }
    }

    /// A stack whose path holds values of several types (SwiftUI's `NavigationPath`): each type's
    /// pages come from its own `navigationDestination(for:)`, registered in `destinations`.
    ///
    /// ```swift
    /// ui.navigationStack(path: Binding(self, \.path), title: "Library") {
    ///     ui.navigationLink("Summer", value: album)          // an Album
    ///     ui.navigationLink("Ana", value: person)            // a Person
    /// } destinations: { d in
    ///     d.navigationDestination(for: Album.self) { album in albumPage(album) }
    ///     d.navigationDestination(for: Person.self) { person in personPage(person) }
    /// }
    /// ```
    public func navigationStack(
        _ name: String = "navigation", path: Binding<[AnyHashable]>, title: String = "",
        _ root: () -> Void, destinations: (NavigationDestinations) -> Void
    ) {
        navigationStack(name, path: path, title: title, root) { top in
            let chooser = NavigationDestinations(top)
            destinations(chooser)
            if !chooser.isBuilt { text("No destination for a \(type(of: top.base))", color: theme.destructive) }
        }
    }

    /// Names the page of the enclosing navigation stack being built (SwiftUI's
    /// `navigationTitle`): shown in its bar, and on the back button of the page pushed after it.
    ///
    /// ```swift
    /// ui.navigationTitle(album.name)
    /// ```
    public func navigationTitle(_ title: String) {
        navigationStacks.last?.title = title
    }

    /// A row that pushes `value` onto the enclosing navigation stack's path when clicked or
    /// tapped (SwiftUI's `NavigationLink(_:value:)`): the title, and a chevron at the trailing
    /// edge. Returns true on the frame it pushed.
    ///
    /// ```swift
    /// ui.navigationLink("Summer 2024", icon: .folder, value: Route.album(7))
    /// ```
    @discardableResult
    public func navigationLink(_ title: String, icon: Icon? = nil, value: some Hashable) -> Bool {
        let rect = allocate(Size(availableWidth, theme.rowHeight + 8), flexibleWidth: true)
        let r = interact(id(title), rect: rect, sense: [.click, .focus, .activate])
        if r.isHovered { setCursor(.pointingHand) }
        accessibilityElement(r.id, role: .link, name: title, frame: rect, states: controlStates(), actions: [.click])
        if r.isHovered || r.isActive {
            drawList.addRoundedRect(
                rect, radius: theme.cornerRadius, color: theme.selection.opacity(r.isActive ? 0.8 : 0.45))
        }
        var x = rect.x + 8
        if let icon {
            drawIcon(icon, in: Rect(x: x, y: rect.midY - 8, width: 16, height: 16), color: theme.accent)
            x += 24
        }
        font.draw(
            title, in: Rect(x: x, y: rect.y, width: max(0, rect.maxX - 28 - x), height: rect.height), color: theme.text,
            truncation: truncation, into: &drawList)
        drawIcon(
            .chevronRight, in: Rect(x: rect.maxX - 20, y: rect.midY - 6, width: 12, height: 12),
            color: theme.secondaryText)
        drawList.addRect(
            Rect(x: rect.x + 8, y: rect.maxY - 1, width: max(0, rect.width - 8), height: 1),
            color: theme.separator.opacity(0.6))
        guard r.clicked, let stack = navigationStacks.last else { return false }
        return stack.push(AnyHashable(value))
    }

    /// The bar over a stack's page: the back button (named `back`), the title centred. Returns
    /// true when the back button was clicked.
    private func navigationBar(_ bar: Rect, title: String, back: String?) -> Bool {
        drawList.addRect(bar, color: theme.control.opacity(0.35))
        drawList.addRect(Rect(x: bar.x, y: bar.maxY - 1, width: bar.width, height: 1), color: theme.separator)
        var backEnd = bar.x
        var clicked = false
        if let back {
            let label = String(back.prefix(40))
            region(Rect(x: bar.x + 6, y: bar.y + 6, width: min(220, bar.width / 2), height: theme.controlHeight)) {
                clicked = accessibilityLabel("Back", { button(label, icon: .chevronLeft, style: .plain, id: "back") })
            }
            backEnd = bar.x + 6 + min(220, font.measure(label) + 40)
        }
        if !title.isEmpty {
            let bold = font(size: theme.fontSize + 1, weight: .bold)
            let margin = max(backEnd - bar.x, 12)
            let rect = Rect(x: bar.x + margin, y: bar.y, width: max(0, bar.width - 2 * margin), height: bar.height)
            bold.draw(title, in: rect, alignment: .center, color: theme.text, truncation: truncation, into: &drawList)
            accessibilityElement(WidgetID(parent: id("title"), index: 0), role: .heading, name: title, frame: rect)
        }
        return clicked
    }

    /// A finger pressed at the page's leading edge and pulled across: the page follows it
    /// (let go past a third of the width, it goes back, in the next frame's `navigationStack`).
    private func trackEdgeSwipe(_ body: Rect, memo: StateBox<NavigationStackMemo>) {
        let p = input.pointer
        let edge = Rect(x: body.x, y: body.y, width: 24, height: body.height)
        guard
            memo.value.swipe != nil
                || (p.kind == .touch && (edge.contains(p.position) || edge.contains(p.pressPosition)))
        else { return }
        let r = interact(id("edgeSwipe"), rect: memo.value.swipe != nil ? body : edge, sense: [.drag])
        if r.isActive && p.isDown {
            memo.value.swipe = max(0, p.position.x - p.pressPosition.x)
            requestRedraw()
        }
    }
}

/// The destinations of a navigation stack whose path mixes types: the one registered for the
/// type of the value on top of the path builds its page.
public final class NavigationDestinations {
    private let top: AnyHashable
    /// Whether a destination took the value on top of the path.
    public private(set) var isBuilt = false

    init(_ top: AnyHashable) { self.top = top }

    /// Builds `destination` when the value on top of the path is a `type` (SwiftUI's
    /// `navigationDestination(for:destination:)`); the first match wins.
    ///
    /// ```swift
    /// d.navigationDestination(for: Album.self) { album in albumPage(album) }
    /// ```
    public func navigationDestination<Value: Hashable>(for type: Value.Type, _ destination: (Value) -> Void) {
        guard !isBuilt, let value = top.base as? Value else { return }
        isBuilt = true
        destination(value)
    }
}
