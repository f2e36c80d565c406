import Render2D

extension UI {
    /// The frame-time overlay (F12 in `AppHost`): a graph of the recent frames' work time
    /// with the 16.7 ms (60 Hz) line, live p50/p99, the renderer's counters, the lazy image
    /// path's counters, and a Record / Stop button. Returns true when that button is clicked.
    ///
    /// ```swift
    /// if ui.profilerHUD(host.profiler, isRecording: recording) { toggleRecording() }
    /// ```
    @discardableResult
    public func profilerHUD(_ profiler: FrameProfiler, isRecording: Bool = false, note: String? = nil) -> Bool {
        var clicked = false
        let frames = profiler.recentFrames.suffix(300)
        inOverlay {
            let font = self.font(size: 12)
            let lazy = profiler.lastFrame?.lazy ?? LazyPathCounters()
            let showsLazy = lazy != LazyPathCounters()
            let extra = showsLazy ? 36.0 : 0
            let panel = Rect(x: max(0, size.width - 330), y: 10, width: min(320, size.width), height: 150 + extra + (note == nil ? 0 : 18))
            drawList.addRoundedRect(panel, radius: 8, color: Color(hex: 0x000000, alpha: 0.78))
            let graph = Rect(x: panel.x + 10, y: panel.y + 52 + extra, width: panel.width - 20, height: 88)
            let ceiling = 33.3
            func y(_ ms: Double) -> Double { graph.maxY - min(ms, ceiling) / ceiling * graph.height }
            let barWidth = graph.width / 300
            for (i, frame) in frames.enumerated() {
                let ms = frame.workMs
                let x = graph.x + Double(300 - frames.count + i) * barWidth
                let color = ms > 16.7 ? Color.red : ms > 8 ? Color.yellow : Color.green
                drawList.addRect(Rect(x: x, y: y(ms), width: max(1, barWidth), height: graph.maxY - y(ms)), color: color.opacity(0.85))
            }
            drawList.addRect(Rect(x: graph.x, y: y(16.7), width: graph.width, height: 1), color: .white.opacity(0.7))
            font.draw("16.7", at: Point(graph.maxX - 26, y(16.7) - 14), color: .white.opacity(0.7), into: &drawList)
            let sorted = frames.map(\.workMs).sorted()
            func pct(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
            let last = profiler.lastFrame
            // Record / Stop: a trace of the frames in between, saved when stopped.
            let button = Rect(x: panel.maxX - 62, y: panel.y + 6, width: 54, height: 18)
            let r = interact(WidgetID(parent: .root, "hud.record"), rect: button)
            drawList.addRoundedRect(button, radius: 9, color: isRecording ? Color.red : Color.white.opacity(r.isHovered ? 0.35 : 0.2))
            font.draw(isRecording ? "Stop" : "Record", in: button, alignment: .center, color: .white, into: &drawList)
            clicked = r.clicked
            if let note {
                font.draw(note, in: Rect(x: panel.x + 10, y: panel.maxY - 20, width: panel.width - 20, height: 16),
                          color: .white.opacity(0.85), into: &drawList)
            }
            font.draw("work p50 \(formatted(pct(0.5))) ms   p99 \(formatted(pct(0.99))) ms   max \(formatted(sorted.last ?? 0))",
                      at: Point(panel.x + 10, panel.y + 8), color: .white, into: &drawList)
            font.draw("draw calls \(last?.drawCalls ?? 0)   triangles \(last?.triangles ?? 0)   janky \(profiler.jankyFrames)",
                      at: Point(panel.x + 10, panel.y + 26), color: .white.opacity(0.85), into: &drawList)
            if showsLazy {
                // The lazy image path: cells, decode queue, uploads and texture memory.
                font.draw("cells \(lazy.visibleCells) (\(lazy.placeholderCells) loading)   queued \(lazy.queued)   decoding \(lazy.running)",
                          at: Point(panel.x + 10, panel.y + 44), color: .white.opacity(0.85), into: &drawList)
                font.draw("uploads \(lazy.uploads) \(formatted(Double(lazy.uploadNs) / 1e6)) ms   cache \(lazy.cacheBytes >> 20) MB   evicted \(lazy.evictions)",
                          at: Point(panel.x + 10, panel.y + 62), color: .white.opacity(0.85), into: &drawList)
            }
        }
        return clicked
    }

    /// `v` with `decimals` decimals, without Foundation (labels, the HUD).
    public func formatted(_ v: Double, decimals: Int = 2) -> String {
        guard v.isFinite else { return "–" }
        var factor = 1
        for _ in 0..<max(0, decimals) { factor *= 10 }
        let scaled = Int((abs(v) * Double(factor)).rounded())
        let fraction = String(scaled % factor)
        let sign = v < 0 && scaled != 0 ? "-" : ""
        return decimals == 0 ? sign + String(scaled) : sign + "\(scaled / factor)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
