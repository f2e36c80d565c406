import Render2D
import Imaging
import Profiling

/// How a cell edit ends: its text committed, committed with the next cell opened (Tab), or cancelled.
@usableFromInline
enum TableEditOutcome: Sendable { case commit, next, cancel }

/// A cell being edited: its row (by ID, and where it was), its column and the text so far.
@usableFromInline
struct TableCellEdit<ID: Hashable> {
    @usableFromInline var rowID: ID
    @usableFromInline var row: Int
    @usableFromInline var column: String
    @usableFromInline var draft: String
    /// The field takes keyboard focus the frame it first appears.
    @usableFromInline var needsFocus = true
    /// How editing ended this frame, if it did.
    @usableFromInline var outcome: TableEditOutcome?
    @usableFromInline init(rowID: ID, row: Int, column: String, draft: String) {
        self.rowID = rowID
        self.row = row
        self.column = column
        self.draft = draft
    }
}

extension UI {
    /// Reads how an edit ends from this frame's keys (Return commits, Escape cancels, Tab
    /// commits and moves on) or from the field losing focus (a click elsewhere commits).
    @usableFromInline
    func finishEditing<ID>(_ edit: inout TableCellEdit<ID>, fieldFocused: Bool) {
        for press in input.keys {
            switch press.key {
            case .returnKey: edit.outcome = .commit
            case .escape: edit.outcome = .cancel
            case .tab:
                edit.outcome = .next
                consumeKey(.tab)  // the next cell, not the next widget
            default: continue
            }
            return
        }
        if !fieldFocused { edit.outcome = .commit }
    }
}
