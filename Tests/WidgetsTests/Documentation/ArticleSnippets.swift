import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

// The code of the articles in Sources/Widgets/Widgets.docc. Every ```swift block of an
// article is one region below, between `// snippet: <name>` and `// end snippet`, copied
// verbatim (DocumentationTests checks that they stay the same); DocumentationTests runs them
// in a real offscreen window. Regions inside a function are shown without its indentation.

// MARK: Getting started

// snippet: greeter
@MainActor
final class Greeter {
    var name = ""
    var greetings = 0

    func body(_ ui: UI) {
        ui.vstack {
            ui.text(greetings == 0 ? "Who is there?" : "Hello, \(name)! (\(greetings))")
            ui.textField("Your name", text: &name)
            if ui.button("Greet", style: .borderedProminent) { greetings += 1 }
        }
    }
}
// end snippet

@MainActor
func gettingStartedMain() throws {
    // snippet: greeter-main
    let host = try AppHost(options: .init(title: "Hello"))
    let greeter = Greeter()
    host.run(greeter.body)
    // end snippet
}

// MARK: Immediate mode and state

// snippet: counters
@MainActor
final class Counters {
    var names = ["Apples", "Pears"]

    func body(_ ui: UI) {
        for name in names {
            ui.withID(name) {  // the same labels below, one scope per row
                ui.hstack {
                    let id = ui.id("count")
                    let count = ui.state(id, default: 0)
                    ui.text("\(name): \(count)")
                    if ui.button("+1") { ui.setState(id, count + 1) }
                }
            }
        }
    }
}
// end snippet

// snippet: binding
@MainActor
final class Editor {
    var split = SplitState(fraction: 0.3)
    var showsInspector = true

    func body(_ ui: UI) {
        ui.hSplit("main", state: Binding(self, \.split)) {
            ui.toggle("Inspector", isOn: &showsInspector)
        } right: {
            ui.text(showsInspector ? "Inspector shown" : "Inspector hidden")
        }
    }
}
// end snippet

// snippet: blinking
@MainActor
func blinkingDot(_ ui: UI) {
    let on = Int(ui.time * 2) % 2 == 0
    ui.text(on ? "●" : "○")
    ui.requestRedraw(after: 0.5 - ui.time.truncatingRemainder(dividingBy: 0.5))
}
// end snippet

// snippet: waker
final class Downloader: Sendable {
    private let result = Locked<String?>(nil)

    func start() {
        Thread { [self] in
            let text = "done"  // the slow work
            result.withLock { $0 = text }
            FrameWaker.wake()  // the frame loop wakes and draws the result
        }.start()
    }

    var text: String? { result.withLock { $0 } }
}
// end snippet

// MARK: Split views

// snippet: split
@MainActor
final class Mail {
    var folders = SplitState(fraction: 0.25)

    func body(_ ui: UI) {
        ui.hSplit(
            "folders", state: Binding(self, \.folders),
            constraints: SplitConstraints(minPFraction: 0.15, minSFraction: 0.5)
        ) {
            ui.text("Inbox")
        } right: {
            ui.vSplit("message", fraction: 0.4, persist: true) {
                ui.text("Messages")
            } bottom: {
                ui.text("Message body")
            }
        }
    }
}
// end snippet

// snippet: navigation-split
struct NoteFolder: Identifiable {
    var name: String
    var id: String { name }
}

@MainActor
final class Notes {
    let folders = [NoteFolder(name: "Notes"), NoteFolder(name: "Archive")]
    var columns = NavigationSplitState()
    var selectedFolder: String? = "Notes"

    func body(_ ui: UI) {
        ui.navigationSplit("notes", state: Binding(self, \.columns), title: "Notes") {
            ui.list("folders", selection: Binding(self, \.selectedFolder), style: .sidebar) {
                ui.forEach(folders) { ListRowContent($0.name, icon: .folder) }
            }
        } content: {
            ui.text("Notes in \(selectedFolder ?? "nothing")")
        } detail: {
            ui.text("The note")
        }
    }
}
// end snippet

// MARK: Tables

// snippet: table-model
struct File: Identifiable, Sendable {
    var id: Int
    var name: String
    var size: Int
}

@MainActor
final class FileTable {
    var files: [File]
    var order = [KeyComparator(\File.name, id: "Name")]
    var selection = RowSelection<Int>()
    let sorter = TableSorter<File>(name: "files")
    var lastAction = ""

