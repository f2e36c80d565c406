import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// `bench library`: the photo browser (the whole demo window) opening a library tree as a
/// user starts it, on the on-demand loop: the walk of the folders and the reading of the
/// photos' dates run in the background while the window is up. Reports, from the process's
/// start: the first screen (every visible cell showing an image of either tier) and whether
/// the walk was still going then, the end of the walk, the end of the dates (and how many
/// were read from files rather than the index), the first sharp screen once all is done, and
/// the work of the frames drawn meanwhile (what taking the walk's and the dates' results costs;
/// for the first 12 over 16 ms, what cost each the most).
/// `--fresh-index` starts from an empty index (a first start, `"index":"fresh"`); otherwise
/// the cache folder's index is used (`"index":"cache_folder"`: warm when an earlier run filled
/// it; `dates_read_from_files` tells).
@MainActor
enum LibraryBench {
    static func run(host: AppHost, folder: String, processStart: Double, freshIndex: Bool) throws -> String {
        let scratch = NSTemporaryDirectory() + "tessera-bench-index-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let index = freshIndex ? try LibraryIndex(path: scratch + "/index.sqlite") : LibraryIndex.standard()
        let images = ImagePipeline(renderer: host.window.renderer)
        host.ui.images = images
        defer { images.shutdown() }
        host.schedule = .onDemand
        let app = DemoApp(page: .photos, darkTheme: false, library: folder, index: index)
        let browser = app.browser
        let build: (UI) -> Void = { ui in app.build(ui, host: host) }
        func ms(_ seconds: Double?) -> String {
            seconds.map { FrameTimeSummary.format(($0 - processStart) * 1000) } ?? "null"
        }

        var firstFrame: Double?, firstScreen: Double?, walkDone: Double?, datesDone: Double?, sharpAfterAll: Double?
        var walkingAtFirstScreen = false, photosAtFirstScreen = 0, readFromFiles = 0
        var scanFrames: [Double] = []  // work of the frames drawn while the walk or the dates ran
        var slowScanFrames: [FrameRecord] = []  // the first of them over 16 ms of work, to tell why
        let deadline = MonotonicClock.seconds() + 600
        while MonotonicClock.seconds() < deadline {
            host.runOnce(timeout: 0.5, build)
            guard let record = host.profiler.lastFrame else { continue }
            let end = Double(record.startNs + record.totalNs) / 1e9
            let lazy = record.lazy
            if firstFrame == nil { firstFrame = end }
            if browser.isScanning || browser.isReadingFacts {
                scanFrames.append(record.workMs)
                if record.workMs > 1000.0 / 60 && slowScanFrames.count < 12 { slowScanFrames.append(record) }
            }
            if firstScreen == nil, lazy.visibleCells > 0, lazy.placeholderCells == 0 {
                firstScreen = end
                walkingAtFirstScreen = browser.isScanning
                photosAtFirstScreen = browser.photos.count
            }
            if walkDone == nil, !browser.scanRoot.isEmpty, !browser.isScanning { walkDone = end }
            if let progress = browser.factsProgress { readFromFiles = progress.readFromFiles }
            if walkDone != nil, datesDone == nil, !browser.isReadingFacts { datesDone = end }
            if datesDone != nil, lazy.visibleCells > 0, lazy.cellsAwaitingSharpThumbnail == 0 {
                sharpAfterAll = end
                break
            }
        }
        readFromFiles = max(readFromFiles, browser.lastFactsReadFromFiles)
        return
            "{\"scene\":\"library\",\"n\":\(browser.photos.count),\"renderer\":\"\(host.window.renderer.name)\",\"index\":\"\(freshIndex ? "fresh" : "cache_folder")\""
            + ",\"first_frame_ms\":\(ms(firstFrame)),\"first_screen_ms\":\(ms(firstScreen)),\"walk_running_at_first_screen\":\(walkingAtFirstScreen)"
            + ",\"photos_at_first_screen\":\(photosAtFirstScreen),\"walk_done_ms\":\(ms(walkDone)),\"dates_done_ms\":\(ms(datesDone))"
            + ",\"dates_read_from_files\":\(readFromFiles),\"sections\":\(browser.grid.sections?.count ?? 0)"
            + ",\"frames_while_scanning\":\(scanFrames.count),\"work_ms_while_scanning\":\(FrameTimeSummary(samples: scanFrames).json)"
            + ",\"frames_over_16ms_work_while_scanning\":\(scanFrames.filter { $0 > 1000.0 / 60 }.count)"
            + ",\"slow_frames_while_scanning\":\(JankReport(frames: slowScanFrames, budgetMs: 1000.0 / 60).jankyJSON())"
            + ",\"sharp_screen_after_all_ms\":\(ms(sharpAfterAll)),\"peak_rss_mb\":\(peakRSSMegabytes())}"
    }
}
