import ArgumentParser
import Foundation
import Render2D
import Synchronization

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

/// The image files of one folder (not recursive), sorted by name; other files are skipped.
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
        return images.enumerated().map { i, name in
            // A stable pseudo-rating from the name, so the banners show stars.
            var hash: UInt64 = 1469598103934665603
            for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 1099511628211 }
            var st = stat()
            let found = stat(base + name, &st) == 0
            return Photo(id: i, path: base + name, name: name, rating: Int(hash % 6), size: found ? Int64(st.st_size) : 0,
                         modified: found ? Double(st.st_mtim.tv_sec) : 0)
        }
    }

    /// `$XDG_CACHE_HOME/tessera/<name>` (or `~/.cache/tessera/<name>`).
    static func cacheFolder(_ name: String) -> String {
        let cache = ProcessEnvironment.value("XDG_CACHE_HOME") ?? ((ProcessEnvironment.value("HOME") ?? "/tmp") + "/.cache")
        return cache + "/tessera/" + name
    }

    /// The folder of `count` generated samples of `width`×`height`, generated on first use.
    static func sampleLibrary(count: Int, width: Int, height: Int) throws -> String {
        let folder = cacheFolder("samples-\(count)-\(width)x\(height)")
        if (try? load(folder))?.count == count { return folder }
        Log.info("generating \(count) sample photos in \(folder) (once)")
        try SampleGenerator.generate(into: folder, count: count, width: width, height: height)
        return folder
    }
}

/// Writes deterministic photo-like samples in parallel (one worker per core), with a
/// progress bar on standard error. Every 25th sample is a PNG.
enum SampleGenerator {
    static func fileName(_ index: Int) -> String {
        let number = String(index + 1)
        return "photo-" + String(repeating: "0", count: max(0, 6 - number.count)) + number + (index % 25 == 24 ? ".png" : ".jpg")
    }

    static func generate(into folder: String, count: Int, width: Int, height: Int) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let next = Mutex(0)
        let done = Mutex((count: 0, failure: String?.none))
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let start = MonotonicClock.seconds()
        var threads: [Thread] = []
        for _ in 0..<workers {
            let thread = Thread {
                while true {
                    let index = next.withLock { value -> Int in defer { value += 1 }; return value }
                    guard index < count else { return }
                    let path = folder + "/" + fileName(index)
                    let pixels = SamplePhotos.render(width: width, height: height, seed: UInt64(index))
                    var failure: String?
                    do {
                        if path.hasSuffix(".png") { try Renderer.writePNG(pixels, to: path) } else { try SamplePhotos.writeJPEG(pixels, to: path) }
                    } catch { failure = "\(path): \(error)" }
                    done.withLock { $0.count += 1; if let failure { $0.failure = failure } }
                }
            }
            threads.append(thread)
            thread.start()
        }
        // A live bar on a terminal; a line per 10 % when standard error is a log file.
        let terminal = isatty(2) != 0
        var shown = -1
        while true {
            let (finished, failure) = done.withLock { ($0.count, $0.failure) }
            if let failure { throw ValidationError("could not write a sample: \(failure)") }
            let step = terminal ? finished * 100 / count : finished * 10 / count
            if step != shown {
                shown = step
                let width = 30, filled = finished * width / count
                let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                FileHandle.standardError.write("\(terminal ? "\r" : "")[\(bar)] \(finished)/\(count)\(terminal ? "" : "\n")".data(using: .utf8)!)
            }
            if finished >= count { break }
            usleep(50_000)
        }
        let seconds = MonotonicClock.seconds() - start
        FileHandle.standardError.write(" done in \(Int(seconds.rounded())) s\n".data(using: .utf8)!)
    }
}

struct GenerateSamples: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-samples",
        abstract: "Write deterministic photo-like JPEGs (and every 25th as PNG) into a folder.")

    @Argument(help: "The folder to write into (created if missing).")
    var folder: String

    @Option(help: "How many images.")
    var count = 2000

    @Option(help: "Image size, e.g. 1920x1280.")
    var size = "1920x1280"

    func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be positive") }
        guard parsedSize != nil else { throw ValidationError("--size must look like 1920x1280") }
    }

    var parsedSize: (width: Int, height: Int)? { parseSize(size) }

    func run() throws {
        let (w, h) = parsedSize!
        try SampleGenerator.generate(into: folder, count: count, width: w, height: h)
    }
}
