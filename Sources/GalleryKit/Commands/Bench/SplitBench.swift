import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// `bench split`: sidebar | (content / (detail | inspector)) filling the window with text in
/// every pane. A scripted mouse drag holds one splitter for 20 frames, moving it 3 px a
/// frame, then the next (all three in turn, alternating direction); frames 200-219 drag the
/// inspector past its drag-to-hide point, frame 300 shows it again.
@MainActor
final class SplitBench: BenchScene {
    let n = 3
    private var outer = SplitState(fraction: 0.2)
    private var middle = SplitState(fraction: 0.5, layout: .vertical)
    private var inspector = SplitState(fraction: 0.75)
    private var inject: EventInjector!
    private var size = Size(1280, 800)
    private var hiddenAt250 = false
    private var lines: [String] = []
    /// Where the current scripted drag pressed.
    private var dragStart = Point.zero

    func setUp(host: AppHost) throws {
        inject = EventInjector(window: host.window)
        lines = (1...14).map { "Line \($0) of text in this pane" }
    }

    /// Centres of the three splitters, from the states and the window size.
    private func splitterCenters() -> [Point] {
        let x0 = size.width * outer.fraction
        let yMid = size.height * middle.fraction
        let xInner = x0 + (size.width - x0) * inspector.fraction
        return [
            Point(x0, size.height / 2), Point((x0 + size.width) / 2, yMid), Point(xInner, (yMid + size.height) / 2),
        ]
    }

    private func script(frame: Int) {
        if frame == 300 { inspector.show() }
        if (200..<220).contains(frame) {
            let p = splitterCenters()[2]
            switch frame {
            case 200:
                inject.mouseMove(to: p)
                inject.mouseButton(.left, down: true, at: p)
            case 201...204:
                inject.mouseMove(to: Point(p.x + Double(frame - 200) * (size.width - 8 - p.x) / 4, p.y), buttons: 1)
            case 205: inject.mouseButton(.left, down: false, at: Point(size.width - 8, p.y))
            default: break
            }
            return
        }
        let block = frame / 20, step = frame % 20
        let k = block % 3
        if k == 2 && inspector.hidden != nil { return }
        let direction = (block / 3) % 2 == 0 ? 3.0 : -3.0
        let delta = k == 1 ? Point(0, direction) : Point(direction, 0)
        switch step {
        case 0:
            dragStart = splitterCenters()[k]
            inject.mouseMove(to: dragStart)
            inject.mouseButton(.left, down: true, at: dragStart)
        case 19: inject.mouseButton(.left, down: false, at: dragStart + delta * 18)
        default: inject.mouseMove(to: dragStart + delta * Double(step), buttons: 1)
        }
    }

    func build(_ ui: UI, frame: Int) {
        size = ui.size
        if frame == 250 { hiddenAt250 = inspector.hidden == .secondary }
        ui.hSplit(
            "sidebar", state: Binding(self, \.outer),
            constraints: .init(minPFraction: 0.1, minSFraction: 0.4, priority: .left)
        ) {
            pane(ui, "Sidebar")
        } right: {
            ui.vSplit(
                "content", state: Binding(self, \.middle), constraints: .init(minPFraction: 0.15, minSFraction: 0.15)
            ) {
                pane(ui, "Content")
            } bottom: {
                ui.hSplit(
                    "inspector", state: Binding(self, \.inspector),
                    constraints: .init(minPFraction: 0.3, minSFraction: 0.15, priority: .right, dragToHideS: true)
                ) {
                    pane(ui, "Detail")
                } right: {
                    pane(ui, "Inspector")
                }
            }
        }
        script(frame: frame)
    }

    private func pane(_ ui: UI, _ title: String) {
        ui.padding(8) {
            ui.vstack(spacing: 2) {
                ui.text(title, font: ui.font(size: 15, weight: .bold))
                for line in lines { ui.text(line) }
            }
        }
    }

    func measured(frame: FrameRecord) {}

    func fields() -> String {
        ",\"inspector_hidden_by_drag\":\(hiddenAt250),\"inspector_restored\":\(inspector.hidden == nil)"
            + ",\"fractions\":[\(FrameTimeSummary.format(outer.fraction)),\(FrameTimeSummary.format(middle.fraction)),"
            + "\(FrameTimeSummary.format(inspector.fraction))]"
    }
}
