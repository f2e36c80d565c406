import ArgumentParser
import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport

/// An image file the demo shows.
struct Photo: Identifiable, Sendable {
    /// Its index in the list it was numbered for.
    var id: Int
    let path: String
    let name: String
    /// The folder it is in, as the library was walked (the key of its sidecar).
    var folder: String
    var rating: Int
    /// Bytes, and modification time (Unix seconds).
    var size: Int64 = 0
    var modified: Double = 0
    var isFavorite = false
    /// Its color label and pick flag (from its XMP sidecar, or the folder's `.tessera.json`).
    var label: ColorLabel?
    var flag: PickFlag?
    /// When it was taken (EXIF `DateTimeOriginal`, Unix seconds), once read.
    var taken: Double?
    /// The month it belongs to (`PhotoMonth`): when it was taken, else when it was modified.
    var month = 0
    /// Its upright width over its height, once its header was read (0: not known yet).
    var aspectRatio: Float = 0

    /// The date the library sorts and groups it by.
    var date: Double { taken ?? modified }
}

/// Months as the browser's sections count them: `year × 12 + month − 1`, in local time.
///
/// ```swift
/// let key = PhotoMonth.key(of: photo.date)   // 2024 × 12 + 4 for May 2024
/// PhotoMonth.title(of: key)                  // "May 2024"
/// ```
enum PhotoMonth {
    static func key(of seconds: Double) -> Int {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return 0 }
        var time = time_t(seconds.rounded(.down)), parts = tm()
        guard localtime_r(&time, &parts) != nil else { return 0 }
        return (Int(parts.tm_year) + 1900) * 12 + Int(parts.tm_mon)
    }

    /// `photos` grouped by month, oldest first, keeping their order within a month: a
    /// counting sort, O(n) (a frame regroups 100,000 photos as dates arrive). Photos already
    /// in that order (libraries laid out by date) come back as they are.
    static func grouped(_ photos: [Photo]) -> [Photo] {
        // By index, not by element: walking the photos themselves would copy each (three strings retained).
        guard photos.indices.dropFirst().contains(where: { photos[$0 - 1].month > photos[$0].month }) else {
            return photos
        }
        var counts: [Int: Int] = [:]
        for i in photos.indices { counts[photos[i].month, default: 0] += 1 }
        var next: [Int: Int] = [:]
        var start = 0
        for month in counts.keys.sorted() {
            next[month] = start
            start += counts[month]!
        }
        var order = [Int](repeating: 0, count: photos.count)
        for i in photos.indices {
            let month = photos[i].month
            order[next[month]!] = i
            next[month]! += 1
        }
        return order.map { photos[$0] }
    }

    static let names = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    static func title(of key: Int) -> String {
        let year = key >= 0 ? key / 12 : (key - 11) / 12
        return "\(names[key - year * 12]) \(year)"
    }
}

/// The image files of a folder and all its subfolders (`LibraryWalk` says which files count
/// and how links and loops are treated), in the order of their paths.
enum PhotoLibrary {
    enum LoadError: Error, CustomStringConvertible {
        case missing(String), notAFolder(String), unreadable(String, String), empty(String)
        /// No user cache folder to keep `name` in.
        case noCacheFolder(String)
        var description: String {
            switch self {
            case .noCacheFolder(let name):
                "no cache folder to keep \(name) in: \(UserFolders.unknownReason) (set HOME or XDG_CACHE_HOME)"
            case .missing(let p): "no such folder: \(p)"
            case .notAFolder(let p): "\(p) is a file, not a folder"
            case .unreadable(let p, let why): "cannot read \(p): \(why)"
            case .empty(let p): "\(p) has no images (jpg, png, gif, bmp, tga, webp) in it or its subfolders"
            }
        }
    }

    /// Every photo under `folder`, numbered from 0 in path order (the whole walk, waited for:
    /// benches and profiling; the browser walks in the background with `LibraryScan`).
    static func load(_ folder: String) throws(LoadError) -> [Photo] {
        var walk = LibraryWalk(root: folder)
        var photos: [Photo] = []
        try walk.run { found in
            for photo in found.photos {
                var photo = photo
                photo.id = photos.count
                photos.append(photo)
            }
            return true
        }
        for problem in walk.problems { Log.warn("\(problem.path): \(problem.why)") }
        guard !photos.isEmpty else { throw .empty(folder) }
        return photos
    }

