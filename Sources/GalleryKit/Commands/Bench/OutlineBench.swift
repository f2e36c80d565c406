import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// A node of the demo's and the bench's outlines.
struct OutlineNode: Identifiable, Sendable {
    let id: Int
    let name: String
    var icon: Icon = .folder
    var children: [OutlineNode]?

    /// The `outline` scene's tree: `groups` × `items` × `leaves` nodes named `Group i`,
    /// `Item i.j`, `Leaf i.j.k`, with IDs in depth-first order.
    static func benchTree(groups: Int = 100, items: Int = 100, leaves: Int = 100) -> [OutlineNode] {
        var next = 0
        func take() -> Int {
            next += 1
            return next
        }
        return (0..<groups).map { i in
            let groupID = take()
            let itemNodes = (0..<items).map { j -> OutlineNode in
                let itemID = take()
                let leafNodes = (0..<leaves).map { k in
                    OutlineNode(id: take(), name: "Leaf \(i).\(j).\(k)", icon: .photo, children: nil)
                }
                return OutlineNode(id: itemID, name: "Item \(i).\(j)", children: leafNodes)
            }
            return OutlineNode(id: groupID, name: "Group \(i)", children: itemNodes)
        }
    }
}

/// `bench outline`: a 100 × 100 × 100 tree (1,010,100 nodes) in a list filling the window,
/// every group expanded (10,100 rows). Frame 100 expands the items of groups 0-9
/// (+100,000 rows), frame 300 collapses them; every frame scrolls 37 px.
@MainActor
final class OutlineBench: BenchScene {
    private(set) var n = 0
    private var tree: [OutlineNode] = []
    private var expanded: Set<Int> = []
    private var itemsOfFirstGroups: [Int] = []
    private var info: ListInfo?
    private var frame = 0
    private var expandFrameMs = 0.0
    private var collapseFrameMs = 0.0
    private var expandedWork: [Double] = []
    private var rowsWhileExpanded = 0
    /// Rows the list showed before the expansion (frame 99).
    private var rowsInitial = 0

    func setUp(host: AppHost) throws {
        tree = OutlineNode.benchTree()
        n = tree.reduce(0) { $0 + 1 + ($1.children ?? []).reduce(0) { $0 + 1 + ($1.children?.count ?? 0) } }
        expanded = Set(tree.map(\.id))
        itemsOfFirstGroups = tree.prefix(10).flatMap { ($0.children ?? []).map(\.id) }
    }

    func build(_ ui: UI, frame: Int) {
        self.frame = frame
        if frame == 100 { expanded.formUnion(itemsOfFirstGroups) }
        if frame == 300 { expanded.subtract(itemsOfFirstGroups) }
        if let info {
            let maxOffset = max(1, Double(info.rowCount) * ui.theme.rowHeight - info.bodyRect.height)
            ui.scrollList("outline", toOffset: (Double(frame) * 37).truncatingRemainder(dividingBy: maxOffset))
        }
        info = ui.list("outline", tree, children: \.children, selection: nil, expanded: Binding(self, \.expanded)) {
            node in
            ListRowContent(node.name, icon: node.icon)
        }
        if frame == 99 { rowsInitial = info?.rowCount ?? 0 }
        if frame > 100 && frame < 300 { rowsWhileExpanded = info?.rowCount ?? 0 }
    }

    func measured(frame record: FrameRecord) {
        switch frame {
        case 100: expandFrameMs = record.workMs
        case 300: collapseFrameMs = record.workMs
        case 101..<300: expandedWork.append(record.workMs)
        default: break
        }
    }

    func fields() -> String {
        let expanded = FrameTimeSummary(samples: expandedWork)
        func f(_ v: Double) -> String { FrameTimeSummary.format(v) }
        return
            ",\"rows_initial\":\(rowsInitial),\"rows_expanded\":\(rowsWhileExpanded),\"rows_final\":\(info?.rowCount ?? 0)"
            + ",\"expand_frame_ms\":\(FrameTimeSummary.format(expandFrameMs)),\"collapse_frame_ms\":\(FrameTimeSummary.format(collapseFrameMs))"
            + ",\"work_ms_while_expanded\":{\"frames\":\(expanded.count),\"p50\":\(f(expanded.p50)),\"p95\":\(f(expanded.p95)),\"p99\":\(f(expanded.p99))}"
    }
}
