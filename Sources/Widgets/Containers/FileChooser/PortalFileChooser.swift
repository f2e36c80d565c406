import CSDL2
import Foundation
import Render2D
import Imaging
import Profiling

/// Which file chooser `fileImporter` and `fileExporter` show.
public enum FileChooserBackend: Sendable {
    /// The desktop's (the XDG portal's `FileChooser`, as sandboxed and desktop apps use) when
    /// the session bus has a portal, else Tessera's own. `TESSERA_FILE_CHOOSER=builtin` or
    /// `=portal` in the environment decides instead.
    case automatic
    /// Always Tessera's own chooser.
    case builtIn
    /// Always the portal's (an error when there is none).
    case portal
}

/// One request to the desktop's file chooser, answered on a thread of its own (the portal's
/// dialog is up until the user answers): the UI looks at `phase` each frame, and the answer
/// wakes the frame loop.
final class PortalFileChooser: Sendable {
    enum Phase: Sendable, Equatable {
        /// Looking for a portal, or waiting for the user.
        case asking
        /// There is no portal: use the built-in chooser.
        case unavailable
        /// The user chose these files (the portal's URIs, byte for byte).
        case chose([URL])
        /// The user closed the dialog.
        case cancelled
        /// The portal failed.
        case failed(String)
    }

    private let state = Locked(Phase.asking)
    var phase: Phase { state.withLock { $0 } }

    /// Asks the portal (`save`: for a path to save to, suggesting `name`).
    init(title: String, save: Bool, folders: Bool, multiple: Bool, name: String?, requirePortal: Bool) {
        Thread.start(named: "tessera-portal") { [state] in
            let phase = Self.ask(
                title: title, save: save, folders: folders, multiple: multiple, name: name, requirePortal: requirePortal
            )
            state.withLock { $0 = phase }
            FrameWaker.wake()
        }
    }

    private static func ask(
        title: String, save: Bool, folders: Bool, multiple: Bool, name: String?, requirePortal: Bool
    ) -> Phase {
        guard isAvailable() else {
            return requirePortal ? .failed("the session bus has no XDG desktop portal") : .unavailable
        }
        var uris: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
        var error = [CChar](repeating: 0, count: 512)
        let outcome = tessera_portal_choose(
            title, save ? 1 : 0, folders ? 1 : 0, multiple ? 1 : 0, name, &uris, &error, Int32(error.count))
        defer { g_strfreev(uris) }
        switch outcome {
        case 0:
            var chosen: [URL] = []
            var k = 0
            while let uri = uris?[k] {  // URIs are ASCII: a name's other bytes are percent-escaped, so nothing is lost
                if let url = URL(string: String(cString: uri)), url.isFileURL { chosen.append(url) }
                k += 1
            }
            return .chose(chosen)
        case 1: return .cancelled
        default: return .failed(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    /// The answer of the last lookup, and the session bus it was for.
    private static let availability = Locked<(bus: String?, found: Bool)?>(nil)

    /// Whether the session bus has a portal (looked up once per session bus, off the main thread).
    static func isAvailable() -> Bool {
        let bus = getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
        if let known = availability.withLock({ $0 }), known.bus == bus { return known.found }
        let found = tessera_portal_available() != 0
        availability.withLock { $0 = (bus, found) }
        if !found { Log.info("no XDG desktop portal on the session bus: files are chosen with Tessera's own chooser") }
        return found
    }

    /// What `backend` means here: nil (try the portal, else the built-in), true (the portal
    /// only), false (the built-in only).
    static func usesPortal(_ backend: FileChooserBackend) -> Bool? {
        var choice = backend
        if backend == .automatic, let raw = getenv("TESSERA_FILE_CHOOSER") {
            switch String(cString: raw) {
            case "builtin": choice = .builtIn
            case "portal": choice = .portal
            default: Log.warn("TESSERA_FILE_CHOOSER must be builtin or portal; choosing automatically")
            }
        }
        switch choice {
        case .automatic: return nil
        case .builtIn: return false
        case .portal: return true
        }
    }
}
