import XCTest
import Foundation
import TesseraTesting
import TestSupport
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// The profiler's scopes, jank provoked on purpose and attributed to its cause, and the HUD's
/// frame inspector driven by mouse, keys and touch in the real renderer.
final class FrameInspectorTests: XCTestCase {
    struct Row: Identifiable, Sendable {
        let id: Int
        let name: String
    }

    /// These frames are slow in their work on purpose; on a loaded machine (or under a
    /// sanitizer) the present can be slow too, so it is counted as vsync pacing here: the
    /// attribution picks among the parts of the work.
    @MainActor
    static func presentIsPacing(_ h: Harness) { h.host.profiler.presentWaitsForVSync = true }
    private static let rows = (0..<40).map { Row(id: $0, name: "row \($0)") }

    func testContainerWidgetsAndTheAppOpenNestedScopes() throws {
        try onMain {
            let h = try Harness()
            var state = SplitState(fraction: 0.4)
            let build: (UI) -> Void = { ui in
                ui.split("panes", state: Binding(get: { state }, set: { state = $0 })) {
                    ui.list("names") { for i in 0..<5 { ui.text("item \(i)") } }
                } secondary: {
                    ui.profile("details") {
                        ui.profile("inner") { usleep(1_000) }
                        ui.table("rows", rows: Self.rows) { TableColumn("Name", value: \Row.name) }
                    }
                }
            }
            h.frames(2, build)
            let scopes = try XCTUnwrap(h.host.profiler.lastFrame?.scopes)
            let named = scopes.map { "\($0.depth) \($0.name)" }
            XCTAssertEqual(
                named,
                ["0 split 'panes'", "1 list 'names'", "1 details", "2 inner", "2 table 'rows'", "0 end of frame"])
            let inner = try XCTUnwrap(scopes.first { $0.name == "inner" }),
                details = try XCTUnwrap(scopes.first { $0.name == "details" })
            XCTAssertGreaterThanOrEqual(inner.durationNs, 1_000_000, "inner slept 1 ms")
            XCTAssertTrue(details.startNs <= inner.startNs && inner.endNs <= details.endNs, "nested in time")
            let frame = try XCTUnwrap(h.host.profiler.lastFrame)
            let buildStart = frame.startNs + frame.phaseNs[FramePhase.events.rawValue]
            XCTAssertTrue(
                scopes.allSatisfy {
                    $0.startNs >= buildStart && $0.endNs <= buildStart + frame.phaseNs[FramePhase.build.rawValue]
                })
            h.host.profiler.recordsScopes = false
            h.frame(build)
            XCTAssertEqual(h.host.profiler.lastFrame?.scopes.count, 0, "scopes off: none recorded")
        }
    }

    func testASlowCellIsBlamedOnItsTable() throws {
        try onMain {
            let h = try Harness()
            Self.presentIsPacing(h)
            var slow = false
            let build: (UI) -> Void = { ui in
                ui.table("files", rows: Self.rows) {
                    TableColumn("Name") { ui, row in
                        if slow && row.id == 3 { usleep(30_000) }  // a deliberately slow cell closure
                        ui.text(row.name)
                    }
                }
            }
            h.frames(2, build)
            slow = true
            h.frame(build)
            let frame = try XCTUnwrap(h.host.profiler.lastFrame)
            XCTAssertTrue(frame.isOverBudget(h.host.profiler.jankThresholdMs))
            XCTAssertEqual(frame.cause().kind, .build)
            XCTAssertEqual(frame.cause().culprit, "table 'files'", frame.cause().description)
        }
    }

