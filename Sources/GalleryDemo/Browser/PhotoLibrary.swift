import ArgumentParser
import Foundation
import Render2D

/// An image file the demo shows.
struct Photo: Identifiable, Sendable {
    let id: Int
    let path: String
    let name: String
    var rating: Int
    /// Bytes, and modification time (Unix seconds).
    var size: Int64 = 0
    var modified: Double = 0
    var isFavorite = false
}

/// The image files of one folder (not recursive), sorted by name; other files are skipped, and
/// so is anything named like an image that is not a regular file (a FIFO, a socket, a device,
/// a folder, a dangling link).
enum PhotoLibrary {
    enum LoadError: Error, CustomStringConvertible {
        case missing(String), notAFolder(String), unreadable(String, String), empty(String)
        var description: String {
            switch self {
            case .missing(let p): "no such folder: \(p)"
            case .notAFolder(let p): "\(p) is a file, not a folder"
            case .unreadable(let p, let why): "cannot read \(p): \(why)"
            case .empty(let p): "\(p) has no images (jpg, png, gif, bmp, tga, webp)"
            }
        }
    }

    static func load(_ folder: String) throws(LoadError) -> [Photo] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else { throw .missing(folder) }
        guard isDirectory.boolValue else { throw .notAFolder(folder) }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
            throw .unreadable(folder, "\(error.localizedDescription)")
        }
        let images = names.filter { name in
            guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { return false }
            return ImageFormat.extensions.contains(name[name.index(after: dot)...].lowercased())
        }.sorted()
        guard !images.isEmpty else { throw .empty(folder) }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        let files = images.compactMap { name -> (name: String, stat: stat)? in
            var st = stat()
            guard stat(base + name, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
            return (name, st)
        }
        guard !files.isEmpty else { throw .empty(folder) }
        return files.enumerated().map { i, file in
            // A stable pseudo-rating from the name, so the banners show stars.
            var hash: UInt64 = 1469598103934665603
            for byte in file.name.utf8 { hash = (hash ^ UInt64(byte)) &* 1099511628211 }
            return Photo(id: i, path: base + file.name, name: file.name, rating: Int(hash % 6), size: Int64(file.stat.st_size),
                         modified: Double(file.stat.st_mtim.tv_sec))
        }
    }

    /// `$XDG_CACHE_HOME/tessera/<name>` (or `~/.cache/tessera/<name>`).
    static func cacheFolder(_ name: String) -> String {
        let cache = ProcessEnvironment.value("XDG_CACHE_HOME") ?? ((ProcessEnvironment.value("HOME") ?? "/tmp") + "/.cache")
        return cache + "/tessera/" + name
    }

    /// The folder of `count` generated samples of `width`×`height`, generated on first use
    /// (waiting, with a progress bar: benchmarks and profiling need the whole library).
    static func sampleLibrary(count: Int, width: Int, height: Int) throws -> String {
        let (folder, generation) = try sampleLibraryInBackground(count: count, width: width, height: height)
        if let generation { try generation.waitShowingProgress() }
        return folder
    }

    /// The folder of `count` generated samples, and the generation still writing it (nil when
    /// it is complete): the browser opens at once and shows the photos as they land.
    static func sampleLibraryInBackground(count: Int, width: Int, height: Int) throws -> (folder: String, generation: SampleGeneration?) {
        let folder = cacheFolder("samples-\(count)-\(width)x\(height)")
        if (try? load(folder))?.count == count { return (folder, nil) }
        Log.info("generating \(count) sample photos in \(folder) (once)")
        let generation = SampleGeneration(folder: folder, count: count, width: width, height: height)
        try generation.start()
        return (folder, generation)
    }
}

struct GenerateSamples: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-samples",
        abstract: "Write deterministic photo-like JPEGs (and every 25th as PNG), or camera-like ones with EXIF, into a folder.")

    @Argument(help: "The folder to write into (created if missing).")
    var folder: String

    @Option(help: "How many images.")
    var count = 2000

    @Option(help: "Image size, e.g. 1920x1280 (with --camera: the long side of each photo, whose aspect varies).")
    var size = "1920x1280"

    @Flag(help: "Camera-like photos: EXIF date (bursts over five years), make and model, orientation (1, 3, 6, 8), an IFD1 thumbnail, aspect ratios 3:2, 4:3, 16:9 and 1:1, portraits; in YYYY/MM/DD folders.")
    var camera = false

    @Flag(help: "With --camera: every photo in the folder itself, no date folders.")
    var flat = false

    func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be positive") }
        guard count <= 1_000_000 else { throw ValidationError("--count is at most 1,000,000") }
        guard parsedSize != nil else { throw ValidationError("--size must look like 1920x1280") }
        // A camera photo's short side follows its long one: keep it within the decoder's 100 megapixels.
        guard !camera || max(parsedSize!.width, parsedSize!.height) <= 10_000 else {
            throw ValidationError("--size: with --camera the long side is at most 10000")
        }
        guard camera || !flat else { throw ValidationError("--flat goes with --camera (the other samples are flat already)") }
    }

    var parsedSize: (width: Int, height: Int)? { parseSize(size) }

    func run() throws {
        let (w, h) = parsedSize!
        let generation = SampleGeneration(folder: folder, count: count, width: w, height: h,
                                          layout: camera ? .camera(flat: flat) : .synthetic)
        try generation.start()
        try generation.waitShowingProgress()
    }
}
