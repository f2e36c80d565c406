import Foundation
import TesseraTesting
import TestSupport
import XCTest
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport
@testable import Widgets

/// The articles' code (ArticleSnippets.swift) runs in a real offscreen window, and every
/// ```swift block of the articles is a snippet, character for character. (The greeter of
/// "Getting started" is tested by the "Testing your UI" article's own example.)
final class DocumentationTests: XCTestCase {
    func testEveryCodeBlockOfTheWidgetsArticlesIsACompiledSnippet() throws {
        try DocumentationSnippets.checkArticles(
            in: "Sources/Widgets/Widgets.docc",
            against: [
                "Tests/WidgetsTests/Documentation/ArticleSnippets.swift",
                "Tests/WidgetsTests/Documentation/TestingArticleTests.swift",
                "Tests/WidgetsTests/Documentation/AccessibilityArticleTests.swift",
                "Tests/WidgetsTests/Documentation/WindowsArticleTests.swift",
                "Tests/WidgetsTests/Documentation/ProfilingArticleTests.swift",
            ])
    }

    func testTheJustifiedGridOfTheArticleDrawsEachMonthsPhotosAtTheirShapes() throws {
        try onMain {
            let h = try Harness()
            let photos = (0..<30).map { Photo(path: "/nowhere/\($0).jpg") }
            let ratios = (0..<30).map { [1.5, 0.75, 1][$0 % 3] }
            var zoom = 1.0
            let build: (UI) -> Void = { ui in
                justifiedPhotos(
                    ui, photos: photos, ratios: ratios, months: [("May 2024", 12), ("June 2024", 18)],
                    zoom: Binding(get: { zoom }, set: { zoom = $0 }))
            }
            h.frames(2, build)
            XCTAssertNotNil(h.rect(ofText: "May 2024"), "the first month's header")
            let grid = try XCTUnwrap(h.ui.accessibilityTree.nodes.first { $0.role == .list }, "the grid")
            XCTAssertEqual(grid.collection?.rows, 30)
        }
    }

    func testEachCounterKeepsItsOwnState() throws {
        try onMain {
            let h = try Harness()
            let counters = Counters()
            h.frame(counters.body)
            let pearsRow = try XCTUnwrap(h.rect(ofText: "Pears: 0"))
            let plusOne = Point(pearsRow.maxX + 30, pearsRow.midY)  // the button right of the label
            h.click(at: plusOne, counters.body)
            h.click(at: plusOne, counters.body)
            h.frame(counters.body)  // the label is drawn before its button
            XCTAssertNotNil(h.rect(ofText: "Pears: 2"), "\(h.drawnText)")
            XCTAssertNotNil(h.rect(ofText: "Apples: 0"), "the other row's count is its own")
        }
    }

    func testTheBlinkingDotAsksForTheNextFrameOnTime() throws {
        try onMain {
            let h = try Harness()
            h.frame(blinkingDot)
            let due = try XCTUnwrap(h.ui.redrawTime)
            XCTAssertEqual(due - h.ui.time, 0.5 - h.ui.time.truncatingRemainder(dividingBy: 0.5), accuracy: 1e-9)
        }
    }

    func testTheDownloaderWakesTheFrameLoop() throws {
        try onMain {
            let h = try Harness()
            let downloader = Downloader()
            var shown: String?
            let build: (UI) -> Void = { ui in
                shown = downloader.text
                ui.text(shown ?? "…")
            }
            h.frame(build)
            downloader.start()
            XCTAssertTrue(h.host.runOnce(timeout: 5, build), "the wake-up starts a frame")
            for _ in 0..<50 where shown == nil { _ = h.host.runOnce(timeout: 0.1, build) }
            XCTAssertEqual(shown, "done")
        }
    }

    func testTheSplitAndTheToggleShareTheAppsState() throws {
        try onMain {
            let h = try Harness()
            let editor = Editor()
            h.frame(editor.body)
            h.drag(from: Point(0.3 * 640, 240), to: Point(0.5 * 640, 240), editor.body)
            XCTAssertEqual(editor.split.fraction, 0.5, accuracy: 0.02, "dragging the divider moves the app's fraction")
            h.click(at: Point(20, 14), editor.body)
            XCTAssertFalse(editor.showsInspector)
        }
    }

    func testTheMailSplitsNest() throws {
        try onMain {
            let h = try Harness()
            let mail = Mail()
            h.frame(mail.body)
            h.drag(from: Point(160, 240), to: Point(20, 240), mail.body)
            XCTAssertEqual(mail.folders.fraction, 0.15, accuracy: 0.01, "the sidebar stops at its minimum")
        }
    }