    func testASynchronousSortIsBlamedOnTheSort() throws {
        try onMain {
            let h = try Harness()
            Self.presentIsPacing(h)
            let sorter = TableSorter<Row>(name: "files")
            var order: [KeyComparator<Row>] = []
            // 200 rows whose key takes 1 ms each to compute: a 200 ms sort on the main thread.
            let slowKey = KeyComparator<Row>(
                id: "slow",
                key: .integer { row in
                    usleep(1_000)
                    return Int64(-row.id)
                })
            let rows = (0..<200).map { Row(id: $0, name: "row \($0)") }
            let build: (UI) -> Void = { ui in
                let view = sorter.view(of: rows, sortedBy: order)
                ui.table("files", rows: view) { TableColumn("Name", value: \Row.name) }
            }
            h.frames(2, build)
            order = [slowKey]
            h.frame(build)
            let frame = try XCTUnwrap(h.host.profiler.lastFrame)
            XCTAssertGreaterThan(frame.workMs, 200)
            XCTAssertEqual(frame.cause().culprit, "sort 'files'", frame.cause().description)
            let report = JankReport(frames: h.host.profiler.recentFrames, budgetMs: h.host.profiler.jankThresholdMs)
            XCTAssertEqual(report.janky.last?.cause.culprit, "sort 'files'")
            XCTAssertTrue(report.jankyJSON().contains("build: sort 'files' 2"), report.jankyJSON())
        }
    }

    /// Four 10 MB thumbnails decoded, then uploaded in one frame.
    @MainActor
    private static func uploadBurst(_ h: Harness) throws -> (
        frame: FrameRecord, images: ImagePipeline, build: (UI) -> Void
    ) {
        let images = ImagePipeline(renderer: h.host.window.renderer, budgetBytes: 512 << 20, workers: 2) { key in
            let pixels = PixelBuffer(width: 2560, height: 1024, bytes: [UInt8](repeating: 180, count: 2560 * 1024 * 4))
            return .success(
                DecodedThumbnail(
                    pixels: pixels, info: ImageInfo(format: .png, width: 2560, height: 1024, orientation: 1),
                    dctScale: 1))
        }
        images.uploadBudgetMs = 10_000  // all four in one frame
        h.ui.images = images
        var wants = false
        let build: (UI) -> Void = { ui in
            guard wants else { return }
            for i in 0..<4 {
                _ = ui.images?.thumbnail(for: "/burst/\(i).png", spec: ThumbnailSpec(side: 2560), priority: Double(i))
            }
        }
        h.frames(2, build)
        wants = true
        h.frame(build)  // requests them
        let deadline = Date().addingTimeInterval(60)
        while images.loader.snapshot.finished < 4 && Date() < deadline { usleep(2_000) }
        h.frame(build)  // uploads them
        return (try XCTUnwrap(h.host.profiler.lastFrame), images, build)
    }

    func testATextureUploadBurstIsBlamedOnTheUploads() throws {
        try onMain {
            let h = try Harness()
            Self.presentIsPacing(h)
            let (frame, images, _) = try Self.uploadBurst(h)
            defer { images.shutdown() }
            XCTAssertEqual(frame.lazy.uploads, 4)
            XCTAssertEqual(frame.lazy.uploadBytes, 40 << 20)
            let cause = frame.cause()
            XCTAssertEqual(cause.kind, .uploads, cause.description)
            XCTAssertTrue(cause.description.hasPrefix("uploads: 4 textures, 40.0 MB, "), cause.description)
            XCTAssertTrue(
                cause.description.hasSuffix("after 4 decodes finished") || frame.lazy.finished == 0, cause.description)
            // The trace shows the uploads as a slice inside the build phase, nested exactly.
            h.host.profiler.keepsTrace = true
            h.host.profiler.record(frame)
            let trace = h.host.profiler.chromeTraceJSON()
            XCTAssertTrue(trace.contains("\"name\":\"upload\""))
            XCTAssertTrue(
                trace.contains("\"name\":\"actual frames\"") && trace.contains("\"name\":\"expected frames\""))
            XCTAssertEqual(try TraceNesting.improperlyNested(trace), [])
        }
    }

