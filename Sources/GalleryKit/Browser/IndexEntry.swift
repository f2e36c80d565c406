import Foundation
import GRDB
import Render2D
import Imaging
import Profiling
import DemoSupport

// A photo's facts and its row in the library index, with no other dependency on the app:
// FuzzIndexRow links this file to fuzz the reading of rows.

/// A photo's marks as the XMP embedded in its file has them (Lightroom and darktable can
/// write them there): nil where it says nothing.
@_spi(Fuzzing) public struct EmbeddedMarks: Sendable, Equatable {
    /// 1...5 stars.
    var rating: Int?
    /// "Red", "Yellow", "Green" or "Blue".
    var label: String?
    /// 1 picked, -1 rejected.
    var flag: Int?

    var isEmpty: Bool { rating == nil && label == nil && flag == nil }
}

/// What the library index knows of a photo, read from its header: when it was taken, its
/// upright size, and the marks of the XMP embedded in it.
@_spi(Fuzzing) public struct PhotoFacts: Sendable, Equatable {
    /// EXIF `DateTimeOriginal` as seconds since 1970, reading the camera's local time as UTC (nil: none).
    var taken: Double?
    /// The month it was taken (`PhotoMonth`), from the same date (nil: none).
    var month: Int?
    /// The upright size (0 × 0 when the header could not be read).
    @_spi(Fuzzing) public var width: Int
    @_spi(Fuzzing) public var height: Int
    /// EXIF orientation, 1...8.
    @_spi(Fuzzing) public var orientation: Int
    /// The marks of its embedded XMP (read with the facts, off this file: see `FactsScan`).
    var embedded = EmbeddedMarks()

    /// The upright width over the height (0: not known).
    var aspectRatio: Float { width > 0 && height > 0 ? Float(width) / Float(height) : 0 }

    /// The facts of the image whose first bytes are `head` (nil when they are no image).
    static func read(head: [UInt8], name: String) -> PhotoFacts? {
        guard let info = try? ImageDecoder.inspect(head, name: name) else { return nil }
        let upright = info.orientation >= 5 ? (info.height, info.width) : (info.width, info.height)
        var facts = PhotoFacts(
            taken: nil, month: nil, width: upright.0, height: upright.1, orientation: info.orientation)
        if info.format == .jpeg, let text = EXIF.dateTimeOriginal(inJPEG: head), let d = EXIF.dateParts(text) {
            var parts = tm(
                tm_sec: Int32(d.second), tm_min: Int32(d.minute), tm_hour: Int32(d.hour), tm_mday: Int32(d.day),
                tm_mon: Int32(d.month - 1), tm_year: Int32(d.year - 1900), tm_wday: 0, tm_yday: 0, tm_isdst: 0,
                tm_gmtoff: 0, tm_zone: nil)
            facts.taken = Double(timegm(&parts))
            facts.month = d.year * 12 + d.month - 1
        }
        return facts
    }
}

/// A photo's row in the index.
@_spi(Fuzzing) public struct IndexEntry: Sendable, Equatable {
    var path: String
    var size: Int64
    @_spi(Fuzzing) public var modified: Double
    @_spi(Fuzzing) public var facts: PhotoFacts

    init(path: String, size: Int64, modified: Double, facts: PhotoFacts) {
        self.path = path
        self.size = size
        self.modified = modified
        self.facts = facts
    }

    /// The entry in an index row; nil when a column is missing, NULL where it may not be, or of
    /// another type (GRDB's typed subscripts trap on those: each value is converted on its own).
    @_spi(Fuzzing) public init?(_ row: Row) {
        func value<T: DatabaseValueConvertible>(_ column: String) -> T? {
            T.fromDatabaseValue(row[column] as DatabaseValue? ?? .null)
        }
        func optional<T: DatabaseValueConvertible>(_ column: String) -> T?? {
            let raw = row[column] as DatabaseValue? ?? .null
            if raw.isNull { return .some(nil) }
            return T.fromDatabaseValue(raw).map { .some($0) }
        }
        guard let path: String = value("path"), let size: Int64 = value("size"),
            let modified: Double = value("modified"),
            let taken: Double? = optional("taken"), let month: Int? = optional("month"),
            let width: Int = value("width"), let height: Int = value("height"),
            let orientation: Int = value("orientation"),
            (0...(1 << 20)).contains(width), (0...(1 << 20)).contains(height), (1...8).contains(orientation),
            modified.isFinite,
            // The embedded marks: absent in rows from before there were any.
            let rating: Int? = optional("xmp_rating"), let label: String? = optional("xmp_label"),
            let flag: Int? = optional("xmp_flag"),
            rating.map({ (1...5).contains($0) }) ?? true, label.map({ $0.count <= 16 }) ?? true,
            flag.map({ $0 == 1 || $0 == -1 }) ?? true
        else { return nil }
        self.init(
            path: path, size: size, modified: modified,
            facts: PhotoFacts(
                taken: taken, month: month, width: width, height: height, orientation: orientation,
                embedded: EmbeddedMarks(rating: rating, label: label, flag: flag)))
    }
}

extension IndexEntry {
    /// The row's columns, in the order `rowForFuzzing` reads them.
    static let columns = [
        "path", "folder", "size", "modified", "taken", "month", "width", "height", "orientation",
        "xmp_rating", "xmp_label", "xmp_flag",
    ]

    /// A row of any values, from any bytes: for each column a tag (0 NULL, 1 an integer and 2 a
    /// real of 8 bytes, 3 text and 4 a blob of a length byte and its bytes, 5 no such column)
    /// and its value; missing bytes read as zeros. FuzzIndexRow and the tests that replay its
    /// corpus read their inputs with it.
    @_spi(Fuzzing) public static func rowForFuzzing(_ bytes: [UInt8]) -> Row {
        var i = 0
        func next() -> UInt8 {
            defer { i += 1 }
            return i < bytes.count ? bytes[i] : 0
        }
        func word() -> UInt64 { (0..<8).reduce(0) { value, _ in value << 8 | UInt64(next()) } }
        var values: [String: DatabaseValue] = [:]
        for column in columns {
            switch next() % 6 {
            case 0: values[column] = .null
            case 1: values[column] = Int64(bitPattern: word()).databaseValue
            case 2: values[column] = Double(bitPattern: word()).databaseValue
            case 3:
                values[column] = String(decoding: (0..<Int(next())).map { _ in next() }, as: UTF8.self).databaseValue
            case 4: values[column] = Data((0..<Int(next())).map { _ in next() }).databaseValue
            default: break
            }
        }
        return Row(values)
    }
}
