import Render2D
import Imaging
import Profiling

/// What the frame inspector shows when frozen: a copy of the recent frames (they keep
/// arriving underneath) and the images of the same stretch of time.
struct InspectorState {
    var frozen: [FrameRecord]?
    var images: [ImageTimeline] = []
    var selected = 0
}

/// The images one frame touched, by what happened to them during it.
public struct FrameImages: Sendable, Equatable {
    /// Images a cell asked for during the frame.
    public var requested: [String] = []
    /// Images whose embedded EXIF thumbnails were uploaded during it.
    public var embedded: [String] = []
    /// Images whose sharp textures were uploaded during it.
    public var uploaded: [String] = []
    /// Images drawn for the first time during it.
    public var firstDrawn: [String] = []

    /// The images of `timelines` requested, given their embedded thumbnail, uploaded or first drawn during `frame`.
    public init(frame: FrameRecord, timelines: [ImageTimeline]) {
        let range = frame.startNs..<(frame.startNs + max(1, frame.totalNs))
        func name(_ t: ImageTimeline) -> String { t.path.split(separator: "/").last.map(String.init) ?? t.path }
        for t in timelines {
            if range.contains(t.requestedNs) { requested.append(name(t)) }
            if range.contains(t.embeddedUploadedNs) { embedded.append(name(t)) }
            if range.contains(t.uploadedNs) { uploaded.append(name(t)) }
            if range.contains(t.firstDrawnNs) { firstDrawn.append(name(t)) }
        }
    }
}

/// Where the frame inspector is: docked along the window's bottom edge, the app laid out above
/// it so it covers none of the app's controls (the default), or floating over the app where it
/// was dragged by its header. The choice and the place are kept in the UI's `PersistentStore`.
public enum HUDPlacement: Equatable, Sendable, Codable {
    /// Along the bottom edge, below the app.
    case docked
    /// Over the app, its top-left corner at `x`, `y` (logical pixels).
    case floating(x: Double, y: Double)
}

extension UI {
    static let hudPlacementKey = "hud.placement"

    /// Where the frame inspector is (see `HUDPlacement`); kept in the persistent store, read
    /// from it once (not decoded each frame).
    public var hudPlacement: HUDPlacement {
        get {
            let box = stateBox(WidgetID(parent: .root, "hud.placement"), HUDPlacement?.none)
            if let placement = box.value { return placement }
            let stored = persistentStore?.value(Self.hudPlacementKey, as: HUDPlacement.self) ?? .docked
            box.value = stored
            return stored
        }
        set {
            stateBox(WidgetID(parent: .root, "hud.placement"), HUDPlacement?.none).value = newValue
            persistentStore?.set(newValue, for: Self.hudPlacementKey)
        }
    }

    /// How tall the docked inspector was in its last frame (what `AppHost` keeps free below the app).
    public var hudDockHeight: Double { stateBox(WidgetID(parent: .root, "hud.height"), 170.0).value }

    /// Colors of the phases in the inspector's stacked bars.
    static let phaseColors: [Color] = [
        Color(hex: 0x5AC8FA), Color(hex: 0x34C759), Color(hex: 0xFF9500), Color(hex: 0xAF52DE),
    ]

    /// The frame inspector (F12 in `AppHost`): a stacked bar per frame for the last 600,
    /// colored by phase (events, build, submit, present) with the budget line; live p50/p99,
    /// the renderer's and the lazy image path's counters; a Record / Stop button for traces.
    /// Click or tap a bar to freeze on that frame and see its phases, its costliest scopes,
    /// its lazy-path counters, the images it requested, uploaded and first drew, and why it
    /// was slow (`FrameRecord.cause()`); ← and → step, "Next janky" jumps, Escape resumes.
    /// Docked (`hudPlacement`), it fills `dock`, the strip the host kept free below the app;
    /// floating, or with no `dock`, it floats where it was dragged. A frozen janky frame shows
    /// its screenshot (`FrameProfiler.screenshots`) beside its figures where the panel is wide
    /// enough, through `screenshot`, which gives the picture's texture. Returns true when the
    /// Record / Stop button is clicked.
    ///
    /// ```swift
    /// if ui.profilerHUD(host.profiler, isRecording: recording) { toggleRecording() }
    /// ```
    @discardableResult
    public func profilerHUD(
        _ profiler: FrameProfiler, isRecording: Bool = false, note: String? = nil, dock: Rect? = nil,
        screenshot: ((FrameScreenshot) -> TextureHandle?)? = nil
    ) -> Bool {
        var clicked = false
        profile("frame inspector") {
            inOverlay {
                clicked = inspector(profiler, isRecording: isRecording, note: note, dock: dock, screenshot: screenshot)
            }
        }
        return clicked
    }