    func testTheNotesSidebarSelects() throws {
        try onMain {
            let h = try Harness(width: 1000, height: 600)
            let notes = Notes()
            h.frames(2, notes.body)
            try h.click(on: "Archive", notes.body)
            XCTAssertEqual(notes.selectedFolder, "Archive")
        }
    }

    func testTheFileTableSortsByHeaderClickAndSelectsWithTheKeyboard() throws {
        try onMain {
            let h = try Harness()
            let table = FileTable(files: [
                File(id: 1, name: "b.txt", size: 4096), File(id: 2, name: "a.txt", size: 1024),
                File(id: 3, name: "c.txt", size: 2048),
            ])
            var drawn: [Int] = []
            let build: (UI) -> Void = { ui in
                table.body(ui)
                drawn = table.sorter.view(of: table.files, sortedBy: table.order).map(\.id)
            }
            h.frame(build)
            XCTAssertEqual(drawn, [2, 1, 3])
            try h.click(on: "Size", build)
            h.frame(build)
            XCTAssertEqual(table.order.first?.id, "Size")
            XCTAssertEqual(drawn, [2, 3, 1])
            try h.click(on: "a.txt", build)
            h.press(Key(rawValue: 97), modifiers: .control, build)  // ctrl+A
            XCTAssertEqual(table.selection.count, 3)
            try h.click(on: "a.txt", button: .right, build)
            try h.click(on: "Delete 3 Files", build)
            XCTAssertEqual(table.lastAction, "Deleted 3")
        }
    }

    func testTheCSVTableHasAColumnPerFieldSortsNumbersByValueAndCopiesRows() throws {
        try onMain {
            let h = try Harness(width: 640, height: 300)
            let csv = CSVTable(
                csv:
                    "city,population,country\nOslo,709000,Norway\nLima,10092000,Peru\nPorto,231000\nKyoto,1464000,Japan"
            )
            h.frame(csv.body)
            for title in ["city", "population", "country"] {
                XCTAssertNotNil(h.rect(ofText: title, in: .tableHeader("csv")), title)
            }
            XCTAssertEqual(csv.numeric, [false, true, false])
            try h.click(on: "population", in: .tableHeader("csv"), csv.body)
            h.frame(csv.body)
            XCTAssertEqual(
                csv.sorter.view(of: csv.rows, sortedBy: csv.order).map { $0.cells[0] },
                ["Porto", "Oslo", "Kyoto", "Lima"],
                "by value, not as text (\"10092000\" < \"231000\")")
            try h.click(on: "Kyoto", in: .tableRows("csv"), button: .right, csv.body)
            try h.click(on: "Copy 1 Rows", in: .popup, csv.body)
            XCTAssertEqual(h.ui.clipboard.text, "Kyoto,1464000,Japan")
        }
    }

    /// The Layout article's examples, drawn at 2× (with `TESSERA_TEST_SHOTS` set, its pictures
    /// are saved: `TESSERA_TEST_SHOTS=Sources/Widgets/Widgets.docc/Resources swift test --filter Layout`).
    func testTheLayoutArticlesExamplesLayOutAsItSays() throws {
        try onMain {
            @MainActor func window(_ width: Int, _ height: Int) throws -> Harness {
                try Harness(width: width * 2, height: height * 2, scale: 2)
            }
            var filter = ""
            let bar = try window(360, 64)
            let buildBar: (UI) -> Void = { ui in ui.padding(8) { filterBar(ui, filter: &filter, rows: 200_000) } }
            bar.frames(2, buildBar)
            let export = try XCTUnwrap(bar.rect(ofText: "Export"))
            XCTAssertGreaterThan(export.maxX / 2, 300, "the spacer pushes the button to the trailing edge")
            bar.shot("layout-filter-bar", buildBar)

            let tags = ["Beach", "Mountains", "Family", "Night", "Snow", "Street"]
            var chosen: String? = "Family"
            let row = try window(240, 150)
            let buildRow: (UI) -> Void = { ui in ui.padding(8) { tagRow(ui, tags: tags, chosen: &chosen) } }
            row.frames(3, buildRow)
            let placed = try tags.map { try XCTUnwrap(row.rect(ofText: $0), $0) }
            XCTAssertGreaterThan(Set(placed.map { Int($0.minY) }).count, 1, "on more than one line")
            XCTAssertLessThanOrEqual(placed.map(\.maxX).max() ?? .infinity, 2 * 232, "inside the padded window")
            let caption = try XCTUnwrap(row.rect(ofText: "Showing Family"))
            XCTAssertGreaterThan(caption.minY, placed.map(\.maxY).max() ?? .infinity, "the caption under the last line")
            try row.click(on: "Snow", buildRow)
            XCTAssertEqual(chosen, "Snow")
            row.shot("layout-wrapping", buildRow)

            let stats = try window(200, 64)
            let buildStats: (UI) -> Void = { ui in ui.padding(8) { statisticRows(ui) } }
            stats.frames(2, buildStats)
            XCTAssertEqual(
                stats.drawnText.filter { $0 == "Lisbon" }.count, 1,
                "cut in the first row, whole in the second: \(stats.drawnText)")
            XCTAssertTrue(stats.drawnText.contains { $0.hasPrefix("Most common") && $0.hasSuffix("…") })
            stats.shot("layout-truncation", buildStats)

            let box = try window(360, 80)
            let buildBoxes: (UI) -> Void = { ui in ui.padding(8) { boxes(ui) } }
            box.frames(2, buildBoxes)
            let padded = try XCTUnwrap(box.rect(ofText: "padded by 12"))
            XCTAssertEqual(padded.minX / 2, 8 + 110 + 8 + 12, accuracy: 1, "after the frame, the gap and the padding")
            box.shot("layout-padding-frame", buildBoxes)
        }
    }

