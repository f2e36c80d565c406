import Render2D
import Imaging
import Profiling
/// What a camera writes into a photo's EXIF block: who made it, when it was taken, how to
/// turn it upright, and a small JPEG preview (IFD1's thumbnail).
package struct CameraMetadata: Sendable, Equatable {
    /// The camera's maker (`Make`).
    package var make: String
    /// The camera's model (`Model`).
    package var model: String
    /// When the photo was taken (`DateTimeOriginal`), as EXIF writes it: "2024:05:12 14:03:09".
    package var dateTimeOriginal: String
    /// How to turn the stored pixels upright (`Orientation`, 1...8; 6: rotate 90° clockwise).
    package var orientation: Int
    /// A JPEG preview of the stored pixels (IFD1), or nil; it must leave the block under 64 KB.
    package var thumbnail: [UInt8]?

    /// Metadata of a photo taken with `make` `model` at `dateTimeOriginal`.
    package init(make: String, model: String, dateTimeOriginal: String, orientation: Int = 1, thumbnail: [UInt8]? = nil)
    {
        self.make = make
        self.model = model
        self.dateTimeOriginal = dateTimeOriginal
        self.orientation = orientation
        self.thumbnail = thumbnail
    }
}

/// Writes EXIF blocks as cameras do: an APP1 segment holding a little-endian TIFF structure
/// with IFD0 (`Make`, `Model`, `Orientation`), the Exif IFD (`DateTimeOriginal`) and IFD1
/// (the JPEG thumbnail). For the camera-like samples; the decoder's `EXIF` reads them back.
///
/// ```swift
/// let jpeg = try SamplePhotos.jpegData(pixels)
/// let photo = try EXIFWriter.inserting(CameraMetadata(make: "Canon", model: "EOS R6",
///                                                     dateTimeOriginal: "2024:05:12 14:03:09"), into: jpeg)
/// ```
package enum EXIFWriter {
    /// Why a block could not be written.
    package enum Failure: Error, Equatable, Sendable {
        /// The block would pass the 64 KB an APP1 segment holds (the thumbnail is too big).
        case tooLarge(bytes: Int)
        /// The bytes are not a JPEG (no start-of-image marker).
        case notAJPEG
    }

    /// `jpeg` with an APP1 segment holding `metadata` right after its start-of-image marker.
    package static func inserting(_ metadata: CameraMetadata, into jpeg: [UInt8]) throws(Failure) -> [UInt8] {
        guard jpeg.count >= 2, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw .notAJPEG }
        let segment = try app1Segment(metadata)
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    /// The APP1 segment (marker, length, "Exif\0\0", TIFF structure) holding `metadata`.
    package static func app1Segment(_ metadata: CameraMetadata) throws(Failure) -> [UInt8] {
        let tiff = tiffStructure(metadata)
        let length = 2 + 6 + tiff.count
        guard length <= 0xFFFF else { throw .tooLarge(bytes: length) }
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("Exif".utf8) + [0, 0] + tiff
    }

    /// The TIFF structure: header, IFD0, the Exif IFD, IFD1, then the values that do not fit
    /// in their entries and the thumbnail. Offsets count from the header's first byte.
    package static func tiffStructure(_ metadata: CameraMetadata) -> [UInt8] {
        let make = Array(metadata.make.utf8) + [0], model = Array(metadata.model.utf8) + [0]
        let date = Array(metadata.dateTimeOriginal.utf8.prefix(19)) + [0]
        let thumbnail = metadata.thumbnail ?? []
        let hasThumbnail = !thumbnail.isEmpty
        func ifdSize(_ entries: Int) -> Int { 2 + 12 * entries + 4 }
        // Where everything goes.
        let ifd0 = 8
        let exifIFD = ifd0 + ifdSize(4)
        let ifd1 = exifIFD + ifdSize(1)
        var data = ifd1 + (hasThumbnail ? ifdSize(3) : 0)
        func place(_ bytes: [UInt8]) -> Int {
            defer { data += bytes.count + bytes.count % 2 }
            return data
        }
        let makeAt = place(make), modelAt = place(model), dateAt = place(date)
        let thumbnailAt = place(thumbnail)

        var out: [UInt8] = Array("II".utf8) + le16(42) + le32(ifd0)
        func entry(_ tag: Int, _ type: Int, _ count: Int, value: [UInt8]) {
            out += le16(tag) + le16(type) + le32(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
        }
        let ascii = 2, short = 3, long = 4
        // IFD0, its tags in ascending order.
        out += le16(4)
        entry(0x010F, ascii, make.count, value: make.count <= 4 ? make : le32(makeAt))
        entry(0x0110, ascii, model.count, value: model.count <= 4 ? model : le32(modelAt))
        entry(0x0112, short, 1, value: le16(min(max(metadata.orientation, 1), 8)))
        entry(0x8769, long, 1, value: le32(exifIFD))
        out += le32(hasThumbnail ? ifd1 : 0)
        // The Exif IFD.
        out += le16(1)
        entry(0x9003, ascii, date.count, value: le32(dateAt))
        out += le32(0)
        // IFD1: the thumbnail, JPEG-compressed.
        if hasThumbnail {
            out += le16(3)
            entry(0x0103, short, 1, value: le16(6))
            entry(0x0201, long, 1, value: le32(thumbnailAt))
            entry(0x0202, long, 1, value: le32(thumbnail.count))
            out += le32(0)
        }
        for (bytes, at) in [(make, makeAt), (model, modelAt), (date, dateAt), (thumbnail, thumbnailAt)]
        where !bytes.isEmpty {
            if bytes.count <= 4 && at != dateAt && at != thumbnailAt { continue }  // stored in its entry
            out += [UInt8](repeating: 0, count: at - out.count) + bytes
        }
        return out
    }

    private static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
    private static func le32(_ v: Int) -> [UInt8] {
        [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 24) & 0xFF)]
    }
}
