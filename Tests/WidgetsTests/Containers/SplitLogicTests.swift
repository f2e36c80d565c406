import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

final class SplitLogicTests: XCTestCase {
    func testClampingHandlesNaNRangeAndImpossibleConstraints() {
        let free = SplitConstraints()
        XCTAssertEqual(free.clamp(.nan), 0.5)
        XCTAssertEqual(free.clamp(-3), 0)
        XCTAssertEqual(free.clamp(7), 1)
        let c = SplitConstraints(minPFraction: 0.2, minSFraction: 0.3)
        XCTAssertEqual(c.clamp(0.1), 0.2)
        XCTAssertEqual(c.clamp(0.9), 0.7)
        XCTAssertEqual(
            SplitConstraints(minPFraction: 0.7, minSFraction: 0.5).clamp(0.1), 0.6, accuracy: 1e-9,
            "constraints that cannot both hold meet in the middle")
    }

    func testDragToHideThresholdAndPreview() {
        let c = SplitConstraints(minPFraction: 0.2, minSFraction: 0.2, dragToHideS: true)
        XCTAssertEqual(c.dragOutcome(raw: 0.85).fraction, 0.8)
        XCTAssertNil(c.dragOutcome(raw: 0.85).previewHide, "past the minimum but not halfway: no hide")
        XCTAssertEqual(c.dragOutcome(raw: 0.95).previewHide, .secondary)
        XCTAssertEqual(c.dragOutcome(raw: 0.95).fraction, 0.8, "the saved fraction stays at the constraint")
        XCTAssertNil(c.dragOutcome(raw: 0.02).previewHide, "no drag-to-hide on the primary side")
        let p = SplitConstraints(minPFraction: 0.3, dragToHideP: true)
        XCTAssertNil(p.dragOutcome(raw: 0.16).previewHide)
        XCTAssertEqual(p.dragOutcome(raw: 0.14).previewHide, .primary)
        XCTAssertNil(
            SplitConstraints(dragToHideS: true).dragOutcome(raw: 0.99).previewHide, "needs a minimum to be past")
    }

    func testPriorityKeepsPixelsOnResizeOtherwiseProportion() {
        XCTAssertEqual(SplitConstraints(priority: .left).resized(0.25, from: 1000, to: 500), 0.5)
        XCTAssertEqual(SplitConstraints(priority: .right).resized(0.75, from: 1000, to: 500), 0.5)
        XCTAssertEqual(SplitConstraints().resized(0.25, from: 1000, to: 500), 0.25)
        XCTAssertEqual(
            SplitConstraints(minSFraction: 0.3, priority: .left).resized(0.5, from: 1000, to: 600), 0.7,
            "still inside the constraints")
    }

    func testToggleSemantics() {
        var s = SplitState(fraction: 0.3)
        s.toggle()
        XCTAssertEqual(s.hidden, .secondary, "toggle() hides the secondary side first")
        s.toggle()
        XCTAssertNil(s.hidden)
        XCTAssertEqual(s.fraction, 0.3, "hiding keeps the fraction")
        s.hide(.left)
        s.show()
        s.toggle()
        XCTAssertEqual(s.hidden, .primary, "toggle() toggles the side hidden last")
        s.toggle(.bottom)
        XCTAssertEqual(s.hidden, .secondary)
        s.toggle(.secondary)
        XCTAssertNil(s.hidden)
        XCTAssertEqual(SplitSide.top, .primary)
        XCTAssertEqual(SplitSide.right, .secondary)
        var layout = SplitLayout.horizontal
        layout.toggle()
        XCTAssertEqual(layout, .vertical)
    }

    func testGeometryIncludingHiddenSidesAndTinyRects() {
        let g = SplitGeometry.layout(
            Rect(x: 10, y: 0, width: 200, height: 100), layout: .horizontal, position: 0.5, thickness: 10)
        XCTAssertEqual(g.primary, Rect(x: 10, y: 0, width: 95, height: 100))
        XCTAssertEqual(g.splitter, Rect(x: 105, y: 0, width: 10, height: 100))
        XCTAssertEqual(g.secondary, Rect(x: 115, y: 0, width: 95, height: 100))
        let hidden = SplitGeometry.layout(
            Rect(x: 0, y: 0, width: 100, height: 50), layout: .vertical, position: 0, thickness: 4)
        XCTAssertEqual(hidden.primary.height, 0)
        XCTAssertEqual(hidden.secondary, Rect(x: 0, y: 4, width: 100, height: 46))
        let tiny = SplitGeometry.layout(
            Rect(x: 0, y: 0, width: 1, height: 1), layout: .horizontal, position: .nan, thickness: 9)
        for r in [tiny.primary, tiny.splitter, tiny.secondary] {
            XCTAssertGreaterThanOrEqual(r.width, 0)
            XCTAssertLessThanOrEqual(r.maxX, 1)
        }
    }