    /// Decoded pixels of a megabyte or more are handed to the freeing thread once uploaded, or
    /// once dropped unwanted, so the frame does not pay for giving their pages back; a small
    /// thumbnail's are freed by the frame. (Counted by each pipeline: a sort of another test
    /// finishing meanwhile hands its memory over too. `BackgroundReleaseTests` shows what is
    /// handed over is freed off the calling thread.)
    func testLargeDecodedPixelsAreFreedOffTheFrameThread() throws {
        try onMain {
            let h = try Harness()
            let (_, burst, _) = try Self.uploadBurst(h)  // four 10 MB decodes, uploaded as cells see them
            burst.shutdown()
            XCTAssertEqual(burst.decodesFreedInBackground, 4, "uploaded on sight")
            var side = 64, asks = true
            let images = ImagePipeline(renderer: h.host.window.renderer, budgetBytes: 512 << 20, workers: 2) { key in
                let side = key.spec.side  // 64 or 1024, as asked
                let pixels = PixelBuffer(
                    width: side, height: side, bytes: [UInt8](repeating: 255, count: side * side * 4))
                return .success(
                    DecodedThumbnail(
                        pixels: pixels, info: ImageInfo(format: .png, width: side, height: side, orientation: 1),
                        dctScale: 1))
            }
            defer { images.shutdown() }
            h.ui.images = images
            let build: (UI) -> Void = { ui in
                guard asks else { return }
                for i in 0..<4 {
                    _ = ui.images?.thumbnail(for: "/\(side)/\(i).png", spec: ThumbnailSpec(side: side), priority: 0)
                }
            }
            for (pixelSide, expected) in [(64, 0), (1024, 4)] {
                side = pixelSide
                asks = true
                let handed = images.decodesFreedInBackground
                h.frame(build)  // asks for four
                let deadline = Date().addingTimeInterval(60)
                while images.loader.snapshot.finished < (pixelSide == 64 ? 4 : 8) && Date() < deadline { usleep(2_000) }
                asks = false
                h.frame(build)  // no cell wants them now: the end of the frame takes them and drops them
                XCTAssertEqual(images.decodesFreedInBackground - handed, expected, "\(pixelSide)×\(pixelSide) dropped")
            }
        }
    }

    /// A page with controls along every edge, as the demo's top bar has (the Dark toggle and
    /// the HUD button at the top right, where the floating inspector used to cover them).
    @MainActor
    static func edgeControls(_ ui: UI) {
        var dark = false
        ui.vstack(spacing: 0) {
            ui.hstack {
                _ = ui.button("Photos")
                ui.spacer()
                ui.toggle("Dark", isOn: &dark)
                _ = ui.button("Hide HUD")
            }
            ui.spacer()
            ui.hstack {
                _ = ui.button("Cancel")
                ui.spacer()
                _ = ui.button("Save", style: .borderedProminent)
            }
        }
    }

    /// What the inspector shows (its lines and buttons) and the page's controls, by rectangle.
    @MainActor
    static func hudAndControls(_ tree: AccessibilityTree) -> (hud: [AccessibilityNode], controls: [AccessibilityNode]) {
        guard let panel = tree.all(.panel, "Frame profiler").first,
            let index = tree.nodes.firstIndex(where: { $0.id == panel.id })
        else { return ([], []) }
        var inHUD = Set<Int>(), stack = [index]
        while let k = stack.popLast() {
            inHUD.insert(k)
            stack += tree.nodes[k].children
        }
        let hud = inHUD.filter { $0 != index }.map { tree.nodes[$0] }
        let controls = tree.nodes.indices.filter { !inHUD.contains($0) && !tree.nodes[$0].actions.isEmpty }.map {
            tree.nodes[$0]
        }
        return (hud, controls)
    }

