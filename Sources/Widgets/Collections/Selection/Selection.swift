/// How many rows a table or list lets the user select.
public enum SelectionMode: Sendable, Equatable {
    /// Rows cannot be selected.
    case none
    /// One row at most.
    case single
    /// Any rows.
    case multiple
}

/// The selection rules of tables and lists, by row ID so a selection survives sorting and
/// scrolling: click selects, ctrl-click toggles, shift-click selects the range from the
/// anchor, ctrl-A selects all, arrows / Page Up / Page Down / Home / End move (shift extends).
/// Ranges and select-all stay ranges (`RowSelection`): O(1) on a million rows.
///
/// Rows are addressed through `rows`, the order shown this frame. Pure logic: tested
/// without SDL.
public struct SelectionModel<ID: Hashable>: Equatable {
    /// The selected rows.
    public var selected = RowSelection<ID>()
    /// Where shift ranges start.
    public var anchor: ID?
    /// The row the keyboard moves from.
    public var cursor: ID?
    /// Where `anchor` and `cursor` were last seen (checked before searching all rows).
    var anchorHint: Int?
    @usableFromInline var cursorHint: Int?
    /// The set last handed to a `Set<ID>` binding (see `SelectionBinding`).
    @usableFromInline var boundSet: Set<ID>?

    /// A model with `selected` selected and no anchor.
    public init(selected: RowSelection<ID> = []) { self.selected = selected }

    /// A click (or tap) on the row at `index`.
    public mutating func click(index: Int, modifiers: KeyModifiers, mode: SelectionMode, rows: RowOrder<ID>) {
        guard mode != .none, index >= 0, index < rows.count else { return }
        selected.follow(rows)
        let id = rows.idAt(index)
        let toggle = modifiers.contains(.command), extend = modifiers.contains(.shift)
        if mode == .multiple && extend, let anchorIndex = locate(anchor, hint: anchorHint, rows: rows) {
            selected.select(min(anchorIndex, index)...max(anchorIndex, index), in: rows, adding: toggle)
        } else if toggle {
            if mode == .single && !selected.contains(row: index, id: id) { selected.removeAll() }
            selected.toggle(id, at: index)
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
        selected.selectOnly(id)
        anchor = id
        anchorHint = index
        cursor = id
        cursorHint = index
    }

    /// Selects every row (multiple selection only): O(1).
    public mutating func selectAll(rows: RowOrder<ID>) {
        selected.selectAll(in: rows)
    }

    /// A navigation key; returns the index of the row that became current (to scroll into view), or nil.
    /// In a grid of `columns` items a row, Up and Down move a row and Left and Right an item;
    /// `pageSize` counts items.
    @discardableResult
    public mutating func key(
        _ key: Key, modifiers: KeyModifiers, mode: SelectionMode, pageSize: Int, columns: Int = 1,
        rows: RowOrder<ID>
    ) -> Int? {
        let count = rows.count
        guard mode != .none, count > 0 else { return nil }
        selected.follow(rows)
        if key == Key("a") && modifiers.contains(.command) {
            if mode == .multiple { selectAll(rows: rows) }
            return nil
        }
        let current = locate(cursor, hint: cursorHint, rows: rows)
        let target: Int
        let step = max(1, columns)
        switch key {
        case .down: target = current.map { $0 + step } ?? 0
        case .up: target = current.map { $0 - step } ?? count - 1
        case .right where step > 1: target = current.map { $0 + 1 } ?? 0
        case .left where step > 1: target = current.map { $0 - 1 } ?? count - 1
        case .pageDown: target = (current ?? -1) + max(1, pageSize)
        case .pageUp: target = (current ?? count) - max(1, pageSize)
        case .home: target = 0
        case .end: target = count - 1
        default: return nil
        }
        let index = min(max(target, 0), count - 1)
        moveCursor(to: index, extending: modifiers.contains(.shift), mode: mode, rows: rows)
        return index
    }

    /// Where the keyboard's cursor is in `rows` (nil: none yet).
    public func cursorIndex(in rows: RowOrder<ID>) -> Int? { locate(cursor, hint: cursorHint, rows: rows) }

    /// Moves the cursor to the row at `index`, as a navigation key does: it becomes the
    /// selection, or (`extending`, Shift held) the range from the anchor to it. For layouts
    /// whose rows hold different counts, where the app works out the row Up or Down goes to.
    ///
    /// ```swift
    /// selection.moveCursor(to: layout.item(nearest: current, rowsAway: -1), extending: shift, mode: .multiple, rows: order)
    /// ```
    public mutating func moveCursor(to index: Int, extending: Bool, mode: SelectionMode, rows: RowOrder<ID>) {
        guard mode != .none, index >= 0, index < rows.count else { return }
        selected.follow(rows)
        let id = rows.idAt(index)
        if mode == .multiple && extending, let anchorIndex = locate(anchor, hint: anchorHint, rows: rows) {
            selected.select(min(anchorIndex, index)...max(anchorIndex, index), in: rows, adding: false)
            cursor = id
            cursorHint = index
        } else {
            selectOnly(id, at: index)
        }
    }

    /// The index of `id`, trying `hint` first, then every row.
    func locate(_ id: ID?, hint: Int?, rows: RowOrder<ID>) -> Int? {
        guard let id else { return nil }
        if let hint, hint >= 0, hint < rows.count, rows.idAt(hint) == id { return hint }
        return (0..<rows.count).first { rows.idAt($0) == id }
    }

    /// The rows a context menu opened on the row at `index` (nil = empty area) applies to,
    /// as SwiftUI's `contextMenu(forSelectionType:)`: none on empty space, the clicked row,
    /// or the whole selection when the clicked row is part of it. Right-clicking an
    /// unselected row selects it first.
    public mutating func contextMenuTarget(index: Int?, mode: SelectionMode, rows: RowOrder<ID>) -> RowSelection<ID> {
        guard let index, index >= 0, index < rows.count else { return [] }
        selected.follow(rows)
        let id = rows.idAt(index)
        if selected.contains(row: index, id: id) { return selected }
        if mode != .none { selectOnly(id, at: index) }
        return [id]
    }
}

/// How an app binds a table's or list's selection: a `RowSelection` used as it is, or a
/// `Set<ID>`, which is made from the selection (O(selected)) only on the frames it changes.
@usableFromInline
enum SelectionBinding<ID: Hashable> {
    case rows(Binding<RowSelection<ID>>)
    case set(Binding<Set<ID>>)

    /// The app's selection, read into `model` at the start of a frame. A set the app did not
    /// change since it was last written does not replace the model's ranges.
    @usableFromInline
    func read(into model: inout SelectionModel<ID>) {
        switch self {
        case .rows(let binding):
            model.selected = binding.wrappedValue
        case .set(let binding):
            let set = binding.wrappedValue
            if set != model.boundSet {
                model.selected = RowSelection(set)
                model.boundSet = set
            }
        }
    }

    /// Hands `selected` back to the app when it differs from what `read` found.
    @usableFromInline
    func write(_ model: inout SelectionModel<ID>, readAs before: RowSelection<ID>) {
        let selected = model.selected
        switch self {
        case .rows(let binding):
            if binding.wrappedValue != selected { binding.wrappedValue = selected }
        case .set(let binding):
            guard selected != before else { return }
            let set = Set(selected)
            model.boundSet = set
            binding.wrappedValue = set
        }
    }
}
