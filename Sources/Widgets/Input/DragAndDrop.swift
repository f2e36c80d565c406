import Render2D
import Imaging
import Profiling

/// A drag within the window: what `draggable` started it with, until the release drops it or
/// Escape cancels it.
struct DragSession {
    /// The widget it started from: its release is not also a click.
    let sourceID: WidgetID
    /// The items carried, as the `[Item]` array `draggable` was given: a destination of that
    /// type takes them with one cast (not one an item: a drag of 100,000 photos over a sidebar
    /// of folders costs the same as one of a photo).
    let items: Any
    /// How many.
    let count: Int
    /// Draws the preview in a square at the pointer (nil: a label with the count).
    let preview: ((UI, Rect) -> Void)?
    /// The press it started with (`Pointer.pressTime`): a cancelled drag does not start again
    /// until the button is released.
    let pressTime: Double
    /// A destination took the drop.
    var dropped = false
}

/// Where and how a drag was dropped, as a drop destination's action learns it.
public struct DropInfo: Sendable, Equatable {
    /// The pointer at the release, logical pixels.
    public var location: Point
    /// Ctrl was held at the release: the user asks for a copy, not a move (as file managers do).
    public var isCopy: Bool

    /// A drop at `location`, a copy or not.
    public init(location: Point, isCopy: Bool) {
        self.location = location
        self.isCopy = isCopy
    }
}

/// A drag under way within the window (`UI.activeDrag`).
public struct ActiveDrag: Sendable, Equatable {
    /// How many items it carries.
    public var count: Int
    /// Ctrl is held: dropping now copies.
    public var isCopy: Bool

    /// A drag of `count` items, a copy or not.
    public init(count: Int, isCopy: Bool) {
        self.count = count
        self.isCopy = isCopy
    }
}

extension UI {
    /// Makes the widget of `source` a drag source, as SwiftUI's `draggable`: once the mouse
    /// pressed on it moves past the slop, a drag of `items` starts. A preview (`preview`, drawn
    /// in a square at the pointer, else a label) follows the pointer with the count of items;
    /// a `dropDestination` under the release takes them, and Escape cancels. The release
    /// that ends a drag is not a click on the source. Touch drags stay scrolls.
    ///
    /// ```swift
    /// let r = ui.interact(ui.id(photo.name), rect: cell)
    /// ui.draggable(r, items: selection.contains(photo.id) ? Array(selection) : [photo.id])
    /// ```
    public func draggable<Item>(
        _ source: Interaction, items: @autoclosure () -> [Item], preview: ((UI, Rect) -> Void)? = nil
    ) {
        let pointer = input.pointer
        guard dragSession == nil, source.isActive, pointer.isDragging, pointer.isDown, pointer.kind != .touch,
            cancelledDragPress != pointer.pressTime
        else { return }
        let carried = items()
        guard !carried.isEmpty else { return }
        dragSession = DragSession(
            sourceID: source.id, items: carried, count: carried.count, preview: preview, pressTime: pointer.pressTime)
    }

    /// The drag under way within the window, if any: a destination can light up before the drop.
    public var activeDrag: ActiveDrag? {
        dragSession.map { ActiveDrag(count: $0.count, isCopy: input.modifiers.contains(.control)) }
    }

