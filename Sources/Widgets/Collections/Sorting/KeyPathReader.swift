// `@inlinable` here is measured: reading a key path's bytes in place from code specialized
// for the row type took `bench sort` (24 sorts of 1M rows, callgrind) from 38.7 G to 34.1 G
// instructions. The figure: `bench sort`.

/// Reads a property through a key path, quickly: a stored property of a struct is loaded from
/// its byte offset, where `root[keyPath:]` walks the key path at run time (hundreds of
/// instructions a read: most of a million-row sort by name, and of a table's cell text).
/// Other key paths (computed properties, properties of classes) are projected as usual.
///
/// ```swift
/// let name = KeyPathReader(\File.name)
/// let first = name.read(files[0])
/// ```
@usableFromInline
struct KeyPathReader<Root, Value>: Sendable {
    @usableFromInline let keyPath: KeyPath<Root, Value> & Sendable
    /// The property's offset in `Root`'s storage; nil when it is not a stored property of a struct.
    @usableFromInline let offset: Int?

    @inlinable init(_ keyPath: KeyPath<Root, Value> & Sendable) {
        self.keyPath = keyPath
        offset = MemoryLayout<Root>.offset(of: keyPath)
    }

    /// `make` given a reader of the property from a row's address, when the property is
    /// stored (nil otherwise).
    @inlinable func inPlace<Key>(_ make: (@escaping @Sendable (UnsafeRawPointer) -> Value) -> Key) -> Key? {
        guard let offset else { return nil }
        return make { $0.load(fromByteOffset: offset, as: Value.self) }
    }

    @inlinable func read(_ root: Root) -> Value {
        guard let offset else { return root[keyPath: keyPath] }
        return withUnsafePointer(to: root) { UnsafeRawPointer($0).load(fromByteOffset: offset, as: Value.self) }
    }
}
