import Foundation
import CSDL2
import Render2D
import Imaging
import Profiling

/// A frame's accessibility tree as the bridge serves it: the tree, where the window is on
/// screen, and how many screen pixels a logical pixel takes.
struct AccessibilitySnapshot: Sendable {
    var tree: AccessibilityTree
    /// The window's top-left corner on screen, in screen pixels.
    var origin: Point
    /// Screen pixels per logical pixel.
    var scale: Double
}

/// Serves the app's accessibility tree to screen readers over AT-SPI2, on D-Bus, from a
/// thread of its own with its own GLib main context.
///
/// - It watches `org.a11y.Status` on the session bus (`IsEnabled` and `ScreenReaderEnabled`:
///   either may be the one a desktop sets). While neither is set, nothing is built or sent.
/// - Once one is, it reaches the accessibility bus (`org.a11y.Bus.GetAddress`), serves every
///   node under `/org/a11y/atspi/accessible/`, and embeds the app in the registry
///   (`org.a11y.atspi.Socket.Embed`).
/// - Queries are answered from the last frame's tree (`publish`), never from UI state; what a
///   client asks the widgets to do (press, focus, type) is queued for the next frame and wakes
///   the loop. Table cells scrolled away are made on the main thread when asked for.
/// - After each frame it compares the new tree with the last and sends only the changes as
///   AT-SPI events (focus, states, names, text, children, selection).
///
/// `AppHost` starts one; an app does nothing.
// the D-Bus objects are only touched on the bridge thread; shared state is `Locked`
final class AtspiBridge: @unchecked Sendable {
    /// What the main thread and the bridge thread share.
    struct Shared {
        /// Whether a screen reader may be listening (the status is on and the app is registered).
        var enabled = false
        var snapshot: AccessibilitySnapshot?
        /// Requests for the widgets, taken by the next frame.
        var requests: [AccessibilityRequest] = []
        /// Table cells asked for that the last frame did not build: answered on the main thread.
        var cellQueries: [CellQuery] = []
        /// The text of cells made on demand, by object path.
        var madeCells: [String: MadeCell] = [:]
        /// A new snapshot waits for the bridge thread to send its changes.
        var diffScheduled = false
    }

    /// A `Table.GetAccessibleAt` for a row not built: the invocation is answered once the main
    /// thread has read the cell.
    struct CellQuery: @unchecked Sendable {  // the invocation is answered exactly once, from one thread
        let invocation: OpaquePointer
        let table: WidgetID
        let row: Int
        let column: Int
    }

    /// A cell made on demand: its table, place and text.
    struct MadeCell: Sendable {
        let table: WidgetID
        let row: Int
        let column: Int
        let text: String
    }

    static let rootPath = "/org/a11y/atspi/accessible/root"
    static let objectPrefix = "/org/a11y/atspi/accessible"
    static let nullPath = "/org/a11y/atspi/null"
    static let cachePath = "/org/a11y/atspi/cache"
    /// The most cells made on demand kept at once (a client walking a huge table cannot grow it without bound).
    static let madeCellLimit = 4096
    /// The most requests and cell queries waiting for the next frame: a client that sends faster
    /// than frames run is refused past this, rather than growing the queues without bound.
    static let pendingLimit = 1024

    let shared = Locked(Shared())
    let appName: String
    // Bridge-thread state.
    var context: OpaquePointer?
    var loop: OpaquePointer?
    var session: OpaquePointer?
    var connection: OpaquePointer?
    var uniqueName = ""
    var desktop = (bus: "", path: nullPath)
    var nodeInfo: UnsafeMutablePointer<GDBusNodeInfo>?
    var registrationID: guint = 0
    var applicationID = 0
    /// The snapshot whose changes were last sent.
    var sent: AccessibilitySnapshot?
    private var statusEnabled = (isEnabled: false, screenReader: false)

    private init(appName: String) { self.appName = appName }

