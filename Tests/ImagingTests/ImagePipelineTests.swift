import XCTest
import Foundation
import TestSupport
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport
import CSDL2

/// Mean absolute difference per channel between two same-size buffers.
func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    var total = 0
    for i in stride(from: 0, to: a.bytes.count, by: 4) {
        for c in 0..<3 { total += abs(Int(a.bytes[i + c]) - Int(b.bytes[i + c])) }
    }
    return Double(total) / Double(a.width * a.height * 3)
}

final class ImageDecoderTests: XCTestCase {
    func testAKeyIsEqualAndHashesAlikeByItsFieldsAfterItsPathChanges() {
        let spec = ThumbnailSpec(side: 64)
        var key = ThumbnailKey(path: "/photos/a.jpg", spec: spec)
        let b = ThumbnailKey(path: "/photos/b.jpg", spec: spec)
        XCTAssertNotEqual(key, b)
        key.path = "/photos/b.jpg"
        XCTAssertEqual(key, b)
        XCTAssertEqual(key.hashValue, b.hashValue)
        XCTAssertEqual(Set([key, b, ThumbnailKey(path: "/photos/b.jpg", spec: spec, tier: .embedded)]).count, 2)
        // A path's keys hash by the path alone; its sizes, tiers and versions stay apart by `==`.
        let version = FileVersion(modifiedNs: 1_700_000_000_000_000_000, size: 1234)
        let variants = [
            b, ThumbnailKey(path: "/photos/b.jpg", spec: ThumbnailSpec(side: 128)),
            ThumbnailKey(path: "/photos/b.jpg", spec: spec, tier: .embedded),
            ThumbnailKey(path: "/photos/b.jpg", spec: spec, version: version),
            ThumbnailKey(HashedPath("/photos/b.jpg"), spec: spec, tier: .sharp, version: version),
        ]
        var byKey: [ThumbnailKey: Int] = [:]
        for (k, variant) in variants.enumerated() { byKey[variant] = k }
        XCTAssertEqual(byKey.count, 4, "the last is the fourth again, its path hashed beforehand")
        XCTAssertEqual(byKey[variants[3]], 4)
        XCTAssertEqual(Set(variants.map(\.hashValue)).count, 1)
        XCTAssertEqual(HashedPath("/photos/b.jpg"), HashedPath("/photos/b.jpg"))
        XCTAssertNotEqual(HashedPath("/photos/b.jpg"), HashedPath("/photos/c.jpg"))
    }

    func testJPEGsDecodeAtEachDCTScaleWithTheRightSizeAndContent() throws {
        let dir = try ScratchFolder("jpeg")
        let source = SamplePhotos.render(width: 800, height: 600, seed: 3)
        try SamplePhotos.writeJPEG(source, to: dir.file("a.jpg"), quality: 92)
        let cases: [(ThumbnailSpec, Int, Int, Int)] = [
            (ThumbnailSpec(side: 60, fill: false), 8, 60, 45),  // 100×75 after 1/8 covers 60 on the long side
            (ThumbnailSpec(side: 100), 4, 133, 100),  // 1/8 would give 75 on the short side: 1/4
            (ThumbnailSpec(side: 300), 2, 400, 300),  // 1/2 exactly covers: no resample
            (ThumbnailSpec(side: 599), 1, 799, 599),
            (ThumbnailSpec(side: 5000), 1, 800, 600),  // never enlarged
        ]
        for (spec, scale, w, h) in cases {
            let thumb = try ImageDecoder.thumbnail(path: dir.file("a.jpg"), spec: spec)
            XCTAssertEqual(thumb.dctScale, scale, "\(spec)")
            XCTAssertEqual(thumb.pixels.width, w, "\(spec)")
            XCTAssertEqual(thumb.pixels.height, h, "\(spec)")
            XCTAssertEqual(thumb.info, ImageInfo(format: .jpeg, width: 800, height: 600, orientation: 1))
            let reference = ImageDecoder.resample(source, width: w, height: h)
            XCTAssertLessThan(meanDifference(thumb.pixels, reference), 6, "\(spec): the thumbnail looks like the photo")
        }
    }

