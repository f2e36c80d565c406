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

    /// A `gdbus` that answers Read with `reply` and, as `monitor`, prints `change` after a moment.
    private func fakeGDBus(in folder: ScratchFolder, reply: String, exit: Int = 0, change: String?) throws -> String {
        let path = folder.file("gdbus")
        let monitor = change.map { "sleep 0.3; echo \"\($0)\"; sleep 30" } ?? "sleep 30"
        try """
        #!/bin/sh
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
        var appearance: SystemAppearance? = SystemAppearance(environment: [:], gdbus: gdbus)
        wait { appearance?.colorScheme == .dark }
        XCTAssertEqual(appearance?.colorScheme, .dark, "the portal's answer")
        wait { appearance?.colorScheme == .light }
        XCTAssertEqual(appearance?.colorScheme, .light, "then the change it announced")
        appearance = nil  // stops the monitor

        let failing = try ScratchFolder("appearance-failing")
        let broken = try fakeGDBus(in: failing, reply: "Error: no portal", exit: 1, change: nil)
        let fallback = SystemAppearance(environment: ["GTK_THEME": "Adwaita:dark"], gdbus: broken)
        usleep(300_000)
        XCTAssertEqual(fallback.colorScheme, .dark, "no portal: GTK_THEME")
        XCTAssertNil(
            SystemAppearance(environment: ["PATH": folder.file("nowhere")]).colorScheme,
            "no gdbus, no GTK_THEME: no preference")
    }
}
