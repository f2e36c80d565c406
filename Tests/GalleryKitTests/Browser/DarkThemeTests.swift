import XCTest
import TesseraTesting
@testable import GalleryKit
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Every demo page follows a dark desktop: drawn on the dark background with light text.
final class DarkThemeTests: XCTestCase {
    func testEveryPageFollowsADarkDesktop() throws {
        try onMain {
            let lib = try BrowserEndToEndTests.makeLibrary("dark-pages")
            let h = try Harness(width: 1280, height: 800)
            let desktop = SystemAppearance(environment: ["GTK_THEME": "Adwaita:dark", "PATH": lib.file("no-tools")])
            XCTAssertEqual(desktop.colorScheme, .dark)
            let app = DemoApp(page: .photos, darkTheme: nil, library: lib.path, appearance: desktop)
            let build: (UI) -> Void = { app.build($0, host: h.host) }
            for page in DemoPage.allCases {
                app.page = page
                h.frames(3, build)
                XCTAssertTrue(h.ui.theme.isDark, "\(page)")
                let window = Rect(x: 0, y: 0, width: 1280, height: 800)
                let dark = h.countPixels(in: window) { ($0.r / 3 + $0.g / 3 + $0.b / 3) < 80 }
                let light = h.countPixels(in: window) { $0.r > 200 && $0.g > 200 && $0.b > 200 }
                XCTAssertGreaterThan(dark, 1280 * 800 / 2, "\(page): mostly dark")
                XCTAssertGreaterThan(light, 500, "\(page): light text on it")
                h.shot("dark-\(page)", build)
            }
            app.darkTheme = false  // the user's own choice wins over the desktop's
            h.frames(2, build)
            XCTAssertFalse(h.ui.theme.isDark)
        }
    }
}
