import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport

/// Turns photos a quarter turn as darktable and digiKam do: the turn is recorded in the photo's
/// XMP sidecar (`tiff:Orientation`), and the photo itself is never touched (its bytes, and so
/// its pixels, stay as they were). Every decode takes the orientation from there
/// (`OrientationOverrides`, set here and when a walk reads the sidecars), so thumbnails, the
/// viewer and sizes show it turned; the freedesktop cache's thumbnails of it are removed, to be
/// made again.
///
/// ```swift
/// if let problem = PhotoRotation.rotate("/photos/a.jpg", clockwise: true) { show(problem) }
/// ```
enum PhotoRotation {
    /// The EXIF orientation of a photo of orientation `orientation` turned a quarter turn
    /// clockwise, or counter-clockwise (mirrored orientations stay mirrored).
    static func turned(_ orientation: Int, clockwise: Bool) -> Int {
        let right = [1: 6, 6: 3, 3: 8, 8: 1, 2: 7, 7: 4, 4: 5, 5: 2]
        let left = Dictionary(uniqueKeysWithValues: right.map { ($0.value, $0.key) })
        // an unknown orientation counts as upright
        return (clockwise ? right : left)[orientation] ?? (clockwise ? 6 : 8)
    }

    /// Turns the photo at `path` a quarter turn; returns why it could not, or nil.
    static func rotate(_ path: String, clockwise: Bool, thumbnails: FreedesktopThumbnails = FreedesktopThumbnails())
        -> String?
    {
        // A regular file the decoder reads, or a link to one (a FIFO is refused at once, never
        // waited on); only its sidecar is written.
        let fd = FileName.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        var info = stat()
        let isFile = fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        close(fd)
        guard isFile else { return "not a regular file" }
        let current: Int
        do throws(XMPSidecar.Failure) {
            if let recorded = try XMPSidecar.orientation(for: path) {
                current = recorded
            } else {
                guard let head = try? ImageDecoder.readHeader(path, bytes: 64 << 10),
                    let own = try? ImageDecoder.inspect(head, name: path)
                else {
                    return "not an image this app can read"
                }
                current = own.orientation
            }
            let next = turned(current, clockwise: clockwise)
            try XMPSidecar.setOrientation(next, for: path)
            OrientationOverrides.shared.set(next, for: path)
        } catch {
            return error.description
        }
        thumbnails.forget(file: path)
        return nil
    }
}
