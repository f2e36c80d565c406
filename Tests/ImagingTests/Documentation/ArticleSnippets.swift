import Foundation
import Imaging

// The code of the articles in Sources/Imaging/Imaging.docc, as Tests/WidgetsTests/
// Documentation/ArticleSnippets.swift explains; DocumentationTests runs it.

// snippet: thumbnail
func thumbnailSize(of path: String) -> String {
    do {
        let thumbnail = try ImageDecoder.thumbnail(path: path, spec: ThumbnailSpec(side: 256))
        return "\(thumbnail.pixels.width)×\(thumbnail.pixels.height)"
    } catch {
        return "unreadable: \(error)"  // never a crash, a hang or a huge allocation
    }
}
// end snippet
