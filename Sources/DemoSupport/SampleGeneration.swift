import Foundation
import Imaging
import Profiling
import Render2D

/// How samples are made and named.
package enum SampleLayout: Sendable, Equatable {
    /// "photo-000001.jpg", …, every 25th a PNG, in one folder, without metadata.
    case synthetic
    /// Camera-like JPEGs with EXIF (`CameraShots`), in `YYYY/MM/DD` folders, or in one folder when flat.
    case camera(flat: Bool)
}

/// Writes `count` deterministic photo-like samples into a folder (`SampleLayout`) on
/// background threads below the UI's priority, so a window showing the folder stays smooth
/// while they are made.
///
/// Each file is written under a hidden temporary name and renamed into place once every file
/// before it is: a folder listing sees whole files, in order. Files already there (from an
/// earlier, interrupted run) are kept: the same index always gives the same bytes. Every
/// file that lands wakes the frame loop (`FrameWaker`).
///
/// ```swift
/// let generation = SampleGeneration(folder: dir, count: 60, width: 1280, height: 853)
/// try generation.start()
/// // each frame: if generation.published != shown { list the folder again }
/// ```
package final class SampleGeneration: Sendable {
    package let folder: String
    package let count: Int
    package let width: Int
    package let height: Int
    /// The camera-like library's plan (nil: synthetic samples).
    package let shots: [CameraShot]?

    private struct State {
        var next = 0
        var finished: [Bool]
        var published = 0
        var failure: String?
    }
    private let state: Locked<State>

    package init(folder: String, count: Int, width: Int, height: Int, layout: SampleLayout = .synthetic) {
        self.folder = folder
        self.count = max(0, count)
        self.width = width
        self.height = height
        if case .camera(let flat) = layout {
            shots = CameraShots.plan(count: max(0, count), longSide: max(width, height), flat: flat)
        } else {
            shots = nil
        }
        state = Locked(State(finished: [Bool](repeating: false, count: max(0, count))))
    }

    /// "photo-000001.jpg"; 6 of every 10 files also carry "photo" in another script after the
    /// number ("photo-000005 写真.jpg"), so names still sort in the order they are written.
    /// Every 25th file is a PNG.
    package static func fileName(_ index: Int) -> String {
        let number = String(index + 1), word = ScriptSamples.photoWords[index % ScriptSamples.photoWords.count]
        return "photo-" + String(repeating: "0", count: max(0, 6 - number.count)) + number
            + (word.isEmpty ? "" : " " + word)
            + (index % 25 == 24 ? ".png" : ".jpg")
    }

    /// Where sample `index` goes, relative to the folder.
    package func relativePath(_ index: Int) -> String { shots?[index].relativePath ?? Self.fileName(index) }

    /// The hidden name sample `index` is written under before it is renamed into place.
    private func temporaryPath(_ index: Int) -> String {
        let path = relativePath(index) as NSString
        let folder = path.deletingLastPathComponent
        return self.folder + "/" + (folder.isEmpty ? "" : folder + "/") + "." + path.lastPathComponent + ".part"
    }

    /// Files in place, in order: 0..<published exist.
    package var published: Int { state.withLock { $0.published } }
    /// The first write that failed (the generation then stops).
    package var failure: String? { state.withLock { $0.failure } }
    package var isDone: Bool { state.withLock { $0.published == count || $0.failure != nil } }

    /// Creates the folder and starts one worker per core (at most `workers`), niced below the UI.
    package func start(workers: Int = WorkerPools.sampleThreads) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for _ in 0..<max(1, min(workers, count)) {
            Thread.start(named: "tessera-samples", nice: 10) { [self] in work() }
        }
    }

    private func work() {
        while let index = state.withLock({ s -> Int? in
            guard s.failure == nil, s.next < count else { return nil }
            defer { s.next += 1 }
            return s.next
        }) {
            let name = relativePath(index), path = folder + "/" + name
            var failure: String?
            if access(path, F_OK) != 0 {
                do {
                    let bytes: [UInt8]
                    if let shots {
                        try FileManager.default.createDirectory(
                            atPath: (path as NSString).deletingLastPathComponent,
                            withIntermediateDirectories: true)
                        bytes = try CameraShots.jpeg(shots[index], seed: UInt64(index))
                    } else {
                        let pixels = SamplePhotos.render(width: width, height: height, seed: UInt64(index))
                        bytes =
                            name.hasSuffix(".png") ? try PNGEncoder.encode(pixels) : try SamplePhotos.jpegData(pixels)
                    }
                    try SamplePhotos.write(bytes, to: temporaryPath(index))
                    if let shot = shots?[index] {  // as importers keep it: the file's time is when it was taken
                        var times = [
                            timespec(tv_sec: Int(shot.takenAt), tv_nsec: 0),
                            timespec(tv_sec: Int(shot.takenAt), tv_nsec: 0),
                        ]
                        utimensat(AT_FDCWD, temporaryPath(index), &times, 0)
                    }
                } catch {
                    failure = "\(path): \(error)"
                }
            }
            publish(index, failure: failure)
        }
    }

    /// The hidden file a complete set of samples has in its folder.
    package static func completeMarker(in folder: String) -> String { folder + "/.tessera-samples-complete" }

    /// Marks `index` written, then renames every finished file that now has all before it in place.
    private func publish(_ index: Int, failure: String?) {
        let landed = state.withLock { s -> Bool in
            if let failure {
                s.failure = s.failure ?? failure
                return false
            }
            s.finished[index] = true
            var moved = false
            while s.published < count && s.finished[s.published] {
                let name = relativePath(s.published)
                let temporary = temporaryPath(s.published)
                if access(temporary, F_OK) == 0 && rename(temporary, folder + "/" + name) != 0 {
                    s.failure = "\(folder)/\(name): \(String(cString: strerror(errno)))"
                    return moved
                }
                s.published += 1
                moved = true
            }
            // The whole set is there: say so, so the next start need not count the files.
            if moved && s.published == count {
                close(open(Self.completeMarker(in: folder), O_WRONLY | O_CREAT | O_CLOEXEC, 0o644))
            }
            return moved
        }
        if landed || failure != nil { FrameWaker.wake() }
    }

    /// Blocks until done, drawing a progress bar on standard error (a line per 10 % when it
    /// is not a terminal). Throws the first failure.
    package func waitShowingProgress() throws {
        let start = MonotonicClock.seconds()
        let terminal = isatty(2) != 0
        var shown = -1
        while true {
            let (done, failure) = state.withLock { ($0.published, $0.failure) }
            if let failure { throw SampleGenerationFailure(message: "could not write a sample: \(failure)") }
            let step = count == 0 ? 100 : terminal ? done * 100 / count : done * 10 / count
            if step != shown {
                shown = step
                let width = 30, filled = count == 0 ? width : done * width / count
                let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                // never traps on a closed pipe
                Log.progress("\(terminal ? "\r" : "")[\(bar)] \(done)/\(count)\(terminal ? "" : "\n")")
            }
            if done >= count { break }
            usleep(20_000)
        }
        let seconds = MonotonicClock.seconds() - start
        Log.progress(" done in \(FrameTimeSummary.format(seconds)) s\n")
    }
}

/// Why samples could not be made: the file that could not be written and the system's reason.
package struct SampleGenerationFailure: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
