import Render2D
import Imaging
import Profiling

/// Whether a list or table is being edited (SwiftUI's `EditMode`): rows show their reorder
/// handles, delete buttons and selection checkmarks, and a tap selects several rows.
public enum EditMode: Sendable, Equatable {
    /// Rows are read and opened.
    case inactive
    /// Rows are reordered, deleted and picked by tapping.
    case active

    /// Whether rows are being edited.
    public var isEditing: Bool { self == .active }
}

extension UI {
    /// "Edit", or "Done" while editing (SwiftUI's `EditButton`): each click switches `mode`.
    /// Pass `mode.wrappedValue.isEditing` to the lists and tables it edits. Returns true on the
    /// frame it switched.
    ///
    /// ```swift
    /// ui.toolbarItem(placement: .primaryAction) { ui.editButton(Binding(self, \.editMode)) }
    /// ui.list("tasks", editMode: editMode.isEditing) { ui.forEach(tasks, onDelete: { for i in $0.reversed() { tasks.remove(at: i) } }) { … } }
    /// ```
    @discardableResult
    public func editButton(_ mode: Binding<EditMode>) -> Bool {
        let editing = mode.wrappedValue.isEditing
        let clicked = button(
            editing ? "Done" : "Edit", style: editing ? .borderedProminent : .bordered, id: "EditButton")
        if clicked { mode.wrappedValue = editing ? .inactive : .active }
        return clicked
    }
}
