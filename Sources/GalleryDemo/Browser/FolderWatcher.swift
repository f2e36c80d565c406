import Foundation
import Render2D
#if canImport(Glibc)
import Glibc
#endif

/// Tells when files land in, leave or are renamed within one folder (Linux inotify), and
/// wakes the frame loop when they do, so the browser lists the folder again only then: no
/// polling, nothing drawn while nothing changes. Hidden files (temporary names) are ignored,
/// and a file counts once it is closed after writing or renamed into place, not while it is
/// still being written.
///
/// ```swift
/// let watcher = FolderWatcher()
/// watcher?.watch("/photos")
/// // each frame:
/// if watcher?.takeChange() == true { relist() }
/// ```
final class FolderWatcher: Sendable {
    private let fd: Int32
    private let current = Locked<(watch: Int32, changed: Bool)>((-1, false))

    /// nil when inotify is unavailable (the browser then lists folders only when opened).
    init?() {
        fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let thread = Thread { [self] in readEvents() } // lives as long as the process
        thread.name = "tessera-folder-watcher"
        thread.start()
    }

    /// Watches `folder` instead of the folder watched so far.
    func watch(_ folder: String) {
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
        current.withLock { state in
            if state.watch >= 0 { inotify_rm_watch(fd, state.watch) }
            state.watch = inotify_add_watch(fd, folder, mask | UInt32(IN_ONLYDIR))
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
            var relevant = false
            var watch: Int32 = -1
            while offset + header <= n {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameLength = Int(event.len)
                let first = nameLength > 0 ? buffer.load(fromByteOffset: offset + header, as: UInt8.self) : 0
                if first != UInt8(ascii: ".") { relevant = true; watch = event.wd }
                offset += header + nameLength
            }
            guard relevant else { continue }
            let woke = current.withLock { state -> Bool in
                guard watch == state.watch else { return false } // a folder no longer watched
                state.changed = true
                return true
            }
            if woke { FrameWaker.wake() }
        }
    }
}
