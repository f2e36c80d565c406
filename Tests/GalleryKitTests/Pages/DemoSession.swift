import TesseraTesting
import Widgets
@testable import GalleryKit

/// The demo's window on a library, in a harness: the library walked, three frames drawn.
@MainActor
struct DemoSession {
    let h: Harness
    let app: DemoApp
    let build: (UI) -> Void
    var browser: BrowserPage { app.browser }

    init(library: String, width: Int = 1200, height: Int = 700) throws {
        h = try Harness(width: width, height: height)
        let app = DemoApp(page: .photos, darkTheme: false, library: library)
        self.app = app
        app.browser.waitForScan()
        let host = h.host
        build = { app.build($0, host: host) }
        h.frames(3, build)
    }
}
