import Render2D
import Imaging
import Profiling

/// What a widget is to a screen reader. The cases are AT-SPI's roles, named as SwiftUI and
/// AT-SPI name them; `atspiRole` is the number AT-SPI sends.
public enum AccessibilityRole: UInt32, Sendable, CaseIterable {
    /// The app: the root, holding its windows.
    case application = 75
    /// A window.
    case frame = 23
    /// A dialog or sheet.
    case dialog = 16
    /// An alert that wants an answer.
    case alert = 2
    /// A button.
    case pushButton = 43
    /// A button that stays in or out (a disclosure's header).
    case toggleButton = 62
    /// A check box or a switch.
    case checkBox = 7
    /// One choice of several (a segment of a picker).
    case radioButton = 44
    /// A slider.
    case slider = 51
    /// A number with steps (a stepper).
    case spinButton = 52
    /// Text that is only read.
    case label = 29
    /// Text of several lines (a text editor).
    case text = 61
    /// A field of one line.
    case entry = 79
    /// A field whose text is hidden.
    case passwordText = 40
    /// A button that opens a list of choices (a menu picker).
    case comboBox = 11
    /// A color well.
    case colorChooser = 9
    /// A link.
    case link = 88
    /// A menu bar.
    case menuBar = 34
    /// A menu, or its title in a menu bar.
    case menu = 33
    /// An item of a menu.
    case menuItem = 35
    /// A popup or a context menu.
    case popupMenu = 41
    /// A list, or a lazy stack or grid.
    case list = 31
    /// An item of a list.
    case listItem = 32
    /// An outline.
    case tree = 65
    /// A row of an outline.
    case treeItem = 91
    /// A table whose rows nest.
    case treeTable = 66
    /// A table.
    case table = 55
    /// A row of a table.
    case tableRow = 90
    /// A cell of a table.
    case tableCell = 56
    /// A column's header.
    case columnHeader = 10
    /// A tab.
    case pageTab = 37
    /// A row of tabs.
    case pageTabList = 38
    /// A scroll view.
    case scrollPane = 49
    /// A split view's divider.
    case splitPane = 53
    /// A divider.
    case separator = 50
    /// An image.
    case image = 27
    /// A group of controls.
    case panel = 39
    /// A toolbar.
    case toolBar = 63
    /// A progress bar.
    case progressBar = 42
    /// A status line.
    case statusBar = 54
    /// A heading.
    case heading = 83
    /// Space that groups (AT-SPI's filler).
    case grouping = 20
    /// A file chooser.
    case fileChooser = 19
    /// A tooltip.
    case toolTip = 64
    /// A section of a page.
    case section = 85

    /// AT-SPI's role number (`AtspiRole`).
    public var atspiRole: UInt32 { rawValue }

    /// AT-SPI's name of the role, as `GetRoleName` answers ("push button").
    public var atspiName: String {
        switch self {
        case .application: "application"
        case .frame: "frame"
        case .dialog: "dialog"
        case .alert: "alert"
        case .pushButton: "push button"
        case .toggleButton: "toggle button"
        case .checkBox: "check box"
        case .radioButton: "radio button"
        case .slider: "slider"
        case .spinButton: "spin button"
        case .label: "label"
        case .text: "text"
        case .entry: "entry"
        case .passwordText: "password text"
        case .comboBox: "combo box"
        case .colorChooser: "color chooser"
        case .link: "link"
        case .menuBar: "menu bar"
        case .menu: "menu"
        case .menuItem: "menu item"
        case .popupMenu: "popup menu"
        case .list: "list"
        case .listItem: "list item"
        case .tree: "tree"
        case .treeItem: "tree item"
        case .treeTable: "tree table"
        case .table: "table"
        case .tableRow: "table row"
        case .tableCell: "table cell"
        case .columnHeader: "column header"
        case .pageTab: "page tab"
        case .pageTabList: "page tab list"
        case .scrollPane: "scroll pane"
        case .splitPane: "split pane"
        case .separator: "separator"
        case .image: "image"
        case .panel: "panel"
        case .toolBar: "tool bar"
        case .progressBar: "progress bar"
        case .statusBar: "status bar"
        case .heading: "heading"
        case .grouping: "filler"
        case .fileChooser: "file chooser"
        case .toolTip: "tool tip"
        case .section: "section"
        }
    }