    func testPNGAndBMPDecodeThroughSDLImage() throws {
        let dir = try ScratchFolder("png")
        let source = SamplePhotos.render(width: 300, height: 200, seed: 5)
        try Renderer.writePNG(source, to: dir.file("a.png"))
        let png = try ImageDecoder.thumbnail(path: dir.file("a.png"), spec: ThumbnailSpec(side: 100))
        XCTAssertEqual(png.info.format, .png)
        XCTAssertEqual([png.pixels.width, png.pixels.height], [150, 100])
        XCTAssertLessThan(meanDifference(png.pixels, ImageDecoder.resample(source, width: 150, height: 100)), 1.5)
        // The same PNG under a JPEG name is still read (by content, not by name).
        try FileManager.default.copyItem(atPath: dir.file("a.png"), toPath: dir.file("misnamed.jpg"))
        XCTAssertEqual(
            try ImageDecoder.thumbnail(path: dir.file("misnamed.jpg"), spec: ThumbnailSpec(side: 100)).info.format, .png
        )
    }

    func testGIFTGAAndBMPDecodeToo() throws {
        let dir = try ScratchFolder("formats")
        // A 1×1 GIF whose only pixel is palette entry 0: red.
        let gif: [UInt8] =
            Array("GIF89a".utf8) + [
                1, 0, 1, 0, 0x80, 0, 0, 0xFF, 0, 0, 0, 0, 0, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3B,
            ]
        try SamplePhotos.write(gif, to: dir.file("red.gif"))
        // A 2×1 uncompressed true-color TGA (BGRA, bottom-up): blue then green.
        let tga: [UInt8] =
            [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 32, 8] + [255, 0, 0, 255] + [0, 255, 0, 255]
        try SamplePhotos.write(tga, to: dir.file("pair.tga"))
        let source = SamplePhotos.render(width: 40, height: 30, seed: 2)
        var copy = source.bytes
        let saved = copy.withUnsafeMutableBytes { raw -> Int32 in
            let surface = SDL_CreateRGBSurfaceWithFormatFrom(
                raw.baseAddress, 40, 30, 32, 160, tessera_pixelformat_rgba32())
            defer { SDL_FreeSurface(surface) }
            return SDL_SaveBMP_RW(surface, SDL_RWFromFile(dir.file("photo.bmp"), "wb"), 1)
        }
        XCTAssertEqual(saved, 0)
        let spec = ThumbnailSpec(side: 64)
        let red = try ImageDecoder.thumbnail(path: dir.file("red.gif"), spec: spec)
        XCTAssertEqual(red.info.format, .gif)
        XCTAssertEqual(red.pixels.pixel(x: 0, y: 0), Color(r: 255, g: 0, b: 0))
        let pair = try ImageDecoder.thumbnail(path: dir.file("pair.tga"), spec: spec)
        XCTAssertEqual(pair.info.format, .tga)
        XCTAssertEqual(
            [pair.pixels.pixel(x: 0, y: 0), pair.pixels.pixel(x: 1, y: 0)],
            [Color(r: 0, g: 0, b: 255), Color(r: 0, g: 255, b: 0)])
        let bmp = try ImageDecoder.thumbnail(path: dir.file("photo.bmp"), spec: spec)
        XCTAssertEqual(bmp.info, ImageInfo(format: .bmp, width: 40, height: 30, orientation: 1))
        XCTAssertLessThan(meanDifference(bmp.pixels, source), 1)
    }

