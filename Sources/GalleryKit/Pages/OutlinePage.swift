import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// Lists and outlines: a sidebar-style list with collapsible sections holding a flat list
/// and the talk's canvases outline, a 10,000-node file outline with swipe actions and a
/// reorderable task list, and the talk's Inspector form with Fill, Shadow and Text groups.
@MainActor
final class OutlinePage {
    private var sidebarSelection: Int? = 1
    private var fileSelection: Set<Int> = []
    private var expandedFiles: Set<Int> = []
    private var favorites: Set<Int> = []
    private var editMode = EditMode.inactive
    private var lastAction = "Swipe a row left for its actions; alt-click a chevron to expand a whole subtree."
    private var tasks: [OutlineNode] = [
        "Sketch the layout", "Pick a palette", "Export assets", "Write release notes", "Ship it",
    ]
    .enumerated().map { OutlineNode(id: 500 + $0.offset, name: $0.element, icon: .checkmark, children: nil) }
    private let library = [
        OutlineNode(id: 1, name: "All Canvases", icon: .photo), OutlineNode(id: 2, name: "Favorites", icon: .star),
        OutlineNode(id: 3, name: "Recently Deleted", icon: .trash),
    ]
    private let canvases = OutlinePage.canvasTree()
    private let files = OutlineNode.benchTree(groups: 10, items: 20, leaves: 50)
    let inspector = Inspector()

    /// The talk's canvases: folders of drawings.
    private static func canvasTree() -> [OutlineNode] {
        func leaf(_ id: Int, _ name: String) -> OutlineNode {
            OutlineNode(id: id, name: name, icon: .photo, children: nil)
        }
        return [
            OutlineNode(
                id: 10, name: "Graphics",
                children: [
                    leaf(11, "Landscape"), leaf(12, "Portrait"),
                    OutlineNode(id: 13, name: "Icons", children: [leaf(14, "App icon"), leaf(15, "Toolbar glyphs")]),
                ]),
            OutlineNode(
                id: 20, name: "Shapes", children: [leaf(21, "Circles"), leaf(22, "Squares"), leaf(23, "Triangles")]),
            OutlineNode(id: 30, name: "Empty folder", children: []),
            leaf(40, "Sketch"),
        ]
    }

    /// The sidebar, the file list and the inspector side by side, as many as fit: a narrow
    /// window leaves out the inspector first (under 900 logical pixels; the sidebar then takes
    /// 0.3 of the width, not 0.2), then the sidebar (under 560), rather than cut each pane's
    /// labels to an ellipsis.
    func build(_ ui: UI) {
        let panes = Self.panes(width: ui.availableWidth)
        guard panes.sidebar else { return filesAndInspector(ui, inspector: false) }
        let split = panes.inspector ? ("outline.sidebar", 0.2) : ("outline.sidebar.two-panes", 0.3)
        ui.hSplit(split.0, fraction: split.1) {
            sidebar(ui)
        } right: {
            filesAndInspector(ui, inspector: panes.inspector)
        }
    }

    /// Which panes a page `width` logical pixels wide shows, beside the file list.
    static func panes(width: Double) -> (sidebar: Bool, inspector: Bool) {
        (sidebar: width >= 560, inspector: width >= 900)
    }

    private func sidebar(_ ui: UI) {
        ui.list("sidebar", selection: Binding(self, \.sidebarSelection), style: .sidebar) {
            ui.section("Library") {
                ui.forEach(library) { node in
                    ListRowContent(
                        node.name, icon: node.icon, accessory: node.id == 2 ? .badge(self.favorites.count) : .none)
                }
            }
            ui.section("Canvases") {
                ui.outlineGroup(canvases, children: \.children) { ListRowContent($0.name, icon: $0.icon) }
            }
        }
    }

    private func filesAndInspector(_ ui: UI, inspector shown: Bool) {
        guard shown else { return fileList(ui) }
        ui.hSplit("outline.inspector", fraction: 0.66) {
            fileList(ui)
        } right: {
            inspector.build(ui)
        }
    }