    /// The frame the inspector is frozen on, if it is.
    public var inspectedFrame: FrameRecord? {
        let state = inspectorState
        guard let frames = state.frozen, frames.indices.contains(state.selected) else { return nil }
        return frames[state.selected]
    }

    var inspectorState: InspectorState { stateBox(WidgetID(parent: .root, "hud.inspector"), InspectorState()).value }

    private func inspector(
        _ profiler: FrameProfiler, isRecording: Bool, note: String?, dock: Rect?,
        screenshot: ((FrameScreenshot) -> TextureHandle?)?
    ) -> Bool {
        let box = stateBox(WidgetID(parent: .root, "hud.inspector"), InspectorState())
        let font = self.font(size: 12)
        let budget = profiler.jankThresholdMs
        let frames = box.value.frozen ?? profiler.recentFrames
        let lazy = profiler.lastFrame?.lazy ?? LazyPathCounters()
        let showsLazy = lazy != LazyPathCounters()
        let top = 10 + Self.inspectorLineHeight * (showsLazy ? 4 : 2)
        let detail = box.value.frozen == nil ? 0.0 : 196
        let height = top + 104 + detail + (note == nil ? 0 : 18)
        let panel = inspectorPanel(height: height, dock: dock)
        stateBox(WidgetID(parent: .root, "hud.height"), 170.0).value = height  // what a dock keeps free next frame
        drawList.addRoundedRect(
            panel, radius: dock == nil || hudPlacement != .docked ? 8 : 0, color: Color(hex: 0x000000, alpha: 0.8))
        let listed = openAccessibilityContainer(
            WidgetID(parent: .root, "hud"), role: .panel, name: "Frame profiler", frame: panel)
        defer { if listed { closeAccessibilityContainer() } }
        // The buttons at the top right; the lines of figures keep clear of them.
        let record = Rect(x: panel.maxX - 62, y: panel.y + 6, width: 54, height: 18)
        let content = min(panel.width, 460)
        let lines = InspectorLines(panel: panel, font: font, listed: listed)
        let recordClicked = inspectorFigures(
            profiler, lazy: showsLazy ? lazy : nil, lines: lines, record: record, top: top,
            isRecording: isRecording, dock: dock)
        let graph = Rect(x: panel.x + 10, y: panel.y + top + 6, width: content - 20, height: 88)
        let bars = inspectorBars(frames, budget: budget, graph: graph, box: box, font: font, listed: listed)
        if let note {
            font.draw(
                note, in: Rect(x: panel.x + 10, y: graph.maxY + 6 + detail, width: content - 20, height: 16),
                color: Self.inspectorDim, into: &drawList)
        }
        if let frozen = box.value.frozen {
            let area = Rect(x: panel.x + 10, y: graph.maxY + 8, width: content - 20, height: detail - 8)
            frozenDetail(
                box, frames: frozen, graph: graph, barWidth: bars.width, first: bars.first, budget: budget, area: area,
                font: font)
            if let screenshot, frozen.indices.contains(box.value.selected),
                let shot = profiler.screenshots.screenshot(ofFrame: frozen[box.value.selected].index)
            {
                // Right of the figures (below the buttons) where the panel has room for it.
                let left = panel.x + content + 10, top = record.maxY + 8
                inspectorScreenshot(
                    shot, in: Rect(x: left, y: top, width: panel.maxX - left - 10, height: panel.maxY - top - 8),
                    texture: screenshot)
            }
        }
        return recordClicked
    }

    private static let inspectorLineHeight = 18.0
    private static let inspectorDim = Color.white.opacity(0.85)

    /// Where the inspector goes: in the dock, or floating where it was dragged (at first, the
    /// window's top right corner), kept on screen.
    private func inspectorPanel(height: Double, dock: Rect?) -> Rect {
        let placement = hudPlacement
        if let dock, placement == .docked {
            return Rect(x: dock.x, y: dock.y, width: dock.width, height: max(dock.height, 0))
        }
        let width = min(460, size.width)
        let corner: Point
        if case .floating(let x, let y) = placement {
            corner = Point(x, y)
        } else {
            corner = Point(size.width - width - 10, 10)
        }
        return Rect(
            x: min(max(0, corner.x), max(0, size.width - width)), y: min(max(0, corner.y), max(0, size.height - 24)),
            width: width, height: height)
    }

