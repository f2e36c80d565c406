import Foundation
import Render2D
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
    private let fd: Int32
    private let current = Locked<(watches: Set<Int32>, changed: Bool)>(([], false))
    /// Folders watched at most.
    static let maxFolders = 8_192

    /// nil when inotify is unavailable (the browser then lists folders only when opened).
    init?() {
        fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        Thread.start(named: "tessera-watcher") { [self] in readEvents() } // lives as long as the process
    }

    /// Watches `folders` (the first `maxFolders` of them) instead of the folders watched so far.
    func watch(_ folders: [String]) {
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_CREATE)
        if folders.count > Self.maxFolders { Log.info("watching the first \(Self.maxFolders) of \(folders.count) folders for changes") }
        current.withLock { state in
            for watch in state.watches { inotify_rm_watch(fd, watch) }
            state.watches = Set(folders.prefix(Self.maxFolders).map { inotify_add_watch(fd, $0, mask | UInt32(IN_ONLYDIR)) }.filter { $0 >= 0 })
            state.changed = false
        }
    }

    /// Whether the folder changed since the last call.
    func takeChange() -> Bool {
        current.withLock { state in
            defer { state.changed = false }
            return state.changed
        }
    }

    private func readEvents() {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        let header = MemoryLayout<inotify_event>.size
        while true {
            let n = read(fd, buffer, capacity)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            var offset = 0
            var watches: Set<Int32> = []
            while offset + header <= n {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameLength = Int(event.len)
                let first = nameLength > 0 ? buffer.load(fromByteOffset: offset + header, as: UInt8.self) : 0
                // A file being made is not news until it is closed; a folder being made is.
                let isFileCreated = event.mask & UInt32(IN_CREATE) != 0 && event.mask & UInt32(IN_ISDIR) == 0
                if first != UInt8(ascii: "."), !isFileCreated { watches.insert(event.wd) }
                offset += header + nameLength
            }
            guard !watches.isEmpty else { continue }
            let woke = current.withLock { state -> Bool in
                guard !state.watches.isDisjoint(with: watches) else { return false } // folders no longer watched
                state.changed = true
                return true
            }
            if woke { FrameWaker.wake() }
        }
    }
}
