import XCTest
import Foundation
import TestSupport
import CSDL2
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// The persistent thumbnails follow the standard as GNOME reads it, record only lasting
/// failures, and never write through a link or into a shared folder.
final class ThumbnailCacheTests: XCTestCase {
    private func setTimes(_ path: String, _ seconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        utimensat(AT_FDCWD, path, &times, 0)
    }

    func testURIsAreGLibsOfTheCanonicalPath() throws {
        // What GLib's g_filename_to_uri gives (checked with a C program against libglib): ';'
        // '#' '?' and '%' are escaped too.
        XCTAssertEqual(
            FreedesktopThumbnails.uri(forPath: "/nonexistent/a;b c/é#?%.jpg"),
            "file:///nonexistent/a%3Bb%20c/%C3%A9%23%3F%25.jpg")
        let dir = try ScratchFolder("uri")
        try SamplePhotos.write([1], to: dir.file("real.jpg"))
        try FileManager.default.createSymbolicLink(
            atPath: dir.file("link.jpg"), withDestinationPath: dir.file("real.jpg"))
        XCTAssertEqual(
            FreedesktopThumbnails.uri(forPath: dir.file("link.jpg")),
            FreedesktopThumbnails.uri(forPath: dir.file("real.jpg")),
            "a link's thumbnail is its target's")
        XCTAssertEqual(
            FreedesktopThumbnails.uri(forPath: dir.file("./real.jpg")),
            FreedesktopThumbnails.uri(forPath: dir.file("real.jpg")))
    }

