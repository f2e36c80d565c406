#if canImport(Glibc)
    import Glibc
#endif

/// The user's own folders, as the XDG base-directory specification names them. Each is nil when
/// the environment and the password database do not say where it is: callers then keep nothing
/// on disk, and never fall back to a shared folder such as /tmp, where another user could
/// have put a file or a link first.
///
/// ```swift
/// guard let cache = UserFolders.cache else { Log.warn("no cache folder: nothing is kept"); return }
/// let index = cache + "/tessera/library-index.sqlite"
/// ```
public enum UserFolders {
    /// The user's home: `$HOME`, else the password database's entry; nil when neither gives an absolute path.
    public static var home: String? { home(environment: variable, passwordHome: passwordHome()) }

    /// `$XDG_CACHE_HOME` when it is an absolute path, else `~/.cache`; nil without a home.
    public static var cache: String? { cache(environment: variable, passwordHome: passwordHome()) }

    static func home(environment: (String) -> String?, passwordHome: String?) -> String? {
        if let home = environment("HOME"), home.hasPrefix("/") { return home }
        return passwordHome.flatMap { $0.hasPrefix("/") ? $0 : nil }
    }

    static func cache(environment: (String) -> String?, passwordHome: String?) -> String? {
        if let cache = environment("XDG_CACHE_HOME"), cache.hasPrefix("/") { return cache }
        return home(environment: environment, passwordHome: passwordHome).map { $0 + "/.cache" }
    }

    private static func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    private static func passwordHome() -> String? {
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }

    /// The reason given when a folder is unknown, for messages.
    public static let unknownReason =
        "neither XDG_CACHE_HOME nor HOME is set, and the password database has no home folder"
}
