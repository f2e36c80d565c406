import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// A three-column NavigationSplitView: collections | photos | detail, with the visibility
/// and style switchable, and one column at a time when the window is narrow.
@MainActor
final class NavigationPage {
    private var state = NavigationSplitState()
    private var style = NavigationSplitViewStyle.automatic
    private var narrow = NavigationSplitNarrowBehavior.overlay
    private var collection = "All Photos"
    private var selectedPhoto: Int?
    private let collections = ["All Photos", "Favorites", "Recent", "Holidays", "Family", "Screenshots"]

    /// A full-width selectable row: icon and title, highlighted when selected or hovered.
    private func row(_ ui: UI, _ title: String, icon: Icon, selected: Bool) -> Bool {
        let rect = ui.allocate(Size(0, 28), flexibleWidth: true)
        let r = ui.interact(ui.id(title), rect: rect)
        if selected {
            ui.drawList.addRoundedRect(rect, radius: 6, color: ui.theme.accent)
        } else if r.isHovered {
            ui.drawList.addRoundedRect(rect, radius: 6, color: ui.theme.control)
        }
        let fg = selected ? ui.theme.onAccent : ui.theme.text
        ui.drawIcon(
            icon, in: Rect(x: rect.x + 8, y: rect.midY - 8, width: 16, height: 16),
            color: selected ? fg : ui.theme.accent)
        ui.font.draw(
            title, in: Rect(x: rect.x + 32, y: rect.y, width: rect.width - 40, height: rect.height), color: fg,
            truncation: ui.truncation, into: &ui.drawList)
        return r.clicked
    }

    func build(_ ui: UI) {
        ui.navigationSplit(
            "navigation", state: Binding(self, \.state), style: style,
            contentWidth: .init(min: 200, ideal: 280, max: 460), narrowBehavior: narrow, title: "Photos"
        ) {
            ui.padding(10) {
                ui.vstack(spacing: 4, alignment: .fill) {
                    ui.text("Library", color: ui.theme.secondaryText, font: ui.font(size: 13, weight: .bold))
                    for name in collections {
                        if row(ui, name, icon: name == "Favorites" ? .starFill : .folder, selected: name == collection)
                        {
                            collection = name
                            state.preferredCompactColumn = .content
                        }
                    }
                }
            }
        } content: {
            ui.scrollView("photos") {
                ui.padding(EdgeInsets(horizontal: 6, vertical: 6)) {
                    // Cut in the middle: a narrow column still shows which photo a row is.
                    ui.truncationMode(.middle) {
                        ui.vstack(spacing: 2, alignment: .fill) {
                            for i in 0..<40
                            where self.row(
                                ui, "\(self.collection) · photo \(i + 1)", icon: .photo,
                                selected: self.selectedPhoto == i)
                            {
                                self.selectedPhoto = i
                                self.state.preferredCompactColumn = .detail
                            }
                        }
                    }
                }
            }
        } detail: {
            ui.padding(16) {
                ui.vstack(spacing: 10) {
                    ui.hstack {
                        for (title, visibility) in [
                            ("All", NavigationSplitViewVisibility.all), ("Double", .doubleColumn),
                            ("Detail only", .detailOnly),
                        ] {
                            if ui.button(title, style: state.visibility == visibility ? .borderedProminent : .bordered)
                            {
                                state.visibility = visibility
                            }
                        }
                    }
                    // Two rows, so the detail at its 320-px minimum shows every button.
                    ui.hstack {
                        if ui.button(
                            style == .automatic
                                ? "Style: automatic"
                                : style == .balanced ? "Style: balanced" : "Style: prominent detail")
                        {
                            style = style == .automatic ? .balanced : style == .balanced ? .prominentDetail : .automatic
                        }
                        if ui.button(narrow == .overlay ? "Narrow: overlay" : "Narrow: displace") {
                            narrow = narrow == .overlay ? .displace : .overlay
                        }
                    }
                    if let photo = selectedPhoto {
                        ui.text("\(collection) · photo \(photo + 1)", font: ui.font(size: 20, weight: .bold))
                        let preview = ui.allocate(Size(min(ui.availableWidth, 420), 260))
                        ui.drawList.addRoundedRect(
                            preview, radius: 10, color: Color(hex: 0x0A84FF).mix(.orange, Double(photo % 10) / 9))
                        ui.drawIcon(
                            .photo, in: preview.insetBy(dx: preview.width * 0.3, dy: preview.height * 0.3),
                            color: .white.opacity(0.85))
                    } else {
                        ui.text("Select a photo", color: ui.theme.secondaryText)
                    }
                }
            }
        }
    }
}
