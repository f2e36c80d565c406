import CSDL2
import Foundation
import XCTest
import Render2D
import Imaging
import Profiling
import DemoSupport
import TesseraTesting
import TestSupport
@testable import Widgets

/// The AT-SPI bridge on a private session bus, with at-spi2-core's own bus launcher and
/// registry (started by D-Bus activation): a client reads the tree through GDBus and acts on it.
final class AtspiBridgeTests: XCTestCase {
    struct HarnessTestError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @MainActor final class Model { var saves = 0, wrap = false, name = "" }

    @MainActor static func form(_ ui: UI, _ m: Model) {
        ui.vstack {
            if ui.button("Save") { m.saves += 1 }
            ui.toggle("Wrap", isOn: &m.wrap)
            ui.textField("Name", text: &m.name)
        }
    }

    /// A client connection to the accessibility bus the bridge registered on.
    final class Client {
        let bus: OpaquePointer
        let app: String
        /// Authenticate as a client of a message bus.
        static let clientFlags = GDBusConnectionFlags(
            rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        init(session: String, app: String) throws {
            var failure: UnsafeMutablePointer<GError>?
            guard
                let sessionBus = g_dbus_connection_new_for_address_sync(session, Self.clientFlags, nil, nil, &failure),
                let reply = g_dbus_connection_call_sync(
                    sessionBus, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", nil, nil,
                    G_DBUS_CALL_FLAGS_NONE, 5000, nil, &failure),
                let bus = g_dbus_connection_new_for_address_sync(
                    GValue.string(reply, 0), Self.clientFlags, nil, nil, &failure)
            else { throw HarnessTestError("no accessibility bus: \(AtspiBridge.message(failure))") }
            self.bus = bus
            self.app = app
        }

        /// Calls `method` on `path` and returns the reply (a tuple), or fails the test.
        func call(
            _ path: String, _ interface: String, _ method: String, _ args: [OpaquePointer] = [],
            to destination: String? = nil
        ) -> OpaquePointer? {
            var failure: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_sync(
                bus, destination ?? app, path, interface, method, GValue.tuple(args), nil,
                G_DBUS_CALL_FLAGS_NONE, 5000, nil, &failure)
            if reply == nil { XCTFail("\(method) on \(path): \(AtspiBridge.message(failure))") }
            return reply
        }

        func property(_ path: String, _ interface: String, _ name: String) -> OpaquePointer? {
            guard
                let reply = call(
                    path, "org.freedesktop.DBus.Properties", "Get", [GValue.string(interface), GValue.string(name)])
            else { return nil }
            let boxed = g_variant_get_child_value(reply, 0)
            return g_variant_get_variant(boxed)
        }

        /// The references (bus name, path) of `path`'s children.
        func children(_ path: String, of destination: String? = nil) -> [(bus: String, path: String)] {
            guard let reply = call(path, AtspiInterfaces.accessible, "GetChildren", to: destination) else { return [] }
            let array = g_variant_get_child_value(reply, 0)
            return (0..<g_variant_n_children(array)).map {
                let reference = g_variant_get_child_value(array, $0)
                return (GValue.string(reference, 0), GValue.string(reference, 1))
            }
        }
    }

