import CSDL2
import Glibc

/// SDL2_image, opened the first time an image needs it (BMP, TGA, WebP, interlaced PNGs,
/// CMYK JPEGs) rather than when the process starts: it brings TIFF, WebP, JBIG, LERC and
/// libdeflate along, and most sessions never decode those formats. Linked at start-up, they
/// cost the loader 0.5–1 ms and half a megabyte of mapped pages.
///
/// ```swift
/// let loadTyped = try SDLImageLibrary.loadTyped.get()
/// let surface = loadTyped(rw, 1, "BMP")
/// ```
enum SDLImageLibrary {
    /// `IMG_LoadTyped_RW(source, freeSource, type)`.
    typealias LoadTyped =
        @convention(c) (
            UnsafeMutablePointer<SDL_RWops>?, Int32, UnsafePointer<CChar>?
        ) -> UnsafeMutablePointer<SDL_Surface>?
    private typealias Initialize = @convention(c) (Int32) -> Int32

    /// The shared object's name, as Debian's libsdl2-image-2.0-0 installs it.
    static let soname = "libSDL2_image-2.0.so.0"

    /// Why the library could not be used.
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// `IMG_LoadTyped_RW` of `soname`, opened by the first caller (a `static let`: callers on
    /// other threads wait for it) with its codecs initialized once (`IMG_Init` is not reentrant).
    static let loadTyped = open(soname)

    /// Opens the SDL2_image at `soname` and initializes its codecs.
    static func open(_ soname: String) -> Result<LoadTyped, Missing> {
        guard let library = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            let why = dlerror().map { String(cString: $0) } ?? soname
            return .failure(Missing(description: "this image needs SDL2_image (\(why)): install libsdl2-image-2.0-0"))
        }
        guard let initialize = dlsym(library, "IMG_Init"), let load = dlsym(library, "IMG_LoadTyped_RW") else {
            dlclose(library)
            return .failure(Missing(description: "\(soname) is not SDL2_image: it has no IMG_LoadTyped_RW"))
        }
        let flags = Int32(IMG_INIT_PNG.rawValue | IMG_INIT_WEBP.rawValue | IMG_INIT_JPG.rawValue)
        _ = unsafeBitCast(initialize, to: Initialize.self)(flags)
        return .success(unsafeBitCast(load, to: LoadTyped.self))
    }
}