    func testEXIFOrientationIsReadAndApplied() throws {
        // A 4×2 image: left half red, right half blue; orientation 6 = rotate 90° clockwise to display.
        var source = PixelBuffer(width: 4, height: 2, color: .red)
        for y in 0..<2 {
            for x in 2..<4 {
                let i = (y * 4 + x) * 4
                source.bytes[i] = 0
                source.bytes[i + 2] = 255
            }
        }
        var jpeg = try SamplePhotos.jpegData(source, quality: 100)
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0,
        ]
        let app1: [UInt8] = [0xFF, 0xE1, 0, UInt8(2 + 6 + tiff.count)] + Array("Exif".utf8) + [0, 0] + tiff
        jpeg.insert(contentsOf: app1, at: 2)
        XCTAssertEqual(EXIF.orientation(inJPEG: jpeg), 6)
        let thumb = try ImageDecoder.thumbnail(bytes: jpeg, name: "rotated.jpg", spec: ThumbnailSpec(side: 100))
        XCTAssertEqual([thumb.pixels.width, thumb.pixels.height], [2, 4], "width and height swap")
        let top = thumb.pixels.pixel(x: 0, y: 0), bottom = thumb.pixels.pixel(x: 0, y: 3)
        XCTAssertGreaterThan(top.r, 150, "rotated clockwise, the red left half is on top")
        XCTAssertGreaterThan(bottom.b, 150, "and the blue right half at the bottom")
        // Every orientation maps a 3×2 image's pixels like the reference transforms.
        let pixels = PixelBuffer(width: 3, height: 2, bytes: (0..<24).map { UInt8($0 * 10) })
        XCTAssertEqual(ImageDecoder.orient(pixels, 1), pixels)
        XCTAssertEqual(ImageDecoder.orient(ImageDecoder.orient(pixels, 3), 3), pixels, "180° twice is identity")
        XCTAssertEqual(
            ImageDecoder.orient(ImageDecoder.orient(pixels, 6), 8), pixels, "90° clockwise then counter-clockwise")
        XCTAssertEqual(ImageDecoder.orient(pixels, 2).pixel(x: 0, y: 0), pixels.pixel(x: 2, y: 0), "mirror")
        XCTAssertEqual(ImageDecoder.orient(pixels, 5).pixel(x: 1, y: 2), pixels.pixel(x: 2, y: 1), "transpose")
    }

    func testBrokenFilesEachGetAClearErrorAndNoCrash() throws {
        let dir = try ScratchFolder("broken")
        let photo = try SamplePhotos.jpegData(SamplePhotos.render(width: 400, height: 300, seed: 9))
        try SamplePhotos.write(Array(photo.prefix(photo.count / 2)), to: dir.file("truncated.jpg"))
        var scrambled = photo
        for i in stride(from: 700, to: scrambled.count - 2, by: 3) { scrambled[i] = 0xFF }
        try SamplePhotos.write(scrambled, to: dir.file("corrupt.jpg"))
        try SamplePhotos.write([], to: dir.file("empty.jpg"))
        try SamplePhotos.write(Array("hello, not a photo\n".utf8), to: dir.file("notes.jpg"))
        // A PNG header that claims 20000×20000 (400 MP): refused before any decoding.
        let bomb: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            + [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 6, 0, 0, 0]
        try SamplePhotos.write(bomb, to: dir.file("bomb.png"))
        try FileManager.default.createDirectory(atPath: dir.file("folder.jpg"), withIntermediateDirectories: true)
        let spec = ThumbnailSpec(side: 128)
        func error(_ name: String) -> ImageError? {
            do {
                _ = try ImageDecoder.thumbnail(path: dir.file(name), spec: spec)
                return nil
            } catch { return error }
        }
        XCTAssertEqual(error("truncated.jpg"), .truncated)
        XCTAssertNotNil(error("corrupt.jpg"), "scrambled entropy data is reported")
        XCTAssertEqual(error("empty.jpg"), .empty)
        XCTAssertEqual(error("notes.jpg"), .notAnImage("notes.jpg"))
        XCTAssertEqual(error("bomb.png"), .tooLarge(width: 20000, height: 20000))
        XCTAssertEqual(error("folder.jpg"), .unreadable("a folder, not a file"))
        if case .unreadable = error("missing.jpg") {} else { XCTFail("a missing file is unreadable") }
        XCTAssertTrue(ImageError.tooLarge(width: 20000, height: 20000).description.contains("100-megapixel"))
    }
}

final class ThumbnailLoaderTests: XCTestCase {
    /// A decode that blocks until released, logging which keys started.
    final class GatedDecoder: Sendable {
        let started = Locked<[String]>([])
        let open = Locked(false)
        func decode(_ key: ThumbnailKey) -> Result<DecodedThumbnail, ImageError> {
            started.withLock { $0.append(key.path) }
            while !open.withLock({ $0 }) { usleep(1000) }
            return .success(
                DecodedThumbnail(
                    pixels: PixelBuffer(width: 2, height: 2, color: .red),
                    info: ImageInfo(format: .png, width: 2, height: 2, orientation: 1), dctScale: 1))
        }
    }

    private func key(_ name: String) -> ThumbnailKey { ThumbnailKey(path: name, spec: ThumbnailSpec(side: 64)) }

    private func waitUntil(_ condition: () -> Bool) {
        // generous: sanitizers and busy machines; it stops as soon as it can
        let deadline = MonotonicClock.seconds() + 60
        while !condition() && MonotonicClock.seconds() < deadline { usleep(1000) }
    }

