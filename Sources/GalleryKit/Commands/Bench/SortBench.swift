import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// `bench sort`: the table scene's 1,000,000 rows sorted off screen (keys and the sort, as
/// `TableSorter` runs them in the background) by Name, by Size, by Kind then Name, and by the
/// table scene's last order (Size, Name descending, Kind), on one thread and on every core;
/// the median of 3 runs of each, in milliseconds. Every step runs on the threads given: the
/// string ranking, the key packing and the radix passes.
enum SortBench {
    static func run(rows count: Int) -> String {
        let rows = FileRow.generate(count: count)
        let orders: [(String, [KeyComparator<FileRow>])] = [
            ("name", [KeyComparator(\FileRow.name, id: "Name")]),
            ("size", [KeyComparator(\FileRow.size, id: "Size")]),
            (
                "kind_name",
                [KeyComparator(id: "Kind", key: .string { $0.kind }), KeyComparator(\FileRow.name, id: "Name")]
            ),
            (
                "size_name_kind",
                [
                    KeyComparator(\FileRow.size, id: "Size"), KeyComparator(\FileRow.name, id: "Name", order: .reverse),
                    KeyComparator(id: "Kind", key: .string { $0.kind }),
                ]
            ),
        ]
        let cores = WorkerPools.hardwareThreads
        var fields: [String] = []
        for threads in Array(Set([1, cores])).sorted() {
            let times = orders.map { name, order -> String in
                var ms: [Double] = []
                for _ in 0..<3 {
                    let start = MonotonicClock.nanoseconds()
                    _ = try? IndexSorter.sortedIndices(rows, by: order, threads: threads)
                    ms.append(Double(MonotonicClock.nanoseconds() - start) / 1e6)
                }
                return "\"\(name)\":\(FrameTimeSummary.format(ms.sorted()[1]))"
            }
            fields.append("\"threads_\(threads)\":{\(times.joined(separator: ","))}")
        }
        return "{\"scene\":\"sort\",\"n\":\(count),\"cores\":\(cores),\"sort_ms\":{\(fields.joined(separator: ","))}}"
    }
}
