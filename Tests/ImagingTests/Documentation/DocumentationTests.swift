import DemoSupport
import Foundation
import TestSupport
import XCTest
@testable import Imaging

/// The Imaging articles' code runs, and each of their code blocks is a snippet.
final class DocumentationTests: XCTestCase {
    func testEveryCodeBlockOfTheImagingArticlesIsACompiledSnippet() throws {
        try DocumentationSnippets.checkArticles(
            in: "Sources/Imaging/Imaging.docc",
            against: ["Tests/ImagingTests/Documentation/ArticleSnippets.swift"])
    }

    func testAThumbnailIsMadeOrItsFileIsRefused() throws {
        let folder = try ScratchFolder("doc-thumbnail")
        let photo = folder.file("photo.jpg")
        try SamplePhotos.writeJPEG(SamplePhotos.render(width: 1024, height: 768, seed: 1), to: photo)
        XCTAssertEqual(thumbnailSize(of: photo), "341×256")
        let fifo = folder.file("fifo.jpg")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertTrue(thumbnailSize(of: fifo).hasPrefix("unreadable"), "a FIFO named .jpg is refused at once")
    }
}
