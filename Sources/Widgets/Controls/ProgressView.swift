import Render2D
import Imaging
import Profiling

extension UI {
    /// A determinate progress bar (SwiftUI's `ProgressView(_:value:total:)`): `value` out of
    /// `total`, clamped, with `title` above it when it has one. A screen reader reads it as a
    /// progress bar with its value.
    ///
    /// ```swift
    /// ui.progressView("Importing", value: Double(done), total: Double(count))
    /// ```
    public func progressView(_ title: String = "", value: Double, total: Double = 1, width: Double? = nil) {
        let fraction = total > 0 && value.isFinite && total.isFinite ? min(max(value / total, 0), 1) : 0
        progressBar(title, fraction: fraction, width: width)
    }

    /// An indeterminate progress bar (SwiftUI's `ProgressView()`): a segment sweeping along
    /// the track. It asks for frames only while it is on screen: scrolled away or clipped, it
    /// costs nothing.
    ///
    /// ```swift
    /// if loading { ui.progressView("Looking for photos…") }
    /// ```
    public func progressView(_ title: String = "", width: Double? = nil) {
        progressBar(title, fraction: nil, width: width)
    }

    /// Seconds the indeterminate segment takes to sweep the track once.
    static let progressSweep = 1.4

    /// The bar: the track, then the fill (`fraction`) or the sweeping segment (nil).
    private func progressBar(_ title: String, fraction: Double?, width: Double?) {
        if !title.isEmpty { text(title, color: theme.secondaryText) }
        let barWidth = width ?? availableWidth
        let rect = allocate(Size(barWidth, 6), flexibleWidth: width == nil)
        let track = Rect(x: rect.x, y: rect.y, width: rect.width, height: 6)
        drawList.addRoundedRect(track, radius: 3, color: theme.control)
        let clip = drawList.clipRect.intersection(Rect(origin: .zero, size: size))  // within the window and the clip
        let visible =
            track.maxX > clip.minX && track.minX < clip.maxX && track.maxY > clip.minY && track.minY < clip.maxY
        if let fraction {
            if fraction > 0 {
                drawList.addRoundedRect(
                    Rect(x: track.x, y: track.y, width: max(6, track.width * fraction), height: 6), radius: 3,
                    color: theme.accent)
            }
        } else {
            let phase = (time / Self.progressSweep).truncatingRemainder(dividingBy: 1)
            let segment = track.width * 0.3
            let x = track.x - segment + phase * (track.width + segment)
            let start = max(track.x, x), end = min(track.maxX, x + segment)
            if end > start {
                drawList.addRoundedRect(
                    Rect(x: start, y: track.y, width: end - start, height: 6), radius: 3, color: theme.accent)
            }
            if visible { requestRedraw() }  // it moves: a frame at the display's rate, only while it shows
        }
        if isAccessibilityEnabled {
            let id = WidgetID(
                parent: layoutStack[layoutStack.count - 1].id, index: layoutStack[layoutStack.count - 1].count)
            if let fraction {
                accessibilityElement(
                    id, role: .progressBar, name: title, frame: track, states: [.enabled],
                    value: "\(Int((fraction * 100).rounded())) %",
                    range: AccessibilityRange(current: fraction, minimum: 0, maximum: 1))
            } else {
                accessibilityElement(
                    id, role: .progressBar, name: title, frame: track, states: [.enabled, .busy, .indeterminate])
            }
        }
    }
}
