import Foundation

/// Finds the files Tessera ships in `Assets/` (fonts) from `swift run`, from tests and from
/// a built binary copied elsewhere.
///
/// Lookup order, first hit wins:
/// 1. `$TESSERA_ASSETS/<name>` (a folder holding the contents of `Assets/`),
/// 2. the SwiftPM resource bundle next to the executable (`Tessera_TesseraAssets.resources`),
/// 3. the package's source tree this binary was built from,
/// 4. the system's DejaVu fonts (`/usr/share/fonts/truetype/dejavu`, Debian's `fonts-dejavu-core`).
///
/// ```swift
/// let path = try AssetLocator.path(for: "Fonts/DejaVuSans.ttf")
/// ```
public enum AssetLocator {
    /// The asset could not be found; `tried` lists every path that was looked at.
    public struct NotFound: Error, CustomStringConvertible, Sendable {
        /// The asset asked for.
        public let name: String
        /// Every path looked at, in order.
        public let tried: [String]
        public var description: String {
            "Tessera asset '\(name)' not found. Tried:\n" + tried.map { "  - \($0)" }.joined(separator: "\n")
                + "\nSet TESSERA_ASSETS to a folder containing 'Fonts/', or install fonts-dejavu-core."
        }
    }

    /// The candidate paths for `name`, in lookup order.
    public static func candidates(for name: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> [String]
    {
        var result: [String] = []
        if let root = environment["TESSERA_ASSETS"], !root.isEmpty {
            result.append((root as NSString).appendingPathComponent(name))
        }
        let executableDir = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
            .deletingLastPathComponent().path
        let bundleDirs = [executableDir, Bundle.main.bundlePath, Bundle.main.resourcePath ?? ""]
        for dir in Set(bundleDirs).sorted() where !dir.isEmpty {
            result.append("\(dir)/Tessera_TesseraAssets.resources/\(name)")
        }
        let sourceAssets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
        result.append("\(sourceAssets)/\(name)")
        let fileName = (name as NSString).lastPathComponent
        result.append("/usr/share/fonts/truetype/dejavu/\(fileName)")
        return result
    }

    /// The first existing path for `name`, or `NotFound` naming every path tried.
    public static func path(for name: String) throws(NotFound) -> String {
        let tried = candidates(for: name)
        for path in tried where FileManager.default.isReadableFile(atPath: path) {
            return path
        }
        throw NotFound(name: name, tried: tried)
    }
}