    /// Shorthand for tests and queries, as SwiftUI spells traits: `.button` is a push button.
    public static let button = AccessibilityRole.pushButton
    /// A toggle: Tessera's switches are check boxes to AT-SPI, as GTK's are.
    public static let toggle = AccessibilityRole.checkBox
    /// A single-line text field.
    public static let textField = AccessibilityRole.entry
}

/// What a widget is doing now, as a screen reader reads it (AT-SPI's states).
public struct AccessibilityStates: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    private init(bit: Int) { rawValue = 1 << UInt64(bit) }

    // The bit of each is AT-SPI's state number, so `GetState` sends the raw value as it is.
    /// The window is the active one.
    public static let active = AccessibilityStates(bit: 1)
    /// Busy: working on something of unknown length (an indeterminate progress view).
    public static let busy = AccessibilityStates(bit: 3)
    /// Checked (a check box, a toggle that is on, a radio button that is chosen).
    public static let checked = AccessibilityStates(bit: 4)
    /// Collapsed (a disclosure, an outline row that can open).
    public static let collapsed = AccessibilityStates(bit: 5)
    /// The text can be edited.
    public static let editable = AccessibilityStates(bit: 7)
    /// Enabled: it reacts to input.
    public static let enabled = AccessibilityStates(bit: 8)
    /// It can open to show more.
    public static let expandable = AccessibilityStates(bit: 9)
    /// It is open.
    public static let expanded = AccessibilityStates(bit: 10)
    /// It can take keyboard focus.
    public static let focusable = AccessibilityStates(bit: 11)
    /// It has keyboard focus.
    public static let focused = AccessibilityStates(bit: 12)
    /// Laid out left to right (a slider, a split).
    public static let horizontal = AccessibilityStates(bit: 14)
    /// A dialog that takes all input.
    public static let modal = AccessibilityStates(bit: 16)
    /// Text of several lines.
    public static let multiLine = AccessibilityStates(bit: 17)
    /// More than one child can be selected.
    public static let multiselectable = AccessibilityStates(bit: 18)
    /// It can be selected.
    public static let selectable = AccessibilityStates(bit: 22)
    /// It is selected.
    public static let selected = AccessibilityStates(bit: 23)
    /// It reacts to input (AT-SPI wants both enabled and sensitive).
    public static let sensitive = AccessibilityStates(bit: 24)
    /// On screen now.
    public static let showing = AccessibilityStates(bit: 25)
    /// One line of text.
    public static let singleLine = AccessibilityStates(bit: 26)
    /// Laid out top to bottom.
    public static let vertical = AccessibilityStates(bit: 29)
    /// Not hidden (it may still be scrolled away).
    public static let visible = AccessibilityStates(bit: 30)
    /// It holds more children than it creates: a virtual collection.
    public static let managesDescendants = AccessibilityStates(bit: 31)
    /// Its value is not known (an indeterminate progress view).
    public static let indeterminate = AccessibilityStates(bit: 32)
    /// Its text can be selected.
    public static let selectableText = AccessibilityStates(bit: 38)
    /// It can be checked.
    public static let checkable = AccessibilityStates(bit: 41)
    /// It opens a menu or a popup.
    public static let hasPopup = AccessibilityStates(bit: 42)
    /// Read only.
    public static let readOnly = AccessibilityStates(bit: 43)

    /// What every widget that takes input has: enabled, sensitive, visible and showing.
    public static let interactive: AccessibilityStates = [.enabled, .sensitive, .visible, .showing]
}

