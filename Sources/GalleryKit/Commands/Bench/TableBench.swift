import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// `bench table`: N file rows in a table filling the window, scrolled 37 px a frame, with
/// header clicks injected as SDL mouse events: Name (ascending), Name again (descending),
/// Size, and shift-click Kind (a secondary key). Click k comes at frame 100 × (k + 1), or
/// later: never before the previous click's sort is on screen, so on any machine every sort
/// is measured and none supersedes another (the run goes on past `--frames` until the last
/// one lands). Reports the time from each click to its sorted rows on screen and the longest
/// frame while a sort was pending. With `--columns N` past the six file columns, the rest are
/// computed text columns (100 pt each) and the table also scrolls sideways, 53 pt a frame.
@MainActor
final class TableBench: BenchScene {
    let n: Int
    private var rows: [FileRow] = []
    private let sorter = TableSorter<FileRow>(name: "files")
    private var sortOrder: [KeyComparator<FileRow>] = []
    private var selection: Set<UInt64> = []
    private var inject: EventInjector!
    private var sortStarted: Double?
    /// The sort landed in the frame being built: its time is taken when that frame is presented.
    private var sortLanded = false
    private var pendingFrame = false
    /// The scripted clicks, in order, and the frame the one in progress started at.
    private let clicks: [(column: String, shift: Bool)] = [
        ("Name", false), ("Name", false), ("Size", false), ("Kind", true),
    ]
    private var nextClick = 0
    private var clickStartFrame: Int?
    private var sortTimes: [Double] = []
    private var maxPendingFrameMs = 0.0
    /// Work times of the frames with no sort pending (the issue's "outside sort frames").
    private var quietFrameWork: [Double] = []
    private var columnCenters: [String: Double] = [:]
    private var sideways = 0.0

    /// Columns in all: the six file columns, then computed ones.
    let columnCount: Int

    init(rows: Int, columns: Int = 6) {
        n = rows
        columnCount = max(6, columns)
    }

    func setUp(host: AppHost) throws {
        rows = FileRow.generate(count: n)
        inject = EventInjector(window: host.window)
    }

    /// The six file columns, declared every frame as an app's view would; past six, the
    /// columns are declared once and kept (`wideColumns`), as an app with a thousand columns
    /// would keep them: copying a thousand columns each frame costs more than drawing the cells in view.
    private func columns() -> [TableColumn<FileRow>] {
        columnCount > 6 ? wideColumns : fileColumns()
    }

    private lazy var wideColumns = fileColumns() + extraColumns

    private func fileColumns() -> [TableColumn<FileRow>] {
        [
            TableColumn("ID", value: \FileRow.id) { String($0.id) }.width(min: 60, ideal: 90, max: 140).alignment(
                .trailing),
            TableColumn("Name", value: \FileRow.name).width(min: 100, ideal: 260),
            TableColumn("Kind", sortUsing: .string { $0.kind }) { $0.kind }.width(min: 70, ideal: 110),
            TableColumn("Size", value: \FileRow.size) { FileFormat.size($0.size) }.width(min: 70, ideal: 110).alignment(
                .trailing),
            TableColumn("Modified", value: \FileRow.modified) { FileFormat.date($0.modified) }.width(
                min: 120, ideal: 170),
            TableColumn("Rating", value: \FileRow.rating) { FileFormat.stars[Int($0.rating)] }.width(
                min: 80, ideal: 110),
        ]
    }

    private lazy var extraColumns: [TableColumn<FileRow>] = (6..<columnCount).map { c in
        TableColumn("C\(c)", id: "C\(c)") { (row: FileRow) in String(row.id &* UInt64(c) % 9_973) }.width(100)
    }

    private func click(_ column: String, shift: Bool, frame: Int, at start: Int) {
        guard let x = columnCenters[column] else { return }
        let p = Point(x, 12)
        switch frame - start {
        case 0:
            if shift { inject.key(Key(rawValue: 225 | (1 << 30)), down: true, modifiers: .shift) }
            inject.mouseMove(to: p)
            inject.mouseButton(.left, down: true, at: p)
        case 1:
            inject.mouseButton(.left, down: false, at: p)
        case 2:
            if shift { inject.key(Key(rawValue: 225 | (1 << 30)), down: false) }
        default: break
        }
    }

