import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import Synchronization
import Widgets

/// A file operation over many photos (trash, rotate) on a thread of its own: one item at a
/// time, each either done or not (never half), its progress counted for the browser to show,
/// cancellable between items. What was done when it was cancelled stays done (and undoable).
///
/// ```swift
/// let job = FileJob.start("Moving to the trash", items: paths, each: { Trash.move($0) }) { job, results, cancelled in … }
/// job.cancel()
/// ```
final class FileJob: Sendable {
    /// What it does ("Moving 300 photos to the trash").
    let title: String
    /// Items in all.
    let total: Int
    private let done = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)

    private init(title: String, total: Int) {
        self.title = title
        self.total = total
    }

    /// Items done so far.
    var completed: Int { done.load(ordering: .relaxed) }
    /// Whether it was asked to stop.
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Stops it before its next item.
    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Runs `each` over `items` in order, off the main thread, then `finish` on the main actor
    /// with the job, each item done and its result (those after a cancel are not in it).
    static func start<Item: Sendable, Outcome: Sendable>(
        _ title: String, items: [Item], each: @escaping @Sendable (Item) -> Outcome,
        finish: @escaping @MainActor @Sendable (FileJob, [(Item, Outcome)], _ cancelled: Bool) -> Void
    ) -> FileJob {
        let job = FileJob(title: title, total: items.count)
        Task.detached(priority: .utility) {
            var results: [(Item, Outcome)] = []
            var lastWake = MonotonicClock.seconds()
            for item in items {
                if job.isCancelled { break }
                results.append((item, each(item)))
                job.done.wrappingAdd(1, ordering: .relaxed)
                // The progress is drawn by frames the job asks for, ten a second at most.
                if MonotonicClock.seconds() - lastWake > 0.1 {
                    lastWake = MonotonicClock.seconds()
                    FrameWaker.wake()
                }
            }
            let finished = results
            await MainActor.run { finish(job, finished, job.isCancelled) }
        }
        return job
    }
}

extension BrowserPage {
    /// The file operations under way: their progress and a Cancel button each.
    func fileJobsStatus(_ ui: UI) {
        for (k, job) in fileJobs.enumerated() {
            ui.hstack(spacing: 8) {
                ui.vstack(spacing: 2) {  // its title above the bar
                    ui.progressView(
                        "\(job.title): \(job.completed) of \(job.total)", value: Double(job.completed),
                        total: Double(max(1, job.total)), width: 160)
                }
                if job.isCancelled {
                    ui.text("Stopping…", color: ui.theme.secondaryText)
                } else if ui.button("Cancel", id: "cancel-job-\(k)") {
                    job.cancel()
                }
            }
        }
        if !fileJobs.isEmpty { ui.requestRedraw(after: 0.1) }  // the counts move
    }
}