    func testOnlyLastingFailuresAreRecorded() throws {
        let dir = try ScratchFolder("transient")
        let cache = FreedesktopThumbnails(root: dir.file("thumbnails"))
        // Truncated just now: most likely still being copied.
        let copying = dir.file("copying.jpg")
        let photo = try SamplePhotos.jpegData(SamplePhotos.render(width: 120, height: 90, seed: 2))
        try SamplePhotos.write(Array(photo.prefix(photo.count / 3)), to: copying)
        guard case .failure = cache.thumbnail(path: copying, spec: ThumbnailSpec(side: 64)) else {
            return XCTFail("truncated")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.failurePath(forFile: copying)))
        setTimes(copying, 1_500_000_000)
        _ = cache.thumbnail(path: copying, spec: ThumbnailSpec(side: 64))
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: cache.failurePath(forFile: copying)), "old and truncated: lasting")
        // Unreadable to this user: a passing condition (permissions change), not recorded.
        let locked = dir.file("locked.jpg")
        try SamplePhotos.write(photo, to: locked)
        setTimes(locked, 1_500_000_000)
        chmod(locked, 0)
        let previous = tessera_set_filesystem_uid(65534)  // as an ordinary user (root reads everything)
        let result = cache.thumbnail(path: locked, spec: ThumbnailSpec(side: 64))
        _ = tessera_set_filesystem_uid(previous)
        guard case .failure(.unreadable) = result else { return XCTFail("unreadable: \(result)") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.failurePath(forFile: locked)))
    }

    /// A cache in a scratch folder and a 400×300 photo beside it, dated 2020-09-13.
    private func cacheAndPhoto(_ name: String) throws -> (
        dir: ScratchFolder, cache: FreedesktopThumbnails, photo: String
    ) {
        let dir = try ScratchFolder(name)
        let photo = dir.file("photo.jpg")
        try SamplePhotos.writeJPEG(SamplePhotos.render(width: 400, height: 300, seed: 5), to: photo)
        setTimes(photo, 1_600_000_000)
        return (dir, FreedesktopThumbnails(root: dir.file("thumbnails")), photo)
    }

    func testAThumbnailOfAnotherSizeOfTheFileIsNotUsed() throws {
        let session = try cacheAndPhoto("thumb-size")  // holds the scratch folder
        let (cache, photo) = (session.cache, session.photo)
        _ = try cache.thumbnail(path: photo, spec: ThumbnailSpec(side: 100)).get()
        cache.flush()
        XCTAssertEqual(
            try cache.thumbnail(path: photo, spec: ThumbnailSpec(side: 100)).get().dctScale, 0, "from the cache")
        // Rewritten within the same second: same MTime, another size.
        try SamplePhotos.writeJPEG(SamplePhotos.render(width: 400, height: 300, seed: 6), to: photo)
        setTimes(photo, 1_600_000_000)
        XCTAssertNotEqual(
            try cache.thumbnail(path: photo, spec: ThumbnailSpec(side: 100)).get().dctScale, 0, "decoded again")
    }

    func testThePhotoIsReadOnceTheCachedThumbnailComesFromThoseBytes() throws {
        let session = try cacheAndPhoto("read-once")  // holds the scratch folder
        let (cache, photo) = (session.cache, session.photo)
        let gate = DispatchSemaphore(value: 0)
        cache.writer.enqueue { gate.wait() }  // the writer is busy until the photo is gone
        _ = try cache.thumbnail(path: photo, spec: ThumbnailSpec(side: 100)).get()
        let entry = cache.path(forFile: photo, folder: "large")  // 256 px covers a 100 px fill of 4:3
        XCTAssertEqual(unlink(photo), 0)
        gate.signal()
        cache.flush()
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: entry), "made from the bytes read for the screen, not read again")
    }

    func testTheWriterHoldsBytesOnlyWithinItsBudget() {
        let writer = BackgroundWriter(maxHeldBytes: 1000)
        let gate = DispatchSemaphore(value: 0)
        XCTAssertTrue(writer.enqueue { gate.wait() })
        XCTAssertTrue(writer.enqueue(holding: 600) {})
        XCTAssertFalse(writer.enqueue(holding: 600) {}, "600 + 600 is over 1000: the caller reads the file again later")
        XCTAssertTrue(writer.enqueue(holding: 400) {})
        gate.signal()
        writer.flush()
        XCTAssertTrue(writer.enqueue(holding: 1000) {}, "what ran is released")
        writer.flush()
    }

    func testWithNoHomeInTheEnvironmentNoSharedFolderIsUsed() {
        let home = getenv("HOME").map { String(cString: $0) },
            cache = getenv("XDG_CACHE_HOME").map { String(cString: $0) }
        unsetenv("HOME")
        unsetenv("XDG_CACHE_HOME")
        defer {
            if let home { setenv("HOME", home, 1) }
            if let cache { setenv("XDG_CACHE_HOME", cache, 1) }
        }
        let root = FreedesktopThumbnails.defaultRoot()
        XCTAssertNotNil(root, "the password database knows this user's home")
        XCTAssertFalse(root?.hasPrefix("/tmp") ?? false, "never a shared folder: \(root ?? "")")
        XCTAssertEqual(root, UserFolders.home.map { $0 + "/.cache/thumbnails" })
    }

    func testNewFilesNeverFollowALinkNorReplaceAFile() throws {
        let dir = try ScratchFolder("write-new")
        try SamplePhotos.write([1, 2, 3], to: dir.file("victim"))
        try FileManager.default.createSymbolicLink(
            atPath: dir.file("trap.tmp"), withDestinationPath: dir.file("victim"))
        XCTAssertThrowsError(try RegularFile.writeNew([9], to: dir.file("trap.tmp")))
        XCTAssertThrowsError(try RegularFile.writeNew([9], to: dir.file("victim")))
        XCTAssertEqual(try RegularFile.read(dir.file("victim"), maxBytes: 10), [1, 2, 3], "untouched")
        try RegularFile.writeNew([7, 8], to: dir.file("new"), mode: 0o600)
        var st = stat()
        stat(dir.file("new"), &st)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
    }

    /// FuzzThumbnailCache's corpus (Fuzz/Corpus): each cache file gives a thumbnail of the size
    /// asked for, or nothing; our own entry and another app's without an original size both read.
    func testEveryCacheFileInputGivesAThumbnailOrNothing() throws {
        let folder = (#filePath as NSString).deletingLastPathComponent + "/../../Fuzz/Corpus/FuzzThumbnailCache"
        var read: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
            let input = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            guard input.count > 1 else { continue }
            let spec = ThumbnailSpec(side: 16 + Int(input[0] & 63) * 4, fill: input[0] & 64 != 0)
            guard
                let thumb = FreedesktopThumbnails.cachedThumbnail(
                    fromPNG: Array(input.dropFirst()), uri: "file:///x.jpg", mtime: "1",
                    fileSize: 1000, spec: spec)
            else { continue }
            read.append(name)
            XCTAssertEqual(thumb.pixels.bytes.count, thumb.pixels.width * thumb.pixels.height * 4, name)
            XCTAssertEqual(thumb.dctScale, 0, "from the cache")
        }
        XCTAssertEqual(read, ["entry.png", "other-app.png"], "timeout-text-chunk-past-the-end.png is refused, at once")
        // The same entry for another file, time or size is not used.
        let entry = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/entry.png")).dropFirst())
        XCTAssertNil(
            FreedesktopThumbnails.cachedThumbnail(
                fromPNG: entry, uri: "file:///y.jpg", mtime: "1", fileSize: 1000,
                spec: ThumbnailSpec(side: 64)))
        XCTAssertNil(
            FreedesktopThumbnails.cachedThumbnail(
                fromPNG: entry, uri: "file:///x.jpg", mtime: "1", fileSize: 999,
                spec: ThumbnailSpec(side: 64)))
    }
}
