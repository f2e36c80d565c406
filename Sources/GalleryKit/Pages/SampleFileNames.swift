import Render2D
import Imaging
import Profiling
import DemoSupport

/// File names for the table page's rows that look like a real disk's: camera and phone
/// names stamped with the file's date, documents with words, versions and years, numbered
/// tracks, dated backups; each with the extension of its kind. Nearly every one is unique, so
/// a table sorted by name reads like a folder rather than a wall of repeats.
enum SampleFileNames {
    /// The name of a file of `FileRow.kinds[kind]` last modified at `modified` (Unix seconds).
    static func name(kind: Int, modified: Int64, using rng: inout SplitMix64) -> String {
        let stamp = FileFormat.date(modified)  // "YYYY-MM-DD HH:MM"
        let chars = Array(stamp)
        let day = String(chars[0..<4] + chars[5..<7] + chars[8..<10])
        let time = String(chars[11..<13] + chars[14..<16]) + twoDigits(Int(modified % 60))
        let year = String(chars[0..<4])
        func pick(_ options: [String]) -> String { options[rng.next(below: options.count)] }
        func number(_ digits: Int) -> String {
            var limit = 1
            for _ in 0..<digits { limit *= 10 }
            let n = String(rng.next(below: limit))
            return String(repeating: "0", count: digits - n.count) + n
        }
        switch FileRow.kinds[kind] {
        case "Photo":
            switch rng.next(below: 4) {
            case 0: return "IMG_\(day)_\(time).jpg"
            case 1: return "DSC\(number(5)).\(pick(["ARW", "JPG", "NEF"]))"
            case 2: return "PXL_\(day)_\(time)\(number(3)).jpg"
            default: return "\(pick(places)) \(year) \(number(3)).\(pick(["heic", "jpg", "png", "webp"]))"
            }
        case "Video":
            switch rng.next(below: 3) {
            case 0: return "VID_\(day)_\(time).mp4"
            case 1: return "\(pick(places).lowercased())-\(pick(nouns)) \(number(3)).mov"
            default: return "Screen Recording \(stamp.prefix(10)) at \(time).webm"
            }
        case "Audio":
            switch rng.next(below: 3) {
            case 0:
                return
                    "\(number(2)) \(pick(adjectives).capitalized) \(pick(nouns).capitalized) - \(pick(places)) Sessions.flac"
            case 1: return "Voice memo \(day) \(time).m4a"
            default:
                return
                    "\(pick(adjectives).capitalized) \(pick(nouns).capitalized) (live in \(pick(places)), \(year)).mp3"
            }
        case "Document":
            let title = "\(pick(adjectives).capitalized) \(pick(nouns)) \(pick(documents))"
            let version = pick([
                "", " v\(rng.next(below: 11) + 2)", " (final)", " draft", " - copy", " \(year)", " \(day)",
            ])
            return title + version + "." + pick(["pdf", "docx", "odt", "md", "xlsx", "txt", "pptx"])
        case "Archive":
            switch rng.next(below: 2) {
            case 0: return "backup-\(pick(nouns))-\(day)-\(time.prefix(4)).\(pick(["tar.gz", "tar.zst"]))"
            default: return "\(pick(nouns))_\(pick(nouns))_\(number(4)).\(pick(["zip", "7z", "rar"]))"
            }
        default:
            return
                "\(pick(nouns))-\(pick(adjectives))\(number(3)).\(pick(["json", "swift", "py", "log", "csv", "svg", "iso", "sqlite", "ttf"]))"
        }
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }

    private static let places = [
        "Lisbon", "Kyoto", "Oslo", "Lima", "Nairobi", "Hanoi", "Porto", "Quebec", "Tromso", "Seville",
        "Bruges", "Cusco", "Zanzibar", "Tallinn", "Hobart", "Galway", "Bergen", "Palermo", "Ushuaia", "Krakow",
    ]
    private static let nouns = [
        "garden", "harbor", "budget", "invoice", "meeting", "river", "summit", "kitchen", "orbit", "lantern",
        "ledger", "canvas", "atlas", "meadow", "signal", "pixel", "quarry", "beacon", "compass", "glacier",
        "workshop", "archive", "timeline", "roadmap", "recipe", "sketch", "thesis", "contract", "survey", "forecast",
    ]
    private static let adjectives = [
        "quiet", "amber", "northern", "rapid", "hidden", "silver", "early", "open", "little", "brave",
        "second", "annual", "shared", "final", "spare", "urban", "coastal", "vivid", "daily", "remote",
    ]
    private static let documents = [
        "notes", "report", "plan", "summary", "review", "proposal", "minutes", "letter", "checklist", "brief",
    ]
}
