import FuzzDriver
import Render2D
import Imaging

/// The whole decode, `thumbnail(bytes:)`: headers, TurboJPEG, SDL2_image, the resampler and
/// the orientation. The first byte picks the name's extension (TGA has no signature) and
/// whether the cell fills or fits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzThumbnailInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    fuzzThumbnail(UnsafeBufferPointer(start: data, count: data == nil ? 0 : count))
}

@_cdecl("FuzzThumbnail_main")
public func fuzzThumbnailMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzThumbnailInput)
}

func fuzzThumbnail(_ input: UnsafeBufferPointer<UInt8>) -> Int32 {
    guard input.count > 1 else { return 0 }
    let bytes = Array(input.dropFirst())
    let name = ["x.jpg", "x.png", "x.tga", "x.bmp"][Int(input[0] & 3)]
    // Real sizes, up to 4000 px on a side, so scan and resampling bombs surface (scripts/fuzz.sh
    // gives each input 10 s); larger ones run the same code for longer and are skipped (the
    // size checks themselves are FuzzImageHeader's and the tests').
    if let info = try? ImageDecoder.inspect(bytes, name: name), info.width > 4000 || info.height > 4000 { return 0 }
    if let thumb = try? ImageDecoder.thumbnail(
        bytes: bytes, name: name, spec: ThumbnailSpec(side: 48, fill: input[0] & 4 != 0))
    {
        precondition(
            thumb.pixels.bytes.count == thumb.pixels.width * thumb.pixels.height * 4, "pixel buffer of the wrong size")
    }
    return 0
}
