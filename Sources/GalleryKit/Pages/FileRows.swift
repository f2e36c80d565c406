import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// A row of the file table used by `bench table` and the demo's table page.
struct FileRow: Identifiable, Sendable {
    let id: UInt64
    let name: String
    let size: Int64
    let modified: Int64
    /// Which of `kinds`: one byte where a `String` takes sixteen (a row is 48 bytes, not 64).
    let kindIndex: UInt8
    let rating: UInt8

    var kind: String { Self.kinds[Int(kindIndex)] }

    static let kinds = ["Photo", "Video", "Audio", "Document", "Archive", "Other"]
    static let syllables = [
        "ka", "lo", "mi", "ren", "sa", "tor", "vex", "zu", "bel", "cor", "dan", "fi", "gul", "hap", "jin", "mor",
    ]
    /// Each syllable's bytes in one word, first byte lowest, its length in the top byte.
    private static let packedSyllables: [UInt32] = syllables.map { syllable in
        syllable.utf8.enumerated().reduce(UInt32(syllable.utf8.count) << 24) {
            $0 | UInt32($1.element) << (8 * $1.offset)
        }
    }

    /// What the rows are named: the benchmark's syllables, or names like a real disk's.
    enum Names {
        /// Two to four syllables, as shared/BENCHMARKS.md describes (the benches and the peer).
        case syllables
        /// `SampleFileNames` (the table page), with one row in five named in another script.
        case realistic
    }

    /// `count` rows generated deterministically (SplitMix64 seeded 42), as shared/BENCHMARKS.md describes.
    /// A name of two to four syllables is written straight into a small string (at most 12
    /// ASCII bytes: no allocation; Unicode case mapping and concatenation cost more than the
    /// rest of a row). `.realistic` names are drawn from a second generator afterwards, so the
    /// other fields are the benchmark's either way.
    static func generate(count: Int, names: Names = .syllables) -> [FileRow] {
        var rng = SplitMix64(seed: 42)
        var nameRNG = SplitMix64(seed: 7)
        var rows: [FileRow] = []
        rows.reserveCapacity(count)
        let packed = packedSyllables
        for i in 0..<count {
            let parts = 2 + rng.next(below: 3)
            var name = String(unsafeUninitializedCapacity: parts * 3) { bytes in
                var n = 0
                for _ in 0..<parts {
                    let syllable = packed[rng.next(below: packed.count)]
                    for k in 0..<Int(syllable >> 24) { bytes[n + k] = UInt8(truncatingIfNeeded: syllable >> (8 * k)) }
                    n += Int(syllable >> 24)
                }
                bytes[0] -= 32  // capitalized: the syllables are lowercase ASCII
                return n
            }
            let kind = UInt8(rng.next(below: kinds.count))
            let size = Int64(rng.next() % 10_000_000_000)
            let modified = 1_500_000_000 + Int64(rng.next() % 300_000_000)
            if names == .realistic {
                name = SampleFileNames.name(kind: Int(kind), modified: modified, using: &nameRNG)
                if i % 5 == 4, let dot = name.firstIndex(of: ".") {
                    name = Self.scriptName(i) + " \(i / 5)" + name[dot...]
                }
            }
            rows.append(
                FileRow(
                    id: UInt64(i + 1), name: name, size: size, modified: modified, kindIndex: kind,
                    rating: UInt8(rng.next(below: 6))))
        }
        return rows
    }

    /// A name of two or three syllables of one of `ScriptSamples`' scripts, picked by `index`.
    private static func scriptName(_ index: Int) -> String {
        let scripts = ScriptSamples.syllables
        let syllables = scripts[1 + (index / 5) % (scripts.count - 1)]
        return (0..<(2 + index % 2)).map { syllables[(index / 7 + $0 * 3) % syllables.count] }.joined()
    }
}

/// Cell text, formatted by hand: Foundation's formatters cost microseconds a call.
enum FileFormat {
    /// `date` for seconds held as a `Double` (NaN and infinities show as the epoch or an end).
    static func date(_ seconds: Double) -> String {
        date(seconds.isNaN ? 0 : Int64(min(max(seconds, -62_135_596_800), 253_402_300_799)))
    }

    /// "12.3 MB" (decimal units, one decimal below 100), written into one buffer: a size fits
    /// a small string, so it costs no allocation (interpolation and an array of units per
    /// call cost 1,200 instructions a cell).
    static func size(_ bytes: Int64) -> String {
        var value = Double(bytes), unit = 0
        while value >= 1000 && unit < sizeUnits.count - 1 {
            value /= 1000
            unit += 1
        }
        let tenths = unit == 0 ? 0 : Int64((value * 10).rounded())
        let whole = unit == 0 ? bytes : tenths / 10, showsTenth = unit > 0 && tenths < 1000
        var width = 1, rest = whole.magnitude
        while rest >= 10 {
            rest /= 10
            width += 1
        }
        let suffix = sizeUnits[unit]
        let sign = whole < 0 ? 1 : 0, count = sign + width + (showsTenth ? 2 : 0) + suffix.utf8.count
        // Exactly `count` bytes: up to 15, the string is built in place as a small string.
        return String(unsafeUninitializedCapacity: count) { b in
            if sign == 1 { b[0] = 45 }
            var digits = whole.magnitude
            for k in stride(from: sign + width - 1, through: sign, by: -1) {
                b[k] = UInt8(48 + digits % 10)
                digits /= 10
            }
            var n = sign + width
            if showsTenth {
                b[n] = 46
                b[n + 1] = UInt8(48 + tenths % 10)
                n += 2
            }
            for byte in suffix.utf8 {
                b[n] = byte
                n += 1
            }
            return n
        }
    }

    private static let sizeUnits = [" B", " KB", " MB", " GB", " TB"]

    /// "YYYY-MM-DD HH:MM" in UTC, from Unix seconds (days-from-civil inverse), written into
    /// one byte buffer: no Foundation, one string allocation.
    static func date(_ seconds: Int64) -> String {
        // Years 1 to 9999: a file dated outside them (a hostile or broken mtime) shows an end.
        let seconds = min(max(seconds, -62_135_596_800), 253_402_300_799)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondsOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        var year = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        if month <= 2 { year += 1 }
        let hour = secondsOfDay / 3600, minute = secondsOfDay % 3600 / 60
        return String(unsafeUninitializedCapacity: 16) { b in
            func digits(_ v: Int64, _ at: Int, _ count: Int) {
                var v = v
                for k in stride(from: at + count - 1, through: at, by: -1) {
                    b[k] = UInt8(48 + v % 10)
                    v /= 10
                }
            }
            digits(year, 0, 4)
            b[4] = 45
            digits(month, 5, 2)
            b[7] = 45
            digits(day, 8, 2)
            b[10] = 32
            digits(hour, 11, 2)
            b[13] = 58
            digits(minute, 14, 2)
            return 16
        }
    }

    static let stars = (0...5).map { String(repeating: "★", count: $0) + String(repeating: "☆", count: 5 - $0) }
}
