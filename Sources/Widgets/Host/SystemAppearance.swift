import Foundation
import Render2D
import Imaging
import Profiling

/// Light or dark (SwiftUI's `ColorScheme`).
public enum ColorScheme: Sendable, Equatable {
    /// Dark text on light backgrounds.
    case light
    /// Light text on dark backgrounds.
    case dark
}

/// The desktop's light or dark preference and its reduce-motion setting, followed while the
/// app runs: the freedesktop settings portal's `org.freedesktop.appearance color-scheme` and
/// `org.gnome.desktop.interface enable-animations` (read, then watched for `SettingChanged`,
/// through the `gdbus` tool that desktops ship), else `GTK_THEME` (a `:dark` variant or a
/// `-dark` theme) and `TESSERA_REDUCE_MOTION`. A change wakes the frame loop.
///
/// ```swift
/// let appearance = SystemAppearance()
/// // each frame:
/// ui.theme = appearance.colorScheme == .dark ? .dark : .light
/// ui.reducesMotion = appearance.reducesMotion
/// ```
public final class SystemAppearance: Sendable {
    private let state: Locked<Readings>
    private let fallback: ColorScheme?
    /// `TESSERA_REDUCE_MOTION`: 1 (or true, yes) reduces motion, 0 (or false, no) never does.
    private let motionOverride: Bool?

    /// What the portal said, and the monitor process watching it.
    struct Readings {
        var portal: ColorScheme??
        var animations: Bool?
        var monitor: Process?
    }