    func testTheHeadlessMainSavesAScreenshotOfTheLoadedReport() throws {
        try onMain {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("headless-\(getpid())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let previous = FileManager.default.currentDirectoryPath
            XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder))
            defer {
                _ = FileManager.default.changeCurrentDirectoryPath(previous)
                try? FileManager.default.removeItem(atPath: folder)
            }
            try headlessMain()
            let png = try Data(contentsOf: URL(fileURLWithPath: folder + "/report.png"))
            XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG")
            let image = try ImageDecoder.thumbnail(
                path: folder + "/report.png", spec: ThumbnailSpec(side: 800, fill: false)
            ).pixels
            XCTAssertEqual(image.width, 800)
            // "20 lines" and five lines under it: ink well below the first line.
            var inkRows = 0
            for y in 60..<140 where (0..<200).contains(where: { image.pixel(x: $0, y: y).r < 100 }) { inkRows += 1 }
            XCTAssertGreaterThan(inkRows, 20, "the loaded lines are in the screenshot")
        }
    }

    func testTheOutlineExpandsAndTheDisclosureGroupOpens() throws {
        try onMain {
            let h = try Harness()
            let sidebar = Sidebar()
            h.frames(2, sidebar.body)
            XCTAssertNil(h.rect(ofText: "2025"))
            try h.click(on: "Pictures", sidebar.body)
            h.press(.right, sidebar.body)
            h.frame(sidebar.body)
            XCTAssertEqual(sidebar.expanded, ["Pictures"])
            XCTAssertNotNil(h.rect(ofText: "2025"), "children show once expanded")
            try h.click(on: "2025", sidebar.body)
            XCTAssertEqual(sidebar.selection, "2025")
            try h.click(on: "Details", sidebar.body)
            XCTAssertTrue(sidebar.showsDetails)
            XCTAssertNotNil(h.rect(ofText: "Selected: 2025"))
        }
    }

    func testTheLazyStackBuildsOnlyWhatIsVisible() throws {
        try onMain {
            let h = try Harness()
            h.frames(2) { ui in messages(ui, count: 1_000_000) }
            let shown = h.drawnText.filter { $0.hasPrefix("Message ") }
            XCTAssertEqual(shown.first, "Message 0")
            XCTAssertLessThan(shown.count, 20, "only the visible rows of a million are built")
        }
    }

    func testThePhotoGridDrawsImagesFromThePipeline() throws {
        try onMain {
            let h = try Harness()
            imagePipelineSetup(host: h.host)
            defer { h.ui.images?.shutdown() }
            let folder = NSTemporaryDirectory() + "tessera-doc-\(getpid())"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let photos = try (0..<3).map { i in
                let path = folder + "/photo\(i).jpg"
                try SamplePhotos.writeJPEG(SamplePhotos.render(width: 320, height: 240, seed: UInt64(i)), to: path)
                return Photo(path: path)
            }
            // (Real time for the decode workers, which a sanitizer slows many times over.)
            h.frames(until: { h.ui.images?.uploadsTotal ?? 0 >= 3 }) { ui in photoGrid(ui, photos: photos) }
            XCTAssertEqual(h.ui.images?.uploadsTotal, 3, "all three photos decoded and uploaded")
        }
    }

    func testTheWindowOpenedOnAFirstScreenDrawsItsThumbnailsInItsFirstFrame() throws {
        try onMain {
            _ = try Harness()  // SDL set up offscreen: the snippet's window opens there
            let folder = try ScratchFolder("doc-first-screen")
            let photos = try (0..<12).map { i in
                let path = folder.file("photo\(i).jpg")
                try SamplePhotos.writeJPEG(SamplePhotos.render(width: 320, height: 240, seed: UInt64(i)), to: path)
                return Photo(path: path)
            }
            let host = try openPhotoWindow(photos: photos)
            let loader = try XCTUnwrap(host.ui.images?.loader)
            defer { host.ui.images?.shutdown() }
            let deadline = MonotonicClock.seconds() + 60
            while loader.snapshot.finished < 2 * photos.count && MonotonicClock.seconds() < deadline { usleep(2_000) }
            host.frame { ui in photoGrid(ui, photos: photos) }
            let lazy = try XCTUnwrap(host.profiler.lastFrame?.lazy)
            XCTAssertEqual(lazy.visibleCells, 12)
            XCTAssertEqual(lazy.placeholderCells, 0, "every photo decoded while the window was made")
        }
    }

    func testAProfiledScopeIsRecordedAndTheHUDDraws() throws {
        try onMain {
            let h = try Harness()
            h.frame { ui in profilingSetup(host: h.host, ui: ui, photos: []) }
            h.frame { ui in profilingSetup(host: h.host, ui: ui, photos: []) }
            XCTAssertTrue(h.host.showsHUD)
            let scopes = h.host.profiler.lastFrame?.scopes.map(\.label) ?? []
            XCTAssertTrue(scopes.contains("photo grid"), "\(scopes)")
        }
    }

    func testTheStarRatingTakesClicksKeysAndAScreenReaderAndDrawsItsStars() throws {
        try onMain {
            let h = try Harness(width: 400, height: 120)
            let photo = PhotoRating()
            h.frame(photo.body)
            // The stars are right of the label, in the form's control column: found by their ink.
            let label = try XCTUnwrap(h.rect(ofText: "Rating"))
            let side = h.ui.theme.controlHeight
            let row = Rect(x: label.maxX + 2, y: label.midY - side / 2, width: 398 - label.maxX, height: side)
            let ink = try XCTUnwrap(h.inkBounds(in: row, differingFrom: h.ui.theme.background))
            func center(_ n: Int) -> Point { Point(ink.minX + side * 0.3 + Double(n - 1) * side, row.midY) }

            h.click(at: center(5), photo.body)
            XCTAssertEqual(photo.rating, 5, "a click on the fifth star rates 5")
            h.click(at: center(5), photo.body)
            XCTAssertEqual(photo.rating, 0, "a click on the current rating clears it")
            h.click(at: center(2), photo.body)
            XCTAssertEqual(photo.rating, 2)
            h.press(.right, photo.body)
            XCTAssertEqual(photo.rating, 3, "→ while focused adds a star")
            h.press(.left, photo.body)
            h.press(.left, photo.body)
            XCTAssertEqual(photo.rating, 1, "← takes one away")

            h.inject.mouseMove(to: Point(10, 110))  // away: no hover preview
            h.frame(photo.body)
            XCTAssertEqual(
                h.pixels.pixel(x: Int(center(1).x), y: Int(center(1).y)), h.ui.theme.accent,
                "the rated star in the accent")
            XCTAssertEqual(
                h.pixels.pixel(x: Int(center(3).x), y: Int(center(3).y)), h.ui.theme.separator, "an unrated star")

            h.ui.isAccessibilityEnabled = true
            h.frame(photo.body)
            let node = try XCTUnwrap(h.ui.accessibilityTree.all(.slider, "Rating").first)
            XCTAssertEqual(node.value, "1 of 5")
            h.ui.perform(.setValue(node.id, 4))
            h.frame(photo.body)
            XCTAssertEqual(photo.rating, 4, "a screen reader sets the rating")
        }
    }

    func testTheSparklineFillsItsRoomAndDrawsItsLine() throws {
        try onMain {
            let h = try Harness(width: 300, height: 200)
            h.ui.isAccessibilityEnabled = true
            let build = { (ui: UI) in
                ui.vstack {
                    ui.text("Sales")
                    ui.sparkline("Sales by month", values: [3, 1, 4, 1, 5, 9, 2, 6])
                }
            }
            h.frame(build)
            let node = try XCTUnwrap(h.ui.accessibilityTree.all(.image, "Sales by month").first)
            XCTAssertEqual(node.frame.width, 300, accuracy: 1, "the sparkline takes the width offered")
            XCTAssertGreaterThan(node.frame.height, 120, "and the height left under the title")
            let accent = h.ui.theme.accent
            XCTAssertGreaterThan(h.countPixels(in: node.frame) { $0 == accent }, 200, "its line")
            let top = Rect(x: 0, y: 0, width: 300, height: node.frame.minY - 2)  // (the line is 2 px thick at its top)
            XCTAssertEqual(h.countPixels(in: top) { $0 == accent }, 0, "nothing drawn above it")
        }
    }
}
