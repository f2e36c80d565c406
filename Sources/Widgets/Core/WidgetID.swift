/// A widget's identity: a 64-bit FNV-1a hash of its label (or index) combined with the IDs
/// of the containers it is built in, so two "Name" columns in two tables never collide.
/// Deterministic across runs, so IDs can key persisted state.
///
/// ```swift
/// let a = WidgetID(parent: .root, "Name")
/// let b = WidgetID(parent: WidgetID(parent: .root, "table 2"), "Name") // a != b
/// ```
public struct WidgetID: Hashable, Sendable, CustomStringConvertible {
    /// The 64-bit hash the ID is.
    public let raw: UInt64
    /// The ID whose hash is `raw`.
    public init(raw: UInt64) { self.raw = raw }

    /// The ID at the bottom of every ID stack.
    public static let root = WidgetID(raw: 0xcbf2_9ce4_8422_2325)

    static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// The ID of `label` inside `parent`.
    public init(parent: WidgetID, _ label: String) {
        var h = parent.raw
        // Over the bytes in place where the string has them (nearly always): a frame makes a
        // hundred IDs from labels, and stepping through `utf8` costs twice as much.
        let hashed = label.utf8.withContiguousStorageIfAvailable { bytes in
            var h = h
            for byte in bytes { h = (h ^ UInt64(byte)) &* Self.prime }
            return h
        }
        if let hashed {
            h = hashed
        } else {
            for byte in label.utf8 { h = (h ^ UInt64(byte)) &* Self.prime }
        }
        // A separator so ("ab","c") and ("a","bc") differ along a path.
        h = (h ^ 0xFF) &* Self.prime
        raw = h
    }

    /// The ID of the `index`-th item inside `parent` (rows, cells, list items).
    public init(parent: WidgetID, index: Int) {
        var h = parent.raw ^ 0x9E37_79B9_7F4A_7C15
        var v = UInt64(bitPattern: Int64(index))
        for _ in 0..<8 {
            h = (h ^ (v & 0xFF)) &* Self.prime
            v >>= 8
        }
        raw = h
    }

    public var description: String { "#" + String(raw, radix: 16) }

    /// What a `Dictionary` or `Set` hashes an ID to: `raw` (already a hash) mixed with the
    /// table's seed in a few multiplies and shifts, not fed through SipHash. A frame looks up
    /// about a hundred IDs (its widgets' state), and SipHash cost 300 instructions each.
    /// Equal IDs give equal values, as `hash(into:)` requires; `hash(into:)` is unchanged.
    public func _rawHashValue(seed: Int) -> Int {
        var x = raw ^ UInt64(UInt(bitPattern: seed))
        x = (x ^ x >> 32) &* 0xD6E8_FEB8_6659_FD93
        x = (x ^ x >> 32) &* 0xD6E8_FEB8_6659_FD93
        return Int(truncatingIfNeeded: x ^ x >> 32)
    }
}
