import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// The demo's pages, switched from the top bar (or `--page`).
enum DemoPage: String, CaseIterable {
    case photos, controls, splits, navigation, table, outline, input
    var title: String {
        switch self {
        case .photos: "Photos"
        case .controls: "Controls"
        case .splits: "Split panes"
        case .navigation: "Navigation split"
        case .table: "Table"
        case .outline: "Lists & outlines"
        case .input: "Input"
        }
    }
}

/// GalleryDemo's window: a top bar with the pages, the theme and the HUD, above the page.
@MainActor
final class DemoApp {
    var page: DemoPage
    /// The theme the user chose (the command line or the toggle); nil follows the desktop.
    var darkTheme: Bool?
    /// The desktop's light or dark preference, followed while `darkTheme` is nil.
    let appearance: SystemAppearance?
    let browser: BrowserPage
    // The other pages are made when first shown, not at start-up (their data, trees and rows).
    lazy var kitchenSink = KitchenSink()
    lazy var splits = SplitsPage()
    lazy var navigation = NavigationPage()
    lazy var table = TablePage()
    lazy var outline = OutlinePage()
    lazy var input = InputPage()
    private var showsAbout = false
    private var choosingLibrary = false

    /// The title its window was last given (it names the library).
    private var windowTitle = ""

    /// `index`: the library index the browser keeps photos' dates and sizes in (nil: none);
    /// `saver`: what writes the browser's sidecars (every window's browser shares one).
    init(
        page: DemoPage, darkTheme: Bool?, library: String, appearance: SystemAppearance? = nil,
        index: LibraryIndex? = nil,
        saver: SidecarSaver = SidecarSaver()
    ) {
        self.page = page
        browser = BrowserPage(root: library, index: index, saver: saver)
        self.darkTheme = darkTheme
        self.appearance = appearance
    }

    /// Another window like this one (File ▸ New Window), on the same library, sharing its index
    /// and sidecar writer; its own pages, selection and scroll.
    func newWindowApp(library: String?) -> DemoApp {
        DemoApp(
            page: .photos, darkTheme: darkTheme, library: library ?? browser.libraryRoot, appearance: appearance,
            index: browser.index, saver: browser.saver)
    }

    /// Sets `host` up for the demo's windows: the photo window group, and an image pipeline
    /// (from `pipeline`, for the window's renderer) in every window opened after the first.
    static func prepare(_ host: AppHost, pipeline: ((Renderer) -> ImagePipeline)?) {
        host.windowGroup(PhotoWindow.group, title: "Photo — Tessera", width: 1000, height: 700) {
            PhotoWindow.build($0)
        }
        if let pipeline { host.prepareWindow = { $0.ui.images = pipeline($0.window.renderer) } }
    }

    /// Builds the window `ui` draws: this app in the first window; in each window File ▸ New
    /// Window opened, an app of that window's own (`newWindowApp`).
    func build(_ ui: UI, host: AppHost) {
        let app =
            ui.windowNumber == 1 ? self : ui.windowState { newWindowApp(library: ui.windowValue(as: String.self)) }
        app.buildWindow(ui, host: host)
    }

    private func buildWindow(_ ui: UI, host: AppHost) {
        var isDark = darkTheme ?? (appearance?.colorScheme == .dark)
        ui.theme = isDark ? .dark : .light
        if let appearance { ui.reducesMotion = appearance.reducesMotion }
        let title = "Tessera — " + FileName.last(of: browser.libraryRoot)
        if title != windowTitle {
            windowTitle = title
            host.currentWindow.window.setTitle(title)
        }
        ui.vstack(spacing: 0) {
            menuBar(ui, host: host, isDark: &isDark)
            ui.padding(EdgeInsets(horizontal: 12, vertical: 8)) {
                ui.hstack(spacing: 6) { header(ui, host: host, isDark: &isDark) }
            }
            ui.divider()
            ui.frame {
                switch page {
                case .photos: browser.build(ui)
                case .controls: kitchenSink.build(ui)
                case .splits: splits.build(ui)
                case .navigation: navigation.build(ui)
                case .table: table.build(ui)
                case .outline: outline.build(ui)
                case .input: input.build(ui, host: host)
                }
            }
        }
    }