    func testAClientReadsTheTreeAndActsThroughTheBridge() throws {
        try onMain {
            for tool in ["/usr/bin/dbus-daemon", "/usr/libexec/at-spi-bus-launcher", "/usr/bin/dbus-send"]
            where !FileManager.default.fileExists(atPath: tool) {
                throw XCTSkip("\(tool) is not installed (at-spi2-core, dbus)")
            }
            let daemon = Process(), output = Pipe()
            daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
            daemon.arguments = ["--session", "--nofork", "--print-address=1"]
            daemon.standardOutput = output
            try daemon.run()
            let address = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
            let previous = getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
            setenv("DBUS_SESSION_BUS_ADDRESS", address, 1)
            var bridge: AtspiBridge?
            defer {
                bridge?.stop()
                daemon.terminate()
                if let previous {
                    setenv("DBUS_SESSION_BUS_ADDRESS", previous, 1)
                } else {
                    unsetenv("DBUS_SESSION_BUS_ADDRESS")
                }
            }
            // A screen reader starts: the desktop turns the status on (this activates the bus launcher).
            let on = Process()
            on.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-send")
            on.arguments = [
                "--session", "--print-reply", "--dest=org.a11y.Bus", "/org/a11y/bus",
                "org.freedesktop.DBus.Properties.Set",
                "string:org.a11y.Status", "string:IsEnabled", "variant:boolean:true",
            ]
            on.standardOutput = FileHandle.nullDevice
            try on.run()
            on.waitUntilExit()
            XCTAssertNil(
                AtspiBridge.start(appName: "off", environment: ["TESSERA_ACCESSIBILITY": "0"]),
                "the switch turns it off")
            bridge = AtspiBridge.start(appName: "Bridge test", environment: [:])
            let deadline = Date().addingTimeInterval(20)
            while bridge?.isEnabled != true && Date() < deadline { usleep(20_000) }
            guard let bridge, bridge.isEnabled else { return XCTFail("the bridge never registered") }

            let h = try Harness()
            let m = Model()
            h.frames(2) { Self.form($0, m) }
            bridge.publish(AccessibilitySnapshot(tree: h.accessibilityTree, origin: Point(100, 50), scale: 2))
            let name = bridge.shared.withLock { _ in bridge.uniqueName }
            let client = try Client(session: address, app: name)

            // The registry lists the app; the app's child is the frame.
            let apps = client.children(AtspiBridge.rootPath, of: "org.a11y.atspi.Registry")
            XCTAssertTrue(apps.contains { $0 == (name, AtspiBridge.rootPath) }, "the registry lists the app: \(apps)")
            XCTAssertEqual(
                GValue.stringValue(client.property(AtspiBridge.rootPath, AtspiInterfaces.accessible, "Name")),
                "Bridge test")
            let frame = try XCTUnwrap(client.children(AtspiBridge.rootPath).first?.path)
            XCTAssertEqual(
                GValue.stringValue(client.property(frame, AtspiInterfaces.accessible, "Name")), "Tessera tests")

            // The button: role, name, states, where it is on screen, and its action.
            let save = try h.find(.button, "Save")
            let path = bridge.objectPath(save.id)
            XCTAssertTrue(client.children(frame).contains { $0.path == path })
            XCTAssertEqual(GValue.stringValue(client.property(path, AtspiInterfaces.accessible, "Name")), "Save")
            let role = try XCTUnwrap(client.call(path, AtspiInterfaces.accessible, "GetRole"))
            XCTAssertEqual(
                g_variant_get_uint32(g_variant_get_child_value(role, 0)), AccessibilityRole.pushButton.atspiRole)
            let extents = try XCTUnwrap(client.call(path, AtspiInterfaces.component, "GetExtents", [GValue.uint32(0)]))
            let box = g_variant_get_child_value(extents, 0)
            XCTAssertEqual(
                GValue.int(box, 0), Int((100 + save.frame.x * 2).rounded()),
                "screen x: the window's origin plus the frame at scale 2")
            XCTAssertEqual(GValue.int(box, 2), Int((save.frame.width * 2).rounded()))
            XCTAssertNotNil(client.call(path, AtspiInterfaces.action, "DoAction", [GValue.int32(0)]))
            XCTAssertEqual(
                bridge.takeRequests(), [.activate(save.id)], "an action becomes a request for the next frame")
            let field = bridge.objectPath(try h.find(.entry, "Name").id)
            XCTAssertNotNil(client.call(field, AtspiInterfaces.editableText, "SetTextContents", [GValue.string("Ada")]))
            XCTAssertEqual(bridge.takeRequests(), [.setText(try h.find(.entry, "Name").id, "Ada")])
            // A client sending faster than frames run is refused past the limit: the queue stays bounded.
            var refused = 0
            for _ in 0..<(AtspiBridge.pendingLimit + 10) {
                let reply = client.call(path, AtspiInterfaces.action, "DoAction", [GValue.int32(0)])
                if let reply, g_variant_get_boolean(g_variant_get_child_value(reply, 0)) == 0 { refused += 1 }
            }
            XCTAssertEqual(refused, 10)
            XCTAssertEqual(bridge.takeRequests().count, AtspiBridge.pendingLimit)
            let gone = bridge.objectPath(WidgetID(raw: 42))
            var failure: UnsafeMutablePointer<GError>?
            XCTAssertNil(
                g_dbus_connection_call_sync(
                    client.bus, name, gone, AtspiInterfaces.accessible, "GetRole", nil, nil,
                    G_DBUS_CALL_FLAGS_NONE, 5000, nil, &failure), "a node the last frame did not build")
            XCTAssertTrue(AtspiBridge.message(failure).contains("not in the window"))
        }
    }
}