    func testTheDockedInspectorCoversNoControlAndNoneOfItsLabelsOverlapAtScales1To2() throws {
        try onMain {
            for scale in [1.0, 1.5, 2.0] {
                let h = try Harness(width: Int(900 * scale), height: Int(600 * scale), scale: scale)
                h.host.showsHUD = true
                h.frames(3, Self.edgeControls)
                let (hud, controls) = Self.hudAndControls(h.ui.accessibilityTree)
                XCTAssertGreaterThanOrEqual(hud.count, 5, "scale \(scale): the lines, the bars, Record and Float")
                XCTAssertEqual(controls.count, 5, "scale \(scale): the page's controls are all there, above the dock")
                for (i, a) in hud.enumerated() {
                    for b in hud[(i + 1)...] where a.role != .image && b.role != .image {
                        XCTAssertFalse(
                            a.frame.intersects(b.frame),
                            "scale \(scale): '\(a.name)' \(a.frame) overlaps '\(b.name)' \(b.frame)")
                    }
                    for control in controls {
                        XCTAssertFalse(
                            a.frame.intersects(control.frame), "scale \(scale): '\(a.name)' covers '\(control.name)'")
                    }
                }
                let save = try XCTUnwrap(controls.first { $0.name == "Save" })
                XCTAssertLessThanOrEqual(save.frame.maxY, h.ui.size.height, "the app is laid out above the dock")
                let panel = try XCTUnwrap(h.ui.accessibilityTree.all(.panel, "Frame profiler").first?.frame)
                XCTAssertGreaterThan(panel.height, 100, "scale \(scale): the dock is shown, below the app")
                XCTAssertEqual(panel.minY, h.ui.size.height, accuracy: 0.5)
                XCTAssertEqual(panel.maxY, 600, accuracy: 0.5)
                for node in hud {
                    XCTAssertTrue(
                        panel.contains(Point(node.frame.maxX - 0.5, node.frame.maxY - 0.5)),
                        "scale \(scale): '\(node.name)' is inside the dock")
                }
            }
        }
    }

    func testTheFloatingInspectorsLinesAreCutBeforeItsButtonsInANarrowWindow() throws {
        try onMain {
            for scale in [1.0, 1.5, 2.0] {
                let h = try Harness(width: Int(300 * scale), height: Int(400 * scale), scale: scale)
                h.host.showsHUD = true
                h.ui.hudPlacement = .floating(x: 0, y: 60)
                h.frames(3, Self.edgeControls)
                let hud = Self.hudAndControls(h.ui.accessibilityTree).hud.filter { $0.role != .image }
                let panel = try XCTUnwrap(h.ui.accessibilityTree.all(.panel, "Frame profiler").first?.frame)
                XCTAssertEqual(panel.width, 300, "scale \(scale): as wide as the window")
                for (i, a) in hud.enumerated() {
                    XCTAssertLessThanOrEqual(
                        a.frame.maxX, panel.maxX + 0.5, "scale \(scale): '\(a.name)' stays in the panel")
                    for b in hud[(i + 1)...] {
                        XCTAssertFalse(
                            a.frame.intersects(b.frame),
                            "scale \(scale): '\(a.name)' \(a.frame) overlaps '\(b.name)' \(b.frame)")
                    }
                }
            }
        }
    }

    func testTheInspectorFloatsWhereItIsDraggedAndKeepsItsPlace() throws {
        try onMain {
            let folder = try ScratchFolder("hud-place")
            let h = try Harness(width: 900, height: 600)
            h.ui.persistentStore = PersistentStore(path: folder.file("state.json"))
            h.host.showsHUD = true
            h.frames(2, Self.edgeControls)
            try h.click(on: "Float", Self.edgeControls)
            XCTAssertEqual(h.ui.hudPlacement, .floating(x: 900 - 460 - 10, y: 10))
            XCTAssertEqual(h.ui.size.height, 600, "floating, it keeps no room")
            h.frame(Self.edgeControls)
            // Drag it by its header, left and down.
            h.drag(from: Point(900 - 460 + 40, 20), to: Point(900 - 460 - 160, 220), Self.edgeControls)
            XCTAssertEqual(h.ui.hudPlacement, .floating(x: 900 - 460 - 10 - 200, y: 210))
            h.ui.persistentStore?.save()
            let reopened = PersistentStore(path: folder.file("state.json"))
            XCTAssertEqual(
                reopened.value(UI.hudPlacementKey, as: HUDPlacement.self), .floating(x: 900 - 460 - 10 - 200, y: 210),
                "its place is kept")
            try h.click(on: "Dock", Self.edgeControls)
            XCTAssertEqual(h.ui.hudPlacement, .docked)
        }
    }

