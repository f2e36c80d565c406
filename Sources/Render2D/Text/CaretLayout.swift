/// Where carets and selections of one shaped line go on screen, for text in any direction.
/// Caret positions are logical: index `i` is the boundary before the `i`th Unicode scalar in
/// reading order, so arrow keys, selection and deletion work on the text's order while the
/// caret and highlight are drawn where those characters are shown. A caret before a
/// right-to-left character sits at that character's right edge.
///
/// ```swift
/// let layout = font.caretLayout("abc אבג")
/// let x = layout.x(atCaret: 4)          // the right edge of א, the line's right end
/// let i = layout.caret(atX: pointerX)   // the nearest boundary to a click
/// for span in layout.selectionSpans(2..<6) { drawList.addRect(... span ...) }
/// ```
public struct CaretLayout: Sendable {
    /// Per scalar in reading order: its left and right edge on screen (logical pixels from
    /// the line's start) and whether it reads right to left.
    struct Edge: Sendable {
        var left, right: Double
        var rightToLeft: Bool
    }
    let edges: [Edge]
    /// The line's width in logical pixels.
    public let width: Double
    /// Whether the paragraph reads right to left (its first strong character does).
    public let isRightToLeft: Bool

    init(_ line: ShapedLine, scale: Double) {
        var edges = [Edge](repeating: Edge(left: 0, right: 0, rightToLeft: false), count: line.scalars.count)
        let rtl = Set(line.glyphs.filter(\.rightToLeft).map(\.cluster))
        for span in line.clusterSpans() {
            // A cluster of several scalars (a ligature) is split evenly among them.
            let n = span.end - span.start, share = Double(span.width) / Double(n) / scale
            let left = Double(span.left) / scale, backwards = rtl.contains(span.start)
            for k in 0..<n {
                let slot = backwards ? n - 1 - k : k
                edges[span.start + k] = Edge(
                    left: left + Double(slot) * share, right: left + Double(slot + 1) * share,
                    rightToLeft: backwards)
            }
        }
        self.edges = edges
        width = Double(line.advance) / scale
        isRightToLeft = line.rightToLeft
    }

    /// Caret positions: one more than the scalars.
    public var caretCount: Int { edges.count + 1 }

    /// The x of the caret before scalar `index` (after the last one for `index == count`).
    public func x(atCaret index: Int) -> Double {
        guard !edges.isEmpty else { return 0 }
        if index < edges.count {
            let e = edges[max(0, index)]
            return e.rightToLeft ? e.right : e.left
        }
        let last = edges[edges.count - 1]
        return last.rightToLeft ? last.left : last.right
    }

    /// The caret nearest to `x`: the boundary on the side of the character `x` falls in;
    /// past the line's end in reading order (right for left-to-right text), the end.
    public func caret(atX x: Double) -> Int {
        guard !edges.isEmpty else { return 0 }
        if x >= width { return isRightToLeft ? 0 : edges.count }
        if x <= 0 { return isRightToLeft ? edges.count : 0 }
        var best = 0, bestDistance = Double.infinity
        for (i, e) in edges.enumerated() {
            let distance = x < e.left ? e.left - x : (x > e.right ? x - e.right : 0)
            if distance < bestDistance { (best, bestDistance) = (i, distance) }
        }
        let e = edges[best]
        let leftHalf = x < (e.left + e.right) / 2
        return leftHalf != e.rightToLeft ? best : best + 1
    }

    /// The screen spans of the scalars in `range` (reading order), merged where they touch:
    /// one span for text in one direction, several across direction changes.
    public func selectionSpans(_ range: Range<Int>) -> [ClosedRange<Double>] {
        let clamped = range.clamped(to: 0..<edges.count)
        let pieces = clamped.map { edges[$0] }.sorted { $0.left < $1.left }
        var spans: [ClosedRange<Double>] = []
        for p in pieces {
            if let last = spans.last, p.left <= last.upperBound + 0.01 {
                spans[spans.count - 1] = last.lowerBound...max(last.upperBound, p.right)
            } else {
                spans.append(p.left...p.right)
            }
        }
        return spans
    }
}