    /// Throws a clear error for a missing folder, a file, or a tree without a single photo;
    /// stops walking at the first photo, or after `folderLimit` folders without one (the
    /// browser's own walk then tells).
    static func check(_ folder: String, folderLimit: Int = 10_000) throws(LoadError) {
        var walk = LibraryWalk(root: folder)
        var found = false, folders = 0
        try walk.run { folder in
            folders += 1
            found = !folder.photos.isEmpty
            return !found && folders < folderLimit
        }
        guard found || folders >= folderLimit else { throw .empty(folder) }
    }

    /// `$XDG_CACHE_HOME/tessera/<name>` (or `~/.cache/tessera/<name>`); throws when the user
    /// has no cache folder (a shared one such as /tmp is never used instead).
    static func cacheFolder(_ name: String) throws(LoadError) -> String {
        guard let cache = UserFolders.cache else { throw .noCacheFolder(name) }
        return cache + "/tessera/" + name
    }

    /// The folder of `count` generated samples of `width`×`height` (camera-like ones in
    /// `YYYY/MM/DD` folders unless told otherwise), generated on first use (waiting, with a
    /// progress bar: benchmarks and profiling need the whole library).
    static func sampleLibrary(count: Int, width: Int, height: Int, layout: SampleLayout = .camera(flat: false)) throws
        -> String
    {
        let (folder, generation) = try sampleLibraryInBackground(
            count: count, width: width, height: height, layout: layout)
        if let generation { try generation.waitShowingProgress() }
        return folder
    }

    /// The folder of `count` generated samples, and the generation still writing it (nil when
    /// it is complete): the browser opens at once and shows the photos as they land.
    static func sampleLibraryInBackground(
        count: Int, width: Int, height: Int, layout: SampleLayout = .camera(flat: false)
    )
        throws -> (folder: String, generation: SampleGeneration?)
    {
        let kind =
            switch layout {
            case .synthetic: "samples"
            case .camera(let flat): flat ? "camera-flat" : "camera"
            }
        let folder = try cacheFolder("\(kind)-\(count)-\(width)x\(height)")
        // Complete: marked so (O(1)), or, for a folder from before there were marks, every file there.
        if access(SampleGeneration.completeMarker(in: folder), F_OK) == 0 || (try? load(folder))?.count == count {
            return (folder, nil)
        }
        Log.info("generating \(count) sample photos in \(folder) (once)")
        let generation = SampleGeneration(folder: folder, count: count, width: width, height: height, layout: layout)
        try generation.start()
        return (folder, generation)
    }
}

struct GenerateSamples: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-samples",
        abstract:
            "Write deterministic photo-like JPEGs (and every 25th as PNG), or camera-like ones with EXIF, into a folder."
    )

    @Argument(help: "The folder to write into (created if missing).")
    var folder: String

    @Option(help: "How many images.")
    var count = 2000

    @Option(help: "Image size, e.g. 1920x1280 (with --camera: the long side of each photo, whose aspect varies).")
    var size = "1920x1280"

    @Flag(
        help:
            "Camera-like photos: EXIF date (bursts over five years), make and model, orientation (1, 3, 6, 8), an IFD1 thumbnail, aspect ratios 3:2, 4:3, 16:9 and 1:1, portraits; in YYYY/MM/DD folders."
    )
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
        guard camera || !flat else {
            throw ValidationError("--flat goes with --camera (the other samples are flat already)")
        }
    }

    var parsedSize: (width: Int, height: Int)? { parseSize(size) }

    func run() throws {
        let (w, h) = parsedSize!
        let generation = SampleGeneration(
            folder: folder, count: count, width: w, height: h,
            layout: camera ? .camera(flat: flat) : .synthetic)
        try generation.start()
        try generation.waitShowingProgress()
    }
}
