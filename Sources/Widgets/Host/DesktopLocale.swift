import Foundation

/// The user's locale as the desktop sets it: `LC_ALL`, else `LC_TIME`, else `LANG` (Foundation
/// on Linux does not read them). Date pickers start their weeks on its first weekday and name
/// months and days in its language.
///
/// ```swift
/// let calendar = DesktopLocale.calendar()          // LANG=de_DE.UTF-8: weeks start on Monday
/// ```
public enum DesktopLocale {
    /// The locale named by the environment's first set variable of `LC_ALL`, `variable` and
    /// `LANG` ("de_DE.UTF-8@euro" is `de_DE`); "C", "POSIX" or nothing is `en_US_POSIX`.
    public static func locale(
        environment: [String: String] = ProcessInfo.processInfo.environment, variable: String = "LC_TIME"
    ) -> Locale {
        let raw =
            [environment["LC_ALL"], environment[variable], environment["LANG"]].compactMap { $0 }.first { !$0.isEmpty }
            ?? ""
        let name = String(raw.prefix { $0 != "." && $0 != "@" })
        guard !name.isEmpty, name != "C", name != "POSIX", name.count <= 32,
            name.allSatisfy({ $0.isLetter || $0 == "_" || $0 == "-" })
        else { return Locale(identifier: "en_US_POSIX") }
        return Locale(identifier: name)
    }

    /// A Gregorian calendar in `locale` (its first weekday and its names), in the local time zone.
    public static func calendar(locale: Locale = DesktopLocale.locale()) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        calendar.timeZone = .current
        return calendar
    }
}

/// The direction a layout reads in (SwiftUI's `LayoutDirection`).
public enum LayoutDirection: Sendable, Equatable {
    /// Left to right: English, Russian, Chinese…
    case leftToRight
    /// Right to left: Arabic, Hebrew, Persian, Urdu. Stacks, splits, navigation columns,
    /// chevrons, swipe actions, table columns and scrollbars are mirrored; text and images are not.
    case rightToLeft

    /// The direction of `locale`'s language: right to left for Arabic, Hebrew, Persian and Urdu.
    ///
    /// ```swift
    /// ui.layoutDirection = LayoutDirection(locale: DesktopLocale.locale(variable: "LC_MESSAGES"))
    /// ```
    public init(locale: Locale) {
        self.init(languageOf: locale.identifier)
    }

    /// The direction of the language the environment's `LC_ALL`, `LC_MESSAGES` or `LANG` names,
    /// read from the name alone (no locale data is loaded: it is asked at every start-up).
    ///
    /// ```swift
    /// ui.layoutDirection = LayoutDirection(environment: ProcessInfo.processInfo.environment)
    /// ```
    public init(environment: [String: String]) {
        let name =
            [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]].compactMap { $0 }.first {
                !$0.isEmpty
            } ?? ""
        self.init(languageOf: name)
    }

    /// Right to left when `name` ("he_IL.UTF-8", "ar", "fa-IR") starts with Arabic's, Hebrew's,
    /// Persian's or Urdu's language code.
    private init(languageOf name: String) {
        let language = name.prefix { $0 != "_" && $0 != "-" && $0 != "." && $0 != "@" }.lowercased()
        self = ["ar", "he", "iw", "fa", "ur"].contains(language) ? .rightToLeft : .leftToRight
    }
}