    init(files: [File]) { self.files = files }

    func body(_ ui: UI) {
        let rows = sorter.view(of: files, sortedBy: order)  // the old order stays until the new one is ready
        ui.table(
            "files", rows: rows, selection: Binding(self, \.selection), sortOrder: Binding(self, \.order),
            isSorting: sorter.isSorting,
            contextMenu: { ids in
                if ui.menuItem("Delete \(ids.count) Files", role: .destructive) {
                    self.lastAction = "Deleted \(ids.count)"
                }
            }
        ) {
            TableColumn("Name", value: \File.name).width(min: 120, ideal: 240)
            TableColumn("Size", value: \File.size) { "\($0.size / 1024) KB" }.alignment(.trailing)
        }
    }
}
// end snippet

// snippet: csv-table
struct CSVRow: Identifiable, Sendable {
    var id: Int
    var cells: [String]
}

@MainActor
final class CSVTable {
    var header: [String]
    var rows: [CSVRow]
    var numeric: [Bool]  // every cell a number: sorted by value
    var order: [KeyComparator<CSVRow>] = []
    var selection = Set<Int>()
    let sorter = TableSorter<CSVRow>(name: "csv")

    init(csv: String) {
        let lines = csv.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        header = lines.first ?? []
        let width = header.count
        let parsed = lines.dropFirst().enumerated().map { n, cells in
            // ragged lines padded
            CSVRow(id: n, cells: Array((cells + Array(repeating: "", count: width)).prefix(width)))
        }
        rows = parsed
        numeric = (0..<width).map { i in parsed.allSatisfy { Double($0.cells[i]) != nil } }
    }

    func body(_ ui: UI) {
        let shown = sorter.view(of: rows, sortedBy: order)
        ui.table(
            "csv", rows: shown, selection: Binding(self, \.selection), sortOrder: Binding(self, \.order),
            isSorting: sorter.isSorting,
            contextMenu: { ids in
                if !ids.isEmpty, ui.menuItem("Copy \(ids.count) Rows") { self.copy(ids, to: ui.clipboard) }
            }
        ) {
            for (i, name) in header.enumerated() {  // one column per field of the file
                if numeric[i] {
                    TableColumn(name, id: "field \(i)", sortUsing: .double { Double($0.cells[i]) ?? 0 }) { $0.cells[i] }
                        .alignment(.trailing)
                } else {
                    TableColumn(name, id: "field \(i)", sortUsing: .string { $0.cells[i] }) { $0.cells[i] }
                }
            }
        }
    }

    /// The rows `ids` names as CSV lines, in file order, on the clipboard.
    func copy(_ ids: RowSelection<Int>, to clipboard: Clipboard) {
        clipboard.text = rows.filter { ids.contains($0.id) }.map { $0.cells.joined(separator: ",") }.joined(
            separator: "\n")
    }
}
// end snippet

// MARK: Layout

// snippet: layout-filter-bar
@MainActor
func filterBar(_ ui: UI, filter: inout String, rows: Int) {
    ui.vstack {
        ui.hstack {
            ui.textField("Filter", text: &filter, width: 160)
            ui.spacer()  // what the others left in the last frame
            _ = ui.button("Export")
        }
        ui.text("\(rows) rows")
    }
}
// end snippet

// snippet: layout-wrapping
@MainActor
func tagRow(_ ui: UI, tags: [String], chosen: inout String?) {
    ui.vstack {
        ui.wrappingHStack {
            for tag in tags where ui.button(tag, style: tag == chosen ? .borderedProminent : .bordered) {
                chosen = tag
            }
        }
        ui.text(chosen.map { "Showing \($0)" } ?? "Pick a tag")
    }
}
// end snippet

// snippet: layout-truncation
@MainActor
func statisticRows(_ ui: UI) {
    ui.vstack {
        // First come, first served: the long name takes the row, and the value is cut.
        ui.hstack {
            ui.text("Most common city of birth")
            ui.spacer()
            ui.text("Lisbon")
        }
        // In a flexible frame, the name gets only what the value leaves: the value stays whole.
        ui.hstack {
            ui.frame(height: ui.font.lineHeight) { ui.text("Most common city of birth") }
            ui.text("Lisbon")
        }
    }
}
// end snippet

