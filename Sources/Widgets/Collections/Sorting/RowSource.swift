/// Where a sort reads its rows. Stored rows are read in place, through a pointer: a generic
/// collection's subscript, in the sort's unspecialized code, allocated a coroutine frame and
/// copied the row (retaining its strings) on every read, a fifth of a million-row sort's time.
/// Other collections are read through their subscript, one copied row at a time.
enum RowSource<Row> {
    /// Rows stored one after another (an array's storage, valid while the sort runs).
    case stored(UnsafePointer<Row>)
    /// Row `i`, copied out of its collection.
    case copied((Int) -> Row)

    /// `read` of row `i`, for each `i`; for stored rows, `inPlace` of the row's address when
    /// given (a stored property read where it lies: passing the row to `read`, this
    /// unspecialized code copies it first).
    func reading<Value>(
        _ read: @escaping @Sendable (Row) -> Value, inPlace: (@Sendable (UnsafeRawPointer) -> Value)? = nil
    ) -> (Int) -> Value {
        switch self {
        case .stored(let rows):
            if let inPlace { return { inPlace(UnsafeRawPointer(rows + $0)) } }
            return { read(rows[$0]) }
        case .copied(let row): return { read(row($0)) }
        }
    }

    /// Whether `reading(_:inPlace:)` reads a stored property where it lies (cheap to read
    /// again), rather than calling the app's closure.
    func readsInPlace<Value>(_ inPlace: (@Sendable (UnsafeRawPointer) -> Value)?) -> Bool {
        if case .stored = self { inPlace != nil } else { false }
    }

    /// `compare` of rows `a` and `b`.
    func comparing(_ compare: @escaping @Sendable (Row, Row) -> Int) -> (Int, Int) -> Int {
        switch self {
        case .stored(let rows): { compare(rows[$0], rows[$1]) }
        case .copied(let row): { compare(row($0), row($1)) }
        }
    }
}

/// A sort key read from a row's address (`KeyComparator.keyInPlace`).
@usableFromInline
enum KeyInPlace: Sendable {
    case string(@Sendable (UnsafeRawPointer) -> String)
    case integer(@Sendable (UnsafeRawPointer) -> Int64)
    case double(@Sendable (UnsafeRawPointer) -> Double)
}
