import Foundation

/// A scratch folder for one test, removed when released.
///
/// ```swift
/// let dir = try ScratchFolder("photos")
/// try bytes.write(to: dir.file("a.jpg"))
/// ```
public final class ScratchFolder {
    public let path: String
    public init(_ name: String) throws {
        path = NSTemporaryDirectory() + "tessera-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    public func file(_ name: String) -> String { path + "/" + name }
}
