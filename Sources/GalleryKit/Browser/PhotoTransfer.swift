import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport

/// Moves or copies photos into another folder, as a file manager does: with the sidecars that
/// are theirs alone (`XMPSidecar.ownSidecars`), never over a file already there unless asked
/// (`Clash`), and each photo either where it was or where it went at every moment. A move
/// within a file system is a link and an unlink; across file systems, and for a copy, the
/// bytes go into a hidden file in the folder first, which takes the name only once complete.
///
/// ```swift
/// let taken = PhotoTransfer.clashes(paths, into: folder)   // ask the user when not empty
/// let outcome = PhotoTransfer.transfer(paths[0], into: folder, copying: false, clash: .keepBoth)
/// ```
enum PhotoTransfer {
    /// What to do with a photo whose name the folder has already.
    enum Clash: Sendable, Equatable {
        /// Both stay: the photo takes a free name ("beach 2.jpg").
        case keepBoth
        /// The photo stays where it was.
        case skip
        /// The file there goes to the trash (with its sidecars), and the photo takes its place.
        case replace
    }

    /// What became of one photo.
    enum Outcome: Sendable, Equatable {
        /// It is at `path` now (for a copy: its copy). `replaced`: the file that had the name is
        /// in the trash. `problems`: sidecars that did not follow it.
        case placed(at: String, replaced: Bool, problems: [String])
        /// It had a name the folder has, and the user chose to skip those.
        case skipped
        /// It stayed where it was, for this reason.
        case failed(String)
    }

    /// The photos among `paths` whose name `folder` has already (a move to the folder they
    /// are in is not a clash: it does nothing).
    static func clashes(_ paths: [String], into folder: String) -> [String] {
        paths.filter { path in
            let target = folder + "/" + FileName.last(of: path)
            return target != path && exists(target)
        }
    }

    /// Moves (or copies) the photo at `path` into `folder`, its own sidecars with it.
    static func transfer(_ path: String, into folder: String, copying: Bool, clash: Clash) -> Outcome {
        let target = folder + "/" + FileName.last(of: path)
        if target == path && !copying { return .skipped }  // already there
        return transfer(path, to: target, copying: copying, clash: target == path ? .keepBoth : clash)
    }

    /// Moves (or copies) the photo at `path` to `target` (a full path), its own sidecars with it.
    static func transfer(_ path: String, to target: String, copying: Bool, clash: Clash) -> Outcome {
        let folder = (target as NSString).deletingLastPathComponent, name = FileName.last(of: target)
        var target = target
        let sidecars = XMPSidecar.ownSidecars(of: path)  // before the photo leaves (they are found by its siblings)
        var replaced = false
        for _ in 0..<8 {  // a name taken meanwhile by another program: decided again
            switch place(path, at: target, copying: copying) {
            case .placed:
                return .placed(
                    at: target, replaced: replaced, problems: carry(sidecars, of: path, to: target, copying: copying))
            case .failed(let why):
                return .failed(why)
            case .taken:
                switch clash {
                case .skip:
                    return .skipped
                case .keepBoth:
                    guard let free = freeName(for: name, in: folder) else {
                        return .failed("no free name in the folder")
                    }
                    target = folder + "/" + free
                case .replace:
                    if let why = trash(target) { return .failed("the photo there could not go to the trash: \(why)") }
                    replaced = true
                }
            }
        }
        return .failed("its name kept being taken")
    }

    /// A name like `name` that neither a file in `folder` nor a sidecar of one has: "beach 2.jpg",
    /// "beach 3.jpg"… (nil after 10,000 tries).
    static func freeName(for name: String, in folder: String) -> String? {
        let stem = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        for k in 2...10_000 {
            let candidate = "\(stem) \(k)" + (ext.isEmpty ? "" : "." + ext)
            let path = folder + "/" + candidate
            if !exists(path) && !XMPSidecar.candidates(for: path).contains(where: exists) { return candidate }
        }
        return nil
    }

    private enum Placement { case placed, taken, failed(String) }

    /// Puts the file at `path` at `target` (moved, or a copy), never over a file there.
    private static func place(_ path: String, at target: String, copying: Bool) -> Placement {
        if !copying {
            if FileName.withCString(path, { from in FileName.withCString(target) { link(from, $0) } }) == 0 {
                _ = FileName.withCString(path) { unlink($0) }
                return .placed
            }
            let why = errno
            switch why {
            case EEXIST: return .taken
            case EXDEV, EPERM, EMLINK: break  // another file system, or one without links: copied below
            case EACCES, EROFS: return .failed("the folder is read-only")
            default: return .failed(String(cString: strerror(why)))
            }
        }
        let folder = (target as NSString).deletingLastPathComponent
        let partial =
            folder
            + "/.\(FileName.last(of: target)).partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = FileName.withCString(partial) { unlink($0) } }
        if let why = FileCopy.copy(path, to: partial) { return .failed(why) }
        if FileName.withCString(partial, { from in FileName.withCString(target) { link(from, $0) } }) != 0 {
            let why = errno
            if why == EEXIST { return .taken }
            guard why == EPERM || why == EMLINK else { return .failed(String(cString: strerror(why))) }
            // No hard links here: a rename, refused if the name is taken.
            if exists(target) { return .taken }
            guard FileName.withCString(partial, { from in FileName.withCString(target) { rename(from, $0) } }) == 0
            else {
                return .failed(String(cString: strerror(errno)))
            }
        }
        if !copying, FileName.withCString(path, { unlink($0) }) != 0 {
            let why = String(cString: strerror(errno))  // before anything else can change errno
            // Both copies are whole: the photo is not lost, only not removed from where it was.
            Log.warn("moved \(FileName.last(of: path)), but the original could not be removed: \(why)")
        }
        return .placed
    }

    /// Moves (or copies) `sidecars` of the photo that was at `old` to go with it at `new`;
    /// returns the problems.
    private static func carry(_ sidecars: [String], of old: String, to new: String, copying: Bool) -> [String] {
        let oldNames = XMPSidecar.candidates(for: old), newNames = XMPSidecar.candidates(for: new)
        var problems: [String] = []
        for sidecar in sidecars {
            guard let k = oldNames.firstIndex(of: sidecar), k < newNames.count else { continue }
            switch place(sidecar, at: newNames[k], copying: copying) {
            case .placed: break
            case .taken: problems.append("\(FileName.last(of: sidecar)): a sidecar of that name is there")
            case .failed(let why): problems.append("\(FileName.last(of: sidecar)): \(why)")
            }
        }
        return problems
    }

    /// Moves the photo at `path` and its own sidecars to the trash; returns why it could not.
    private static func trash(_ path: String) -> String? {
        let sidecars = XMPSidecar.ownSidecars(of: path)
        if case .failure(let why) = Trash.move(path) { return why.description }
        for sidecar in sidecars { _ = Trash.move(sidecar) }
        return nil
    }

    private static func exists(_ path: String) -> Bool { XMPSidecar.exists(path) }
}