/// What a screen reader can do to a widget (AT-SPI's `Action` interface). A set, so that
/// reporting a widget allocates nothing.
public struct AccessibilityActions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// A click: buttons, menu items, rows, tabs.
    public static let click = AccessibilityActions(rawValue: 1)
    /// Flips a toggle or a check box.
    public static let toggle = AccessibilityActions(rawValue: 2)
    /// Opens or closes a disclosure, an outline row, a menu.
    public static let expandOrCollapse = AccessibilityActions(rawValue: 4)
    /// Activates a row or a field (Return).
    public static let activate = AccessibilityActions(rawValue: 8)

    /// AT-SPI's names of the actions, in the order `DoAction` numbers them.
    public var names: [String] {
        [
            (Self.click, "click"), (.toggle, "toggle"), (.expandOrCollapse, "expand or contract"),
            (.activate, "activate"),
        ]
        .compactMap { contains($0.0) ? $0.1 : nil }
    }
}

/// A slider's or a stepper's number, with its bounds (AT-SPI's `Value` interface).
public struct AccessibilityRange: Sendable, Equatable {
    /// The value now.
    public var current: Double
    /// The least value.
    public var minimum: Double
    /// The greatest value.
    public var maximum: Double
    /// The smallest change (0: continuous).
    public var step: Double
    /// A range from `minimum` to `maximum`, now at `current`.
    public init(current: Double, minimum: Double, maximum: Double, step: Double = 0) {
        self.current = current
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
    }
}

/// The text of a label or a field, with the caret and the selection (character offsets).
public struct AccessibilityText: Sendable, Equatable {
    /// The whole text.
    public var string: String
    /// The caret's offset in characters (-1: no caret).
    public var caret: Int
    /// The selected characters, if any.
    public var selection: Range<Int>?
    /// Text with its caret and selection.
    public init(_ string: String, caret: Int = -1, selection: Range<Int>? = nil) {
        self.string = string
        self.caret = caret
        self.selection = selection
    }
}

/// A virtual collection's whole size: what a table, a list or a grid holds, not the rows it
/// built this frame.
public struct AccessibilityCollection: Sendable, Equatable {
    /// Rows (a table's, a list's or an outline's visible rows; a grid's items).
    public var rows: Int
    /// Columns (1 for lists and grids' items).
    public var columns: Int
    /// The column titles, for a table's headers.
    public var columnTitles: [String]
    /// The rows that are selected, by index (only those built this frame, and the focused one).
    public var selectedRows: [Int]
    /// A collection of `rows` × `columns`.
    public init(rows: Int, columns: Int = 1, columnTitles: [String] = [], selectedRows: [Int] = []) {
        self.rows = rows
        self.columns = columns
        self.columnTitles = columnTitles
        self.selectedRows = selectedRows
    }
}

/// One widget as a screen reader sees it, as the last frame built it.
public struct AccessibilityNode: Sendable, Equatable {
    /// The widget's ID: stable from frame to frame, so the node keeps its identity.
    public var id: WidgetID
    /// What it is.
    public var role: AccessibilityRole
    /// Its name: the label, or what `accessibilityLabel` gave.
    public var name: String
    /// A description (`accessibilityHint`).
    public var description: String
    /// A value read after the name (`accessibilityValue`, a picker's choice, a rating).
    public var value: String
    /// Its states.
    public var states: AccessibilityStates
    /// What can be done to it.
    public var actions: AccessibilityActions
    /// Where it is, in the window's logical pixels.
    public var frame: Rect
    /// A slider's or stepper's number.
    public var range: AccessibilityRange?
    /// A label's or a field's text.
    public var text: AccessibilityText?
    /// A table's, list's or grid's whole size.
    public var collection: AccessibilityCollection?
    /// A cell's place in its table: row and column (a list item's: row, column 0).
    public var cell: (row: Int, column: Int)?
    /// The index of the parent node in the tree (nil for the root).
    public var parent: Int?
    /// The indices of the children, in build order.
    public var children: [Int] = []

    public static func == (a: AccessibilityNode, b: AccessibilityNode) -> Bool {
        a.id == b.id && a.role == b.role && a.name == b.name && a.description == b.description && a.value == b.value
            && a.states == b.states && a.actions == b.actions && a.frame == b.frame && a.range == b.range
            && a.text == b.text
            && a.collection == b.collection && a.cell?.row == b.cell?.row && a.cell?.column == b.cell?.column
            && a.parent == b.parent && a.children == b.children
    }
}

