import Render2D
import Imaging
import Profiling

/// Pure slider math, shared by drawing and input.
enum SliderMath {
    /// The value for a knob at `x` on a track from `minX` to `maxX`, snapped to `step` when given.
    static func value(atX x: Double, minX: Double, maxX: Double, range: ClosedRange<Double>, step: Double?) -> Double {
        guard maxX > minX else { return range.lowerBound }
        let t = min(1, max(0, (x - minX) / (maxX - minX)))
        var v = range.lowerBound + t * (range.upperBound - range.lowerBound)
        if let step, step > 0 { v = range.lowerBound + ((v - range.lowerBound) / step).rounded() * step }
        return min(range.upperBound, max(range.lowerBound, v))
    }

    /// Position of `value` along the track, 0...1 (NaN and out-of-range values are clamped).
    static func fraction(of value: Double, in range: ClosedRange<Double>) -> Double {
        let span = range.upperBound - range.lowerBound
        guard span > 0, value.isFinite else { return 0 }
        return min(1, max(0, (value - range.lowerBound) / span))
    }
}

extension UI {
    /// A horizontal slider over `range`; the knob follows the pointer while dragged (mouse or
    /// finger), arrow keys nudge it when focused. Returns true while the value changes.
    ///
    /// ```swift
    /// ui.slider("Opacity", value: &opacity, in: 0...1)
    /// ```
    @discardableResult
    public func slider(
        _ title: String, value: inout Double, in range: ClosedRange<Double>, step: Double? = nil,
        width: Double = 200, id: String? = nil
    ) -> Bool {
        let font = self.font
        var titleWidth = title.isEmpty ? 0 : font.measure(title) + 10
        let rect: Rect
        if let column = formRow(title, height: theme.controlHeight) {
            rect = Rect(x: column.x, y: column.y, width: min(width, column.width), height: column.height)
            titleWidth = 0
        } else {
            rect = allocate(Size(titleWidth + width, theme.controlHeight))
        }
        if titleWidth > 0 {
            font.draw(
                title, in: Rect(x: rect.x, y: rect.y, width: titleWidth, height: rect.height), color: theme.text,
                into: &drawList)
        }
        let knobRadius = 9.0
        let track = Rect(
            x: rect.x + titleWidth + knobRadius, y: rect.midY - 2,
            width: max(0, rect.width - titleWidth - 2 * knobRadius), height: 4)
        let hit = Rect(x: rect.x + titleWidth, y: rect.y, width: rect.width - titleWidth, height: rect.height)
        let wid = self.id(id ?? title)
        let r = interact(wid, rect: hit, sense: [.drag, .focus])
        if r.isHovered || r.isActive { setCursor(.pointingHand) }
        let old = value
        if r.isActive {
            value = SliderMath.value(
                atX: input.pointer.position.x, minX: track.minX, maxX: track.maxX, range: range, step: step)
        }
        if focusID == wid {
            let nudge = step ?? (range.upperBound - range.lowerBound) / 100
            for press in input.keys {
                if press.key == .right || press.key == .up { value = min(range.upperBound, value + nudge) }
                if press.key == .left || press.key == .down { value = max(range.lowerBound, value - nudge) }
            }
        }
        if let asked = accessibilitySetValue(wid), asked.isFinite {
            value = min(range.upperBound, max(range.lowerBound, asked))
        }
        if !value.isFinite { value = range.lowerBound }
        if isAccessibilityEnabled {
            accessibilityElement(
                wid, role: .slider, name: title, frame: hit, states: controlStates(.horizontal),
                value: spokenNumber(value),
                range: AccessibilityRange(
                    current: value, minimum: range.lowerBound,
                    maximum: range.upperBound, step: step ?? 0))
        }
        let t = SliderMath.fraction(of: value, in: range)
        drawList.addRoundedRect(track, radius: 2, color: theme.controlPressed)
        drawList.addRoundedRect(
            Rect(x: track.x, y: track.y, width: track.width * t, height: track.height), radius: 2, color: theme.accent)
        let knob = Point(track.minX + track.width * t, track.midY)
        drawList.addCircle(center: knob, radius: knobRadius + 0.5, color: theme.border)
        drawList.addCircle(center: knob, radius: knobRadius, color: r.isActive ? theme.control : .white)
        if focusID == wid {
            drawList.addCircleBorder(
                center: knob, radius: knobRadius + 2.5, color: theme.accent.opacity(0.6), thickness: 2)
        }
        return value != old
    }
}
