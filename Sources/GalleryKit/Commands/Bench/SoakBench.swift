import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets
#if canImport(Glibc)
    import Glibc
#endif

/// `bench soak --minutes M`: the browser's photo grid (`PhotoGrid`, with the real pipeline;
/// no persistent thumbnails: 100,000 of them would fill gigabytes) over 100,000 generated photos, scrolled down to the end and
/// back up once over the run at a 60 Hz frame pace, so most cells are only passed over: decodes
/// start and are cancelled, textures come and go. Resident memory is sampled every 10 s. It
/// passes when RSS over the last minute stays within 1.1× RSS at minute 2 (memory that only
/// grows shows as a rising curve).
@MainActor
enum SoakBench {
    static func run(host: AppHost, folder: String, minutes: Double) throws -> String {
        let photos = try PhotoLibrary.load(folder)
        let grid = PhotoGrid(photos: photos)
        let images = ImagePipeline(renderer: host.window.renderer)
        host.ui.images = images
        defer { images.shutdown() }
        let seconds = minutes * 60
        let frames = max(2, Int(seconds * 60))
        var samples: [(t: Double, mb: Double)] = []
        let start = MonotonicClock.seconds()
        var nextSample = start
        var pacer = FramePacer()
        var offset = 0.0
        for frame in 0..<frames {
            let now = MonotonicClock.seconds()
            if now >= nextSample {
                samples.append((now - start, residentMegabytes()))
                nextSample += 10
            }
            pacer.wait()
            host.frame { ui in
                if let info = grid.info {
                    // Down in the first half of the run, up in the second: a triangle wave.
                    let rows = Double((photos.count + info.columns - 1) / max(1, info.columns))
                    let end = max(1, rows * (info.cellSize.height + 8) - info.viewport.height)
                    let phase = Double(frame) / Double(frames)
                    offset = (phase < 0.5 ? phase * 2 : 2 - phase * 2) * end
                    ui.scrollGrid("photos", toOffset: offset)
                }
                grid.build(ui)
            }
        }
        samples.append((MonotonicClock.seconds() - start, residentMegabytes()))
        let atMinute2 = samples.last { $0.t <= 120 }?.mb ?? samples.first?.mb ?? 0
        let lastMinute = samples.filter { $0.t >= seconds - 60 }.map(\.mb)
        let worst = lastMinute.max() ?? 0
        let ratio = atMinute2 > 0 ? worst / atMinute2 : 0
        func f(_ v: Double) -> String { FrameTimeSummary.format(v) }
        return
            "{\"scene\":\"soak\",\"n\":\(photos.count),\"minutes\":\(f(minutes)),\"frames\":\(frames),\"renderer\":\"\(host.window.renderer.name)\""
            + ",\"rss_mb\":[\(samples.map { f($0.mb) }.joined(separator: ","))],\"rss_minute2_mb\":\(f(atMinute2))"
            + ",\"rss_last_minute_max_mb\":\(f(worst)),\"ratio\":\(f(ratio)),\"passed\":\(minutes >= 3 && ratio <= 1.1)"
            + ",\"janky_frames\":\(host.profiler.jankyFrames),\"decoded\":\(images.decodedTotal),\"cancelled\":\(images.loader.snapshot.cancelled)"
            + ",\"texture_mb\":\(f(Double(images.cache.bytes) / 1_048_576)),\"open_fonts\":\(host.ui.fonts.openFonts)"
            + ",\"peak_rss_mb\":\(peakRSSMegabytes())}"
    }

    /// Resident set size now (VmRSS), MB.
    static func residentMegabytes() -> Double {
        guard let status = try? RegularFile.read("/proc/self/status", maxBytes: 1 << 20) else { return 0 }
        let text = String(decoding: status, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Double(Int(line.filter(\.isNumber)) ?? 0) / 1024
    }
}
