import FuzzDriver
import Render2D
import Imaging

/// The header inspector: the signature checks, the JPEG segment walk, EXIF (IFD0
/// orientation, the Exif IFD's date, IFD1's embedded thumbnail, found and decoded), GIF frame descriptors and BMP
/// headers. Any input: no trap, no hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageHeaderInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    fuzzImageHeader(UnsafeBufferPointer(start: data, count: data == nil ? 0 : count))
}

@_cdecl("FuzzImageHeader_main")
public func fuzzImageHeaderMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzImageHeaderInput)
}

func fuzzImageHeader(_ input: UnsafeBufferPointer<UInt8>) -> Int32 {
    let bytes = Array(input)
    for name in ["x.jpg", "x.tga"] {
        if let info = try? ImageDecoder.inspect(bytes, name: name) {
            precondition(
                info.width >= 0 && info.height >= 0 && (1...8).contains(info.orientation), "impossible header result")
        }
    }
    _ = EXIF.orientation(inJPEG: bytes)
    if let date = EXIF.dateTimeOriginal(inJPEG: bytes) { _ = EXIF.dateParts(date) }
    if let range = EmbeddedThumbnail.range(inJPEG: bytes) {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "a thumbnail outside the bytes")
    }
    if let thumb = try? EmbeddedThumbnail.decode(bytes: bytes, name: "x.jpg") {
        precondition(
            thumb.pixels.width <= EmbeddedThumbnail.maxSide && thumb.pixels.height <= EmbeddedThumbnail.maxSide,
            "an oversized thumbnail")
    }
    return 0
}
