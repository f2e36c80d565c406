import Render2D
import Imaging
import Profiling

/// When a stepper's button held down steps again: once at the press, then after `delay`
/// every `interval`, as AppKit's and GTK's spin buttons repeat. Pure timing.
enum StepperRepeat {
    /// Seconds before a held button starts repeating.
    static let delay = 0.5
    /// Seconds between repeated steps.
    static let interval = 0.1

    /// How many steps a button pressed at `pressTime` has made by `now` (1 at the press).
    static func steps(heldSince pressTime: Double, now: Double) -> Int {
        let held = now - pressTime
        guard held.isFinite, held >= delay else { return 1 }
        return 2 + Int(((held - delay) / interval + 1e-9).rounded(.down))  // (0.7 / 0.1 is 6.999…)
    }

    /// When the step after `steps` is due, for a button pressed at `pressTime`.
    static func nextStep(after steps: Int, heldSince pressTime: Double) -> Double {
        pressTime + delay + Double(max(0, steps - 1)) * interval
    }
}

/// A stepper's button held down: which one, since when, and the steps it made.
struct StepperHold {
    var direction: Double
    var pressTime: Double
    var steps: Int
}

extension UI {
    /// A stepper (SwiftUI's `Stepper(_:value:in:step:)`): its title, then − and + buttons that
    /// change `value` by `step` within `range`. A button held down steps again after half a
    /// second, ten times a second; with focus, ↑ and → step up, ↓ and ← down. A screen reader
    /// reads it as a spin button with its value and can set it. Returns whether the value changed.
    ///
    /// ```swift
    /// ui.stepper("Copies: \(copies)", value: &copies, in: 1...99)
    /// ```
    @discardableResult
    public func stepper(_ title: String, value: inout Int, in range: ClosedRange<Int>, step: Int = 1, id: String? = nil)
        -> Bool
    {
        var real = Double(value)
        let changed = stepper(
            title, value: &real, in: Double(range.lowerBound)...Double(range.upperBound), step: Double(max(1, step)),
            id: id)
        // (Within the range, but Double(Int.max) rounds past Int.max: clamped, never a trap.)
        value =
            real.rounded() >= Double(range.upperBound)
            ? range.upperBound : real.rounded() <= Double(range.lowerBound) ? range.lowerBound : Int(real.rounded())
        return changed
    }

    /// A stepper over a `Double` value: `step` a press, clamped to `range`.
    ///
    /// ```swift
    /// ui.stepper("Exposure \(exposure) EV", value: &exposure, in: -3...3, step: 1.0 / 3)
    /// ```
    @discardableResult
    public func stepper(
        _ title: String, value: inout Double, in range: ClosedRange<Double>, step: Double = 1, id: String? = nil
    ) -> Bool {
        let font = self.font
        let buttons = Size(2 * theme.controlHeight + 4, theme.controlHeight)
        let rect: Rect
        var titleWidth = title.isEmpty ? 0 : font.measure(title) + 10
        if let column = formRow(title, height: theme.controlHeight) {
            rect = Rect(x: column.x, y: column.y, width: buttons.width, height: column.height)
            titleWidth = 0
        } else {
            rect = allocate(Size(titleWidth + buttons.width, theme.controlHeight))
        }
        if titleWidth > 0 {
            font.draw(
                title, in: Rect(x: rect.x, y: rect.y, width: titleWidth, height: rect.height), color: theme.text,
                into: &drawList)
        }
        let wid = self.id(id ?? title)
        let control = Rect(x: rect.x + titleWidth, y: rect.y, width: buttons.width, height: rect.height)
        let minus = Rect(x: control.x, y: control.y, width: control.width / 2, height: control.height)
        let plus = Rect(x: minus.maxX, y: control.y, width: control.width / 2, height: control.height)
        let old = value
        let step = step.isFinite && step > 0 ? step : 1
        func nudge(_ direction: Double, times: Int = 1) {
            value = min(range.upperBound, max(range.lowerBound, value + direction * step * Double(times)))
        }
        // The control is one Tab stop; the buttons take the pointer.
        _ = interact(wid, rect: control, sense: [.focus])
        let hold = stateBox(WidgetID(parent: wid, "hold"), StepperHold?.none)
        for (direction, part) in [(-1.0, minus), (1.0, plus)] {
            let r = interact(WidgetID(parent: wid, direction < 0 ? "minus" : "plus"), rect: part, sense: [.click])
            let atLimit = direction < 0 ? value <= range.lowerBound : value >= range.upperBound
            if r.pressed && !atLimit {
                nudge(direction)
                hold.value = StepperHold(direction: direction, pressTime: time, steps: 1)
                focus(wid)
                requestRedraw(after: StepperRepeat.delay)  // the first repeat comes with no input to wake the loop
            } else if r.isActive, r.isHovered, var held = hold.value, held.direction == direction {
                let due = StepperRepeat.steps(heldSince: held.pressTime, now: time)
                if due > held.steps { nudge(direction, times: due - held.steps) }
                held.steps = due
                hold.value = held
                if !atLimit {
                    requestRedraw(after: StepperRepeat.nextStep(after: due, heldSince: held.pressTime) - time)
                }
            }
            if !r.isActive && hold.value?.direction == direction { hold.value = nil }
            drawStepperButton(part, plus: direction > 0, pressed: r.isActive && r.isHovered, atLimit: atLimit)
        }
        if focusID == wid {
            for press in input.keys {
                if press.key == .up || press.key == .right { nudge(1) }
                if press.key == .down || press.key == .left { nudge(-1) }
            }
            drawList.addRectBorder(
                control.insetBy(dx: -2, dy: -2), radius: 7, color: theme.accent.opacity(0.6), thickness: 2)
        }
        if let asked = accessibilitySetValue(wid), asked.isFinite {
            value = min(range.upperBound, max(range.lowerBound, asked))
        }
        if !value.isFinite { value = range.lowerBound }
        if isAccessibilityEnabled {
            accessibilityElement(
                wid, role: .spinButton, name: title, frame: control, states: controlStates(),
                value: spokenNumber(value),
                range: AccessibilityRange(
                    current: value, minimum: range.lowerBound,
                    maximum: range.upperBound, step: step))
        }
        return value != old
    }

    /// A stepper's − or + button: dimmed at the range's end, darker while pressed.
    private func drawStepperButton(_ part: Rect, plus: Bool, pressed: Bool, atLimit: Bool) {
        drawList.addRoundedRect(
            part.insetBy(dx: 1, dy: 1), radius: 5,
            color: atLimit ? theme.control.opacity(0.5) : pressed ? theme.controlPressed : theme.control)
        let glyph = atLimit ? theme.secondaryText : theme.text
        let center = part.center, arm = min(part.width, part.height) * 0.18
        drawList.addLine(
            from: Point(center.x - arm, center.y), to: Point(center.x + arm, center.y), color: glyph, thickness: 1.5)
        if plus {
            drawList.addLine(
                from: Point(center.x, center.y - arm), to: Point(center.x, center.y + arm), color: glyph, thickness: 1.5
            )
        }
    }
}
