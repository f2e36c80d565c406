// `@inlinable` in the table's files is measured, not habit: it lets the app's module
// specialize the table for its row type. Making `arrange` inlinable took
// `bench table --columns 1000` from 3.20 M to 1.79 M instructions a frame (callgrind); see
// Table.swift for the rest.

/// Whether something is shown: `.automatic` leaves it to its default (SwiftUI's `Visibility`).
public enum Visibility: String, Codable, Sendable, CaseIterable {
    /// As its default says.
    case automatic
    /// Shown.
    case visible
    /// Not shown.
    case hidden
}

/// The user's arrangement of a table's columns: which are hidden and in what order they
/// stand, as SwiftUI's `TableColumnCustomization`. The app owns it (a `Binding` passed to
/// `ui.table(columnCustomization:)`) and may persist it: it is `Codable`. Only columns with a
/// `customizationID` take part; the others keep their place and cannot be hidden.
///
/// ```swift
/// var customization = TableColumnCustomization<File>()
/// ui.table("files", rows: files, columnCustomization: Binding(self, \.customization)) {
///     TableColumn("Name", value: \File.name).customizationID("name")
///     TableColumn("Kind", value: \File.kind).customizationID("kind").defaultVisibility(.hidden)
/// }
/// customization[visibility: "kind"] = .visible // what the header's menu does
/// ```
public struct TableColumnCustomization<RowValue>: Codable, Equatable, Sendable {
    /// Visibility by customization ID (absent: `.automatic`).
    @usableFromInline var visibility: [String: Visibility] = [:]
    /// Customization IDs in the user's order (columns not listed keep their declared place
    /// relative to the listed ones: after them, in declaration order).
    @usableFromInline var order: [String] = []

    /// A customization with nothing changed: every column at its default.
    public init() {}

    /// The visibility the user chose for the column `id` (`.automatic`: its default).
    public subscript(visibility id: String) -> Visibility {
        get { visibility[id] ?? .automatic }
        set { visibility[id] = newValue == .automatic ? nil : newValue }
    }

    /// Forgets every visibility choice: columns show as their defaults say.
    public mutating func resetVisibility() { visibility.removeAll() }

    /// Forgets the order: columns stand as declared.
    public mutating func resetOrder() { order.removeAll() }

    /// The customization IDs in their current order, given the declared ones.
    public func orderedIDs(declared: [String]) -> [String] {
        let known = Set(declared)
        var seen = Set<String>()
        var result = order.filter { known.contains($0) && seen.insert($0).inserted }
        result += declared.filter { !seen.contains($0) }
        return result
    }

    /// Moves the column `id` to stand before `target` (or last when `target` is nil).
    public mutating func move(_ id: String, before target: String?, declared: [String]) {
        var ids = orderedIDs(declared: declared)
        guard let from = ids.firstIndex(of: id), id != target else { return }
        ids.remove(at: from)
        let to = target.flatMap { ids.firstIndex(of: $0) } ?? ids.endIndex
        ids.insert(id, at: to)
        order = ids
    }

    /// The columns to show, in order: customizable columns arranged and filtered by this
    /// customization, the others where they were declared. Inlinable, so that a table's
    /// columns are read in the app's specialized code: unspecialized, every column was
    /// copied to read one field (1.1 M instructions a frame for a thousand columns).
    @inlinable public func arrange(_ columns: [TableColumn<RowValue>]) -> [TableColumn<RowValue>] {
        // Nothing chosen and nothing hidden by default: the columns as declared, not copied.
        // (Read in place: iterating the columns copies each, a thousand a frame in a wide table.)
        if visibility.isEmpty && order.isEmpty
            && !columns.indices.contains(where: { columns[$0].defaultVisibility == .hidden })
        {
            return columns
        }
        let customizable = columns.filter { $0.customizationID != nil }
        guard !customizable.isEmpty else { return columns }
        let ordered = orderedIDs(declared: customizable.map { $0.customizationID! })
        let byID = Dictionary(customizable.map { ($0.customizationID!, $0) }, uniquingKeysWith: { first, _ in first })
        var arranged = ordered.compactMap { byID[$0] }.makeIterator()
        // Customizable slots take the arranged columns in turn; fixed columns stay put.
        let all = columns.map { $0.customizationID == nil ? $0 : arranged.next()! }
        return all.filter(isVisible)
    }

    /// Whether the column `column` shows under this customization.
    @inlinable public func isVisible(_ column: TableColumn<RowValue>) -> Bool {
        guard let id = column.customizationID else { return true }
        switch self[visibility: id] {
        case .visible: return true
        case .hidden: return false
        case .automatic: return column.defaultVisibility != .hidden
        }
    }

    private enum CodingKeys: String, CodingKey { case visibility, order }

    /// Lenient: unknown visibility words are dropped, a missing key is empty (a customization
    /// saved by another version still loads).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let raw = (try? c.decodeIfPresent([String: String].self, forKey: .visibility)) ?? [:]
        visibility = raw.compactMapValues { Visibility(rawValue: $0) }.filter { $0.value != .automatic }
        order = (try? c.decodeIfPresent([String].self, forKey: .order)) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(visibility.mapValues(\.rawValue), forKey: .visibility)
        try c.encode(order, forKey: .order)
    }
}
