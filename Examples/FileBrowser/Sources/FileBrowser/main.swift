import FileBrowserKit
import Foundation
import Widgets

// FileBrowser [FOLDER] [--offscreen] [--frames N] [--screenshot PATH]
/// The command line's value after `name`, taken out of `arguments`.
func option(_ name: String, in arguments: inout [String]) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(i...(i + 1)) }
    return arguments[i + 1]
}

var arguments = Array(CommandLine.arguments.dropFirst())
let offscreen = arguments.contains("--offscreen")
arguments.removeAll { $0 == "--offscreen" }
let screenshot = option("--screenshot", in: &arguments)
let frames = option("--frames", in: &arguments).map { Int($0) ?? 0 }
let folder = arguments.first ?? FileManager.default.currentDirectoryPath

var isFolder: ObjCBool = false
guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
    FileHandle.standardError.write("FileBrowser: \(folder) is not a folder\n".data(using: .utf8)!)
    exit(2)
}

do {
    // Offscreen there are no events to wait for: frames run back to back.
    let host = try AppHost(
        options: .init(
            title: "Files", width: 960, height: 600, offscreen: offscreen,
            schedule: offscreen ? .continuous : .onDemand))
    let browser = FileBrowser(root: folder)
    if let screenshot {
        host.run(maxFrames: 3, browser.body)  // the layout settles
        host.captureScreenshot(to: screenshot)
        host.run(maxFrames: 1, browser.body)
    } else {
        host.run(maxFrames: frames ?? (offscreen ? 3 : nil), browser.body)
    }
} catch {
    FileHandle.standardError.write("FileBrowser: \(error)\n".data(using: .utf8)!)
    exit(1)
}