    /// Starts reading and watching the portal with `gdbus` (a path, or a name looked up on
    /// `PATH`) when there is a session bus; nothing blocks: until the portal answers,
    /// `GTK_THEME` decides.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, gdbus: String = "gdbus") {
        fallback = Self.scheme(gtkTheme: environment["GTK_THEME"])
        motionOverride = Self.flag(environment["TESSERA_REDUCE_MOTION"])
        state = Locked(Readings())
        guard Self.hasSessionBus(environment), let tool = Self.executable(gdbus, path: environment["PATH"]) else {
            return
        }
        let state = self.state
        Thread.start(named: "tessera-appear") {
            if let answer = Self.run(tool, Self.readArguments) {
                state.withLock { $0.portal = .some(Self.scheme(portalReply: answer)) }
                FrameWaker.wake()
            }
            if let answer = Self.run(tool, Self.readAnimationsArguments), let enabled = Self.boolean(in: answer) {
                state.withLock { $0.animations = enabled }
                FrameWaker.wake()
            }
            Self.watch(tool, state: state)
        }
    }

    deinit {
        state.withLock { $0.monitor }?.terminate()
    }

    /// The preference: the portal's when it has one, else `GTK_THEME`'s, else nil (no preference).
    public var colorScheme: ColorScheme? {
        switch state.withLock({ $0.portal }) {
        case .some(.some(let scheme)): return scheme
        default: return fallback
        }
    }

    /// Whether animations should jump to their end: `TESSERA_REDUCE_MOTION` when set, else
    /// GNOME's `enable-animations` turned off (through the portal), else false.
    public var reducesMotion: Bool {
        if let motionOverride { return motionOverride }
        return state.withLock { $0.animations } == false
    }

    /// `TESSERA_REDUCE_MOTION`'s value as a switch (nil: unset or not a switch).
    static func flag(_ value: String?) -> Bool? {
        switch value?.lowercased() {
        case "1", "true", "yes", "on": true
        case "0", "false", "no", "off": false
        default: nil
        }
    }

    // MARK: The portal through gdbus

    /// Whether `environment` names a session bus (`DBUS_SESSION_BUS_ADDRESS`, or the `bus`
    /// socket in `XDG_RUNTIME_DIR`), where the portal lives. Without one, `gdbus` would start
    /// a bus of its own through `dbus-launch` for every call (a daemon, on X11), and no portal
    /// would be on it: under Xvfb, over ssh, in CI, that cost a start-up 10 to 15 ms.
    static func hasSessionBus(_ environment: [String: String]) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        var info = stat()
        return stat(runtime + "/bus", &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
    }

    static let readArguments = [
        "call", "--session", "--timeout", "2", "--dest", "org.freedesktop.portal.Desktop",
        "--object-path", "/org/freedesktop/portal/desktop",
        "--method", "org.freedesktop.portal.Settings.Read", "org.freedesktop.appearance", "color-scheme",
    ]
    static let readAnimationsArguments = [
        "call", "--session", "--timeout", "2", "--dest", "org.freedesktop.portal.Desktop",
        "--object-path", "/org/freedesktop/portal/desktop", "--method",
        "org.freedesktop.portal.Settings.Read", "org.gnome.desktop.interface", "enable-animations",
    ]
    static let monitorArguments = [
        "monitor", "--session", "--dest", "org.freedesktop.portal.Desktop",
        "--object-path", "/org/freedesktop/portal/desktop",
    ]

    /// `tool` started with `arguments`, and the read end of its output (nil when it could not start).
    private static func launch(_ tool: String, _ arguments: [String]) -> (Process, FileHandle)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        return (process, output.fileHandleForReading)
    }

    /// `tool` with `arguments`, the first 4 KB of its output once it exits (nil when it could
    /// not run or failed).
    private static func run(_ tool: String, _ arguments: [String]) -> String? {
        guard let (process, output) = launch(tool, arguments) else { return nil }
        var data = Data()
        while data.count < 4096 {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            data.append(chunk.prefix(4096 - data.count))
        }
        if data.count >= 4096 { process.terminate() }  // more than any answer: not the portal's
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }

    /// Reads `gdbus monitor`'s lines until it exits, taking each color-scheme change.
    private static func watch(_ tool: String, state: Locked<Readings>) {
        guard let (process, handle) = launch(tool, monitorArguments) else { return }
        state.withLock { $0.monitor = process }
        var pending = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }  // the monitor ended
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if let change = scheme(settingChanged: line) {
                    state.withLock { $0.portal = .some(change) }
                    FrameWaker.wake()
                }
                if let enabled = animations(settingChanged: line) {
                    state.withLock { $0.animations = enabled }
                    FrameWaker.wake()
                }
            }
            if pending.count > 65_536 { pending.removeAll() }  // a line without end: not ours
        }
    }

    // MARK: Parsing (pure)

    /// The portal's `color-scheme`: 1 prefers dark, 2 light, 0 (or anything else) no preference.
    static func scheme(portalValue value: UInt32) -> ColorScheme? {
        switch value {
        case 1: return .dark
        case 2: return .light
        default: return nil
        }
    }

    /// A `Settings.Read` reply as gdbus prints it: `(<<uint32 1>>,)`.
    static func scheme(portalReply reply: String) -> ColorScheme? {
        uint32(in: reply).flatMap(scheme(portalValue:))
    }

    /// A `gdbus monitor` line: nil when it is not a color-scheme change, else the new preference.
    static func scheme(settingChanged line: String) -> ColorScheme?? {
        guard line.contains("SettingChanged"), line.contains("'org.freedesktop.appearance', 'color-scheme'"),
            let value = uint32(in: line)
        else { return nil }
        return .some(scheme(portalValue: value))
    }

    /// A `gdbus monitor` line: nil when it is not an `enable-animations` change, else the new setting.
    static func animations(settingChanged line: String) -> Bool? {
        guard line.contains("SettingChanged"), line.contains("'org.gnome.desktop.interface', 'enable-animations'")
        else { return nil }
        return boolean(in: line)
    }

    /// The last `true` or `false` in a gdbus reply such as `(<<false>>,)`.
    static func boolean(in text: String) -> Bool? {
        let t = text.range(of: "true", options: .backwards), f = text.range(of: "false", options: .backwards)
        switch (t, f) {
        case let (t?, f?): return t.lowerBound > f.lowerBound
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return nil
        }
    }

    /// `GTK_THEME` such as `Adwaita:dark` or `Yaru-dark`.
    static func scheme(gtkTheme: String?) -> ColorScheme? {
        guard let theme = gtkTheme?.lowercased(), !theme.isEmpty else { return nil }
        return theme.hasSuffix(":dark") || theme.hasSuffix("-dark") ? .dark : .light
    }

    /// The number after the first `uint32 `.
    private static func uint32(in text: String) -> UInt32? {
        guard let range = text.range(of: "uint32 ") else { return nil }
        return UInt32(text[range.upperBound...].prefix { $0.isNumber })
    }

    /// `name` if it is a path, else the first executable of that name on `path`.
    static func executable(_ name: String, path: String?) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        for folder in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