    func testSplitStateIsCodable() throws {
        var s = SplitState(fraction: 0.42, layout: .vertical)
        s.hide(.primary)
        let back = try JSONDecoder().decode(SplitState.self, from: JSONEncoder().encode(s))
        XCTAssertEqual(back, s)
    }
}

final class PersistentStoreTests: XCTestCase {
    private static func tempPath() -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent("state.json").path
    }

    func testRoundTrip() {
        onMain {
            let path = Self.tempPath()
            let store = PersistentStore(path: path)
            XCTAssertNil(store.loadProblem)
            store.set(SplitState(fraction: 0.33, layout: .vertical), for: "split.a")
            store.set(NavigationSplitState(visibility: .detailOnly), for: "nav")
            XCTAssertTrue(store.hasUnsavedChanges)
            store.save()
            let again = PersistentStore(path: path)
            XCTAssertEqual(again.value("split.a", as: SplitState.self), SplitState(fraction: 0.33, layout: .vertical))
            XCTAssertEqual(again.value("nav", as: NavigationSplitState.self)?.visibility, .detailOnly)
            XCTAssertNil(again.value("split.a", as: [String].self), "a value of another shape reads as absent")
        }
    }

    func testCorruptFileFallsBackToDefaultsAndIsKeptAside() throws {
        try onMain {
            let path = Self.tempPath()
            try Data("{ not json".utf8).write(to: URL(fileURLWithPath: path))
            let store = PersistentStore(path: path)
            XCTAssertNotNil(store.loadProblem)
            XCTAssertNil(store.value("split.a", as: SplitState.self))
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "moved out of the way")
            let dir = (path as NSString).deletingLastPathComponent
            let aside = try FileManager.default.contentsOfDirectory(atPath: dir).filter {
                $0.hasPrefix("state.json.corrupt-")
            }
            XCTAssertEqual(aside.count, 1)
            store.set(SplitState(), for: "split.a")
            store.save()
            XCTAssertNil(PersistentStore(path: path).loadProblem, "the next start is clean")
        }
    }
}

final class NavigationLayoutTests: XCTestCase {
    let body = Rect(x: 0, y: 0, width: 1200, height: 700)
    let sidebar = NavigationColumnWidth(min: 180, ideal: 240, max: 400)
    let content = NavigationColumnWidth(min: 200, ideal: 300, max: 500)

    private func resolve(
        _ state: NavigationSplitState, width: Double = 1200, style: NavigationSplitViewStyle = .balanced,
        threeColumns: Bool = true, detailMinWidth: Double = 320
    ) -> NavigationSplitLayout {
        NavigationSplitLayout.resolve(
            Rect(x: 0, y: 0, width: width, height: 700), state: state, style: style, sidebarWidth: sidebar,
            contentWidth: threeColumns ? content : nil, detailMinWidth: detailMinWidth, compactWidth: 520)
    }

    func testTiledOverlayAndCompactModes() {
        let wide = resolve(NavigationSplitState())
        XCTAssertEqual(wide.mode, .tiled)
        XCTAssertEqual(wide.sidebar?.width, 240)
        XCTAssertEqual(wide.content?.minX, 240)
        XCTAssertEqual(wide.detail, Rect(x: 540, y: 0, width: 660, height: 700))

        let narrow = resolve(NavigationSplitState(), width: 650)
        XCTAssertEqual(narrow.mode, .overlay, "even 180 + 200 + 320 > 650: the columns go over the detail")
        XCTAssertEqual(narrow.detail?.width, 650)
        XCTAssertEqual(narrow.sidebar?.width, 240, "over the detail, the columns keep their own widths")
        XCTAssertEqual(narrow.content?.width, 300)

        XCTAssertEqual(resolve(NavigationSplitState(), style: .prominentDetail).mode, .overlay)

        let displaced = NavigationSplitLayout.resolve(
            Rect(x: 0, y: 0, width: 650, height: 700), state: NavigationSplitState(),
            style: .balanced, sidebarWidth: sidebar, contentWidth: content,
            detailMinWidth: 320, compactWidth: 520, narrowBehavior: .displace)
        XCTAssertEqual(displaced.mode, .displace)
        XCTAssertEqual(
            displaced.detail, Rect(x: 540, y: 0, width: 650, height: 700),
            "pushed aside at full width, partly off screen")

        var compactState = NavigationSplitState()
        let compact = resolve(compactState, width: 400)
        XCTAssertEqual(compact.mode, .compact)
        XCTAssertNotNil(compact.sidebar)
        XCTAssertNil(compact.detail)
        compactState.preferredCompactColumn = .detail
        XCTAssertEqual(resolve(compactState, width: 400).detail?.width, 400)
        compactState.preferredCompactColumn = .content
        XCTAssertNotNil(
            resolve(compactState, width: 400, threeColumns: false).detail, "no content column: the detail shows")
    }

