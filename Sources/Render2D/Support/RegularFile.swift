#if canImport(Glibc)
    import Glibc
#endif

/// Reads files that come from outside (photos, recordings, sidecars) safely: opened without
/// blocking, so a FIFO or a device named like a file is refused instead of waited on for
/// ever; only regular files (a link to one is fine); read in chunks, so nothing is allocated
/// on the strength of a size that a file or a header claims; never more than a limit.
///
/// ```swift
/// let bytes = try RegularFile.read(path, maxBytes: 64 << 20)
/// ```
public enum RegularFile {
    /// Why a file was not read.
    public enum ReadError: Error, Equatable, Sendable, CustomStringConvertible {
        /// It could not be opened or read: the system's reason.
        case unreadable(String)
        /// A FIFO, socket, device or folder: `what` names it.
        case notAFile(what: String)
        /// It is larger than the limit.
        case tooLarge(bytes: Int, limit: Int)

        public var description: String {
            switch self {
            case .unreadable(let why): why
            case .notAFile(let what): "\(what), not a file"
            case .tooLarge(let bytes, let limit):
                "the file is too large (\(bytes >> 20) MB; the limit is \(limit >> 20) MB)"
            }
        }
    }

    /// Opens `path` read-only, non-blocking and close-on-exec; returns the descriptor (the
    /// caller closes it) and the size `fstat` reports.
    public static func open(_ path: String) throws(ReadError) -> (fd: Int32, size: Int) {
        let fd = FileName.withCString(path) { Glibc.open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw .unreadable(why)
        }
        let kind = st.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            throw .notAFile(
                what: kind == S_IFIFO
                    ? "a FIFO"
                    : kind == S_IFSOCK
                        ? "a socket"
                        : kind == S_IFDIR
                            ? "a folder"
                            : kind == S_IFCHR || kind == S_IFBLK ? "a device" : "something else")
        }
        return (fd, Int(st.st_size))
    }

    /// The whole file; `tooLarge` when it is over `maxBytes` (by its size, or by what it
    /// turned out to hold while read).
    public static func read(_ path: String, maxBytes: Int) throws(ReadError) -> [UInt8] {
        let (fd, size) = try open(path)
        defer { close(fd) }
        guard size <= maxBytes else { throw .tooLarge(bytes: size, limit: maxBytes) }
        var bytes: [UInt8] = []
        try read(fd, into: &bytes, upTo: maxBytes + 1)
        guard bytes.count <= maxBytes else { throw .tooLarge(bytes: bytes.count, limit: maxBytes) }
        return bytes
    }

    /// Writes `bytes` to a file that must not exist yet (`O_EXCL`: no file or link is ever
    /// followed or written over) with `mode`; a failed write removes what it created.
    public static func writeNew(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(ReadError) {
        let fd = FileName.withCString(path) {
            Glibc.open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        }
        guard fd >= 0 else { throw .unreadable("\(path): \(String(cString: strerror(errno)))") }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let why = String(cString: strerror(errno))
                close(fd)
                FileName.withCString(path) { _ = unlink($0) }
                throw .unreadable("\(path): \(why)")
            }
            written += n
        }
        guard close(fd) == 0 else {
            FileName.withCString(path) { _ = unlink($0) }
            throw .unreadable("\(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Replaces the file at `path` with `bytes` atomically: written to a new file beside it
    /// (`writeNew`, with `mode`) and renamed over it, so a reader sees the old file or the new,
    /// never half of one, and the file never has looser permissions than `mode`, even for a moment.
    ///
    /// ```swift
    /// try RegularFile.replace(Array(json.utf8), at: "trace.json", mode: 0o600)
    /// ```
    public static func replace(_ bytes: [UInt8], at path: String, mode: mode_t = 0o644) throws(ReadError) {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try writeNew(bytes, to: temporary, mode: mode)
        guard FileName.withCString(temporary, { from in FileName.withCString(path) { rename(from, $0) } }) == 0 else {
            let why = String(cString: strerror(errno))
            FileName.withCString(temporary) { _ = unlink($0) }
            throw .unreadable("\(path): \(why)")
        }
    }

    /// Appends up to `limit - bytes.count` bytes from `fd`, stopping at the end of the file:
    /// read into uninitialized buffers of 64 KB growing to 1 MB, so a small file costs a small
    /// buffer and nothing is zero-filled first (the frame inspector found a 437-byte state file
    /// taking 500 ms to save in a debug build, filling a megabyte with zeros byte by byte).
    public static func read(_ fd: Int32, into bytes: inout [UInt8], upTo limit: Int) throws(ReadError) {
        var chunk = 64 << 10
        while bytes.count < limit {
            let want = min(chunk, limit - bytes.count)
            var failure: Int32 = 0
            let piece = [UInt8](unsafeUninitializedCapacity: want) { buffer, count in
                count = 0
                while true {
                    let n = Glibc.read(fd, buffer.baseAddress!, want)
                    if n >= 0 {
                        count = n
                        return
                    }
                    if errno != EINTR {
                        failure = errno
                        return
                    }
                }
            }
            if failure != 0 { throw .unreadable(String(cString: strerror(failure))) }
            if piece.isEmpty { return }
            bytes += piece
            chunk = min(chunk * 2, 1 << 20)
        }
    }
}