// snippet: layout-padding-frame
@MainActor
func boxes(_ ui: UI) {
    ui.hstack(alignment: .top) {
        ui.frame(width: 110, height: 50) {
            ui.drawList.addRect(ui.availableRect, color: ui.theme.control)  // shows the frame
            ui.text("110 × 50")
        }
        ui.padding(12) { ui.text("padded by 12") }
        ui.text("after")
    }
}
// end snippet

// MARK: Headless runs and screenshots

// snippet: headless-report
@MainActor
final class Report {
    var lines: [String] = []
    var isLoading: Bool { lines.isEmpty }

    func body(_ ui: UI) {
        ui.task {
            let loaded = await Task.detached { (1...20).map { "Line \($0)" } }.value  // off the main actor
            self.lines = loaded
        }
        ui.vstack {
            ui.text(isLoading ? "Loading…" : "\(lines.count) lines")
            for line in lines.prefix(5) { ui.text(line) }
        }
    }
}
// end snippet

@MainActor
func headlessMain() throws {
    // snippet: headless-main
    let host = try AppHost(options: .init(title: "Report", width: 800, height: 600, offscreen: true))
    let report = Report()
    host.frame(report.body)  // starts the loading task
    // Background work wakes the loop: run frames until it is done (10 s at most).
    let deadline = MonotonicClock.seconds() + 10
    while report.isLoading && MonotonicClock.seconds() < deadline {
        host.runOnce(timeout: 1, report.body)
    }
    host.captureScreenshot(to: "report.png")  // saved when the next frame is drawn
    host.frame(report.body)
    // end snippet
}

// MARK: Lists, outlines and disclosure groups

// snippet: outline
struct Folder: Identifiable {
    var name: String
    var children: [Folder]?
    var id: String { name }
}

@MainActor
final class Sidebar {
    let folders = [Folder(name: "Pictures", children: [Folder(name: "2024"), Folder(name: "2025")])]
    var selection: String?
    var expanded: Set<String> = []
    var showsDetails = false

    func body(_ ui: UI) {
        ui.list("sidebar", selection: Binding(self, \.selection), style: .sidebar) {
            ui.section("Folders") {
                ui.outlineGroup(folders, children: \.children, expanded: Binding(self, \.expanded)) {
                    ListRowContent($0.name, icon: .folder)
                }
            }
        }
        ui.disclosureGroup("Details", isExpanded: &showsDetails) {
            ui.text("Selected: \(selection ?? "none")")
        }
    }
}
// end snippet

// MARK: Lazy stacks, grids and images

// snippet: lazy-stack
@MainActor
func messages(_ ui: UI, count: Int) {
    ui.lazyVStack("messages", count: count, estimatedHeight: 40) { ui, index in
        ui.text("Message \(index)")
    }
}
// end snippet

// snippet: photo-grid
struct Photo: Identifiable {
    var path: String
    var id: String { path }
}

@MainActor
func photoGrid(_ ui: UI, photos: [Photo]) {
    let columns = [GridItem(.adaptive(minimum: 160), spacing: 8)]
    ui.lazyVGrid("photos", columns: columns, spacing: 8, items: photos) { ui, photo, rect in
        ui.asyncImage(photo.path, in: rect, mode: .fill)
    }
}
// end snippet

// snippet: justified-grid
@MainActor
func justifiedPhotos(
    _ ui: UI, photos: [Photo], ratios: [Double], months: [(title: String, count: Int)], zoom: Binding<Double>
) {
    ui.lazyJustifiedGrid(
        "photos", aspectRatios: ratios, sections: months.map(\.count), rowHeight: 160,
        pinnedViews: .sectionHeaders, zoom: zoom
    ) { ui, month, rect in
        ui.font.draw(months[month].title, in: rect, color: ui.theme.text, into: &ui.drawList)
    } cell: { ui, i, rect in
        ui.asyncImage(photos[i].path, in: rect)
    }
}
// end snippet

@MainActor
func imagePipelineSetup(host: AppHost) {
    // snippet: image-pipeline
    host.ui.images = ImagePipeline(renderer: host.window.renderer)
    // end snippet
}