    func testJobsRunMostUrgentFirstAndUnwantedOnesAreCancelled() {
        let gate = GatedDecoder()
        let loader = ThumbnailLoader(workers: 1) { gate.decode($0) }
        defer { loader.shutdown() }
        loader.request([(key("blocker"), 0)])
        waitUntil { gate.started.withLock { $0.count } == 1 }
        // While the worker is busy: behind (2.x), ahead (1.x) and visible (0.x) items arrive out of order.
        loader.request([
            (key("blocker"), 0), (key("behind"), 2.1), (key("ahead-far"), 1.5), (key("visible"), 0.2),
            (key("ahead"), 1.1),
            (key("gone"), 0.5),
        ])
        // The user scrolls on: "gone" leaves the window before it starts.
        let cancelled = loader.request([
            (key("blocker"), 0), (key("behind"), 2.1), (key("ahead-far"), 1.5), (key("visible"), 0.2),
            (key("ahead"), 1.1),
        ])
        XCTAssertEqual(cancelled, 1)
        gate.open.withLock { $0 = true }
        waitUntil { loader.snapshot.finished == 5 }
        XCTAssertEqual(gate.started.withLock { $0 }, ["blocker", "visible", "ahead", "ahead-far", "behind"])
        XCTAssertEqual(loader.snapshot.cancelled, 1)
        XCTAssertEqual(loader.takeFinished().count, 5)
        // A key already finished and taken can be asked for again; one finished but not taken is not decoded twice.
        loader.request([(key("again"), 0)])
        loader.request([(key("again"), 0)])
        waitUntil { loader.snapshot.finished == 6 }
        loader.request([(key("again"), 0)])
        usleep(20_000)
        XCTAssertEqual(loader.snapshot.finished, 6, "no duplicate decode while the result waits")
        XCTAssertEqual(gate.started.withLock { $0.filter { $0 == "again" }.count }, 1)
    }

    /// Quitting waits a bounded time for a worker stuck in a decode; the worker stops as soon
    /// as its decode returns, and its result is dropped.
    func testShutdownWaitsABoundedTimeAndAWorkerInADecodeStopsWhenItReturns() {
        let gate = GatedDecoder()
        let loader = ThumbnailLoader(workers: 1) { gate.decode($0) }
        loader.request([(key("slow"), 0), (key("queued"), 1)])
        waitUntil { gate.started.withLock { $0.count } == 1 }
        XCTAssertFalse(loader.shutdown(within: 0.2), "the decode is still running")
        XCTAssertEqual(loader.runningWorkers, 1)
        gate.open.withLock { $0 = true }
        waitUntil { loader.runningWorkers == 0 }
        XCTAssertEqual(loader.runningWorkers, 0, "it stopped once its decode returned")
        XCTAssertTrue(loader.takeFinished().isEmpty, "its result is dropped")
        XCTAssertEqual(gate.started.withLock { $0 }, ["slow"], "the queued job never started")
    }

    /// The thumbnail writer is waited for a bounded time at quit.
    func testTheThumbnailWriterIsWaitedForABoundedTime() {
        let writer = BackgroundWriter()
        let open = Locked(false)
        writer.enqueue { while !open.withLock({ $0 }) { usleep(1000) } }
        XCTAssertFalse(writer.flush(within: 0.2))
        open.withLock { $0 = true }
        XCTAssertTrue(writer.flush())
    }

    func testWorkersDecodeBelowEveryOtherThread() {
        // Each decode notes its worker's scheduling: (thread name, idle class, nice).
        let seen = Locked<[String: (idle: Bool, nice: Int32)]>([:])
        let loader = ThumbnailLoader(workers: 2) { key in
            seen.withLock {
                $0[currentThreadName()] = (tessera_current_thread_is_idle_class() != 0, tessera_current_thread_nice())
            }
            usleep(5_000)  // long enough that both workers take jobs
            return .success(
                DecodedThumbnail(
                    pixels: PixelBuffer(width: 1, height: 1, color: .red),
                    info: ImageInfo(format: .png, width: 1, height: 1, orientation: 1), dctScale: 1))
        }
        defer { loader.shutdown() }
        loader.request((0..<40).map { (key("photo-\($0)"), Double($0)) })
        waitUntil { seen.withLock { $0.count } == 2 }
        let workers = seen.withLock { $0 }
        XCTAssertEqual(
            workers["tessera-decode0"]?.idle, false,
            "the first worker keeps decoding on a machine busy with other programs")
        XCTAssertEqual(workers["tessera-decode0"]?.nice, 19)
        XCTAssertEqual(workers["tessera-decode1"]?.idle, true, "the others run only on cores nothing else wants")
        XCTAssertEqual(tessera_current_thread_is_idle_class(), 0, "the caller's thread is left as it was")
    }

