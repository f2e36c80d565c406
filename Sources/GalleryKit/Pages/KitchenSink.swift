import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// The "kitchen sink" page: every foundation control in one window.
@MainActor
final class KitchenSink {
    /// A few of Material Icons' names (any of its 2,000 works with `Icon(named:)`).
    static let materialIcons = [
        "description", "folder_open", "content_copy", "delete", "edit", "share", "settings",
        "info", "warning", "cloud_upload", "image", "rotate_right", "label", "sort", "filter_list",
    ]
    var clicks = 0
    var notifications = true
    var compact = false
    var volume = 0.35
    var copies = 2
    var name = "Tessera"
    var password = ""
    var search = ""
    var notes =
        "Notes wrap at the editor's edge; Return starts a new line, Up and Down move by line, Ctrl+Z undoes a word."
    var lastAction = "—"
    let rows = (1...200).map { "Row \($0): photo_\(1000 + $0 * 7).jpg" }
    var tab = 0
    var showsCard = true
    /// The date picker's date: a fixed afternoon, so screenshots stay the same.
    var taken = Date(timeIntervalSince1970: 1_782_400_000)
    var albumPath: [AlbumRoute] = []
    static let albumNames = ["Summer 2024", "Lisbon", "Family", "Screenshots"]

    /// A page of the navigation stack on the Albums tab.
    enum AlbumRoute: Hashable, Codable {
        case album(Int)
        case photo(Int, Int)
    }

    /// Three columns side by side when the window has room for their minimums; narrower, they
    /// wrap onto lines in a scroll view (never squeezed below their minimum).
    func build(_ ui: UI) {
        ui.padding(EdgeInsets(16)) {
            ui.viewThatFits {
                ui.alternative { ui.columns(spacing: 16, overflow: .overflow) { self.pageColumns(ui) } }
                ui.alternative { ui.scrollView("controls.page") { ui.columns(spacing: 16) { self.pageColumns(ui) } } }
            }
        }
    }

    private func pageColumns(_ ui: UI) {
        ui.column(minWidth: 360, idealWidth: 450, id: "controls") { self.controls(ui) }
        ui.column(minWidth: 330, idealWidth: 360, id: "text") { self.textSamples(ui) }
        ui.column(minWidth: 280, id: "pages") { self.pages(ui) }
    }

    private func controls(_ ui: UI) {
        ui.vstack(spacing: 10) {
            ui.text("Controls", font: ui.font(size: 17, weight: .bold))
            buttonsRow(ui)
            ui.text("Clicked \(clicks) times · last action: \(lastAction)", color: ui.theme.secondaryText)
            ui.toggle("Notifications", isOn: &notifications)
            ui.toggle("Compact rows", isOn: &compact)
            ui.slider("Volume", value: &volume, in: 0...1)
            ui.text("Volume \(Int((volume * 100).rounded())) %", color: ui.theme.secondaryText)
            ui.progressView("Progress (the volume)", value: volume, width: 300)
            ui.stepper("Copies: \(copies)", value: &copies, in: 1...20, id: "copies")
            ui.datePicker("Taken", selection: Binding(self, \.taken))
            // indeterminate: it moves while shown
            if notifications { ui.progressView("Waiting for notifications…", width: 300) }
            ui.hstack {
                ui.text("Name")
                ui.textField("Name", text: &name, width: 220)
            }
            ui.hstack {
                ui.text("Password")
                ui.secureField("Password", text: &password, width: 220)
            }
            ui.hstack {
                ui.text("Search")
                ui.textField("Filter rows…", text: &search, width: 220, id: "search")
            }
            ui.textEditor(text: &notes, width: min(400, ui.availableWidth), height: 64, id: "notes")
            ui.hstack {
                if ui.button("Menu", icon: .chevronDown) { ui.openPopup("menu") }
                ui.popup("menu") {
                    if ui.menuItem("New Folder", icon: .folder, shortcut: KeyboardShortcut("n")) {
                        lastAction = "New Folder"
                    }
                    if ui.menuItem("Add Photo", icon: .photo) { lastAction = "Add Photo" }
                    if ui.menuItem("Favorite", icon: .starFill) { lastAction = "Favorite" }
                    if ui.menuItem("Move to Trash", icon: .trash, role: .destructive) { lastAction = "Trash" }
                }
                ui.text("← popup menu · right-click a row for a context menu", color: ui.theme.secondaryText)
            }
            iconsAndChips(ui)
            ui.label("Library", icon: .photo)
            ui.label("Favorites", icon: .starFill, iconColor: .yellow)
            ui.label("Folders", icon: .folder)
        }
    }

