/// Type-ahead in tables: letters typed within a second of each other form a prefix, and the
/// selection jumps to the first row (in display order) whose text starts with it, ASCII
/// case-insensitively, as in Finder and GTK's tree views.
///
/// When the rows are sorted by the text being matched, the match is found by binary search
/// in `NaturalOrder` key space (a million rows cost about twenty key reads a keystroke);
/// otherwise the rows after the cursor are scanned, wrapping around.
///
/// ```swift
/// var typeAhead = TypeAhead()
/// let prefix = typeAhead.add("ka", at: ui.time)
/// let row = TypeAhead.firstMatch(prefix, count: rows.count, sortedText: { rows[$0].name }, reverse: false,
///                                after: cursor, text: { rows[$0].name })
/// ```
@usableFromInline package struct TypeAhead: Sendable {
    /// The prefix typed so far.
    @usableFromInline package private(set) var typed = ""
    private var lastTime = -Double.infinity
    /// Seconds without typing after which the next letter starts a new prefix.
    @usableFromInline package var pause = 1.0

    /// Nothing typed yet.
    @usableFromInline package init() {}

    /// Adds `text` typed at `time` and returns the prefix to look for.
    @usableFromInline package mutating func add(_ text: String, at time: Double) -> String {
        if time - lastTime > pause { typed = "" }
        lastTime = time
        typed += text
        return typed
    }

    /// The characters typed by `keys` (letters, digits and punctuation without Control or
    /// Alt; a space only inside a prefix): tables take keys, not text input.
    @usableFromInline package static func typedText(_ keys: [KeyPress], continuing: Bool) -> String {
        var text = ""
        for press in keys where press.modifiers.intersection([.control, .alt, .command]).isEmpty {
            let code = press.key.rawValue
            guard code > 32 && code < 127 || code == 32 && (continuing || !text.isEmpty),
                let scalar = Unicode.Scalar(UInt32(code))
            else { continue }
            text.unicodeScalars.append(scalar)
        }
        return text
    }

    /// The first row (in display order) whose text starts with `prefix`. `sortedText` reads
    /// the text the rows are sorted by (in `NaturalOrder`, descending when `reverse`), or is
    /// nil when they are not sorted by it; `text` reads the text to match, for the scan that
    /// starts after row `after` (or at the top) and wraps.
    @usableFromInline package static func firstMatch(
        _ prefix: String, count: Int, sortedText: ((Int) -> String)?, reverse: Bool, after: Int?,
        text: (Int) -> String
    ) -> Int? {
        guard !prefix.isEmpty, count > 0 else { return nil }
        let folded = Array(prefix.utf8).map(NaturalOrder.fold)
        guard let sortedText else {
            let start = ((after ?? -1) + 1) % count
            for k in 0..<count {
                let i = (start + k) % count
                if NaturalOrder.hasPrefix(text(i), folded: folded) { return i }
            }
            return nil
        }
        // Rows whose text starts with the prefix have keys starting with one of these: the
        // prefix's own key, or, when it ends in digits, that digit run as the start of a longer
        // one (typing "img_1" finds "IMG_10"). Each is a contiguous block in key order; the
        // shorter runs (smaller numbers) come first. A block also holds the same numbers written
        // with leading zeros ("img_01"), which do not match: they are stepped over. A prefix
        // whose last number starts with a zero ("img_0") matches numbers of every value: scanned.
        guard let keyPrefixes = keyPrefixes(prefix, longestRun: 40, reverse: reverse) else {
            return firstMatch(prefix, count: count, sortedText: nil, reverse: reverse, after: nil, text: sortedText)
        }
        let key = { (i: Int) in NaturalOrder.key(sortedText(i)) }
        for keyPrefix in keyPrefixes {
            guard var i = blockStart(keyPrefix, count: count, reverse: reverse, key: key) else { continue }
            while i < count && key(i).starts(with: keyPrefix) {
                if NaturalOrder.hasPrefix(sortedText(i), folded: folded) { return i }
                i += 1
            }
        }
        return nil
    }

    /// The key prefixes that text starting with `prefix` can have, in display order; nil when
    /// its last number starts with a zero (no key prefix captures those).
    static func keyPrefixes(_ prefix: String, longestRun: Int, reverse: Bool) -> [[UInt8]]? {
        let bytes = Array(prefix.utf8)
        var digits = 0
        while digits < bytes.count && NaturalOrder.isDigit(bytes[bytes.count - 1 - digits]) { digits += 1 }
        guard digits > 0 else { return [NaturalOrder.key(prefix)] }
        let run = Array(bytes.suffix(digits))
        guard run[0] != 48 else { return nil }
        let head = NaturalOrder.key(String(decoding: bytes.dropLast(digits), as: UTF8.self))
        let keys = (run.count...max(run.count, longestRun)).map { head + [48, UInt8(min($0, 255))] + run }
        return reverse ? keys.reversed() : keys
    }

    /// The first row whose key starts with `keyPrefix`, when the keys are in ascending order
    /// (or descending when `reverse`): a binary search.
    static func blockStart(_ keyPrefix: [UInt8], count: Int, reverse: Bool, key: (Int) -> [UInt8]) -> Int? {
        func startsWithPrefix(_ k: [UInt8]) -> Bool { k.starts(with: keyPrefix) }
        // Ascending: the first key ≥ the prefix. Descending: the first key that starts with
        // the prefix or is below it (keys above the block come first).
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            let k = key(mid)
            let past =
                reverse
                ? (startsWithPrefix(k) || k.lexicographicallyPrecedes(keyPrefix))
                : !k.lexicographicallyPrecedes(keyPrefix)
            if past { hi = mid } else { lo = mid + 1 }
        }
        return lo < count && startsWithPrefix(key(lo)) ? lo : nil
    }
}