/// A frame's widgets as a screen reader sees them: a tree of `AccessibilityNode`s whose root
/// is the window. `UI.accessibilityTree` holds the last frame's, when accessibility is on.
///
/// ```swift
/// ui.isAccessibilityEnabled = true
/// // after a frame:
/// let save = ui.accessibilityTree.first { $0.role == .pushButton && $0.name == "Save" }
/// ```
public struct AccessibilityTree: Sendable {
    /// Every node, parents before their children; the root (the window) is the first.
    public private(set) var nodes: [AccessibilityNode]
    private var indexByID: [WidgetID: Int]

    /// Mirrors every node but the window across a window `width` wide (a right-to-left layout).
    mutating func mirror(width: Double) {
        for i in nodes.indices.dropFirst() {
            let frame = nodes[i].frame
            nodes[i].frame = Rect(x: width - frame.maxX, y: frame.y, width: frame.width, height: frame.height)
        }
    }

    /// A tree of only the window, named `title`, with room for `capacity` nodes (the last
    /// frame's count: growing the arrays and the index as a frame reports costs more than they do).
    public init(title: String = "", size: Size = Size(1, 1), capacity: Int = 0) {
        nodes = []
        indexByID = [:]
        nodes.reserveCapacity(capacity)
        indexByID.reserveCapacity(capacity)
        nodes.append(
            AccessibilityNode(
                id: .root, role: .frame, name: title, description: "", value: "",
                states: [.active, .enabled, .sensitive, .visible, .showing], actions: [],
                frame: Rect(origin: .zero, size: size)))
        indexByID[.root] = 0
    }

    /// The root: the window.
    public var root: AccessibilityNode { nodes[0] }

    /// The node of widget `id`, if the last frame built one.
    public func node(_ id: WidgetID) -> AccessibilityNode? { indexByID[id].map { nodes[$0] } }

    /// The index of widget `id`'s node.
    public func index(of id: WidgetID) -> Int? { indexByID[id] }

    /// The first node, in build order, that satisfies `match`.
    public func first(where match: (AccessibilityNode) -> Bool) -> AccessibilityNode? { nodes.first(where: match) }

    /// The nodes of `role`, named `name` when it is given, in build order.
    public func all(_ role: AccessibilityRole, _ name: String? = nil) -> [AccessibilityNode] {
        nodes.filter { $0.role == role && (name == nil || $0.name == name) }
    }

    /// Adds `node` as the last child of the node at `parent`; returns its index. A second
    /// node with an ID already in the tree gets a derived ID, so identities stay unique.
    mutating func append(_ node: consuming AccessibilityNode, parent: Int) -> Int {
        let index = nodes.count
        while let taken = indexByID.updateValue(index, forKey: node.id) {  // one hash, unless the ID is taken (rare)
            indexByID[node.id] = taken
            node.id = WidgetID(parent: node.id, index: index)
        }
        node.parent = parent
        nodes.append(node)
        nodes[parent].children.append(index)
        return index
    }

    /// Changes the node at `index` in place.
    mutating func update(_ index: Int, _ body: (inout AccessibilityNode) -> Void) { body(&nodes[index]) }

    /// An indented outline of the tree: role, name, value, states; for logs and test failures.
    public func dump(maxDepth: Int = .max) -> String {
        var out = ""
        func walk(_ i: Int, _ depth: Int) {
            guard depth <= maxDepth else { return }
            let n = nodes[i]
            out += String(repeating: "  ", count: depth) + "\(n.role.atspiName) '\(n.name)'"
            if !n.value.isEmpty { out += " = \(n.value)" }
            if let c = n.collection { out += " [\(c.rows)×\(c.columns)]" }
            out += "\n"
            for child in n.children { walk(child, depth + 1) }
        }
        walk(0, 0)
        return out
    }
}