    /// Buttons of each style, and a badge over one's corner, on as many lines as the column needs.
    private func buttonsRow(_ ui: UI) {
        ui.wrappingHStack {
            if ui.button("Click me") { clicks += 1 }
            if ui.button("Save", icon: .checkmark, style: .borderedProminent) { lastAction = "Saved" }
            if ui.button("Delete", icon: .trash, style: .destructive) { lastAction = "Deleted" }
            if ui.accessibilityLabel("Add", { ui.button("", icon: .plus, id: "add") }) { clicks += 1 }
            // A badge over a button's corner (overlay), the count on a pill (background).
            ui.overlay(alignment: .topTrailing) {
                ui.vstack {
                    ui.padding(EdgeInsets(top: 6, leading: 0, bottom: 0, trailing: 8)) {
                        _ = ui.button("Inbox", id: "inbox")
                    }
                }
            } overlay: {
                ui.background {
                    ui.vstack {
                        ui.padding(EdgeInsets(horizontal: 6, vertical: 1)) { ui.text("\(clicks)", color: .white) }
                    }
                } background: {
                    ui.drawList.addRoundedRect(
                        ui.allocate(Size(0, 0), flexibleWidth: true, flexibleHeight: true), radius: 9,
                        color: ui.theme.destructive)
                }
            }
        }
    }

    /// Every icon, a tooltip on each, and a row of chips that scrolls sideways.
    private func iconsAndChips(_ ui: UI) {
        ui.text("Icons", font: ui.font(size: 17, weight: .bold))
        // Twelve to a row: the column's narrowest width holds them.
        let all = Icon.builtIn + Self.materialIcons.map(Icon.init(named:))
        for icons in stride(from: 0, to: all.count, by: 12).map({ Array(all[$0..<min($0 + 12, all.count)]) }) {
            ui.hstack(spacing: 10) {
                for icon in icons {
                    let rect = ui.allocate(Size(20, 20))
                    ui.drawIcon(icon, in: rect, color: ui.theme.accent)
                    ui.tooltip(icon.name, for: ui.interact(ui.id(icon.name), rect: rect))
                }
            }
        }
        ui.text("Horizontal scroll (shift+wheel, drag the bar)", color: ui.theme.secondaryText)
        ui.scrollView("chips", axes: .horizontal, height: 40) {
            ui.hstack(spacing: 6) {
                for i in 0..<30 {
                    let rect = ui.allocate(Size(64, 26))
                    ui.drawList.addRoundedRect(
                        rect, radius: 13, color: Color(hex: 0x0A84FF).mix(.orange, Double(i) / 29).opacity(0.85))
                    ui.font.draw("tag \(i + 1)", in: rect, alignment: .center, color: .white, into: &ui.drawList)
                }
            }
        }
    }

