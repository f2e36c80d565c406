import XCTest
import Foundation
import TestSupport
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// The desktop's light or dark preference: the portal's answers as gdbus prints them, and the
/// whole path through a stand-in `gdbus` that answers and then announces a change.
final class SystemAppearanceTests: XCTestCase {
    func testThePortalsAnswersChangesAndGTKThemeAreRead() {
        XCTAssertEqual(SystemAppearance.scheme(portalReply: "(<<uint32 1>>,)\n"), .dark)
        XCTAssertEqual(SystemAppearance.scheme(portalReply: "(<<uint32 2>>,)"), .light)
        XCTAssertNil(SystemAppearance.scheme(portalReply: "(<<uint32 0>>,)"), "0: no preference")
        XCTAssertNil(
            SystemAppearance.scheme(portalReply: "Error: GDBus.Error:org.freedesktop.DBus.Error.ServiceUnknown"))
        let change =
            "/org/freedesktop/portal/desktop: org.freedesktop.portal.Settings.SettingChanged "
            + "('org.freedesktop.appearance', 'color-scheme', <uint32 1>)"
        XCTAssertEqual(SystemAppearance.scheme(settingChanged: change), .some(.dark))
        XCTAssertTrue(
            SystemAppearance.scheme(
                settingChanged: change.replacingOccurrences(of: "color-scheme", with: "accent-color")) == nil,
            "another setting is not a change of scheme")
        XCTAssertTrue(SystemAppearance.scheme(settingChanged: "uint32 1") == nil, "not a change of scheme")
        XCTAssertEqual(SystemAppearance.scheme(gtkTheme: "Adwaita:dark"), .dark)
        XCTAssertEqual(SystemAppearance.scheme(gtkTheme: "Yaru-dark"), .dark)
        XCTAssertEqual(SystemAppearance.scheme(gtkTheme: "Adwaita"), .light)
        XCTAssertNil(SystemAppearance.scheme(gtkTheme: nil))
    }

    /// An environment with a session bus (the fake `gdbus` never dials it).
    static let bus = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"]

    /// A `gdbus` that answers Read with `reply` and, as `monitor`, prints `change` after a
    /// moment; each run leaves a line in the file `ran` next to it.
    private func fakeGDBus(in folder: ScratchFolder, reply: String, exit: Int = 0, change: String?) throws -> String {
        let path = folder.file("gdbus")
        let monitor = change.map { "sleep 0.3; echo \"\($0)\"; sleep 30" } ?? "sleep 30"
        try """
        #!/bin/sh
        echo "$1" >> "\(folder.file("ran"))"
        case "$1" in
        call) echo "\(reply)"; exit \(exit);;
        monitor) \(monitor);;
        esac
        """.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    private func wait(until condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(20)
        while !condition() && Date() < deadline { usleep(20_000) }
    }

    func testItFollowsThePortalAndFallsBackToGTKTheme() throws {
        let folder = try ScratchFolder("appearance")
        let change =
            "/org/freedesktop/portal/desktop: org.freedesktop.portal.Settings.SettingChanged "
            + "('org.freedesktop.appearance', 'color-scheme', <uint32 2>)"
        let gdbus = try fakeGDBus(in: folder, reply: "(<<uint32 1>>,)", change: change)
        var appearance: SystemAppearance? = SystemAppearance(environment: Self.bus, gdbus: gdbus)
        wait { appearance?.colorScheme == .dark }
        XCTAssertEqual(appearance?.colorScheme, .dark, "the portal's answer")
        wait { appearance?.colorScheme == .light }
        XCTAssertEqual(appearance?.colorScheme, .light, "then the change it announced")
        appearance = nil  // stops the monitor

        let failing = try ScratchFolder("appearance-failing")
        let broken = try fakeGDBus(in: failing, reply: "Error: no portal", exit: 1, change: nil)
        let fallback = SystemAppearance(
            environment: Self.bus.merging(["GTK_THEME": "Adwaita:dark"]) { $1 }, gdbus: broken)
        usleep(300_000)
        XCTAssertEqual(fallback.colorScheme, .dark, "no portal: GTK_THEME")
        XCTAssertNil(
            SystemAppearance(environment: Self.bus.merging(["PATH": folder.file("nowhere")]) { $1 }).colorScheme,
            "no gdbus, no GTK_THEME: no preference")
    }

    /// Without a session bus gdbus would start one through dbus-launch for each call, and
    /// find no portal on it: it is not run, and `GTK_THEME` decides. A bus named by
    /// `DBUS_SESSION_BUS_ADDRESS`, or the `bus` socket in `XDG_RUNTIME_DIR`, is one.
    func testWithoutASessionBusGDBusIsNotRun() throws {
        let folder = try ScratchFolder("appearance-no-bus")
        let gdbus = try fakeGDBus(in: folder, reply: "(<<uint32 1>>,)", change: nil)
        let runtime = folder.file("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let alone = SystemAppearance(
            environment: ["GTK_THEME": "Adwaita", "XDG_RUNTIME_DIR": runtime, "DBUS_SESSION_BUS_ADDRESS": ""],
            gdbus: gdbus)
        usleep(300_000)
        XCTAssertEqual(alone.colorScheme, .light, "GTK_THEME, not the portal")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("ran")), "gdbus was not run")

        XCTAssertFalse(SystemAppearance.hasSessionBus([:]))
        XCTAssertTrue(SystemAppearance.hasSessionBus(Self.bus))
        // A plain file called `bus` is not a bus; a socket is.
        XCTAssertTrue(FileManager.default.createFile(atPath: runtime + "/bus", contents: Data()))
        XCTAssertFalse(SystemAppearance.hasSessionBus(["XDG_RUNTIME_DIR": runtime]))
        try FileManager.default.removeItem(atPath: runtime + "/bus")
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = runtime + "/bus"
        XCTAssertLessThan(path.utf8.count, MemoryLayout.size(ofValue: address.sun_path), "a socket path that fits")
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (k, byte) in path.utf8.enumerated() { raw[k] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        XCTAssertEqual(bound, 0, "bound \(path)")
        XCTAssertTrue(SystemAppearance.hasSessionBus(["XDG_RUNTIME_DIR": runtime]))

        let withBus = SystemAppearance(environment: ["XDG_RUNTIME_DIR": runtime], gdbus: gdbus)
        wait { withBus.colorScheme == .dark }
        XCTAssertEqual(withBus.colorScheme, .dark, "with a bus, the portal's answer")
    }
}
