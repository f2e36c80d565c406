/// How many rows a table or list lets the user select.
public enum SelectionMode: Sendable, Equatable { case none, single, multiple }

/// The selection rules of tables and lists, by row ID so a selection survives sorting and
/// scrolling: click selects, ctrl-click toggles, shift-click selects the range from the
/// anchor, ctrl-A selects all, arrows / Page Up / Page Down / Home / End move (shift extends).
///
/// Rows are addressed through `idAt`, the ID of the row shown at an index. Pure logic: tested
/// without SDL.
public struct SelectionModel<ID: Hashable>: Equatable {
    public var selected: Set<ID> = []
    /// Where shift ranges start.
    public var anchor: ID?
    /// The row the keyboard moves from.
    public var cursor: ID?
    /// Where `anchor` and `cursor` were last seen (checked before searching all rows).
    var anchorHint: Int?
    @usableFromInline var cursorHint: Int?

    public init(selected: Set<ID> = []) { self.selected = selected }

    /// A click (or tap) on the row at `index`.
    public mutating func click(index: Int, modifiers: KeyModifiers, mode: SelectionMode, count: Int, idAt: (Int) -> ID) {
        guard mode != .none, index >= 0, index < count else { return }
        let id = idAt(index)
        let toggle = modifiers.contains(.command), extend = modifiers.contains(.shift)
        if mode == .multiple && extend, let anchorIndex = locate(anchor, hint: anchorHint, count: count, idAt: idAt) {
            let range = ids(from: anchorIndex, to: index, idAt: idAt)
            selected = toggle ? selected.union(range) : range
        } else if toggle {
            if selected.contains(id) { selected.remove(id) } else {
                if mode == .single { selected = [] }
                selected.insert(id)
            }
            anchor = id
            anchorHint = index
        } else {
            selectOnly(id, at: index)
        }
        cursor = id
        cursorHint = index
    }

    /// Makes `id` (shown at `index`) the whole selection, the anchor and the cursor.
    private mutating func selectOnly(_ id: ID, at index: Int) {
        selected = [id]
        anchor = id
        anchorHint = index
        cursor = id
        cursorHint = index
    }

    /// Selects every row (multiple selection only).
    public mutating func selectAll(count: Int, idAt: (Int) -> ID) {
        selected = Set((0..<count).map(idAt))
    }

    /// A navigation key; returns the index of the row that became current (to scroll into view), or nil.
    @discardableResult
    public mutating func key(_ key: Key, modifiers: KeyModifiers, mode: SelectionMode, pageSize: Int, count: Int,
                             idAt: (Int) -> ID) -> Int? {
        guard mode != .none, count > 0 else { return nil }
        if key == Key("a") && modifiers.contains(.command) {
            if mode == .multiple { selectAll(count: count, idAt: idAt) }
            return nil
        }
        let current = locate(cursor, hint: cursorHint, count: count, idAt: idAt)
        let target: Int
        switch key {
        case .down: target = current.map { $0 + 1 } ?? 0
        case .up: target = current.map { $0 - 1 } ?? count - 1
        case .pageDown: target = (current ?? -1) + max(1, pageSize)
        case .pageUp: target = (current ?? count) - max(1, pageSize)
        case .home: target = 0
        case .end: target = count - 1
        default: return nil
        }
        let index = min(max(target, 0), count - 1)
        let id = idAt(index)
        if mode == .multiple && modifiers.contains(.shift), let anchorIndex = locate(anchor, hint: anchorHint, count: count, idAt: idAt) {
            selected = ids(from: anchorIndex, to: index, idAt: idAt)
            cursor = id
            cursorHint = index
        } else {
            selectOnly(id, at: index)
        }
        return index
    }

    /// The index of `id`, trying `hint` first, then every row.
    func locate(_ id: ID?, hint: Int?, count: Int, idAt: (Int) -> ID) -> Int? {
        guard let id else { return nil }
        if let hint, hint >= 0, hint < count, idAt(hint) == id { return hint }
        for i in 0..<count where idAt(i) == id { return i }
        return nil
    }

    private func ids(from a: Int, to b: Int, idAt: (Int) -> ID) -> Set<ID> {
        Set((min(a, b)...max(a, b)).map(idAt))
    }

    /// The IDs a context menu opened on the row at `index` (nil = empty area) applies to,
    /// as SwiftUI's `contextMenu(forSelectionType:)`: empty on empty space, the clicked row,
    /// or the whole selection when the clicked row is part of it. Right-clicking an
    /// unselected row selects it first.
    public mutating func contextMenuTarget(index: Int?, mode: SelectionMode, count: Int, idAt: (Int) -> ID) -> Set<ID> {
        guard let index, index >= 0, index < count else { return [] }
        let id = idAt(index)
        if selected.contains(id) { return selected }
        if mode != .none { selectOnly(id, at: index) }
        return [id]
    }
}