    private func textSamples(_ ui: UI) {
        ui.vstack(spacing: 8) {
            ui.text("Text", font: ui.font(size: 17, weight: .bold))
            ui.text("Latin: The quick brown fox jumps over the lazy dog")
            ui.text("Greek: Η γρήγορη καφέ αλεπού")
            ui.text("Cyrillic: Съешь же ещё этих мягких")
            ui.text("CJK: 写真 ギャラリー (fallback font if installed)")
            ui.text("Arabic: معرض الصور العائلية")
            ui.text("Hebrew: גלריית תמונות")
            ui.text("Devanagari: फ़ोटो गैलरी क्षत्रिय")
            ui.text("Thai: แกลเลอรีภาพถ่าย")
            ui.text("Emoji: 📷 🌅 👨‍👩‍👧 🇯🇵 ✔︎")
            ui.text("Mixed: the album «رحلة 2024» has 12 photos")
            ui.text("Kerning and ligatures: AVATAR Type WAVE office")
            ui.text("A long line that is truncated with an ellipsis because it does not fit its column")
            ui.truncationMode(.middle) {
                ui.text("Cut in the middle: /home/ann/Pictures/Holidays/Trip 2024/IMG_0001.jpg")
            }
            ui.textSelection(.enabled) {
                ui.text(
                    "A paragraph that wraps, and that you can select and copy: with a line limit of three, it takes as many lines as the column's width needs, and no more, the last cut with an ellipsis when even three are not enough",
                    lineLimit: 3)
            }
            ui.multilineTextAlignment(.center) {
                ui.text(
                    "Centred lines: multilineTextAlignment(.center) lines a paragraph up on one centre", lineLimit: 2)
            }
            ui.text("שורה ארוכה מימין לשמאל שנחתכת בשלוש נקודות כי היא לא נכנסת לעמודה")
            let font = ui.font
            for (alignment, title) in [
                (TextAlignment.leading, "leading"), (.center, "center"), (.trailing, "trailing"),
            ] {
                let rect = ui.allocate(Size(300, 24))
                ui.drawList.addRoundedRect(rect, radius: 4, color: ui.theme.control.opacity(0.6))
                font.draw(
                    "aligned \(title)", in: rect.insetBy(dx: 6, dy: 0), alignment: alignment, color: ui.theme.text,
                    into: &ui.drawList)
            }
            ui.text("Shapes", font: ui.font(size: 17, weight: .bold))
            let rect = ui.allocate(Size(300, 60))
            ui.drawList.addRoundedRect(
                Rect(x: rect.x, y: rect.y, width: 80, height: 60), radius: 12, color: ui.theme.accent)
            ui.drawList.addRectBorder(
                Rect(x: rect.x + 90, y: rect.y, width: 80, height: 60), radius: 12, color: ui.theme.accent, thickness: 2
            )
            ui.drawList.addCircle(center: Point(rect.x + 215, rect.midY), radius: 28, color: .orange)
            ui.drawList.addLine(
                from: Point(rect.x + 250, rect.maxY), to: Point(rect.x + 300, rect.y), color: ui.theme.text,
                thickness: 2)
            ui.text("Images of pixels the app holds", font: ui.font(size: 17, weight: .bold))
            ui.hstack(spacing: 12) {
                ui.image(sprite, resizable: true, width: 64, interpolation: .none, label: "Sprite, sharp")
                ui.image(sprite, resizable: true, width: 64, interpolation: .high, label: "Sprite, smooth")
                ui.image(gradient, resizable: true, contentMode: .fit, width: 140, height: 64, label: "Gradient")
            }
            ui.link(
                "SwiftUI's Image documentation", destination: "https://developer.apple.com/documentation/swiftui/image")
            animations(ui)
        }
    }

    /// withAnimation, a transition in and out, and a value that springs to its new size.
    private func animations(_ ui: UI) {
        ui.text("Animation", font: ui.font(size: 17, weight: .bold))
        ui.hstack {
            if ui.button(showsCard ? "Hide card" : "Show card", id: "card") {
                ui.withAnimation(.spring) { showsCard.toggle() }
            }
            ui.text(
                ui.reducesMotion ? "Reduce motion is on: changes jump" : "springs; a bar follows the volume",
                color: ui.theme.secondaryText)
        }
        let width = ui.animation(
            .spring(response: 0.4, dampingFraction: 0.6), value: 40 + volume * 260, id: "volumeBar")
        ui.drawList.addRoundedRect(ui.allocate(Size(width, 8)), radius: 4, color: ui.theme.accent)
        ui.transition(.move(edge: .leading).combined(with: .opacity), isPresented: showsCard, id: "card") {
            ui.background {
                ui.padding(10) { ui.text("A card that slides in and fades", color: .white) }
            } background: {
                ui.drawList.addRoundedRect(
                    ui.allocate(Size(0, 0), flexibleWidth: true, flexibleHeight: true), radius: 8,
                    color: Color(hex: 0x5E5CE6))
            }
        }
    }

