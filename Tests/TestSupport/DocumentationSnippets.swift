import Foundation

/// Keeps the DocC articles' code compiled and tested: every ```swift block of an article must
/// be, character for character, one snippet region of a test source (the lines between
/// `// snippet: <name>` and `// end snippet`, without their common indentation; the block's
/// leading `import` lines are not compared), and every region must be shown by some article.
public enum DocumentationSnippets {
    /// The package's root directory (this file is Tests/TestSupport/DocumentationSnippets.swift).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    public struct Mismatch: Error, CustomStringConvertible {
        public var problems: [String]
        public var description: String { problems.joined(separator: "\n\n") }
    }

    /// Checks the articles under `catalog` against the snippet regions of `sources` (paths
    /// relative to the package root); throws the blocks and regions that do not match.
    public static func checkArticles(in catalog: String, against sources: [String]) throws {
        var regions: [String: String] = [:]
        for source in sources {
            let text = try String(contentsOfFile: packageRoot + "/" + source, encoding: .utf8)
            for (name, body) in snippetRegions(in: text) { regions[name] = body }
        }
        var problems: [String] = []
        var shown = Set<String>()
        let articles = try FileManager.default.subpathsOfDirectory(atPath: packageRoot + "/" + catalog)
            .filter { $0.hasSuffix(".md") }.sorted()
        for article in articles {
            let text = try String(contentsOfFile: packageRoot + "/" + catalog + "/" + article, encoding: .utf8)
            for block in codeBlocks(in: text) {
                if let match = regions.first(where: { $0.value == block }) {
                    shown.insert(match.key)
                } else {
                    problems.append("\(article): this block is no snippet region:\n\(block)")
                }
            }
        }
        for name in regions.keys.sorted() where !shown.contains(name) {
            problems.append("snippet \(name) is shown by no article")
        }
        if regions.isEmpty { problems.append("no snippet regions in \(sources)") }
        if !problems.isEmpty { throw Mismatch(problems: problems) }
    }

    /// The `// snippet: name` … `// end snippet` regions of a source, dedented.
    public static func snippetRegions(in source: String) -> [(String, String)] {
        var result: [(String, String)] = []
        var current: (name: String, lines: [String])?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// snippet: ") {
                current = (String(trimmed.dropFirst("// snippet: ".count)), [])
            } else if trimmed == "// end snippet", let region = current {
                result.append((region.name, dedented(region.lines)))
                current = nil
            } else {
                current?.lines.append(line)
            }
        }
        return result
    }

    /// The ```swift blocks of a Markdown text, dedented, without their leading imports.
    public static func codeBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                let lines = current!.drop { $0.hasPrefix("import ") || $0.trimmingCharacters(in: .whitespaces).isEmpty }
                blocks.append(dedented(Array(lines)))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    private static func dedented(_ lines: [String]) -> String {
        let indent =
            lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
            .joined(separator: "\n").trimmingCharacters(in: .newlines)
    }
}