    func testTheInspectorFreezesOnAJankyFrameStepsAndShowsItsCause() throws {
        try onMain {
            let h = try Harness(width: 800, height: 600)
            Self.presentIsPacing(h)
            h.host.readsBackFrames = true
            let profiler = h.host.profiler
            var slow = false
            let build: (UI) -> Void = { ui in
                ui.table("files", rows: Self.rows) {
                    TableColumn("Name") { ui, row in
                        if slow && row.id == 0 { usleep(40_000) }
                        ui.text(row.name)
                    }
                }
            }
            h.host.showsHUD = true
            // over the app, where the geometry below expects it
            h.ui.hudPlacement = .floating(x: 800 - 460 - 10, y: 10)
            h.frames(20, build)
            slow = true
            h.frame(build)
            slow = false
            h.frames(20, build)
            // The bars: 600 slots across the panel (460 wide, 10 from the right edge, 10 inside),
            // the newest on the right. A first click freezes them; the second picks the janky one.
            let panelX = 800.0 - 460 - 10, graphX = panelX + 10, barWidth = 440.0 / 600
            let graphY = 10.0 + 46 + 6
            h.click(at: Point(graphX + 430, graphY + 60), build)
            let snapshot = try XCTUnwrap(h.ui.inspectorState.frozen)
            let janky = try XCTUnwrap(
                snapshot.lastIndex {
                    $0.cause().culprit == "table 'files'" && $0.isOverBudget(profiler.jankThresholdMs)
                })
            // Pointer positions are whole pixels and bars are 0.73 px wide: click the pixel over the
            // janky bar, or over its neighbour when no pixel starts inside it (then step with a key).
            let first = 600 - snapshot.count
            func frameUnder(_ x: Double) -> Int { Int(((x - graphX) / barWidth).rounded(.down)) - first }
            let pixels = (0..<440).map { graphX + Double($0) }
            let x = pixels.first { frameUnder($0) == janky } ?? pixels.first { frameUnder($0) == janky + 1 }!
            h.click(at: Point(x, graphY + 60), build)
            XCTAssertEqual(
                h.ui.inspectedFrame?.index, snapshot[frameUnder(x)].index, "frozen on the frame under the click")
            if frameUnder(x) != janky {
                h.inject.key(.left)
                h.frame(build)
            }
            let frozen = try XCTUnwrap(h.ui.inspectedFrame)
            XCTAssertEqual(frozen.index, snapshot[janky].index)
            XCTAssertEqual(frozen.cause().culprit, "table 'files'")
            h.frames(5, build)
            XCTAssertEqual(h.ui.inspectedFrame?.index, frozen.index, "new frames do not move it")
            // The cause is drawn in the panel, in the janky color, under the bars.
            let detail = Rect(x: panelX + 10, y: graphY + 96, width: 440, height: 40)
            let reddish = h.countPixels(in: detail) { c in c.r > 200 && c.g < 140 && c.b < 130 }
            XCTAssertGreaterThan(reddish, 40, "the frame's line is drawn in the janky color")
            h.shot("inspector-frozen", build)

            h.inject.key(.right)
            h.frame(build)
            XCTAssertEqual(h.ui.inspectedFrame?.index, frozen.index + 1, "→ steps forward")
            h.inject.key(.left)
            h.inject.key(.left)
            h.frame(build)
            XCTAssertEqual(h.ui.inspectedFrame?.index, frozen.index - 1, "← steps back")
            // "Next janky", third in the row of buttons at the panel's bottom (two icon buttons before it).
            let buttonsY = 10.0 + 46 + 104 + 196 - 10 - h.ui.theme.controlHeight / 2
            let iconButton = (h.ui.font.lineHeight * 0.9).rounded() + 12
            h.click(at: Point(panelX + 10 + 2 * (iconButton + 6) + 20, buttonsY), build)
            XCTAssertEqual(h.ui.inspectedFrame?.index, frozen.index, "Next janky finds the slow frame")
            h.inject.key(.escape)
            h.frame(build)
            XCTAssertNil(h.ui.inspectedFrame, "Escape resumes")

            // A finger's tap freezes it too.
            let tapAt = Point(graphX + 430, graphY + 60)
            h.inject.finger(1, .down, at: tapAt)
            h.frame(build)
            h.inject.finger(1, .up, at: tapAt)
            h.frames(2, build)
            XCTAssertNotNil(h.ui.inspectedFrame, "a tap on the bars freezes the inspector")
        }
    }
}