    /// Starts a bridge on its own thread when a session bus is configured (nil otherwise: no
    /// daemon is ever autolaunched). `TESSERA_ACCESSIBILITY=0` turns it off.
    static func start(appName: String, environment: [String: String]) -> AtspiBridge? {
        if environment["TESSERA_ACCESSIBILITY"] == "0" { return nil }
        guard tessera_session_bus_configured() != 0 else {
            Log.debug("accessibility: no session bus, so no screen reader can reach this app")
            return nil
        }
        let bridge = AtspiBridge(appName: appName)
        Thread.start(named: "tessera-a11y") { bridge.run() }
        return bridge
    }

    /// Whether the widgets should report themselves (a screen reader may be listening).
    var isEnabled: Bool { shared.withLock { $0.enabled } }

    // MARK: Main thread

    /// Hands the bridge the tree of the frame just built; its changes are sent from the bridge thread.
    func publish(_ snapshot: AccessibilitySnapshot) {
        let schedule = shared.withLock { state -> Bool in
            state.snapshot = snapshot
            defer { state.diffScheduled = true }
            return !state.diffScheduled
        }
        guard schedule, let context = shared.withLock({ _ in self.context }) else { return }
        g_main_context_invoke(
            context,
            { data in
                guard let data else { return 0 }
                Unmanaged<AtspiBridge>.fromOpaque(data).takeUnretainedValue().sendChanges()
                return 0  // G_SOURCE_REMOVE
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Takes what clients asked the widgets to do since the last frame.
    func takeRequests() -> [AccessibilityRequest] {
        shared.withLock { state in
            defer { state.requests.removeAll() }
            return state.requests
        }
    }

    /// Answers the cells clients asked for that were not built, with the text `cellText` gives
    /// (the tables of the last frame).
    func answerCellQueries(_ cellText: [WidgetID: (Int, Int) -> String]) {
        let queries = shared.withLock { state in
            defer { state.cellQueries.removeAll() }
            return state.cellQueries
        }
        guard !queries.isEmpty else { return }
        var made: [(String, MadeCell)] = []
        for q in queries {
            let text = cellText[q.table]?(q.row, q.column) ?? ""
            let path = Self.madeCellPath(table: q.table, row: q.row, column: q.column)
            made.append((path, MadeCell(table: q.table, row: q.row, column: q.column, text: text)))
            g_dbus_method_invocation_return_value(
                q.invocation, GValue.tuple([GValue.reference(uniqueNameLocked, path)]))
        }
        shared.withLock { state in
            if state.madeCells.count + made.count > Self.madeCellLimit { state.madeCells.removeAll() }
            for (path, cell) in made { state.madeCells[path] = cell }
        }
    }

    /// The unique name, read from the main thread (set once, before any query can arrive).
    private var uniqueNameLocked: String { shared.withLock { _ in uniqueName } }

    static func madeCellPath(table: WidgetID, row: Int, column: Int) -> String {
        // "t": not a hex digit, so never a node's path
        objectPrefix + "/t" + String(table.raw, radix: 16) + "_\(row)_\(column)"
    }

    // MARK: Bridge thread

    private func run() {
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        shared.withLock { _ in self.context = context }
        var failure: UnsafeMutablePointer<GError>?
        // A connection of its own, not GIO's shared one: that one quits the process when the bus
        // goes away, and its callbacks would run on whichever thread made it first.
        let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &failure)
        defer { g_free(address) }
        guard let address,
            let session = g_dbus_connection_new_for_address_sync(address, Self.clientFlags, nil, nil, &failure)
        else {
            Log.info(
                "accessibility: the session bus is unreachable (\(Self.message(failure))); screen readers cannot see this app"
            )
            return
        }
        self.session = session
        guard readStatus() else {
            Log.info(
                "accessibility: the session bus has no accessibility bus (org.a11y.Bus); screen readers cannot see this app"
            )
            return
        }
        watchStatus()
        statusChanged()
        let loop = g_main_loop_new(context, 0)
        shared.withLock { _ in self.loop = loop }
        g_main_loop_run(loop)
        for bus in [connection, session] { if let bus { g_dbus_connection_close_sync(bus, nil, nil) } }
        shared.withLock { state in state.enabled = false }
    }

    /// Leaves the accessibility bus and ends the bridge's thread (the app quits, or a test ends).
    func stop() {
        let (context, loop) = shared.withLock { _ in (self.context, self.loop) }
        guard let context, let loop else { return }
        g_main_context_invoke(
            context,
            { loop in
                g_main_loop_quit(OpaquePointer(loop))
                return 0
            }, UnsafeMutableRawPointer(loop))
    }

    /// Reads `IsEnabled` and `ScreenReaderEnabled`; false when org.a11y.Bus is not there.
    private func readStatus() -> Bool {
        var found = false
        for (property, keyPath) in [("IsEnabled", 0), ("ScreenReaderEnabled", 1)] {
            let reply = g_dbus_connection_call_sync(
                session, "org.a11y.Bus", "/org/a11y/bus", "org.freedesktop.DBus.Properties", "Get",
                GValue.tuple([GValue.string("org.a11y.Status"), GValue.string(property)]),
                nil, G_DBUS_CALL_FLAGS_NONE, 2000, nil, nil)
            guard let reply else { continue }
            found = true
            let value = g_variant_get_child_value(reply, 0)
            let on = GValue.boxedBool(value) ?? false
            g_variant_unref(value)
            g_variant_unref(reply)
            if keyPath == 0 { statusEnabled.isEnabled = on } else { statusEnabled.screenReader = on }
        }
        return found
    }

    /// Follows changes of `org.a11y.Status` (a screen reader started or stopped).
    private func watchStatus() {
        _ = g_dbus_connection_signal_subscribe(
            session, "org.a11y.Bus", "org.freedesktop.DBus.Properties", "PropertiesChanged", "/org/a11y/bus",
            "org.a11y.Status",
            G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, data in
                guard let data else { return }
                let bridge = Unmanaged<AtspiBridge>.fromOpaque(data).takeUnretainedValue()
                let changed = g_variant_get_child_value(parameters, 1)  // a{sv}
                let count = g_variant_n_children(changed)
                for i in 0..<count {
                    let entry = g_variant_get_child_value(changed, i)
                    let key = GValue.string(entry, 0)
                    let value = g_variant_get_child_value(entry, 1)
                    if let on = GValue.boxedBool(value) {
                        if key == "IsEnabled" { bridge.statusEnabled.isEnabled = on }
                        if key == "ScreenReaderEnabled" { bridge.statusEnabled.screenReader = on }
                    }
                    g_variant_unref(value)
                    g_variant_unref(entry)
                }
                g_variant_unref(changed)
                bridge.statusChanged()
            }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// Registers on the accessibility bus when the status turns on; stops the tree when it turns off.
    private func statusChanged() {
        let wanted = statusEnabled.isEnabled || statusEnabled.screenReader
        if wanted && connection == nil && !register() { return }
        let was = shared.withLock { state -> Bool in
            defer { state.enabled = wanted && connection != nil }
            return state.enabled
        }
        if was != wanted { FrameWaker.wake() }  // the next frame starts (or stops) building the tree
    }

    /// Connects to the accessibility bus, serves the objects and embeds the app in the registry.
    private func register() -> Bool {
        var failure: UnsafeMutablePointer<GError>?
        guard
            let reply = g_dbus_connection_call_sync(
                session, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", nil,
                nil, G_DBUS_CALL_FLAGS_NONE, 2000, nil, &failure)
        else {
            Log.info("accessibility: no accessibility bus address (\(Self.message(failure)))")
            return false
        }
        let address = GValue.string(reply, 0)
        g_variant_unref(reply)
        guard let bus = g_dbus_connection_new_for_address_sync(address, Self.clientFlags, nil, nil, &failure) else {
            Log.info("accessibility: the accessibility bus at \(address) is unreachable (\(Self.message(failure)))")
            return false
        }
        connection = bus
        let name = g_dbus_connection_get_unique_name(bus).map { String(cString: $0) } ?? ""
        shared.withLock { _ in uniqueName = name }
        nodeInfo = g_dbus_node_info_new_for_xml(AtspiInterfaces.xml, &failure)
        guard nodeInfo != nil, serveObjects() else {
            Log.error("accessibility: could not serve the AT-SPI objects (\(Self.message(failure)))")
            return false
        }
        let plug = GValue.tuple([GValue.reference(uniqueName, Self.rootPath)])
        if let answer = g_dbus_connection_call_sync(
            bus, "org.a11y.atspi.Registry", Self.rootPath, "org.a11y.atspi.Socket", "Embed",
            plug, nil, G_DBUS_CALL_FLAGS_NONE, 2000, nil, &failure)
        {
            let socket = g_variant_get_child_value(answer, 0)
            desktop = (GValue.string(socket, 0), GValue.string(socket, 1))
            g_variant_unref(socket)
            g_variant_unref(answer)
            Log.info("accessibility: registered with the AT-SPI registry as \(uniqueName)")
        } else {
            Log.info(
                "accessibility: the AT-SPI registry did not embed the app (\(Self.message(failure))); clients can still reach it by name"
            )
        }
        return true
    }

    /// A client of a message bus.
    static let clientFlags = GDBusConnectionFlags(
        rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
            | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)

    static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "no reason given" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "no reason given"
    }

    // MARK: Events

    /// Sends what changed between the last snapshot sent and the newest.
    private func sendChanges() {
        let snapshot = shared.withLock { state -> AccessibilitySnapshot? in
            state.diffScheduled = false
            return state.snapshot
        }
        guard let snapshot, connection != nil else { return }
        defer { sent = snapshot }
        guard let old = sent else { return }  // the first tree: clients ask for it
        for event in AccessibilityChanges.between(old.tree, snapshot.tree) { emit(event) }
    }

    private func emit(_ change: AccessibilityChange) {
        let path = objectPath(change.id)
        let (interface, member, detail, detail1, detail2, any): (String, String, String, Int, Int, OpaquePointer)
        switch change.kind {
        case .focus:
            (interface, member, detail, detail1, detail2, any) = (
                "org.a11y.atspi.Event.Focus", "Focus", "", 0, 0, GValue.int32(0)
            )
        case .state(let name, let on):
            (interface, member, detail, detail1, detail2, any) = (
                "org.a11y.atspi.Event.Object", "StateChanged", name, on ? 1 : 0, 0,
                GValue.int32(0)
            )
        case .name(let name):
            (interface, member, detail, detail1, detail2, any) = (
                "org.a11y.atspi.Event.Object", "PropertyChange", "accessible-name", 0, 0,
                GValue.string(name)
            )
        case .childAdded(let index, let child), .childRemoved(let index, let child):
            let added = if case .childAdded = change.kind { true } else { false }
            (interface, member, detail, detail1, detail2, any) = (
                "org.a11y.atspi.Event.Object", "ChildrenChanged", added ? "add" : "remove",
                index, 0, GValue.reference(uniqueName, objectPath(child))
            )
        case .textInserted(let start, let text), .textDeleted(let start, let text):
            let inserted = if case .textInserted = change.kind { true } else { false }
            (interface, member, detail, detail1, detail2, any) = (
                "org.a11y.atspi.Event.Object", "TextChanged", inserted ? "insert" : "delete",
                start, text.unicodeScalars.count, GValue.string(text)
            )
        case .caret(let offset):
            (interface, member, detail, detail1, detail2, any) = (
                "org.a11y.atspi.Event.Object", "TextCaretMoved", "", offset, 0, GValue.int32(0)
            )
        case .selection:
            (interface, member, detail, detail1, detail2, any) = (
                "org.a11y.atspi.Event.Object", "SelectionChanged", "", 0, 0, GValue.int32(0)
            )
        }
        let body = GValue.tuple([
            GValue.string(detail), GValue.int32(detail1), GValue.int32(detail2), GValue.variant(any),
            GValue.array(.propertyEntry, []),
        ])
        g_dbus_connection_emit_signal(connection, nil, path, interface, member, body, nil)
    }

    /// The object path of node `id` (the window's frame is the root widget's).
    func objectPath(_ id: WidgetID) -> String { Self.objectPrefix + "/" + String(id.raw, radix: 16) }
}
