import CSDL2
import Render2D
import Imaging
import Profiling

/// What an object path names: the application, a node of the last frame's tree, or a table
/// cell made on demand.
enum AtspiTarget {
    case application
    case node(Int)
    case madeCell(AtspiBridge.MadeCell)
}

/// A method call's outcome: a reply, an error, or a reply the main thread sends later.
enum AtspiReply {
    case value(OpaquePointer)
    case failure(String)
    case later
}

// The objects under /org/a11y/atspi/accessible: one GDBus subtree whose nodes are the tree's,
// resolved per call from the snapshot of the last frame.
extension AtspiBridge {
    /// Registers the subtree. Bridge thread.
    func serveObjects() -> Bool {
        let subtree = UnsafeMutablePointer<GDBusSubtreeVTable>.allocate(capacity: 1)  // kept for the process's life
        subtree.initialize(to: GDBusSubtreeVTable())
        subtree.pointee.enumerate = { _, _, _, _ in
            let empty = UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>.allocate(capacity: 1)
            empty.initialize(to: nil)
            let copy = g_strdupv(empty)  // GDBus frees it with g_strfreev
            empty.deallocate()
            return copy
        }
        subtree.pointee.introspect = { _, _, _, node, data in
            guard let data else { return nil }
            let bridge = Unmanaged<AtspiBridge>.fromOpaque(data).takeUnretainedValue()
            let names = bridge.interfaces(of: node.map { String(cString: $0) } ?? "")
            let array = UnsafeMutablePointer<UnsafeMutablePointer<GDBusInterfaceInfo>?>.allocate(
                capacity: names.count + 1)
            var n = 0
            for name in names {
                guard let info = g_dbus_node_info_lookup_interface(bridge.nodeInfo, name) else { continue }
                array[n] = g_dbus_interface_info_ref(info)  // GDBus unrefs each and frees the array
                n += 1
            }
            array[n] = nil
            let owned = UnsafeMutablePointer<UnsafeMutablePointer<GDBusInterfaceInfo>?>(
                OpaquePointer(g_malloc(gsize((n + 1) * MemoryLayout<OpaquePointer>.size))))
            owned?.update(from: array, count: n + 1)
            array.deallocate()
            return owned
        }
        subtree.pointee.dispatch = { _, _, _, _, _, outData, data in
            outData?.pointee = data
            return UnsafePointer(AtspiBridge.methodTable)
        }
        var failure: UnsafeMutablePointer<GError>?
        registrationID = g_dbus_connection_register_subtree(
            connection, Self.objectPrefix, subtree, G_DBUS_SUBTREE_FLAGS_DISPATCH_TO_UNENUMERATED_NODES,
            Unmanaged.passUnretained(self).toOpaque(), nil, &failure)
        if registrationID == 0 { Log.error("accessibility: \(Self.message(failure))") }
        // The cache clients fill themselves from at first: empty, so they ask each object.
        if let cache = g_dbus_node_info_lookup_interface(nodeInfo, AtspiInterfaces.cache) {
            _ = g_dbus_connection_register_object(
                connection, Self.cachePath, cache, Self.methodTable, Unmanaged.passUnretained(self).toOpaque(),
                nil, nil)
        }
        return registrationID != 0
    }

    /// The method and property handlers every object shares: written once, when first read, and
    /// only read after (by GDBus, on the bridge thread), hence `nonisolated(unsafe)`.
    nonisolated(unsafe) static let methodTable: UnsafeMutablePointer<GDBusInterfaceVTable> = {
        let table = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
        table.initialize(to: GDBusInterfaceVTable())
        table.pointee.method_call = { _, _, path, interface, method, parameters, invocation, data in
            guard let data, let path, let interface, let method, let invocation else { return }
            let bridge = Unmanaged<AtspiBridge>.fromOpaque(data).takeUnretainedValue()
            switch bridge.call(
                String(cString: path), String(cString: interface), String(cString: method), parameters, invocation)
            {
            case .value(let reply): g_dbus_method_invocation_return_value(invocation, reply)
            case .failure(let why):
                g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownObject", why)
            case .later: break
            }
        }
        table.pointee.get_property = { _, _, path, interface, property, failure, data in
            guard let data, let path, let interface, let property else { return nil }
            let bridge = Unmanaged<AtspiBridge>.fromOpaque(data).takeUnretainedValue()
            if let value = bridge.property(String(cString: path), String(cString: interface), String(cString: property))
            {
                return value
            }
            g_set_error_literal(
                failure, g_dbus_error_quark(), Int32(G_DBUS_ERROR_UNKNOWN_OBJECT.rawValue), "no such object")
            return nil
        }
        table.pointee.set_property = { _, _, path, interface, property, value, _, data in
            guard let data, let path, let interface, let property else { return 0 }
            let bridge = Unmanaged<AtspiBridge>.fromOpaque(data).takeUnretainedValue()
            return bridge.setProperty(
                String(cString: path), String(cString: interface), String(cString: property), value) ? 1 : 0
        }
        return table
    }()

