import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// Pointer and touch input made visible: every live pointer (the mouse, and each finger with
/// its ID), the gestures recognized, and the raw event stream. Without a touch screen, hold
/// T to make the mouse a finger, and press ctrl while dragging for a second one (a pinch).
@MainActor
final class InputPage {
    private var recognizer = GestureRecognizer()
    private var gestures: [(time: Double, text: String)] = []
    private var events: [String] = []
    private var trails: [Int64: [Point]] = [:]
    private var start: Double?

    func build(_ ui: UI, host: AppHost) {
        if host.touchSimulator == nil { host.touchSimulator = TouchSimulator(window: host.window) }
        record(ui)
        ui.hSplit("input.split", fraction: 0.68) {
            canvas(ui, simulating: host.touchSimulator?.isHeld == true)
        } right: {
            ui.padding(12) {
                ui.text("Gestures", font: ui.font(size: 15, weight: .bold))
                for entry in gestures.suffix(10).reversed() {
                    ui.text("\(ui.formatted(entry.time, decimals: 2)) s  \(entry.text)", color: ui.theme.text)
                }
                ui.divider()
                ui.text("Events", font: ui.font(size: 15, weight: .bold))
                for line in events.suffix(16).reversed() {
                    ui.text(line, color: ui.theme.secondaryText, font: ui.font(size: 12))
                }
            }
        }
    }

    /// `--tour`: a tap, a mouse flick, then two fingers pinching apart and held (for screenshots).
    func tour(frame: Int, inject: EventInjector) {
        switch frame {
        case 2: inject.finger(7, .down, at: Point(200, 300))
        case 3: inject.finger(7, .up, at: Point(200, 300))
        case 8:
            inject.mouseMove(to: Point(150, 500))
            inject.mouseButton(.left, down: true, at: Point(150, 500))
        case 9...14: inject.mouseMove(to: Point(150 + Double(frame - 8) * 40, 500), buttons: 1)
        case 15: inject.mouseButton(.left, down: false, at: Point(390, 500))
        case 20:
            inject.finger(1, .down, at: Point(380, 260))
            inject.finger(2, .down, at: Point(460, 260))
        case 21...34:
            let k = Double(frame - 20)
            inject.finger(1, .moved, at: Point(380 - k * 6, 260 - k * 3))
            inject.finger(2, .moved, at: Point(460 + k * 6, 260 + k * 3))
        default: break
        }
    }

    private func record(_ ui: UI) {
        let start = self.start ?? ui.time
        self.start = start
        for gesture in recognizer.update(ui.input, time: ui.time) {
            let text: String
            switch gesture {
            case .tap(let p): text = "tap at \(Int(p.x)), \(Int(p.y))"
            case .doubleTap(let p): text = "double-tap at \(Int(p.x)), \(Int(p.y))"
            case .longPress(let p): text = "long-press at \(Int(p.x)), \(Int(p.y))"
            case .drag(_, let t): text = "drag \(Int(t.x)), \(Int(t.y))"
            case .flick(let v): text = "flick \(Int(v.x)), \(Int(v.y)) pt/s"
            case .pinch(let scale, let c):
                text = "pinch ×\(ui.formatted(scale, decimals: 2)) at \(Int(c.x)), \(Int(c.y))"
            }
            // A drag or pinch in progress updates its line instead of adding one a frame.
            if let last = gestures.last, last.text.prefix(5) == text.prefix(5),
                text.hasPrefix("drag") || text.hasPrefix("pinch")
            {
                gestures[gestures.count - 1] = (ui.time - start, text)
            } else {
                gestures.append((ui.time - start, text))
            }
        }
        if gestures.count > 100 { gestures.removeFirst(gestures.count - 100) }
        for event in ui.frameEvents {
            if let line = Self.describe(event) { events.append(line) }
        }
        if events.count > 200 { events.removeFirst(events.count - 200) }
    }

    /// One event as a short line (mouse motion is left out: the canvas shows the pointer).
    static func describe(_ event: InputEvent) -> String? {
        func at(_ p: Point) -> String { "\(Int(p.x)), \(Int(p.y))" }
        switch event {
        case .pointerMoved: return nil
        case .mouseButton(let button, let down, let p): return "mouse \(button) \(down ? "down" : "up") at \(at(p))"
        case .wheel(let dx, let dy): return "wheel \(Int(dx)), \(Int(dy))"
        case .key(let key, let down, let modifiers, let isRepeat):
            return
                "key \(key.rawValue) \(down ? "down" : "up")\(modifiers.isEmpty ? "" : " +mods")\(isRepeat ? " (repeat)" : "")"
        case .text(let text): return "text \"\(text)\""
        case .composition(let text, _): return "composing \"\(text)\""
        case .finger(let id, let phase, let p): return "finger \(id) \(phase.rawValue) at \(at(p))"
        case .resized(let size): return "resized \(Int(size.width))×\(Int(size.height))"
        case .displayChanged: return "display changed"
        case .dropped(.file(let path)): return "dropped file \(path)"
        case .dropped(.text(let text)): return "dropped text \"\(text)\""
        case .quit: return "quit"
        }
    }

    private func canvas(_ ui: UI, simulating: Bool) {
        let rect = ui.allocate(
            Size(ui.availableWidth, ui.availableRect.height), flexibleWidth: true, flexibleHeight: true)
        _ = ui.interact(ui.id("input.canvas"), rect: rect, sense: [.click, .drag])
        ui.drawList.addRect(rect, color: ui.theme.surface)
        ui.region(Rect(x: rect.x + 12, y: rect.y + 10, width: max(0, rect.width - 24), height: rect.height)) {
            ui.text(
                simulating
                    ? "Touch simulation: the mouse is finger 1 (ctrl: add finger 2)"
                    : "Move, click, drag, flick; touch with fingers, or hold T to simulate them",
                lineLimit: 3, color: ui.theme.secondaryText)
        }
        let palette: [Color] = [
            Color(hex: 0x0A84FF), Color(hex: 0xFF9F0A), Color(hex: 0x30D158), Color(hex: 0xBF5AF2),
            Color(hex: 0xFF375F),
        ]
        var live = Set<Int64>()
        for (id, p) in ui.input.fingers {
            live.insert(id)
            trails[id, default: []].append(p)
            if trails[id]!.count > 40 { trails[id]!.removeFirst() }
            let color = palette[Int(abs(id) % Int64(palette.count))]
            ui.drawList.addPolyline(trails[id]!, color: color.opacity(0.4), thickness: 3)
            ui.drawList.addCircle(center: p, radius: 26, color: color.opacity(0.35))
            ui.drawList.addCircleBorder(center: p, radius: 26, color: color, thickness: 2)
            ui.font.draw("finger \(id)", at: Point(p.x + 30, p.y - 8), color: color, into: &ui.drawList)
        }
        trails = trails.filter { live.contains($0.key) }
        let pointer = ui.input.pointer
        if pointer.kind == .mouse && rect.contains(pointer.position) {
            let color = pointer.isDown ? ui.theme.accent : ui.theme.text
            ui.drawList.addCircleBorder(
                center: pointer.position, radius: pointer.isDown ? 14 : 9, color: color, thickness: 2)
            ui.font.draw(
                "mouse \(Int(pointer.position.x)), \(Int(pointer.position.y))", at: pointer.position + Point(16, 4),
                color: color, into: &ui.drawList)
        }
        if ui.input.fingers.count >= 2 {
            let points = Array(ui.input.fingers.values.prefix(2))
            ui.drawList.addLine(from: points[0], to: points[1], color: ui.theme.secondaryText, thickness: 1.5)
        }
    }
}
