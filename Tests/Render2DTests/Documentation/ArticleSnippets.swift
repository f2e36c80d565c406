import Foundation
import Render2D

// The code of the articles in Sources/Render2D/Render2D.docc, as Tests/WidgetsTests/
// Documentation/ArticleSnippets.swift explains; DocumentationTests runs it offscreen.

// snippet: draw-frame
@MainActor
func drawCard(in window: Window, fonts: FontLibrary) {
    let renderer = window.renderer
    var list = DrawList()
    list.reset(scale: 1, solidTexture: renderer.atlas.whiteTexture, whiteUV: renderer.atlas.whiteUV)

    let card = Rect(x: 20, y: 20, width: 200, height: 80)
    list.addRoundedRect(card, radius: 10, color: Color(hex: 0x0A84FF))
    list.pushClip(card.insetBy(dx: 12, dy: 0))
    fonts.font(size: 20, weight: .bold).draw(
        "Hello, Render2D", in: card.insetBy(dx: 12, dy: 0),
        color: .white, into: &list)
    list.popClip()

    renderer.beginFrame(clearColor: .white)
    renderer.draw(list)  // one batched draw call per texture
    renderer.present()
}
// end snippet

// snippet: text-measure
@MainActor
func fittedTitle(_ title: String, width: Double, fonts: FontLibrary) -> String {
    let font = fonts.font(size: 15)
    return font.measure(title) <= width ? title : font.truncated(title, toWidth: width)
}
// end snippet