    // MARK: Resolving

    /// The last frame's snapshot (an empty window before the first).
    var current: AccessibilitySnapshot {
        shared.withLock { $0.snapshot }
            ?? AccessibilitySnapshot(tree: AccessibilityTree(title: appName), origin: .zero, scale: 1)
    }

    func target(_ path: String, in snapshot: AccessibilitySnapshot) -> AtspiTarget? {
        guard path.hasPrefix(Self.objectPrefix + "/") else { return nil }
        let leaf = path.dropFirst(Self.objectPrefix.count + 1)
        if leaf == "root" { return .application }
        if leaf.hasPrefix("t") { return shared.withLock { $0.madeCells[path] }.map { .madeCell($0) } }
        guard let raw = UInt64(leaf, radix: 16), let index = snapshot.tree.index(of: WidgetID(raw: raw)) else {
            return nil
        }
        return .node(index)
    }

    /// The interfaces the object at relative path `leaf` implements.
    func interfaces(of leaf: String) -> [String] {
        let snapshot = current
        switch target(Self.objectPrefix + "/" + leaf, in: snapshot) {
        case .application: return [AtspiInterfaces.accessible, AtspiInterfaces.application]
        case .madeCell:
            return [
                AtspiInterfaces.accessible, AtspiInterfaces.component, AtspiInterfaces.text, AtspiInterfaces.tableCell,
            ]
        case .node(let i): return interfaces(of: snapshot.tree.nodes[i], in: snapshot.tree)
        case nil: return [AtspiInterfaces.accessible]
        }
    }

    func interfaces(of node: AccessibilityNode, in tree: AccessibilityTree) -> [String] {
        var names = [AtspiInterfaces.accessible, AtspiInterfaces.component]
        if !node.actions.isEmpty { names.append(AtspiInterfaces.action) }
        if node.text != nil { names.append(AtspiInterfaces.text) }
        if node.states.contains(.editable) { names.append(AtspiInterfaces.editableText) }
        if node.range != nil { names.append(AtspiInterfaces.value) }
        if [.list, .tree, .table, .menuBar, .popupMenu, .pageTabList].contains(node.role) {
            names.append(AtspiInterfaces.selection)
        }
        if node.role == .table { names.append(AtspiInterfaces.table) }
        if node.role == .tableCell { names.append(AtspiInterfaces.tableCell) }
        return names
    }

    func reference(_ index: Int?, in tree: AccessibilityTree) -> OpaquePointer {
        guard let index else { return GValue.reference("", Self.nullPath) }
        return GValue.reference(uniqueName, objectPath(tree.nodes[index].id))
    }

    var applicationReference: OpaquePointer { GValue.reference(uniqueName, Self.rootPath) }

    // MARK: Properties