    /// `--tour`: opens a group and an item, selects two rows, opens every inspector group and
    /// swipes a row open (for screenshots).
    func tour(frame: Int, inject: EventInjector) {
        let listTop = 44.0 + 38  // top bar, then the list's toolbar
        let slotY = { (slot: Int) in listTop + 24 * Double(slot) + 12 }
        switch frame {
        case 2:
            let group = files[0]
            expandedFiles = [group.id, group.children![1].id]
            fileSelection = [group.children![0].id, group.children![1].id]
            inspector.shadowExpanded = true
            inspector.textExpanded = true
        case 4:
            inject.mouseMove(to: Point(820, slotY(10)))
            inject.mouseButton(.left, down: true, at: Point(820, slotY(10)))
        case 5...12: inject.mouseMove(to: Point(820 - Double(frame - 4) * 20, slotY(10)), buttons: 1)
        case 13: inject.mouseButton(.left, down: false, at: Point(660, slotY(10)))
        default: break
        }
    }

    private func fileList(_ ui: UI) {
        ui.toolbar("files.toolbar") {
            ui.list(
                "files", selection: Binding(self, \.fileSelection), editMode: editMode.isEditing,
                contextMenu: { ids in
                    if ui.menuItem(ids.isEmpty ? "New Folder" : "Favorite \(ids.count)", icon: .star) {
                        self.favorites.formUnion(ids)
                        self.lastAction = ids.isEmpty ? "New folder" : "Favorited \(ids.count)"
                    }
                    if !ids.isEmpty && ui.menuItem("Delete \(ids.count)", icon: .trash, role: .destructive) {
                        self.lastAction = "Delete \(ids.count) (demo: nothing removed)"
                    }
                }
            ) {
                ui.section("Tasks (reorder and delete in edit mode)") {
                    ui.forEach(
                        tasks,
                        onMove: { from, to in
                            let task = self.tasks.remove(at: from)
                            self.tasks.insert(task, at: to)
                            self.lastAction = "Moved \"\(task.name)\" to position \(to + 1)"
                        },
                        onDelete: { offsets in
                            self.lastAction =
                                "Deleted \"\(offsets.map { self.tasks[$0].name }.joined(separator: ", "))\""
                            for offset in offsets.reversed() { self.tasks.remove(at: offset) }
                        }
                    ) { ListRowContent($0.name, icon: .checkmark, iconColor: ui.theme.secondaryText) }
                }
                ui.section("Projects (10,000 nodes)") {
                    ui.outlineGroup(
                        files, children: \.children, expanded: Binding(self, \.expandedFiles),
                        swipeActions: { node in
                            [
                                SwipeAction("Favorite", icon: .star, tint: Color(hex: 0xFF9500)) {
                                    self.favorites.insert(node.id)
                                    self.lastAction = "Favorited \(node.name)"
                                },
                                SwipeAction("Delete", icon: .trash, isDestructive: true) {
                                    self.lastAction = "Delete \(node.name) (demo)"
                                },
                            ]
                        }
                    ) { node in
                        ListRowContent(
                            node.name, icon: node.icon, iconColor: node.children == nil ? ui.theme.secondaryText : nil,
                            secondaryText: node.children.map { "\($0.count) items" },
                            accessory: self.favorites.contains(node.id) ? .checkmark : .none)
                    }
                }
            }
        } items: {
            ui.toolbarItem(placement: .navigation) {
                if ui.button("Expand all", icon: .plus) { ui.expandAllOutlines(inList: "files") }
            }
            ui.toolbarItem(placement: .navigation) {
                if ui.button("Collapse all", icon: .minus) { ui.collapseAllOutlines(inList: "files") }
            }
            ui.toolbarItem(placement: .principal, priority: -1) {
                ui.text(self.lastAction, color: ui.theme.secondaryText)
            }
            ui.toolbarItem(placement: .primaryAction) {
                if ui.button("New Task", icon: .plus) {
                    let id = (self.tasks.map(\.id).max() ?? 499) + 1
                    ui.withAnimation(.spring) {
                        self.tasks.insert(OutlineNode(id: id, name: "Task \(id - 499)", icon: .checkmark), at: 0)
                    }
                }
            }
            ui.toolbarItem(placement: .primaryAction, priority: 1) { ui.editButton(Binding(self, \.editMode)) }
        }
    }
}

