import ArgumentParser
import CSDL2
import Render2D
import Widgets

@main
struct GalleryDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "GalleryDemo",
        abstract: "Tessera's showcase and frame-time profiling tool.",
        subcommands: [Run.self, Bench.self],
        defaultSubcommand: Run.self)
}

/// Options shared by every command that opens a window.
struct WindowOptions: ParsableArguments {
    @Flag(help: "Use SDL's offscreen video driver (no display needed). Implied when DISPLAY and WAYLAND_DISPLAY are unset.")
    var offscreen = false

    @Option(help: "Run this many frames, then exit.")
    var frames: Int?

    @Option(help: "Save a PNG of the last frame to this path.")
    var screenshot: String?

    @Option(help: "UI scale (default: from the display's DPI).")
    var scale: Double?

    @Flag(help: "Use the dark theme.")
    var dark = false

    /// Offscreen when asked, or when there is no display to open a window on.
    var resolvedOffscreen: Bool {
        if offscreen { return true }
        let env = ProcessEnvironment.self
        return env.value("DISPLAY") == nil && env.value("WAYLAND_DISPLAY") == nil && env.value("SDL_VIDEODRIVER") == nil
    }
}

enum ProcessEnvironment {
    static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        let s = String(cString: raw)
        return s.isEmpty ? nil : s
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open the kitchen-sink page (default).")

    @OptionGroup var window: WindowOptions

    func run() throws {
        try MainActor.assumeIsolated {
            let offscreen = window.resolvedOffscreen
            if offscreen { Log.info("no display: using the offscreen video driver") }
            let host = try AppHost(options: .init(title: "Tessera — GalleryDemo", vsync: true, offscreen: offscreen,
                                                  scale: window.scale, theme: window.dark ? .dark : .light))
            let page = KitchenSink()
            // Offscreen there is nobody to close the window: stop after a few frames.
            let frames = window.frames ?? (offscreen ? 10 : nil)
            var count = 0
            host.run(maxFrames: frames) { ui in
                count += 1
                if let shot = window.screenshot, let frames, count == frames - 1 { host.captureScreenshot(to: shot) }
                page.build(ui, host: host)
            }
            if let shot = window.screenshot, frames == nil { Log.warn("--screenshot needs --frames N (or --offscreen); not saved: \(shot)") }
        }
    }
}
