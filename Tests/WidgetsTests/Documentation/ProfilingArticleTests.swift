import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import TesseraTesting
import Widgets
import XCTest

// The "Profiling" article's examples, as it shows them (see ArticleSnippets.swift).

/// A counter: what the article records and replays.
@MainActor
final class CounterApp {
    var clicks = 0
    func build(_ ui: UI) {
        if ui.button("Count") { clicks += 1 }
    }
}

@MainActor
enum ProfilingArticle {
    static func printWheelLatency(_ host: AppHost) {
        // snippet: profiling-latency
        if let wheel = host.profiler.inputLatency(.wheel) { print("wheel to screen p95: \(wheel.p95) ms") }
        // end snippet
    }

    static func startRecording(_ host: AppHost) throws {
        // snippet: profiling-record
        host.recorder = try InputRecorder(
            path: "session.jsonl", header: RecordingHeader(width: 1280, height: 800, scale: 1))
        // end snippet
    }

    static func replay(_ host: AppHost, into app: CounterApp) throws {
        // snippet: profiling-replay
        host.play(try InputReplay(path: "session.jsonl"), speed: .max) { ui in app.build(ui) }
        // end snippet
    }
}

final class ProfilingArticleTests: XCTestCase {
    func testTheRecordedClicksCountAgainInTheReplay() throws {
        try onMain {
            let folder = NSTemporaryDirectory() + "tessera-article-\(getpid())"
            XCTAssertEqual(mkdir(folder, 0o700), 0)
            let previous = FileManager.default.currentDirectoryPath
            XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder))  // the article's relative path
            defer {
                _ = FileManager.default.changeCurrentDirectoryPath(previous)
                try? FileManager.default.removeItem(atPath: folder)
            }
            let h = try Harness()
            let recorded = CounterApp(), replayed = CounterApp()
            try ProfilingArticle.startRecording(h.host)
            h.frame(recorded.build)
            let button = try XCTUnwrap(h.rect(ofText: "Count"))
            for _ in 0..<2 {
                h.click(at: Point(button.midX, button.midY), recorded.build)
                h.wait(1)
            }
            h.host.recorder?.close()
            h.host.recorder = nil
            XCTAssertEqual(recorded.clicks, 2)
            try ProfilingArticle.replay(h.host, into: replayed)
            XCTAssertEqual(replayed.clicks, 2, "the replay clicks the counter as the recording did")
            ProfilingArticle.printWheelLatency(h.host)
        }
    }
}
