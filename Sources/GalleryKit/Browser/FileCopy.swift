import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport

/// Copies a file's bytes into a new file, as the file operations need it (a rotation's copy,
/// a photo copied or moved to another file system): the new file is created, never opened
/// over one that exists, and takes the mode asked whatever the umask.
///
/// ```swift
/// if let problem = FileCopy.copy(source, to: FileName.cString(target), mode: 0o644) { show(problem) }
/// ```
enum FileCopy {
    /// Copies the open file `source` into a new file `target` with `mode`; returns why it could not.
    static func copy(_ source: Int32, to target: [CChar], mode: mode_t) -> String? {
        let out = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard out >= 0 else {
            return errno == EACCES || errno == EROFS ? "the folder is read-only" : String(cString: strerror(errno))
        }
        defer { close(out) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return String(cString: strerror(errno)) }
            if n == 0 { break }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { write(out, $0.baseAddress! + written, n - written) }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { return "cannot copy it: " + String(cString: strerror(errno)) }
                written += w
            }
        }
        fchmod(out, mode)  // as the photo was, whatever the umask
        guard fsync(out) == 0 else { return "cannot copy it: " + String(cString: strerror(errno)) }
        return nil
    }

    /// Copies the file at `path` into a new file `target`, with its mode; returns why it could not.
    static func copy(_ path: String, to target: String) -> String? {
        let source = FileName.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW) }
        guard source >= 0 else { return String(cString: strerror(errno)) }
        defer { close(source) }
        var info = stat()
        guard fstat(source, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return "not a regular file" }
        return copy(source, to: cString(target), mode: info.st_mode & 0o7777)
    }

    /// `path`'s bytes as the file system has them, NUL-terminated, for the C calls.
    static func cString(_ path: String) -> [CChar] { FileName.bytes(path).map { CChar(bitPattern: $0) } + [0] }
}
