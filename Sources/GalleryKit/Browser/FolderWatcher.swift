import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
#if canImport(Glibc)
    import Glibc
#endif

/// Tells when files land in, leave or are renamed within the folders of a library (Linux
/// inotify), or a folder is made there, and wakes the frame loop when they do, so the browser
/// walks the library again only then: no polling, nothing drawn while nothing changes. Hidden
/// files (temporary names) are ignored, and a file counts once it is closed after writing or
/// renamed into place, not while it is still being written. At most `maxFolders` folders
/// are watched (inotify's watches are a per-user budget).
///
/// ```swift
/// let watcher = FolderWatcher()
/// watcher?.watch(["/photos", "/photos/2024"])
/// // each frame:
/// if watcher?.takeChange() == true { relist() }
/// ```
final class FolderWatcher: Sendable {
    private struct State {
        /// Watch descriptors by folder.
        var watches: [String: Int32] = [:]
        var changed = false
        /// Why some folders are not watched (nil: all are).
        var incomplete: String?
    }
    private let fd: Int32
    /// A pipe's write end, closed by `deinit` to end the reading thread (which then closes the
    /// inotify descriptor and the read end).
    private let stopFD: Int32
    private let current = Locked(State())
    /// Folders watched at most.
    static let maxFolders = 8_192

    /// Adds a watch (`inotify_add_watch`; tests play a machine whose watches are used up).
    private let addWatch: @Sendable (Int32, String, UInt32) -> Int32

    /// nil when inotify is unavailable (the browser then lists folders only when opened).
    init?(
        addWatch: @escaping @Sendable (Int32, String, UInt32) -> Int32 = { fd, path, mask in
            FileName.withCString(path) { inotify_add_watch(fd, $0, mask) }
        }
    ) {
        self.addWatch = addWatch
        fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        var stop: [Int32] = [-1, -1]
        guard pipe(&stop) == 0 else {
            close(fd)
            return nil
        }
        for end in stop { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        stopFD = stop[1]
        // The thread holds the descriptors and the state, not the watcher: a closed window's
        // watcher goes, and its thread with it.
        let stopRead = stop[0]
        Thread.start(named: "tessera-watcher") { [fd, current] in
            Self.readEvents(fd: fd, stop: stopRead, current: current)
        }
    }

    deinit {
        close(stopFD)  // the thread's end of the pipe reads end-of-file
    }

    /// Watches `folders` (the first `maxFolders` of them) instead of the folders watched so far:
    /// folders still listed keep their watch, so no change to them is missed meanwhile, and a
    /// change seen before this call is still reported. Folders that cannot be watched (the
    /// user's inotify watches used up: `ENOSPC`) are reported through `incomplete`.
    func watch(_ folders: [String]) {
        let mask = UInt32(
            IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_CREATE)
        let wanted = Array(folders.prefix(Self.maxFolders))
        let keep = Set(wanted)
        current.withLock { state in
            for (folder, watch) in state.watches where !keep.contains(folder) {
                inotify_rm_watch(fd, watch)
                state.watches[folder] = nil
            }
            var failures: [Int32: Int] = [:]
            for folder in wanted where state.watches[folder] == nil {
                let watch = addWatch(fd, folder, mask | UInt32(IN_ONLYDIR))
                if watch >= 0 { state.watches[folder] = watch } else { failures[errno, default: 0] += 1 }
            }
            state.incomplete = nil
            if let spent = failures[ENOSPC] {
                state.incomplete =
                    "\(spent) folders are not watched for changes: the system's inotify watches are used up "
                    + "(raise fs.inotify.max_user_watches); reopen the library to see their changes"
            } else if folders.count > Self.maxFolders {
                state.incomplete =
                    "only the first \(Self.maxFolders) of \(folders.count) folders are watched for changes"
            }
        }
        if let incomplete { Log.warn(incomplete) }
    }

    /// Why some folders are not watched, for the user (nil: every folder is).
    var incomplete: String? { current.withLock { $0.incomplete } }

    /// Whether a change waits to be taken, without taking it.
    var hasChange: Bool { current.withLock { $0.changed } }

    /// Whether the folder changed since the last call.
    func takeChange() -> Bool {
        current.withLock { state in
            defer { state.changed = false }
            return state.changed
        }
    }

    /// Records that the folders watched by `watches` changed (`overflowed`: events were lost,
    /// so anything may have), and says whether that is news to the browser.
    private static func noteChange(in watches: Set<Int32>, overflowed: Bool, current: Locked<State>) -> Bool {
        current.withLock { state in
            // Folders no longer watched are not news; a lost event may be anywhere.
            guard overflowed || !Set(state.watches.values).isDisjoint(with: watches) else { return false }
            state.changed = true
            return true
        }
    }

    private static func readEvents(fd: Int32, stop: Int32, current: Locked<State>) {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer {
            buffer.deallocate()
            close(fd)
            close(stop)
        }
        while true {
            var ready = [
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            ]
            let polled = poll(&ready, 2, -1)
            if polled < 0 && errno == EINTR { continue }
            guard polled > 0, ready[1].revents == 0 else { return }
            let n = read(fd, buffer, capacity)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            let (watches, overflowed) = Self.changes(in: UnsafeRawBufferPointer(start: buffer, count: n))
            guard !watches.isEmpty || overflowed else { continue }
            if noteChange(in: watches, overflowed: overflowed, current: current) { FrameWaker.wake() }
        }
    }

    /// The watches whose folders changed in a read of inotify events, and whether the kernel's
    /// queue overflowed (events were dropped: anything may have changed). Hidden files
    /// (temporary names) are not news, nor is a file being made until it is closed.
    static func changes(in events: UnsafeRawBufferPointer) -> (watches: Set<Int32>, overflowed: Bool) {
        let header = MemoryLayout<inotify_event>.size
        var offset = 0
        var watches: Set<Int32> = []
        var overflowed = false
        while offset + header <= events.count {
            let event = events.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
            if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { overflowed = true }
            let nameLength = Int(event.len)
            let first = nameLength > 0 && offset + header < events.count ? events[offset + header] : 0
            let isFileCreated = event.mask & UInt32(IN_CREATE) != 0 && event.mask & UInt32(IN_ISDIR) == 0
            if first != UInt8(ascii: "."), !isFileCreated, event.wd >= 0 { watches.insert(event.wd) }
            offset += header + nameLength
        }
        return (watches, overflowed)
    }
}
