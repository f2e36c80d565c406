import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// A photo in a window of its own (the `photo` window group): the viewer, with the photos the
/// browser showed around it, so the arrows go on from there. Escape or Ctrl+W closes it.
///
/// The window's value is a ticket for the photos handed over when it opened (they stay in
/// this process; a list of 100,000 photos is not encoded).
@MainActor
final class PhotoWindow {
    /// The window group's id.
    static let group = "photo"
    /// Photos handed to windows not yet built, by ticket.
    private static var handedOver: [Int: (photos: [Photo], index: Int)] = [:]
    private static var nextTicket = 1

    let viewer = PhotoViewer()

    /// Opens `photos[index]` in a new window, after this frame.
    static func open(_ ui: UI, photos: [Photo], at index: Int) {
        guard photos.indices.contains(index) else { return }
        let ticket = nextTicket
        nextTicket += 1
        handedOver[ticket] = (photos, index)
        ui.openWindow(id: group, value: ticket)
    }

    /// The window's content: its viewer, made from the photos handed over on its first frame.
    static func build(_ ui: UI) {
        let window = ui.windowState {
            let made = PhotoWindow()
            made.viewer.isOwnWindow = true
            if let ticket = ui.windowValue(as: Int.self), let handed = handedOver.removeValue(forKey: ticket) {
                made.viewer.show(handed.photos, at: handed.index)
            }
            return made
        }
        if ui.shortcutPressed(KeyboardShortcut("w")) { window.viewer.close() }
        window.viewer.build(ui)
        if !window.viewer.isOpen { ui.dismissWindow() }
    }
}