    func testTheAutomaticStyleTilesThenSlidesTheDetailAsideThenCoversIt() {
        XCTAssertEqual(resolve(NavigationSplitState(), style: .automatic).mode, .tiled, "240 + 300 + 320 fit in 1200")
        // 650: the content column (at its minimum) and the detail fit, the sidebar too is one
        // column too many even at the minimums.
        let landscape = resolve(NavigationSplitState(), width: 650, style: .automatic)
        XCTAssertEqual(landscape.mode, .displace, "the detail slides out of the sidebar's way")
        XCTAssertEqual(landscape.detail, Rect(x: 540, y: 0, width: 650, height: 700))
        // Showing only content and detail, they sit side by side again.
        XCTAssertEqual(
            resolve(NavigationSplitState(visibility: .doubleColumn), width: 650, style: .automatic).mode, .tiled)
        // A detail of at least 450: not even the content column fits beside it: the columns cover it.
        XCTAssertEqual(
            resolve(NavigationSplitState(), width: 640, style: .automatic, detailMinWidth: 450).mode, .overlay)
        XCTAssertEqual(
            resolve(NavigationSplitState(), width: 600, style: .automatic, threeColumns: false, detailMinWidth: 450)
                .mode, .overlay, "two columns that do not fit: the sidebar over the detail")
        XCTAssertEqual(resolve(NavigationSplitState(), width: 400, style: .automatic).mode, .compact)
    }

    func testColumnsNarrowTowardTheirMinimumsBeforeCoveringTheDetail() {
        // 1000: 240 + 300 + 320 = 860 fits, the detail takes the rest.
        XCTAssertEqual(resolve(NavigationSplitState(), width: 1000).detail?.width, 460)
        // 800: 60 too many: the content column gives them up first.
        let content = resolve(NavigationSplitState(), width: 800)
        XCTAssertEqual(content.mode, .tiled)
        XCTAssertEqual(content.sidebar?.width, 240)
        XCTAssertEqual(content.content, Rect(x: 240, y: 0, width: 240, height: 700))
        XCTAssertEqual(content.detail, Rect(x: 480, y: 0, width: 320, height: 700))
        // 720: the content column at its minimum (200), the sidebar gives the remaining 40.
        let both = resolve(NavigationSplitState(), width: 720, style: .automatic)
        XCTAssertEqual(both.mode, .tiled)
        XCTAssertEqual(both.sidebar?.width, 200)
        XCTAssertEqual(both.content?.width, 200)
        XCTAssertEqual(both.detail, Rect(x: 400, y: 0, width: 320, height: 700))
        // Two columns: the sidebar narrows alone.
        let two = resolve(NavigationSplitState(), width: 540, threeColumns: false)
        XCTAssertEqual(two.mode, .tiled)
        XCTAssertEqual(two.sidebar?.width, 220)
        XCTAssertEqual(two.detail?.width, 320)
        // The prominent detail never shares its width.
        XCTAssertEqual(resolve(NavigationSplitState(), width: 800, style: .prominentDetail).mode, .overlay)
        // A width the user dragged narrows the same way, and comes back when there is room.
        var dragged = NavigationSplitState()
        dragged.contentWidth = 450
        XCTAssertEqual(resolve(dragged, width: 800).content?.width, 240)
        XCTAssertEqual(resolve(dragged).content?.width, 450)
    }

    func testVisibilityAndWidthsAndTransitions() {
        var s = NavigationSplitState(visibility: .doubleColumn)
        let double = resolve(s)
        XCTAssertNil(double.sidebar)
        XCTAssertEqual(double.content?.minX, 0)
        s.visibility = .detailOnly
        XCTAssertEqual(resolve(s).detail?.width, 1200)
        s.visibility = .all
        s.sidebarWidth = 10_000
        XCTAssertEqual(resolve(s).sidebar?.width, 400, "user widths are clamped to max")

        var t = NavigationSplitState()
        t.toggleSidebar(threeColumns: true)
        XCTAssertEqual(t.visibility, .doubleColumn)
        t.toggleSidebar(threeColumns: true)
        XCTAssertEqual(t.visibility, .all)
        t.toggleSidebar(threeColumns: false)
        XCTAssertEqual(t.visibility, .detailOnly)
        t.toggleSidebar(threeColumns: false)
        XCTAssertEqual(t.visibility, .all)
        t.preferredCompactColumn = .detail
        t.goBack(threeColumns: true)
        XCTAssertEqual(t.preferredCompactColumn, .content)
        t.goBack(threeColumns: true)
        XCTAssertEqual(t.preferredCompactColumn, .sidebar)
        t.preferredCompactColumn = .detail
        t.goBack(threeColumns: false)
        XCTAssertEqual(t.preferredCompactColumn, .sidebar)
    }
}
