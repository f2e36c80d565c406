import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import TestSupport
import XCTest
@testable import GalleryKit

/// The camera-like sample library (`generate-samples --camera`). Checked independently as
/// well: exiftool and Pillow read every tag and decode every IFD1 thumbnail of a generated
/// library (see the session note); here the plan, the folders, the tags and the pixels.
final class CameraSamplesTests: XCTestCase {
    func testThePlanSpreadsBurstsOverYearsWithEveryOrientationAndAspect() {
        let shots = CameraShots.plan(count: 2000, longSide: 1920, flat: false)
        XCTAssertEqual(shots, CameraShots.plan(count: 2000, longSide: 1920, flat: false), "deterministic")
        let years = Set(shots.map { $0.relativePath.prefix(4) })
        XCTAssertGreaterThanOrEqual(years.count, 5, "\(years.sorted())")
        XCTAssertEqual(shots.map(\.takenAt), shots.map(\.takenAt).sorted(), "taken in order")
        let gaps = zip(shots, shots.dropFirst()).map { $1.takenAt - $0.takenAt }
        XCTAssertGreaterThan(gaps.filter { $0 <= 300 }.count, 1800, "mostly bursts, seconds to minutes apart")
        XCTAssertGreaterThan(gaps.filter { $0 >= 86_400 }.count, 40, "sessions days apart")
        XCTAssertTrue(Set(shots.map(\.orientation)).isSuperset(of: [1, 3, 6, 8]))
        let aspects = Set(
            shots.map { shot -> String in
                let long = max(shot.uprightWidth, shot.uprightHeight),
                    short = min(shot.uprightWidth, shot.uprightHeight)
                let ratio = Double(long) / Double(short)
                let name = [(1.0, "1:1"), (4.0 / 3, "4:3"), (1.5, "3:2"), (16.0 / 9, "16:9")].min {
                    abs($0.0 - ratio) < abs($1.0 - ratio)
                }!.1
                return name + (shot.uprightHeight > shot.uprightWidth ? " portrait" : "")
            })
        XCTAssertTrue(
            aspects.isSuperset(of: ["3:2", "4:3", "16:9", "1:1", "3:2 portrait", "4:3 portrait"]), "\(aspects.sorted())"
        )
        XCTAssertEqual(Set(shots.map(\.make)).count, CameraShots.cameras.count)
        for shot in shots.prefix(200) {
            let date = shot.exifDate  // "2019:01:01 08:00:00"
            XCTAssertTrue(
                shot.relativePath.hasPrefix(date.prefix(10).replacingOccurrences(of: ":", with: "/") + "/"),
                "\(shot.relativePath) in the folder of its date \(date)")
        }
        XCTAssertFalse(
            CameraShots.plan(count: 50, longSide: 640, flat: true).contains { $0.relativePath.contains("/") })
    }

    func testGeneratedPhotosCarryTheirTagsAThumbnailAndShowUpright() throws {
        let dir = try ScratchFolder("camera-samples")
        let generation = SampleGeneration(
            folder: dir.path, count: 60, width: 320, height: 213, layout: .camera(flat: false))
        try generation.start(workers: 2)
        try generation.waitShowingProgress()
        let shots = try XCTUnwrap(generation.shots)
        var orientations: Set<Int> = []
        for (index, shot) in shots.enumerated() {
            let path = dir.file(shot.relativePath)
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let tiff = try XCTUnwrap(TIFFBlock(jpeg: bytes), shot.relativePath)
            XCTAssertEqual(tiff.ascii(ifd: tiff.ifd0, tag: 0x010F), shot.make)
            XCTAssertEqual(tiff.ascii(ifd: tiff.ifd0, tag: 0x0110), shot.model)
            XCTAssertEqual(
                tiff.ascii(ifd: try XCTUnwrap(tiff.value(ifd: tiff.ifd0, tag: 0x8769)), tag: 0x9003), shot.exifDate)
            XCTAssertEqual(EXIF.orientation(inJPEG: bytes), shot.orientation)
            orientations.insert(shot.orientation)
            // The IFD1 thumbnail: a JPEG of the stored pixels, 160 on its long side.
            let ifd1 = try XCTUnwrap(tiff.nextIFD(after: tiff.ifd0))
            let at = try XCTUnwrap(tiff.value(ifd: ifd1, tag: 0x0201)),
                length = try XCTUnwrap(tiff.value(ifd: ifd1, tag: 0x0202))
            let thumbnail = Array(bytes[(tiff.base + at)..<(tiff.base + at + length)])
            let small = try ImageDecoder.thumbnail(
                bytes: thumbnail, name: "ifd1", spec: ThumbnailSpec(side: 160, fill: false))
            XCTAssertEqual(max(small.pixels.width, small.pixels.height), 160)
            // The photo shown upright looks like the picture that was drawn upright.
            let shown = try ImageDecoder.thumbnail(path: path, spec: ThumbnailSpec(side: 64, fill: false))
            XCTAssertEqual(
                shown.pixels.width > shown.pixels.height, shot.uprightWidth > shot.uprightHeight, shot.relativePath)
            let drawn = ImageDecoder.resample(
                SamplePhotos.render(width: shot.uprightWidth, height: shot.uprightHeight, seed: UInt64(index)),
                width: shown.pixels.width, height: shown.pixels.height)
            XCTAssertLessThan(
                Self.meanDifference(shown.pixels, drawn), 12, "\(shot.relativePath), orientation \(shot.orientation)")
        }
        XCTAssertTrue(orientations.isSuperset(of: [1, 6, 8]), "\(orientations)")
    }

    /// The mean absolute difference of two same-size images' channels (0...255).
    private static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        guard a.width == b.width, a.height == b.height else { return 255 }
        var sum = 0
        for i in 0..<a.bytes.count where i % 4 != 3 { sum += abs(Int(a.bytes[i]) - Int(b.bytes[i])) }
        return Double(sum) / Double(a.bytes.count * 3 / 4)
    }
}
