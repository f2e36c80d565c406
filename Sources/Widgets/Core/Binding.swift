/// A read-write reference to a value the app owns, as SwiftUI's `Binding`: widgets that
/// keep state across their content closures (split views, navigation split views) take one,
/// so the content may read and change the same state while it is being built.
///
/// ```swift
/// final class Browser {
///     var split = SplitState(fraction: 0.25)
///     func build(_ ui: UI) {
///         ui.hSplit("main", state: Binding(self, \.split)) { sidebar() } right: {
///             if ui.button("Close") { self.split.hide(.right) } // fine: not borrowed
///         }
///     }
/// }
/// ```
public struct Binding<Value> {
    private let read: () -> Value
    private let write: (Value) -> Void

    /// A binding that reads with `get` and writes with `set`.
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        read = get
        write = set
    }

    /// A binding to `root[keyPath: keyPath]`.
    public init<Root: AnyObject>(_ root: Root, _ keyPath: ReferenceWritableKeyPath<Root, Value>) {
        read = { root[keyPath: keyPath] }
        write = { root[keyPath: keyPath] = $0 }
    }

    /// The value: reading calls the getter, assigning calls the setter.
    public var wrappedValue: Value {
        get { read() }
        nonmutating set { write(newValue) }
    }

    /// A binding that always reads `value` and ignores writes.
    public static func constant(_ value: Value) -> Binding<Value> {
        Binding(get: { value }, set: { _ in })
    }
}