/// The talk's Inspector: Fill, Shadow and Text disclosure groups of form rows.
@MainActor
final class Inspector {
    var fillExpanded = true
    var shadowExpanded = false
    var textExpanded = false
    var fill = true
    var fillColor = Color(hex: 0x0A7AFF)
    var shadow = true
    var shadowColor = Color(hex: 0x000000, alpha: 0.4)
    var shadowRadius = 6.0
    var shadowOffset = 3.0
    var label = "Hello, shapes"
    var fontSize = 18.0
    var alignment = 1
    var weight = FontWeight.regular

    func build(_ ui: UI) {
        ui.scrollView("inspector") {
            ui.padding(12) {
                ui.text("Inspector", font: ui.font(size: 17, weight: .bold))
                preview(ui)
                ui.form(labelWidth: 110) {
                    ui.disclosureGroup("Fill", isExpanded: &fillExpanded) {
                        ui.toggle("Fill shape?", isOn: &fill)
                        ui.colorWell("Fill color", color: &fillColor)
                    }
                    ui.disclosureGroup("Shadow", isExpanded: &shadowExpanded) {
                        ui.toggle("Shadow", isOn: &shadow)
                        ui.colorWell("Color", color: &shadowColor)
                        ui.slider("Radius", value: &shadowRadius, in: 0...20, step: 1)
                        ui.slider("Offset", value: &shadowOffset, in: 0...12, step: 1)
                    }
                    ui.disclosureGroup("Text", isExpanded: &textExpanded) {
                        ui.textField("Label", text: &label)
                        ui.slider("Size", value: &fontSize, in: 10...36, step: 1)
                        ui.picker(
                            "Alignment", selection: &alignment, options: [("Left", 0), ("Center", 1), ("Right", 2)])
                        ui.picker(
                            "Weight", selection: &weight, options: [("Regular", .regular), ("Bold", .bold)],
                            style: .menu)
                    }
                }
            }
        }
    }

    /// The shape the inspector edits, drawn live.
    private func preview(_ ui: UI) {
        let rect = ui.allocate(Size(ui.availableWidth, 120), flexibleWidth: true)
        ui.drawList.addRoundedRect(rect, radius: 8, color: ui.theme.surface)
        let width = min(160, max(0, rect.width - 24))
        let shape = Rect(x: rect.midX - width / 2, y: rect.y + 20, width: width, height: 80)
        if shadow {
            for k in stride(from: shadowRadius, to: 0, by: -2) {
                ui.drawList.addRoundedRect(
                    shape.offsetBy(dx: shadowOffset, dy: shadowOffset).insetBy(dx: -k, dy: -k), radius: 12 + k,
                    color: shadowColor.opacity(0.5 / max(1, shadowRadius / 2)))
            }
        }
        ui.drawList.addRoundedRect(shape, radius: 12, color: fill ? fillColor : ui.theme.surface)
        ui.drawList.addRectBorder(shape, radius: 12, color: ui.theme.border, thickness: 1)
        let textAlignment: TextAlignment = alignment == 0 ? .leading : alignment == 2 ? .trailing : .center
        ui.font(size: fontSize, weight: weight).draw(
            label, in: shape.insetBy(dx: 12, dy: 0), alignment: textAlignment,
            color: fill ? .white : ui.theme.text, into: &ui.drawList)
    }
}