    /// A 12 × 12 heart, drawn pixel by pixel.
    let sprite: ImageBitmap = {
        let rows = [
            "..XX....XX..", ".XXXX..XXXX.", "XXXXXXXXXXXX", "XXXXXXXXXXXX", "XXXXXXXXXXXX", ".XXXXXXXXXX.",
            "..XXXXXXXX..", "...XXXXXX...", "....XXXX....", ".....XX.....", "............", "............",
        ]
        var pixels = PixelBuffer(width: 12, height: 12)
        for (y, row) in rows.enumerated() {
            for (x, cell) in row.enumerated() where cell == "X" {
                pixels.bytes.replaceSubrange((y * 12 + x) * 4..<(y * 12 + x) * 4 + 4, with: [230, 40, 70, 255])
            }
        }
        return ImageBitmap(pixels)
    }()

    /// A 2:1 gradient from blue to orange.
    let gradient: ImageBitmap = {
        var pixels = PixelBuffer(width: 128, height: 64)
        for y in 0..<64 {
            for x in 0..<128 {
                let t = Double(x) / 127
                let color = Color(hex: 0x0A84FF).mix(.orange, t).mix(.white, Double(y) / 200)
                pixels.bytes.replaceSubrange(
                    (y * 128 + x) * 4..<(y * 128 + x) * 4 + 4, with: [color.r, color.g, color.b, 255])
            }
        }
        return ImageBitmap(pixels)
    }()

    /// The third column: tabs of the scroll view and a navigation stack.
    private func pages(_ ui: UI) {
        ui.tabView(selection: Binding(self, \.tab)) {
            ui.tab("Rows", icon: .sidebar, value: 0) {
                ui.padding(EdgeInsets(top: 8, leading: 0, bottom: 0, trailing: 0)) { self.list(ui) }
            }
            ui.tab("Albums", icon: .folder, value: 1) { self.albums(ui) }
        }
    }

    /// A navigation stack: albums, an album's photos, a photo.
    private func albums(_ ui: UI) {
        ui.navigationStack(path: Binding(self, \.albumPath), title: "Albums") {
            for (i, album) in Self.albumNames.enumerated() {
                ui.navigationLink(album, icon: .folder, value: AlbumRoute.album(i))
            }
        } navigationDestination: { route in
            switch route {
            case .album(let album):
                ui.navigationTitle(Self.albumNames[album])
                for photo in 1...6 {
                    ui.navigationLink(
                        "IMG_\(4000 + album * 10 + photo).jpg", icon: .photo, value: AlbumRoute.photo(album, photo))
                }
            case .photo(let album, let photo):
                ui.navigationTitle("IMG_\(4000 + album * 10 + photo).jpg")
                ui.padding(12) {
                    ui.text("Photo \(photo) of \(Self.albumNames[album])")
                    ui.text(
                        "Back: the button, Alt+Left, the mouse's back button, or a swipe from the left edge.",
                        color: ui.theme.secondaryText)
                }
            }
        }
    }

    private func list(_ ui: UI) {
        ui.vstack(spacing: 8) {
            ui.text("Scroll view (wheel, scrollbar, touch flick)", font: ui.font(size: 17, weight: .bold))
            let filtered = search.isEmpty ? rows : rows.filter { $0.lowercased().contains(search.lowercased()) }
            ui.scrollView("rows", height: 520) {
                ui.vstack(spacing: 0, alignment: .fill) {
                    for (i, row) in filtered.enumerated() {
                        let rect = ui.allocate(Size(0, compact ? 18 : ui.theme.rowHeight), flexibleWidth: true)
                        let r = ui.interact(ui.id(index: i), rect: rect)
                        if i % 2 == 1 { ui.drawList.addRect(rect, color: ui.theme.control.opacity(0.35)) }
                        if r.isHovered { ui.drawList.addRect(rect, color: ui.theme.selection.opacity(0.5)) }
                        ui.font.draw(row, in: rect.insetBy(dx: 8, dy: 0), color: ui.theme.text, into: &ui.drawList)
                        ui.withID(index: i) {
                            ui.contextMenu(for: r) {
                                if ui.menuItem("Open \(row.prefix(7))", icon: .photo) { lastAction = "Open \(i + 1)" }
                                if ui.menuItem("Favorite", icon: .star) { lastAction = "Favorite \(i + 1)" }
                                if ui.menuItem("Delete", icon: .trash, role: .destructive) {
                                    lastAction = "Delete \(i + 1)"
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