    func testTheTextureCacheEvictsLeastRecentlyDrawnFirstWithinItsBudget() {
        var destroyed: [Int] = []
        let perTexture = 10 * 10 * 4
        let cache = TextureCache(budgetBytes: 3 * perTexture) { destroyed.append(Int($0.id)) }
        func k(_ i: Int) -> ThumbnailKey { ThumbnailKey(path: "\(i)", spec: ThumbnailSpec(side: 10)) }
        for i in 1...4 { cache.insert(k(i), texture: TextureHandle(id: UInt32(i)), width: 10, height: 10, frame: i) }
        _ = cache.lookup(k(1), frame: 5)  // drawn again: now the most recent
        XCTAssertEqual(cache.evict(frame: 5), 1)
        XCTAssertEqual(destroyed, [2], "the least recently drawn goes first")
        XCTAssertEqual(cache.bytes, 3 * perTexture)
        // Everything drawn this frame stays, even over budget.
        for i in 5...6 { cache.insert(k(i), texture: TextureHandle(id: UInt32(i)), width: 10, height: 10, frame: 6) }
        for i in [1, 3, 4, 5, 6] { _ = cache.lookup(k(i), frame: 6) }
        XCTAssertEqual(cache.evict(frame: 6), 0)
        XCTAssertEqual(cache.count, 5)
        XCTAssertEqual(cache.evict(frame: 7), 2)
        XCTAssertEqual(cache.bytes, 3 * perTexture)
        XCTAssertEqual(cache.evictions, 3)
    }

    func testTheTextureCacheFindsAPathsNewestSharpThumbnailAtAnySize() {
        let cache = TextureCache(budgetBytes: 1 << 20) { _ in }
        func k(_ side: Int, _ tier: ThumbnailTier = .sharp) -> ThumbnailKey {
            ThumbnailKey(path: "a.jpg", spec: ThumbnailSpec(side: side), tier: tier)
        }
        XCTAssertNil(cache.lookupAnySize("a.jpg", frame: 1))
        cache.insert(k(100, .embedded), texture: TextureHandle(id: 1), width: 40, height: 30, frame: 1)
        XCTAssertNil(cache.lookupAnySize("a.jpg", frame: 1), "an embedded thumbnail is not a size of the sharp one")
        cache.insert(k(100), texture: TextureHandle(id: 2), width: 133, height: 100, frame: 1)
        cache.insert(k(140), texture: TextureHandle(id: 3), width: 187, height: 140, frame: 2)
        XCTAssertEqual(cache.lookupAnySize("a.jpg", frame: 3)?.texture, TextureHandle(id: 3), "the newest size")
        XCTAssertNil(cache.lookupAnySize("b.jpg", frame: 3))
        cache.remove(k(140))
        XCTAssertNil(cache.lookupAnySize("a.jpg", frame: 3), "a destroyed texture is never handed out")
        cache.insert(k(120), texture: TextureHandle(id: 4), width: 160, height: 120, frame: 4)
        cache.budgetBytes = 0
        cache.evict(frame: 5)
        XCTAssertNil(cache.lookupAnySize("a.jpg", frame: 5), "nor an evicted one")
        XCTAssertTrue(cache.newestSharp.isEmpty, "the index holds only what the cache holds")
    }
}

final class FreedesktopThumbnailTests: XCTestCase {
    func testURIsAndNamesFollowTheStandard() {
        // The standard's own example.
        XCTAssertEqual(
            FreedesktopThumbnails.md5Hex("file:///home/jens/photos/me.png"), "c6ee772d9e49320e97ec29a7eb5b1697")
        XCTAssertEqual(
            FreedesktopThumbnails.uri(forPath: "/tmp/My Photos/été #1.jpg"),
            "file:///tmp/My%20Photos/%C3%A9t%C3%A9%20%231.jpg")
    }

