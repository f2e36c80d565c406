import Render2D

extension UI {
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
        guard !input.dropped.isEmpty, !dropTaken, rect.map({ $0.contains(input.pointer.position) }) ?? true else { return false }
        dropTaken = perform(input.dropped)
        if dropTaken { requestRedraw() }
        return dropTaken
    }
}
