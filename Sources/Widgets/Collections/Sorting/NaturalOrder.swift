/// The order people expect of file names: digit runs compare by their value ("IMG_9" before
/// "IMG_10", as Finder and `localizedStandardCompare` have it), letters ASCII
/// case-insensitively. Each string becomes a key whose plain byte order is that order, so a
/// sort compares keys (or their first eight bytes, as one integer) and never re-parses.
///
/// A digit run is written as "0", its length without leading zeros (one byte), then those
/// digits: it sorts where a digit would against other characters, and by value against
/// another run.
///
/// ```swift
/// NaturalOrder.compare("IMG_9.jpg", "img_10.jpg") // -1
/// ```
package enum NaturalOrder {
    @inline(__always) static func fold(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte | 0x20 : byte }
    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    /// Appends the sort key of `string` to `key`.
    package static func appendKey(_ string: String, to key: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in
            var i = 0
            while i < bytes.count {
                guard isDigit(bytes[i]) else {
                    key.append(fold(bytes[i]))
                    i += 1
                    continue
                }
                var start = i
                while start < bytes.count && bytes[start] == 48 { start += 1 }  // leading zeros do not count
                var end = start
                while end < bytes.count && isDigit(bytes[end]) { end += 1 }
                if start == end && start > i { start -= 1 }  // all zeros: the value 0
                key.append(48)
                key.append(UInt8(min(end - start, 255)))
                key.append(contentsOf: bytes[start..<end])
                i = end
            }
        }
    }

    /// The sort key of `string`.
    package static func key(_ string: String) -> [UInt8] {
        var key: [UInt8] = []
        appendKey(string, to: &key)
        return key
    }

    /// The first eight bytes of a key, big-endian (shorter keys padded with zeros): ordering
    /// these orders keys by their start.
    @inline(__always)
    static func prefixWord(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var word: UInt64 = 0
        for i in 0..<8 { word = word << 8 | UInt64(i < key.count ? key[i] : 0) }
        return word
    }

    /// -1, 0 or 1 as key `a` orders before, with or after key `b`.
    @inline(__always)
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let n = min(a.count, b.count)
        for i in 0..<n where a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
        return a.count == b.count ? 0 : a.count < b.count ? -1 : 1
    }

    /// -1, 0 or 1 as `a` orders before, with or after `b` in natural order (ties in natural
    /// order, such as "a" and "A", compare equal).
    package static func compare(_ a: String, _ b: String) -> Int {
        let x = key(a), y = key(b)
        return x.withUnsafeBufferPointer { p in y.withUnsafeBufferPointer { q in compare(p, q) } }
    }

    /// -1, 0 or 1 as `a` orders before, with or after `b` among ranked strings: natural order,
    /// then byte order between strings equal in it ("A" before "a"); 0 only for the same bytes.
    static func rankOrder(_ a: String, _ b: String) -> Int {
        let c = compare(a, b)
        if c != 0 { return c }
        return a.utf8.elementsEqual(b.utf8) ? 0 : (a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1)
    }

    /// Whether `string` starts with `prefix`, ASCII case-insensitively (type-ahead's test).
    package static func hasPrefix(_ string: String, folded prefix: [UInt8]) -> Bool {
        var string = string
        return string.withUTF8 { bytes in
            guard bytes.count >= prefix.count else { return false }
            for i in 0..<prefix.count where fold(bytes[i]) != prefix[i] { return false }
            return true
        }
    }
}