    func property(_ path: String, _ interface: String, _ name: String) -> OpaquePointer? {
        let snapshot = current
        let tree = snapshot.tree
        switch target(path, in: snapshot) {
        case nil: return nil
        case .application:
            switch (interface, name) {
            case (AtspiInterfaces.accessible, "Name"): return GValue.string(appName)
            case (AtspiInterfaces.accessible, "Parent"): return GValue.reference(desktop.bus, desktop.path)
            case (AtspiInterfaces.accessible, "ChildCount"): return GValue.int32(1)
            case (AtspiInterfaces.application, "ToolkitName"): return GValue.string("Tessera")
            case (AtspiInterfaces.application, "Version"): return GValue.string("0.4")
            case (AtspiInterfaces.application, "AtspiVersion"): return GValue.string("2.1")
            case (AtspiInterfaces.application, "Id"): return GValue.int32(applicationID)
            default: return commonProperty(name)
            }
        case .madeCell(let cell):
            switch name {
            case "Name": return GValue.string(cell.text)
            case "Parent":
                return tree.index(of: cell.table).map { reference($0, in: tree) } ?? GValue.reference("", Self.nullPath)
            case "CharacterCount": return GValue.int32(cell.text.unicodeScalars.count)
            case "CaretOffset": return GValue.int32(-1)
            case "Position": return GValue.tuple([GValue.int32(cell.row), GValue.int32(cell.column)])
            case "RowSpan", "ColumnSpan": return GValue.int32(1)
            case "Table":
                return tree.index(of: cell.table).map { reference($0, in: tree) } ?? GValue.reference("", Self.nullPath)
            default: return commonProperty(name)
            }
        case .node(let i):
            let node = tree.nodes[i]
            switch name {
            case "Name": return GValue.string(node.name)
            case "Description": return GValue.string(node.description)
            case "HelpText": return GValue.string(node.description)
            case "Parent": return node.parent.map { reference($0, in: tree) } ?? applicationReference
            case "ChildCount": return GValue.int32(node.children.count)
            case "AccessibleId": return GValue.string(String(node.id.raw, radix: 16))
            case "NActions": return GValue.int32(node.actions.names.count)
            case "CharacterCount": return GValue.int32(node.text?.string.unicodeScalars.count ?? 0)
            case "CaretOffset": return GValue.int32(node.text?.caret ?? -1)
            case "MinimumValue": return GValue.double(node.range?.minimum ?? 0)
            case "MaximumValue": return GValue.double(node.range?.maximum ?? 0)
            case "MinimumIncrement": return GValue.double(node.range?.step ?? 0)
            case "CurrentValue": return GValue.double(node.range?.current ?? 0)
            case "Text": return GValue.string(node.value)
            case "NSelectedChildren": return GValue.int32(selectedChildren(i, in: tree).count)
            case "NRows": return GValue.int32(node.collection?.rows ?? 0)
            case "NColumns": return GValue.int32(node.collection?.columns ?? 0)
            case "NSelectedRows": return GValue.int32(selectedChildren(i, in: tree).count)
            case "NSelectedColumns": return GValue.int32(0)
            case "Caption", "Summary": return GValue.reference("", Self.nullPath)
            case "Position":
                return GValue.tuple([GValue.int32(node.cell?.row ?? 0), GValue.int32(node.cell?.column ?? 0)])
            case "RowSpan", "ColumnSpan": return GValue.int32(1)
            case "Table": return reference(enclosingTable(i, in: tree), in: tree)
            default: return commonProperty(name)
            }
        }
    }

    private func commonProperty(_ name: String) -> OpaquePointer? {
        switch name {
        case "Name", "Description", "HelpText", "AccessibleId", "Text": return GValue.string("")
        case "Locale": return GValue.string("en_US.UTF-8")
        case "Parent": return GValue.reference("", Self.nullPath)
        case "ChildCount", "NActions", "CharacterCount": return GValue.int32(0)
        case "CaretOffset": return GValue.int32(-1)
        default: return nil
        }
    }

    func setProperty(_ path: String, _ interface: String, _ name: String, _ value: OpaquePointer?) -> Bool {
        let snapshot = current
        switch (target(path, in: snapshot), name) {
        case (.application, "Id"):
            if let value, g_variant_is_of_type(value, VariantType.int32.pointer) != 0 {
                applicationID = Int(g_variant_get_int32(value))
            }
            return true
        case (.node(let i), "CurrentValue"):
            guard let asked = GValue.boxedDouble(value) else { return false }
            return request(.setValue(snapshot.tree.nodes[i].id, asked))
        default:
            return false
        }
    }

    // MARK: Helpers over the tree

    /// Queues `request` for the next frame; false (nothing queued) when `pendingLimit` are waiting.
    @discardableResult
    func request(_ request: AccessibilityRequest) -> Bool {
        let queued = shared.withLock { state -> Bool in
            guard state.requests.count < Self.pendingLimit else { return false }
            state.requests.append(request)
            return true
        }
        if queued { FrameWaker.wake() }
        return queued
    }

    /// The children of node `i` that are selected (rows of a table, items of a list, a menu's lit item).
    func selectedChildren(_ i: Int, in tree: AccessibilityTree) -> [Int] {
        tree.nodes[i].children.filter { tree.nodes[$0].states.contains(.selected) }
    }

    /// The table a cell or row is in.
    func enclosingTable(_ i: Int, in tree: AccessibilityTree) -> Int? {
        var at = tree.nodes[i].parent
        while let p = at, tree.nodes[p].role != .table { at = tree.nodes[p].parent }
        return at
    }

    /// The node's rectangle in `coordinates` (AT-SPI: 0 screen, 1 window, 2 parent), in pixels.
    func extents(_ frame: Rect, parent: Rect?, coordinates: Int, in snapshot: AccessibilitySnapshot) -> (
        x: Int, y: Int, w: Int, h: Int
    ) {
        let s = snapshot.scale
        var x = frame.x * s, y = frame.y * s
        switch coordinates {
        case 0:
            x += snapshot.origin.x
            y += snapshot.origin.y
        case 2:
            x -= (parent?.x ?? 0) * s
            y -= (parent?.y ?? 0) * s
        default: break
        }
        func pixels(_ v: Double) -> Int { v.isFinite ? Int(max(-1e9, min(1e9, v)).rounded()) : 0 }
        return (pixels(x), pixels(y), pixels(frame.width * s), pixels(frame.height * s))
    }
}