// snippet: first-screen
@MainActor
func openPhotoWindow(photos: [Photo]) throws -> AppHost {
    let columns = [GridItem(.adaptive(minimum: 160), spacing: 8)]
    let first = LazyGridInfo.firstScreen(
        columns: columns, spacing: 8, count: photos.count, viewport: Size(1280, 800))
    let loader = ThumbnailLoader()
    loader.requestFirstScreen(
        photos[first.visible].map(\.path),
        spec: ImageFraming.thumbnailSpec(for: first.cellSize, scale: 1, mode: .fill))
    let host = try AppHost(options: .init(title: "Photos", width: 1280, height: 800))
    host.ui.images = ImagePipeline(renderer: host.window.renderer, loader: loader)
    return host
}
// end snippet

// MARK: Profiling

@MainActor
func profilingSetup(host: AppHost, ui: UI, photos: [Photo]) {
    // snippet: hud
    host.showsHUD = true  // or press F12
    // end snippet
    // snippet: scope
    ui.profile("photo grid") {
        photoGrid(ui, photos: photos)
    }
    // end snippet
}

// MARK: Writing a widget

// snippet: star-rating
extension UI {
    /// Stars to rate something from 0 to `maximum`: a click sets the rating (a click on the
    /// current one clears it), ← and → change it while focused, and a screen reader sees a
    /// slider. Returns true when the rating changed.
    @discardableResult
    public func starRating(_ title: String, value: inout Int, maximum: Int = 5) -> Bool {
        // 1. Identity: from the ID stack, so two ratings side by side stay apart.
        let id = self.id(title)
        // 2. Layout: the control column of a form's row, or a rectangle of its own.
        let side = theme.controlHeight
        let rect = formRow(title, height: side) ?? allocate(Size(Double(maximum) * side, side))
        // 3. Interaction: clicks and keyboard focus, the pointer, keys while focused.
        let r = interact(id, rect: rect, sense: [.click, .focus])
        if r.isHovered { setCursor(.pointingHand) }
        func star(atX x: Double) -> Int { min(maximum, max(1, Int((x - rect.x) / side) + 1)) }
        let old = value
        if r.clicked {
            let clicked = star(atX: input.pointer.pressPosition.x)
            value = clicked == value ? 0 : clicked
        }
        if focusID == id {
            for press in input.keys {
                if press.key == .right { value = min(maximum, value + 1) }
                if press.key == .left { value = max(0, value - 1) }
            }
        }
        // 4. Accessibility: what a screen reader asks for, and what it is told.
        if let asked = accessibilitySetValue(id), asked.isFinite { value = min(maximum, max(0, Int(asked.rounded()))) }
        accessibilityElement(
            id, role: .slider, name: title, frame: rect, states: controlStates(.horizontal),
            value: "\(value) of \(maximum)",
            range: AccessibilityRange(current: Double(value), minimum: 0, maximum: Double(maximum), step: 1))
        // 5. Drawing: theme colors, so dark mode and the display's scale come for free.
        let shown = r.isHovered ? star(atX: input.pointer.position.x) : value
        for index in 0..<maximum {
            let center = Point(rect.x + (Double(index) + 0.5) * side, rect.midY)
            drawList.addCircle(
                center: center, radius: side * 0.3, color: index < shown ? theme.accent : theme.separator)
        }
        if focusID == id { drawList.addRectBorder(rect, radius: 4, color: theme.accent.opacity(0.6), thickness: 2) }
        return value != old
    }
}
// end snippet

// snippet: star-rating-use
@MainActor
final class PhotoRating {
    var rating = 3

    func body(_ ui: UI) {
        ui.form {
            ui.starRating("Rating", value: &rating)
        }
    }
}
// end snippet

// snippet: sparkline
extension UI {
    /// A line through `values`, filling the room it is offered, for a screen reader an image
    /// named `name`.
    public func sparkline(_ name: String, values: [Double]) {
        widget("sparkline", name) { id, rect in
            drawList.addRect(rect, color: theme.background)
            accessibilityElement(id, role: .image, name: name, frame: rect)
            guard values.count > 1, let low = values.min(), let high = values.max() else { return }
            let span = max(high - low, .ulpOfOne)
            let points = values.indices.map { i in
                Point(
                    rect.x + rect.width * Double(i) / Double(values.count - 1),
                    rect.maxY - (values[i] - low) / span * rect.height)
            }
            drawList.addPolyline(points, color: theme.accent, thickness: 2)
        }
    }
}
// end snippet
