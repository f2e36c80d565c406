import FuzzDriver
import Render2D
import Imaging

/// A file in the shared thumbnail cache (another program may have written it, or anyone with
/// write access to the cache): its PNG text keys and its image, through
/// `FreedesktopThumbnails.cachedThumbnail(fromPNG:)`. Any bytes give a thumbnail of the asked
/// size or nothing. The seeds are entries for `file:///x.jpg`, MTime 1, size 1000; the first
/// byte picks the size asked for.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzThumbnailCacheInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    fuzzThumbnailCache(Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : count)))
}

@_cdecl("FuzzThumbnailCache_main")
public func fuzzThumbnailCacheMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32
{
    runFuzzer(argc, argv, fuzzThumbnailCacheInput)
}

func fuzzThumbnailCache(_ input: [UInt8]) -> Int32 {
    guard input.count > 1 else { return 0 }
    let spec = ThumbnailSpec(side: 16 + Int(input[0] & 63) * 4, fill: input[0] & 64 != 0)
    let bytes = Array(input.dropFirst())
    // Entries over 1 MP run the same code for longer: skipped (the size checks are FuzzThumbnail's).
    if let info = try? ImageDecoder.inspect(bytes, name: "t.png"),
        info.width.multipliedReportingOverflow(by: info.height).partialValue > 1_000_000
    {
        return 0
    }
    guard
        let thumb = FreedesktopThumbnails.cachedThumbnail(
            fromPNG: bytes, uri: "file:///x.jpg", mtime: "1", fileSize: 1000, spec: spec)
    else {
        return 0
    }
    precondition(
        thumb.pixels.bytes.count == thumb.pixels.width * thumb.pixels.height * 4, "pixel buffer of the wrong size")
    precondition(thumb.info.width > 0 && thumb.info.height > 0, "an original of no size")
    return 0
}
