import Foundation
import Imaging
import Profiling
import Render2D

/// One photo of the camera-like sample library: when and with what it was taken, how it is
/// stored, and where it goes.
package struct CameraShot: Equatable, Sendable {
    /// Seconds since 1970 (UTC) when it was taken.
    package var takenAt: Int64
    package var make: String
    package var model: String
    /// EXIF orientation: 1, or 6 and 8 for portraits shot with the camera turned, 3 upside down.
    package var orientation: Int
    /// The upright image's size (what a viewer shows).
    package var uprightWidth: Int
    package var uprightHeight: Int
    /// "2021/05/12/IMG_0001.jpg" as importers lay photos out, or "IMG_0001.jpg" when flat.
    package var relativePath: String

    /// `DateTimeOriginal` as EXIF writes it.
    package var exifDate: String {
        let c = Self.calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second],
            from: Date(timeIntervalSince1970: TimeInterval(takenAt)))
        return String(format: "%04d:%02d:%02d %02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    package static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}

/// Plans a camera-like library deterministically: shooting sessions (bursts of a few to a few
/// dozen photos, seconds to minutes apart) spread over five years from 2019, each with one of
/// a few cameras and phones at its native aspect ratio (3:2, 4:3), some 16:9 and 1:1 crops, a
/// quarter of them portraits stored sideways with orientation 6 or 8, a few upside down (3).
///
/// ```swift
/// let shots = CameraShots.plan(count: 2000, longSide: 1920, flat: false)
/// shots[0].relativePath // "2019/01/03/IMG_0001.jpg"
/// ```
package enum CameraShots {
    /// Cameras and phones, with their native aspect ratio (long side : short side).
    package static let cameras: [(make: String, model: String, aspect: (Int, Int))] = [
        ("Canon", "EOS R6", (3, 2)), ("Apple", "iPhone 14 Pro", (4, 3)), ("FUJIFILM", "X-T4", (3, 2)),
        ("SONY", "ILCE-7M3", (3, 2)), ("Google", "Pixel 7", (4, 3)),
    ]
    /// The library's span: five years from 2019-01-01.
    package static let start: Int64 = 1_546_300_800, span: Int64 = 5 * 365 * 86_400

    package static func plan(count: Int, longSide: Int, flat: Bool) -> [CameraShot] {
        var rng = SplitMix64(seed: 2024)
        let sessions = max(1, count / 20)
        let meanGap = Double(span) / Double(sessions)
        var shots: [CameraShot] = []
        shots.reserveCapacity(count)
        var time = start + Int64(8 * 3600)
        while shots.count < count {
            // A session: one camera, a burst of photos.
            let camera = cameras[rng.next(below: cameras.count)]
            let size = 3 + rng.next(below: 38)
            for _ in 0..<min(size, count - shots.count) {
                let index = shots.count
                var aspect = camera.aspect
                let crop = rng.next(below: 20)
                if crop == 0 { aspect = (1, 1) } else if crop <= 2 { aspect = (16, 9) }
                let long = max(16, longSide), short = max(16, long * aspect.1 / aspect.0)
                let turn = rng.next(below: 100)
                let orientation = aspect.0 == aspect.1 ? 1 : turn < 14 ? 6 : turn < 24 ? 8 : turn < 26 ? 3 : 1
                let portrait = orientation == 6 || orientation == 8
                let name = String(format: "IMG_%04d.jpg", index + 1)
                let day = Date(timeIntervalSince1970: TimeInterval(time))
                let c = CameraShot.calendar.dateComponents([.year, .month, .day], from: day)
                let folder = String(format: "%04d/%02d/%02d/", c.year!, c.month!, c.day!)
                shots.append(
                    CameraShot(
                        takenAt: time, make: camera.make, model: camera.model, orientation: orientation,
                        uprightWidth: portrait ? short : long, uprightHeight: portrait ? long : short,
                        relativePath: (flat ? "" : folder) + name))
                time += Int64(2 + rng.next(below: 300))
            }
            time += Int64(Double(rng.next(below: 1000)) / 500 * meanGap)  // the next session, days later
        }
        return shots
    }

    /// The JPEG of `shot`: its upright picture stored turned by the inverse of its orientation,
    /// with an EXIF block (make, model, date, orientation, a 160-pixel thumbnail of the stored pixels).
    package static func jpeg(_ shot: CameraShot, seed: UInt64) throws -> [UInt8] {
        let upright = SamplePhotos.render(width: shot.uprightWidth, height: shot.uprightHeight, seed: seed)
        let inverse = [6: 8, 8: 6][shot.orientation] ?? shot.orientation
        let stored = ImageDecoder.orient(upright, inverse)
        // The thumbnail: the same picture drawn at 160 pixels on its long side (cheaper than
        // downscaling the full one), stored turned the same way.
        let scale = 160.0 / Double(max(shot.uprightWidth, shot.uprightHeight))
        let small = ImageDecoder.orient(
            SamplePhotos.render(
                width: max(1, Int((Double(shot.uprightWidth) * scale).rounded())),
                height: max(1, Int((Double(shot.uprightHeight) * scale).rounded())),
                seed: seed), inverse)
        let metadata = CameraMetadata(
            make: shot.make, model: shot.model, dateTimeOriginal: shot.exifDate,
            orientation: shot.orientation, thumbnail: try SamplePhotos.jpegData(small, quality: 80))
        return try EXIFWriter.inserting(metadata, into: try SamplePhotos.jpegData(stored))
    }
}