    /// The inspector's lines of figures: each cut to fit before `right`, and a label to a screen reader.
    private struct InspectorLines {
        let panel: Rect
        let font: Font
        let listed: Bool

        @MainActor
        func draw(_ text: String, _ k: Int, row: Int, right: Double, color: Color, in ui: UI) {
            let origin = Point(panel.x + 10, panel.y + 8 + Double(row) * UI.inspectorLineHeight)
            let shown = font.truncated(text, toWidth: max(0, right - origin.x))
            font.draw(shown, at: origin, color: color, into: &ui.drawList)
            if listed {
                ui.accessibilityElement(
                    WidgetID(parent: WidgetID(parent: .root, "hud.line"), index: k), role: .label, name: text,
                    frame: Rect(x: origin.x, y: origin.y, width: font.measure(shown), height: font.lineHeight),
                    text: AccessibilityText(text))
            }
        }
    }

    /// The live figures (work percentiles, draw calls, janky frames, and the lazy image path's
    /// counters when it runs), the Record / Stop button and the Dock / Float button. Returns
    /// whether Record / Stop was clicked.
    private func inspectorFigures(
        _ profiler: FrameProfiler, lazy: LazyPathCounters?, lines: InspectorLines, record: Rect,
        top: Double, isRecording: Bool, dock: Rect?
    ) -> Bool {
        let panel = lines.panel, font = lines.font, dim = Self.inspectorDim
        let placeButton = Rect(x: record.x - 58, y: record.y, width: 52, height: 18)
        let live = profiler.lastFrame
        let sorted = profiler.recentFrames.map(\.workMs).sorted()
        func pct(_ p: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        let besideButtons = placeButton.x - 8, whole = panel.x + min(panel.width, 460) - 10
        lines.draw(
            "work p50 \(formatted(pct(0.5))) ms   p99 \(formatted(pct(0.99))) ms   max \(formatted(sorted.last ?? 0))",
            0, row: 0,
            right: min(besideButtons, whole), color: .white, in: self)
        lines.draw(
            "draw calls \(live?.drawCalls ?? 0)   triangles \(live?.triangles ?? 0)   janky \(profiler.jankyFrames)", 1,
            row: 1,
            right: min(besideButtons, whole), color: dim, in: self)
        let r = hudButton(
            isRecording ? "Stop" : "Record", id: "hud.record", in: record, fill: isRecording ? Color.red : nil,
            font: font,
            listed: lines.listed)
        let docked = hudPlacement == .docked && dock != nil
        if hudButton(
            docked ? "Float" : "Dock", id: "hud.place", in: placeButton, fill: nil, font: font, listed: lines.listed
        ).clicked {
            hudPlacement = docked ? .floating(x: size.width - min(460, size.width) - 10, y: 10) : .docked
        }
        if !docked { dragHUD(panel, header: Rect(x: panel.x, y: panel.y, width: placeButton.x - panel.x, height: top)) }
        if let lazy {
            lines.draw(
                "cells \(lazy.visibleCells) (\(lazy.placeholderCells) loading, \(lazy.embeddedCells) embedded, \(lazy.resizedCells) resized)   queued \(lazy.queued)   decoding \(lazy.running)",
                2, row: 2, right: whole, color: dim, in: self)
            lines.draw(
                "uploads \(lazy.uploads) \(formatted(Double(lazy.uploadNs) / 1e6)) ms   cache \(lazy.cacheBytes >> 20) MB   evicted \(lazy.evictions)",
                3, row: 3, right: whole, color: dim, in: self)
        }
        return r.clicked
    }

    /// The bars: one per frame, stacked by phase, the budget line across. A click on a bar
    /// freezes the frames and selects that one. Returns each bar's width and the slot of the first.
    private func inspectorBars(
        _ frames: [FrameRecord], budget: Double, graph: Rect, box: StateBox<InspectorState>, font: Font,
        listed: Bool
    ) -> (width: Double, first: Int) {
        let capacity = 600
        let ceiling = max(2 * budget, 1)
        func y(_ ms: Double) -> Double { graph.maxY - min(ms, ceiling) / ceiling * graph.height }
        let barWidth = graph.width / Double(capacity)
        let first = capacity - frames.count
        for (i, frame) in frames.enumerated() {
            let x = graph.x + Double(first + i) * barWidth
            var base = 0.0
            for phase in FramePhase.allCases {
                let ms = Double(frame.phaseNs[phase.rawValue]) / 1e6
                guard ms > 0 else { continue }
                let color = Self.phaseColors[phase.rawValue].opacity(
                    phase == .present && !frame.presentCounts ? 0.35 : 0.9)
                drawList.addRect(
                    Rect(x: x, y: y(base + ms), width: max(1, barWidth), height: y(base) - y(base + ms)), color: color)
                base += ms
            }
        }
        drawList.addRect(Rect(x: graph.x, y: y(budget), width: graph.width, height: 1), color: Color.red.opacity(0.9))
        font.draw(
            formatted(budget, decimals: 1), at: Point(graph.maxX - 26, y(budget) - 14), color: .white.opacity(0.7),
            into: &drawList)
        let bars = interact(WidgetID(parent: .root, "hud.bars"), rect: graph)
        if listed {
            accessibilityElement(
                bars.id, role: .image, name: "Frame times", frame: graph, states: [.enabled, .sensitive],
                actions: [.click],
                value: "\(frames.count) frames, budget \(formatted(budget, decimals: 1)) ms")
        }
        if bars.clicked, !frames.isEmpty {
            // where a tap landed too
            let slot = Int(((input.pointer.pressPosition.x - graph.x) / barWidth).rounded(.down)) - first
            if box.value.frozen == nil {
                box.value.frozen = frames
                box.value.images = images?.recentTimelines ?? []
            }
            box.value.selected = min(max(slot, 0), frames.count - 1)
        }
        return (barWidth, first)
    }

    /// The selected janky frame's picture in `room`, when it fits at half size or more.
    private func inspectorScreenshot(
        _ shot: FrameScreenshot, in room: Rect, texture: (FrameScreenshot) -> TextureHandle?
    ) {
        let scale = min(room.width / Double(shot.pixels.width), room.height / Double(shot.pixels.height), 1)
        guard scale >= 0.5, let handle = texture(shot) else { return }
        let picture = Rect(
            x: room.x, y: room.y, width: Double(shot.pixels.width) * scale, height: Double(shot.pixels.height) * scale)
        drawList.addImage(handle, in: picture)
        drawList.addRectBorder(picture, color: Color.white.opacity(0.5))
        accessibilityElement(
            WidgetID(parent: .root, "hud.screenshot"), role: .image, name: "Screenshot of frame \(shot.frame)",
            frame: picture, states: [.enabled])
    }

    /// A small button of the inspector, reported to screen readers.
    private func hudButton(_ title: String, id: String, in rect: Rect, fill: Color?, font: Font, listed: Bool)
        -> Interaction
    {
        let r = interact(WidgetID(parent: .root, id), rect: rect)
        if listed {
            accessibilityElement(
                r.id, role: .pushButton, name: title, frame: rect, states: [.enabled, .sensitive], actions: [.click])
        }
        drawList.addRoundedRect(rect, radius: 9, color: fill ?? Color.white.opacity(r.isHovered ? 0.35 : 0.2))
        font.draw(title, in: rect, alignment: .center, color: .white, into: &drawList)
        return r
    }

    /// Dragging the floating inspector by its header moves it (kept on screen, and in the store when let go).
    private func dragHUD(_ panel: Rect, header: Rect) {
        let r = interact(WidgetID(parent: .root, "hud.header"), rect: header, sense: .drag)
        if r.isHovered || r.isActive { setCursor(.resizeAll) }
        guard r.isActive, r.dragDelta != .zero else { return }
        hudPlacement = .floating(
            x: min(max(0, panel.x + r.dragDelta.x), max(0, size.width - panel.width)),
            y: min(max(0, panel.y + r.dragDelta.y), max(0, size.height - 24)))
    }

    /// The frozen frame: its marker on the bars, its figures, and the stepping controls.
    private func frozenDetail(
        _ box: StateBox<InspectorState>, frames: [FrameRecord], graph: Rect, barWidth: Double, first: Int,
        budget: Double, area: Rect, font: Font
    ) {
        let step = { (delta: Int) in box.value.selected = min(max(box.value.selected + delta, 0), frames.count - 1) }
        let nextJanky = {
            let start = box.value.selected
            if let next = frames.indices.first(where: { $0 > start && frames[$0].isOverBudget(budget) }) {
                box.value.selected = next
            }
        }
        for key in input.keys {
            switch key.key {
            case .left: step(-1)
            case .right: step(1)
            case .escape: box.value.frozen = nil
            default: break
            }
        }
        var resume = false
        region(Rect(x: area.x, y: area.maxY - theme.controlHeight, width: area.width, height: theme.controlHeight)) {
            hstack(spacing: 6) {
                if accessibilityLabel("Previous Frame", { button("", icon: .chevronLeft, id: "hud.previous") }) {
                    step(-1)
                }
                if accessibilityLabel("Next Frame", { button("", icon: .chevronRight, id: "hud.next") }) { step(1) }
                if button("Next janky", id: "hud.next-janky") { nextJanky() }
                spacer()
                if button("Resume", id: "hud.resume") { resume = true }
            }
        }
        if resume {
            box.value.frozen = nil
            return
        }
        guard frames.indices.contains(box.value.selected) else { return }
        let frame = frames[box.value.selected]
        let marker = graph.x + Double(first + box.value.selected) * barWidth
        drawList.addRect(
            Rect(x: marker - 1, y: graph.y, width: max(3, barWidth + 2), height: graph.height),
            color: Color.white.opacity(0.5))

        frameDetailLines(frame, images: box.value.images, budget: budget, area: area, font: font)
    }

    /// The selected frame's figures, a line each: its time against the budget, its cause,
    /// input latency, phases, longest scopes, the lazy path's counters, and the images it touched.
    private func frameDetailLines(_ frame: FrameRecord, images: [ImageTimeline], budget: Double, area: Rect, font: Font)
    {
        let dim = Color.white.opacity(0.85)
        var line = area.y
        func row(_ text: String, color: Color = dim) {
            font.draw(text, in: Rect(x: area.x, y: line, width: area.width, height: 16), color: color, into: &drawList)
            line += 16
        }
        let ms = Double(frame.budgetedNs) / 1e6
        let janky = frame.isOverBudget(budget)
        row(
            "frame \(frame.index)   \(formatted(ms)) ms"
                + (janky ? "   over the \(formatted(budget, decimals: 1)) ms budget" : "   within budget"),
            color: janky ? Color(hex: 0xFF6961) : .white)
        if janky {
            row(
                "cause: " + frame.cause().description
                    + (frame.scrollJank(budgetMs: budget).map { "   scroll: " + $0.rawValue } ?? ""), color: .white)
        }
        let latency = frame.worstInputLatencyMs
        if !latency.isEmpty {
            row("input to present: " + latency.map { "\($0.kind.name) \(formatted($0.ms)) ms" }.joined(separator: ", "))
        }
        row(
            FramePhase.allCases.map { "\($0.name) \(formatted(Double(frame.phaseNs[$0.rawValue]) / 1e6))" }.joined(
                separator: "   "))
        let scopes = frame.scopes.sorted { $0.durationNs > $1.durationNs }.prefix(3)
        row(
            "scopes: "
                + (scopes.isEmpty ? "none" : scopes.map { "\($0.name) \(formatted($0.ms))" }.joined(separator: ", ")))
        let lazy = frame.lazy
        row(
            "events \(frame.events)   cells \(lazy.visibleCells) (\(lazy.placeholderCells) loading, \(lazy.embeddedCells) embedded, \(lazy.resizedCells) resized)   queued \(lazy.queued)   finished \(lazy.finished)"
        )
        row(
            "uploads \(lazy.uploads) (\(lazy.embeddedUploads) embedded), \(lazy.uploadBytes >> 10) KB   cache \(lazy.cacheBytes >> 20) MB   evicted \(lazy.evictions)"
        )
        let touched = FrameImages(frame: frame, timelines: images)
        func names(_ list: [String]) -> String {
            list.isEmpty ? "0" : "\(list.count): " + list.prefix(3).joined(separator: ", ")
        }
        row("requested \(names(touched.requested))")
        row("embedded \(names(touched.embedded))")
        row("uploaded \(names(touched.uploaded))   first drawn \(touched.firstDrawn.count)")
    }

    /// `v` with `decimals` decimals, without Foundation (labels, the HUD).
    public func formatted(_ v: Double, decimals: Int = 2) -> String {
        guard v.isFinite else { return "–" }
        // beyond what a label can show (and what Int holds scaled)
        guard abs(v) < 1e15 else { return v < 0 ? "-∞" : "∞" }
        var factor = 1
        for _ in 0..<max(0, decimals) { factor *= 10 }
        let scaled = Int((abs(v) * Double(factor)).rounded())
        let fraction = String(scaled % factor)
        let sign = v < 0 && scaled != 0 ? "-" : ""
        return decimals == 0
            ? sign + String(scaled)
            : sign + "\(scaled / factor)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
