import CSDL2
import Render2D
import Imaging
import Profiling

/// Opens URLs with the desktop's default handler, through GIO's `g_app_info_launch_default_for_uri`
/// (the browser for http and https, the mail program for mailto, the file manager or viewer for file).
public enum DesktopURLOpener {
    /// Hands `url` to the desktop; returns false, and logs why, when no program takes it (an
    /// unknown scheme, no desktop, a malformed URL). It waits for GIO to start the program,
    /// not for the program to finish.
    ///
    /// ```swift
    /// ui.openURL = { DesktopURLOpener.open($0) }   // what a UI does unless told otherwise
    /// ```
    @discardableResult
    public static func open(_ url: String) -> Bool {
        guard !url.isEmpty, !url.utf8.contains(0), url.utf8.count <= 8192 else {
            Log.warn("open URL: refused \(url.prefix(80).debugDescription): empty, too long or with a NUL")
            return false
        }
        var failure: UnsafeMutablePointer<GError>?
        if g_app_info_launch_default_for_uri(url, nil, &failure) != 0 { return true }
        let reason = failure.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "no reason given"
        if let failure { g_error_free(failure) }
        Log.warn("open URL: \(url.prefix(200)) could not be opened: \(reason)")
        return false
    }
}
