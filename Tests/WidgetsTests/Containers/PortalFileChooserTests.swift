import Foundation
import XCTest
import TesseraTesting
import TestSupport
@testable import Widgets

/// The desktop's file chooser through the XDG portal, on a private session bus with a stand-in
/// portal (scripts/fake-portal.py, python3-gi) that answers as a user would.
final class PortalFileChooserTests: XCTestCase {
    /// A private `dbus-daemon --session` and the fake portal on it, answering `answers`.
    private final class PrivateBus {
        let daemon = Process(), portal = Process()
        let portalOutput = Pipe()
        var address = ""

        init(answers: [String]) throws {
            let daemonOutput = Pipe()
            daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
            daemon.arguments = ["--session", "--nofork", "--print-address=1"]
            daemon.standardOutput = daemonOutput
            try daemon.run()
            address = Self.firstLine(of: daemonOutput)
            portal.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            portal.arguments = [DocumentationSnippets.packageRoot + "/scripts/fake-portal.py", address] + answers
            portal.standardOutput = portalOutput
            try portal.run()
            XCTAssertEqual(Self.firstLine(of: portalOutput), "ready")
        }

        /// The JSON lines the portal printed for the requests it got.
        func requests() -> [[String: Any]] {
            let deadline = Date().addingTimeInterval(10)  // it exits after its last answer
            while portal.isRunning && Date() < deadline { usleep(10_000) }
            if portal.isRunning { portal.terminate() }
            let text = String(decoding: portalOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return text.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        func stop() {
            if portal.isRunning { portal.terminate() }
            daemon.terminate()
        }

        static func firstLine(of pipe: Pipe) -> String {
            var bytes: [UInt8] = []
            while true {
                let byte = pipe.fileHandleForReading.readData(ofLength: 1)
                guard let b = byte.first, b != 10 else { break }
                bytes.append(b)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    func testTheDesktopsChooserPicksAFolderAndAFileToSaveOrIsCancelled() throws {
        try onMain {
            guard FileManager.default.fileExists(atPath: "/usr/bin/dbus-daemon") else {
                throw XCTSkip("dbus-daemon is not installed")
            }
            let bus = try PrivateBus(answers: ["choose:/srv/photos", "cancel", "choose:/srv/exports"])
            let previous = getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
            setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1)
            defer {
                bus.stop()
                if let previous {
                    setenv("DBUS_SESSION_BUS_ADDRESS", previous, 1)
                } else {
                    unsetenv("DBUS_SESSION_BUS_ADDRESS")
                }
            }
            let h = try Harness()
            let importing = Model(true), exporting = Model(false)
            var chosen: [URL] = [], saved: [URL] = [], cancelled = 0
            let build: (UI) -> Void = { ui in
                ui.fileImporter(isPresented: importing.binding, allowedContentTypes: [.folder]) { result in
                    if case .success(let urls) = result { chosen = urls }
                } onCancellation: {
                    cancelled += 1
                }
                ui.fileExporter(isPresented: exporting.binding, defaultFilename: "report.csv") { result in
                    if case .success(let url) = result { saved.append(url) }
                }
            }
            XCTAssertTrue(h.frames(until: { !importing.value }, build), "the portal answered")
            XCTAssertEqual(chosen.map(\.path), ["/srv/photos"])
            XCTAssertNil(h.rect(ofText: "Choose a Folder"), "the built-in chooser never showed")
            importing.value = true
            XCTAssertTrue(h.frames(until: { !importing.value }, build))
            XCTAssertEqual(cancelled, 1, "closing the desktop's dialog cancels")
            exporting.value = true
            XCTAssertTrue(h.frames(until: { !exporting.value }, build))
            XCTAssertEqual(saved.map(\.path), ["/srv/exports/report.csv"])
            let requests = bus.requests()
            XCTAssertEqual(requests.map { $0["method"] as? String }, ["OpenFile", "OpenFile", "SaveFile"])
            let options = requests.first?["options"] as? [String: Any]
            XCTAssertEqual(options?["directory"] as? Bool, true, "a folder is asked for: \(requests)")
            XCTAssertEqual((requests.last?["options"] as? [String: Any])?["current_name"] as? String, "report.csv")
        }
    }
}