    /// Makes `rect` a drop destination for the `Item`s of a drag within the window, as SwiftUI's
    /// `dropDestination(for:action:isTargeted:)`: while a drag carrying them is over it, it is
    /// outlined; a release over it calls `action` with the items and where and how they were
    /// dropped (`DropInfo.isCopy`: Ctrl held). `action` returns whether it took them. Returns
    /// whether a drag is over it (to draw more than the outline).
    ///
    /// ```swift
    /// ui.dropDestination(for: Int.self, in: folderRow) { ids, drop in
    ///     move(ids, to: folder, copying: drop.isCopy)
    ///     return true
    /// }
    /// ```
    @discardableResult
    public func dropDestination<Item>(for type: Item.Type, in rect: Rect, action: ([Item], DropInfo) -> Bool) -> Bool {
        guard let session = dragSession, !session.dropped, isPointerOver(rect) else { return false }
        guard let items = session.items as? [Item] else { return false }  // not what this destination takes
        drawList.addRoundedRect(rect.insetBy(dx: 1, dy: 1), radius: 4, color: theme.accent.opacity(0.18))
        drawList.addRectBorder(rect.insetBy(dx: 1, dy: 1), radius: 4, color: theme.accent, thickness: 2)
        if input.pointer.released {
            let info = DropInfo(location: input.pointer.position, isCopy: input.modifiers.contains(.control))
            dragSession?.dropped = action(items, info)
        }
        return true
    }

    /// Ends the frame's part of a drag: Escape cancels it, a release ends it (dropped or not),
    /// and while it goes on its preview follows the pointer.
    func finishDrag() {
        guard let session = dragSession else { return }
        if modalKeyboard.keys.contains(where: { $0.key == .escape })
            || input.keys.contains(where: { $0.key == .escape })
        {
            cancelledDragPress = session.pressTime
            dragSession = nil
            requestRedraw()
            return
        }
        if !input.pointer.isDown {
            dragSession = nil
            requestRedraw()
            return
        }
        inOverlay { drawDragPreview(session) }
    }

    /// The preview at the pointer: the source's picture (or a label) with the count of items,
    /// and a plus while Ctrl makes the drop a copy.
    private func drawDragPreview(_ session: DragSession) {
        let count = session.count
        // below and right of the pointer: the target stays readable
        let origin = input.pointer.position + Point(18, 16)
        if let preview = session.preview {
            let square = Rect(origin: origin, size: Size(64, 64))
            drawList.addRoundedRect(square.insetBy(dx: -3, dy: -3), radius: 6, color: theme.background.opacity(0.9))
            preview(self, square)
        } else {
            let text = count == 1 ? "1 item" : "\(count) items"
            let rect = Rect(origin: origin, size: Size(font.measure(text) + 16, font.lineHeight + 8))
            drawList.addRoundedRect(rect, radius: 5, color: theme.tooltipBackground)
            font.draw(text, in: rect.insetBy(dx: 8, dy: 0), color: theme.tooltipText, into: &drawList)
        }
        let badgeText = (input.modifiers.contains(.control) ? "+" : "") + "\(count)"
        let small = self.font(size: theme.fontSize - 1, weight: .bold)
        let width = max(20, small.measure(badgeText) + 10)
        let badge = Rect(x: origin.x - width / 2, y: origin.y - 10, width: width, height: 20)
        drawList.addRoundedRect(badge, radius: 10, color: theme.accent)
        small.draw(badgeText, in: badge, alignment: .center, color: .white, into: &drawList)
    }

    /// Receives the files, folders and text dropped on the window this frame while the pointer
    /// is in `rect` (anywhere when nil), as SwiftUI's `onDrop`: `perform` gets the items of the
    /// drop and returns whether it took them; a drop taken reaches no later target. Returns
    /// whether this target took one.
    ///
    /// SDL 2 reports a drop when it happens, not a drag passing over the window (SDL 3 adds
    /// those), so a target cannot light up while something is dragged over it.
    ///
    /// ```swift
    /// ui.onDrop { items in
    ///     guard case .file(let path)? = items.first else { return false }
    ///     open(path)
    ///     return true
    /// }
    /// ```
    @discardableResult
    public func onDrop(in rect: Rect? = nil, perform: ([DroppedItem]) -> Bool) -> Bool {
        guard !input.dropped.isEmpty, !dropTaken, rect.map({ $0.contains(input.pointer.position) }) ?? true else {
            return false
        }
        dropTaken = perform(input.dropped)
        if dropTaken { requestRedraw() }
        return dropTaken
    }
}
