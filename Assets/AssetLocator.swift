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
            result.append(root.hasSuffix("/") ? root + name : root + "/" + name)
        }
        for dir in executableDirectories {
            result.append("\(dir)/Tessera_TesseraAssets.resources/\(name)")
        }
        result.append("\(sourceAssets)/\(name)")
        let fileName = name.split(separator: "/").last.map(String.init) ?? name
        result.append("/usr/share/fonts/truetype/dejavu/\(fileName)")
        return result
    }

    /// Where a SwiftPM resource bundle may sit: beside the executable as it was named on the
    /// command line and as the kernel knows it, links resolved (Foundation's `Bundle.main` on
    /// Linux is the latter's folder). Worked out once, with `realpath` rather than `URL` and
    /// `Bundle`, which took 0.3 ms of each lookup at start-up.
    private static let executableDirectories: [String] = {
        let named = CommandLine.arguments.first.flatMap { $0.isEmpty ? nil : resolvedFolder(of: $0) }
        let running = resolvedFolder(of: "/proc/self/exe")
        return Set([named, running].compactMap { $0 }).sorted()
    }()

    /// The folder holding `path`, every link resolved; nil when it cannot be resolved.
    private static func resolvedFolder(of path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        let full = String(cString: resolved)
        guard let slash = full.lastIndex(of: "/") else { return nil }
        return slash == full.startIndex ? "/" : String(full[..<slash])
    }

    /// The `Assets/` folder of the source tree this binary was built from.
    private static let sourceAssets: String = {
        let file = #filePath
        return file.lastIndex(of: "/").map { String(file[..<$0]) } ?? "."
    }()

    /// The first existing path for `name`, or `NotFound` naming every path tried.
    public static func path(for name: String) throws(NotFound) -> String {
        let tried = candidates(for: name)
        for path in tried where access(path, R_OK) == 0 {
            return path
        }
        throw NotFound(name: name, tried: tried)
    }
}