    func testASecondRequestReadsTheCacheUntilTheFileChanges() throws {
        let dir = try ScratchFolder("fd-thumbs")
        let cache = FreedesktopThumbnails(root: dir.file("thumbnails"))
        let photo = dir.file("photo.jpg")
        try SamplePhotos.writeJPEG(SamplePhotos.render(width: 800, height: 600, seed: 4), to: photo)
        let spec = ThumbnailSpec(side: 256)  // fill: the short side must reach 256, so the long side 342: x-large
        let first = try cache.thumbnail(path: photo, spec: spec).get()
        XCTAssertEqual(first.dctScale, 2, "the caller's own size decodes fast (1/2: 400×300 covers 256)")
        XCTAssertEqual([first.pixels.width, first.pixels.height], [341, 256])
        cache.flush()
        let written = cache.path(forFile: photo, folder: "x-large")
        let png = PNGText.read(try ImageDecoder.readFile(written))
        XCTAssertEqual([png.width, png.height], [512, 384])
        XCTAssertEqual(png.text["Thumb::URI"], "file://" + photo)
        var st = stat()
        stat(photo, &st)
        XCTAssertEqual(png.text["Thumb::MTime"], String(st.st_mtim.tv_sec))
        XCTAssertEqual(png.text["Thumb::Image::Width"], "800")
        stat(written, &st)
        XCTAssertEqual(st.st_mode & 0o777, 0o600, "thumbnails are private to the user")

        let second = try cache.thumbnail(path: photo, spec: spec).get()
        XCTAssertEqual(second.dctScale, 0, "read from the cache: no JPEG decoded")
        XCTAssertEqual([second.pixels.width, second.pixels.height], [first.pixels.width, first.pixels.height])
        XCTAssertLessThan(meanDifference(second.pixels, first.pixels), 2)
        XCTAssertEqual(second.info.width, 800)

        // The file changes: its MTime no longer matches, so it is decoded again.
        var times = [timespec(tv_sec: 1_600_000_000, tv_nsec: 0), timespec(tv_sec: 1_600_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, photo, &times, 0)
        XCTAssertEqual(try cache.thumbnail(path: photo, spec: spec).get().dctScale, 2)
    }

    func testFailuresAreRecordedUntilTheFileChanges() throws {
        let dir = try ScratchFolder("fd-fail")
        let cache = FreedesktopThumbnails(root: dir.file("thumbnails"), appName: "tessera-test")
        let broken = dir.file("broken.jpg")
        try SamplePhotos.write(Array("not a photo".utf8), to: broken)
        var old = [timespec(tv_sec: 1_500_000_000, tv_nsec: 0), timespec(tv_sec: 1_500_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, broken, &old, 0)  // not one being copied right now
        guard case .failure(.notAnImage) = cache.thumbnail(path: broken, spec: ThumbnailSpec(side: 128)) else {
            return XCTFail("an error")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.failurePath(forFile: broken)))
        XCTAssertTrue(cache.failurePath(forFile: broken).contains("/fail/tessera-test/"))
        guard case .failure(.corrupt(let why)) = cache.thumbnail(path: broken, spec: ThumbnailSpec(side: 128)) else {
            return XCTFail("recorded")
        }
        XCTAssertTrue(why.contains("not an image"), "the recorded reason: \(why)")
        // Fixed: a real photo under the same name, with a new MTime, is decoded.
        try SamplePhotos.writeJPEG(SamplePhotos.render(width: 64, height: 48, seed: 1), to: broken)
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, broken, &times, 0)
        XCTAssertNoThrow(try cache.thumbnail(path: broken, spec: ThumbnailSpec(side: 128)).get())
    }

    /// A failure is recorded for one version of a file: a photo written over it within the
    /// same second (the same MTime) but of another size is decoded, not refused as before.
    func testARecordedFailureIsForTheSizeItWasRecordedFor() throws {
        let dir = try ScratchFolder("fd-fail-size")
        let cache = FreedesktopThumbnails(root: dir.file("thumbnails"), appName: "tessera-test")
        let file = dir.file("photo.jpg")
        var second = [timespec(tv_sec: 1_500_000_000, tv_nsec: 0), timespec(tv_sec: 1_500_000_000, tv_nsec: 0)]
        try SamplePhotos.write(Array("not a photo".utf8), to: file)
        utimensat(AT_FDCWD, file, &second, 0)
        guard case .failure = cache.thumbnail(path: file, spec: ThumbnailSpec(side: 128)) else {
            return XCTFail("an error")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.failurePath(forFile: file)))
        try SamplePhotos.writeJPEG(SamplePhotos.render(width: 64, height: 48, seed: 1), to: file)
        utimensat(AT_FDCWD, file, &second, 0)  // the same second: only the size tells the versions apart
        XCTAssertNoThrow(try cache.thumbnail(path: file, spec: ThumbnailSpec(side: 128)).get())
    }
}
