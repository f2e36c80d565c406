import ArgumentParser
import CSDL2
import Render2D
import Widgets

@main
struct GalleryDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "GalleryDemo",
        abstract: "Tessera's showcase and frame-time profiling tool.",
        subcommands: [Run.self, Bench.self, Profile.self, GenerateSamples.self],
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

    @Flag(help: "Show the frame-time HUD from the start (F12 toggles it).")
    var hud = false

    @Flag(help: "Play a short scripted interaction on the page (table: select rows, open the context menu).")
    var tour = false

    @Option(help: "The folder of photos for the gallery page (default: a generated sample library).")
    var images: String?

    @Option(help: "Page to open: controls, splits, navigation, table, outline, gallery.")
    var page: String = "controls"

    @Option(help: "Window size, e.g. 1280x800.")
    var size: String = "1280x800"

    func validate() throws {
        guard DemoPage(rawValue: page) != nil else {
            throw ValidationError("unknown page '\(page)'; pages: \(DemoPage.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard parsedSize != nil else { throw ValidationError("--size must look like 1280x800") }
    }

    var parsedSize: (width: Int, height: Int)? {
        let parts = size.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { return nil }
        return (parts[0], parts[1])
    }

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
            let size = window.parsedSize ?? (1280, 800)
            let host = try AppHost(options: .init(title: "Tessera — GalleryDemo", width: size.width, height: size.height,
                                                  vsync: true, offscreen: offscreen, scale: window.scale,
                                                  theme: window.dark ? .dark : .light))
            host.ui.persistentStore = PersistentStore.standard(app: "GalleryDemo")
            host.ui.images = ImagePipeline(renderer: host.window.renderer)
            defer { host.ui.images?.shutdown() }
            let app = DemoApp(page: DemoPage(rawValue: window.page) ?? .controls, darkTheme: window.dark, imagesFolder: window.images)
            host.showsHUD = window.hud
            // Offscreen there is nobody to close the window: stop after a few frames.
            let frames = window.frames ?? (offscreen ? 10 : nil)
            // The screenshot is taken once the layout has settled: the last frame of a bounded
            // run, else the fifth frame of an interactive one (which then goes on).
            let shotFrame = frames.map { max(1, $0) } ?? 5
            var count = 0
            let inject = EventInjector(window: host.window)
            host.run(maxFrames: frames) { ui in
                count += 1
                if let shot = window.screenshot, count == shotFrame { host.captureScreenshot(to: shot) }
                app.build(ui, host: host)
                if window.tour && app.page == .table { app.table.tour(frame: count, inject: inject) }
                if window.tour && app.page == .outline { app.outline.tour(frame: count, inject: inject) }
            }
        }
    }
}