    func build(_ ui: UI, frame: Int) {
        let columns = self.columns()
        if columnCenters.isEmpty {
            let widths = TableColumnLayout.widths(columns, userWidths: [:], available: ui.size.width)
            var x = 0.0
            for (c, column) in columns.enumerated() {
                columnCenters[column.id] = x + widths[c] / 2
                x += widths[c]
            }
        }
        let contentHeight = Double(rows.count) * ui.theme.rowHeight
        let bodyHeight = ui.size.height - ui.theme.rowHeight - 4
        let maxOffset = max(1, contentHeight - bodyHeight)
        // Sideways too when there are many columns; back at the left edge while a header click
        // is in progress (the clicked headers are among the first columns).
        if columnCount > 6 && clickStartFrame == nil {
            sideways = (sideways + 53).truncatingRemainder(dividingBy: Double(columnCount) * 100)
        }
        if clickStartFrame != nil { sideways = 0 }
        ui.scrollTable(
            "table", toOffset: (Double(frame) * 37).truncatingRemainder(dividingBy: maxOffset), horizontal: sideways)

        let before = sortOrder
        let view = sorter.view(of: rows, sortedBy: sortOrder)
        // The previous click's sort is on screen from the frame its rows are drawn.
        sortLanded = sortStarted != nil && !sorter.isSorting
        pendingFrame = sortStarted != nil
        ui.table(
            "table", rows: view, selection: Binding(self, \.selection), sortOrder: Binding(self, \.sortOrder),
            isSorting: sorter.isSorting, frozenColumns: columnCount > 6 ? 2 : 0
        ) {
            columns
        }
        if sortOrder != before {
            sortStarted = MonotonicClock.seconds()
            pendingFrame = true
        }
        if clickStartFrame == nil, nextClick < clicks.count, frame >= 100 * (nextClick + 1), sortStarted == nil,
            !sortLanded
        {
            clickStartFrame = frame + 1  // the next frame, scrolled back to the left edge
        }
        if let start = clickStartFrame, frame >= start {
            click(clicks[nextClick].column, shift: clicks[nextClick].shift, frame: frame, at: start)
            if frame - start == 2 {
                clickStartFrame = nil
                nextClick += 1
            }
        }
    }

    var isFinished: Bool { nextClick == clicks.count && clickStartFrame == nil && sortStarted == nil }

    func measured(frame: FrameRecord) {
        if pendingFrame {
            maxPendingFrameMs = max(maxPendingFrameMs, frame.workMs)
        } else {
            quietFrameWork.append(frame.workMs)
        }
        if sortLanded, let started = sortStarted {
            // Click → the end of the first frame presenting the sorted rows.
            sortTimes.append((Double(frame.startNs + frame.totalNs) / 1e9 - started) * 1000)
            sortStarted = nil
            sortLanded = false
        }
    }

    func fields() -> String {
        let order = sortOrder.map { "\"\($0.id)\($0.order == .forward ? "↑" : "↓")\"" }.joined(separator: ",")
        let quiet = FrameTimeSummary(samples: quietFrameWork)
        let outside =
            "{\"frames\":\(quiet.count),\"p50\":\(FrameTimeSummary.format(quiet.p50)),\"p95\":\(FrameTimeSummary.format(quiet.p95)),\"p99\":\(FrameTimeSummary.format(quiet.p99))}"
        return
            ",\"columns\":\(columnCount),\"work_ms_outside_sorts\":\(outside),\"sort_ms\":[\(sortTimes.map { FrameTimeSummary.format($0) }.joined(separator: ","))]"
            + ",\"sort_max_frame_ms\":\(FrameTimeSummary.format(maxPendingFrameMs)),\"final_sort_order\":[\(order)]"
    }
}
