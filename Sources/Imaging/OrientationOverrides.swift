import Synchronization
import Render2D

/// Orientations an app keeps outside the image files, as darktable and digiKam record a
/// rotation in the photo's XMP sidecar (`tiff:Orientation`) rather than rewrite the photo:
/// every decode (`ImageDecoder.inspect`, and so thumbnails, embedded thumbnails, tiles and
/// sizes) takes the orientation given here in place of the file's EXIF one, and a file's
/// `FileVersion` changes with it, so the thumbnails of a photo turned this way are made again.
///
/// ```swift
/// OrientationOverrides.shared.set(6, for: "/photos/a.jpg")   // a quarter turn right
/// images.filesMayHaveChanged()                                // its thumbnails are made again
/// ```
public final class OrientationOverrides: Sendable {
    /// The overrides every decode reads.
    public static let shared = OrientationOverrides()

    private let table = Locked<[String: Int]>([:])
    /// Whether any is set: the decodes of an app that sets none never take the lock.
    private let isUsed = Atomic<Bool>(false)

    /// Overrides of their own (tests); apps use `shared`.
    public init() {}

    /// Sets the orientation (1...8, EXIF's meaning) of the image at `path`; nil goes back to its own.
    public func set(_ orientation: Int?, for path: String) {
        let valid = orientation.flatMap { (1...8).contains($0) ? $0 : nil }
        table.withLock { $0[path] = valid }
        if valid != nil { isUsed.store(true, ordering: .releasing) }
    }

    /// The orientation set for the image at `path`, if any.
    public func orientation(for path: String) -> Int? {
        guard isUsed.load(ordering: .acquiring) else { return nil }
        return table.withLock { $0[path] }
    }
}