    /// The header row: the app's name, the pages (buttons in a wide window, else a menu), the
    /// Dark toggle and the HUD button. A narrow window leaves out what does not fit rather
    /// than clip it at its edge, the HUD button first, then the toggle, the name, the pages:
    /// each is also in the menu bar (View), and the name in the window's title.
    private func header(_ ui: UI, host: AppHost, isDark: inout Bool) {
        let shown = HeaderItems.fitting(width: ui.size.width)
        if shown.title {
            ui.text("Tessera", font: ui.font(size: 18, weight: .bold))
            ui.spacer(minLength: 12)
        }
        if ui.size.width >= 1100 {
            for candidate in DemoPage.allCases {
                if ui.button(candidate.title, style: candidate == page ? .borderedProminent : .bordered) {
                    page = candidate
                }
            }
        } else if shown.pages {
            // Narrow windows: the pages in a menu.
            ui.accessibilityLabel("Page") {
                ui.picker(
                    "", selection: &page, options: DemoPage.allCases.map { ($0.title, $0) }, style: .menu, id: "page")
            }
        }
        ui.spacer()
        // The toggle's choice is the user's from now on.
        if shown.darkToggle, ui.toggle("Dark", isOn: &isDark) { darkTheme = isDark }
        let window = host.currentWindow
        if shown.hud, ui.button(window.showsHUD ? "Hide HUD" : "HUD (F12)") { window.showsHUD.toggle() }
    }

    /// What the header shows, by the window's width.
    struct HeaderItems: Equatable {
        var title = false, pages = false, darkToggle = false, hud = false

        /// The items of a header `width` logical pixels wide, each with the width it needs
        /// beside the ones before it (the header's 12-point margins included): the pages'
        /// menu (about 165 wide) first, then the name (about 90), the toggle (about 90) and the
        /// HUD button (about 110). A window too narrow for the pages shows the name alone.
        static func fitting(width: Double) -> HeaderItems {
            guard width >= 200 else { return HeaderItems(title: true) }
            return HeaderItems(title: width >= 290, pages: true, darkToggle: width >= 390, hud: width >= 500)
        }
    }

    /// File, Edit, View, Photo, Window and Help: every command with its shortcut, working
    /// whether a menu is open or not. Edit and Photo act on the photo browser, shown on its page.
    private func menuBar(_ ui: UI, host: AppHost, isDark: inout Bool) {
        let window = host.currentWindow
        ui.menuBar {
            ui.menu("File") {
                if ui.menuItem("New Window", shortcut: KeyboardShortcut("n")) {
                    ui.openWindow(value: browser.libraryRoot)
                }
                if ui.menuItem("Open Folder…", icon: .folder, shortcut: KeyboardShortcut("o")) {
                    choosingLibrary = true
                }
                let recent = browser.recentLibraries(ui)
                if !recent.isEmpty { ui.divider() }
                for folder in recent where ui.menuItem(FileName.last(of: folder)) {
                    openLibrary(folder, ui)
                }
                ui.divider()
                if ui.menuItem("Close Window", shortcut: KeyboardShortcut("w")) { ui.dismissWindow() }
                if ui.menuItem("Quit", shortcut: KeyboardShortcut("q")) { host.requestQuit() }
            }
            if page == .photos {
                ui.menu("Edit") { browser.editCommands(ui) }
            }
            ui.menu("View") {
                for (k, candidate) in DemoPage.allCases.enumerated() {
                    let digit = Character(String(k + 1))
                    if ui.menuItem(
                        candidate.title, icon: candidate == page ? .checkmark : nil, shortcut: KeyboardShortcut(digit))
                    {
                        page = candidate
                    }
                }
                ui.divider()
                if page == .photos {
                    browser.zoomCommands(ui)
                    ui.divider()
                }
                if ui.menuItem(
                    isDark ? "Light Theme" : "Dark Theme",
                    shortcut: KeyboardShortcut("d", modifiers: [.control, .shift]))
                {
                    isDark.toggle()
                    darkTheme = isDark
                }
                if ui.menuItem(
                    window.showsHUD ? "Hide HUD" : "Show HUD", shortcut: KeyboardShortcut(.f12, modifiers: []))
                {
                    window.showsHUD.toggle()
                }
            }
            if page == .photos {
                ui.menu("Photo") { browser.photoCommands(ui) }
            }
            ui.menu("Window") {
                if ui.menuItem("New Window") { ui.openWindow(value: browser.libraryRoot) }
                if ui.menuItem("Close Window") { ui.dismissWindow() }
                ui.divider()
                for other in host.windows
                where ui.menuItem("\(other.number). \(other.title)", icon: other === window ? .checkmark : nil) {
                    other.raise()
                }
            }
            ui.menu("Help") {
                if ui.menuItem("About Tessera") { showsAbout = true }
            }
        }
        ui.fileImporter(
            isPresented: Binding(self, \.choosingLibrary), allowedContentTypes: [.folder], directory: browser.folder
        ) { result in
            if case .success(let urls) = result, let folder = urls.first { self.openLibrary(folder.path, ui) }
        }
        ui.alert(
            "Tessera", isPresented: Binding(self, \.showsAbout),
            message: "Fast desktop data views in Swift on Linux:\nimmediate-mode widgets drawn by SDL2's GPU renderer.")
    }

    /// Shows `folder` in the browser, first among the recent libraries (the File menu's and the sidebar's).
    private func openLibrary(_ folder: String, _ ui: UI) {
        browser.openLibrary(folder, ui)
        page = .photos
    }
}
