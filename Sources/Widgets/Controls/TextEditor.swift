import Render2D
import Imaging
import Profiling

/// One line of a wrapped text as shown: the scalars it holds (where carets and selections go
/// on it comes from the font's `CaretLayout` of its text).
struct WrappedLine: Equatable {
    /// Scalar indices into the whole text (the newline that ends a paragraph is in no line).
    let range: Range<Int>
}

/// Word wrapping by measured widths; pure given the measuring function, tested without SDL.
@MainActor
enum TextWrapping {
    /// `scalars` cut into lines no wider than `width`: at newlines, after the last space that
    /// fits, or (a word wider than the line) where the width runs out.
    static func lines(_ scalars: [Unicode.Scalar], width: Double, caretOffsets: (String) -> [Double]) -> [WrappedLine] {
        var lines: [WrappedLine] = []
        var paragraphStart = 0
        while true {
            let end = scalars[paragraphStart...].firstIndex(of: "\n") ?? scalars.count
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[paragraphStart..<end])
            let offsets = caretOffsets(String(text))
            var start = 0
            let n = end - paragraphStart
            repeat {
                var stop = start
                while stop < n && offsets[stop + 1] - offsets[start] <= max(width, 1) { stop += 1 }
                if stop < n {
                    // Back to just after the last space in the line, unless the word fills it.
                    if let space = (start..<stop).last(where: { scalars[paragraphStart + $0].properties.isWhitespace })
                    {
                        stop = space + 1
                    } else {
                        stop = max(stop, start + 1)
                    }
                }
                lines.append(WrappedLine(range: paragraphStart + start..<paragraphStart + stop))
                start = stop
            } while start < n
            guard end < scalars.count else { return lines }
            paragraphStart = end + 1
        }
    }

    /// The line showing caret position `index` (a position where a line wraps belongs to the next line).
    static func line(of index: Int, in lines: [WrappedLine]) -> Int {
        var lo = 0, hi = lines.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lines[mid].range.lowerBound <= index { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}

/// A multi-line editor's state: the field's, plus its scroll and the column Up and Down keep.
struct TextEditorState {
    var edit = TextEditState()
    var scrollY = 0.0
    var goalX: Double?
}

extension UI {
    /// A multi-line text editor (SwiftUI's `TextEditor`): words wrap at the width, it scrolls
    /// to keep the caret in view (and with the wheel), and it edits as a text field does, by
    /// grapheme cluster with undo; Return starts a new line, Up and Down move by line, Home and
    /// End go to the line's ends, and a paste keeps its newlines. Returns true when `text` changed.
    ///
    /// ```swift
    /// ui.textEditor(text: &notes, height: 160)
    /// ```
    @discardableResult
    public func textEditor(text: inout String, width: Double? = nil, height: Double = 120, id name: String = "editor")
        -> Bool
    {
        let rect = allocate(Size(width ?? availableWidth, height), flexibleWidth: width == nil)
        let eid = id(name)
        let r = interact(eid, rect: rect, sense: [.click, .focus, .drag])
        if r.isHovered { setCursor(.iBeam) }
        let box = stateBox(eid, TextEditorState())
        var layout = TextEditorLayout(text: text, font: font, inner: rect.insetBy(dx: 8, dy: 6))
        box.value.edit.caret = min(box.value.edit.caret, layout.scalars.count)
        box.value.edit.anchor = min(box.value.edit.anchor, layout.scalars.count)
        let focused = focusID == eid
        var changed = false
        if let asked = accessibilitySetText(eid), asked != text {
            box.value.edit.willEdit(layout.scalars, kind: .other)
            text = asked
            layout.replaceText(asked)
            box.value.edit.caret = layout.scalars.count
            box.value.edit.anchor = layout.scalars.count
            changed = true
        }
        textEditorPointer(r, layout: layout, box: box)
        if focused {
            wantsTextInput = true
            textInputRect = rect
            if textEditorTyping(&layout, box: box) {
                changed = true
            }
            if changed { text = layout.text }
        }
        let caretLine = textEditorScroll(r, focused: focused, changed: changed, layout: layout, box: box)
        if isAccessibilityEnabled {
            accessibilityElement(
                eid, role: .text, name: name, frame: rect,
                states: controlStates([.editable, .multiLine, .selectableText]),
                text: box.value.edit.accessibilityText(text, focused: focused))
        }
        drawTextEditor(rect, r, focused: focused, caretLine: caretLine, layout: layout, state: box.value)
        return changed
    }

    /// A press places the caret (a double-click selects the word, a triple-click the
    /// paragraph; Shift extends), and a drag extends the selection.
    private func textEditorPointer(_ r: Interaction, layout: TextEditorLayout, box: StateBox<TextEditorState>) {
        let scalars = layout.scalars
        if r.pressed {
            let i = layout.index(at: input.pointer.position, scrollY: box.value.scrollY)
            box.value.edit.openEdit = nil
            box.value.goalX = nil
            if input.pointer.clickCount >= 3 {  // the paragraph
                box.value.edit.anchor = scalars[..<i].lastIndex(of: "\n").map { $0 + 1 } ?? 0
                box.value.edit.caret = scalars[i...].firstIndex(of: "\n") ?? scalars.count
            } else if input.pointer.clickCount == 2 {
                box.value.edit.anchor = TextEditing.wordStart(scalars, before: i)
                box.value.edit.caret = TextEditing.wordEnd(scalars, after: i)
            } else {
                box.value.edit.caret = i
                if !input.modifiers.contains(.shift) { box.value.edit.anchor = i }
            }
        } else if r.isActive && input.pointer.isDragging {
            box.value.edit.caret = layout.index(at: input.pointer.position, scrollY: box.value.scrollY)
        }
    }

    /// This frame's typing while focused: text, Return for a new line, Up and Down by line
    /// (keeping the column they started from), Home and End to the line's ends, Ctrl+Home and
    /// Ctrl+End to the text's, a paste with its newlines, and the rest as a text field edits.
    /// Returns whether the text changed.
    private func textEditorTyping(_ layout: inout TextEditorLayout, box: StateBox<TextEditorState>) -> Bool {
        var changed = false
        for typed in input.typing {
            var s = box.value.edit
            switch typed {
            case .text(let t):
                changed = TextEditing.insert(t, into: &layout.scalars, state: &s) || changed
                box.value.goalX = nil
            case .key(let press):
                let shift = press.modifiers.contains(.shift)
                let lines = layout.lines
                let line = TextWrapping.line(of: s.caret, in: lines)
                func move(to index: Int) {
                    s.caret = index
                    if !shift { s.anchor = index }
                    s.openEdit = nil
                }
                switch press.key {
                case .returnKey:
                    changed = TextEditing.insert("\n", into: &layout.scalars, state: &s, kind: .other) || changed
                case .up, .down:
                    let x =
                        box.value.goalX ?? layout.carets(lines[line]).x(atCaret: s.caret - lines[line].range.lowerBound)
                    let target = line + (press.key == .up ? -1 : 1)
                    move(
                        to: target < 0
                            ? 0 : target >= lines.count ? layout.scalars.count : layout.index(atX: x, in: lines[target])
                    )
                    box.value.goalX = x
                case .home where !press.modifiers.contains(.command): move(to: lines[line].range.lowerBound)
                case .end where !press.modifiers.contains(.command): move(to: lines[line].range.upperBound)
                case Key("v") where press.modifiers.contains(.command):
                    changed =
                        TextEditing.insert(clipboard.text, into: &layout.scalars, state: &s, kind: .other) || changed
                case .escape:
                    focus(nil)
                case .home, .end:  // Ctrl+Home, Ctrl+End: the text's ends
                    move(to: press.key == .home ? 0 : layout.scalars.count)
                default:
                    changed = TextEditing.apply(press, to: &layout.scalars, state: &s, clipboard: clipboard) || changed
                    box.value.goalX = nil
                }
            }
            box.value.edit = s
            if changed { layout.rewrap() }
        }
        return changed
    }

    /// Scrolls by the wheel over the editor, and keeps the caret's line in view while focused.
    /// Returns the caret's line.
    private func textEditorScroll(
        _ r: Interaction, focused: Bool, changed: Bool, layout: TextEditorLayout,
        box: StateBox<TextEditorState>
    ) -> Int {
        let lineH = layout.lineHeight, inner = layout.inner
        let contentHeight = Double(layout.lines.count) * lineH
        if r.isHovered && input.wheel.y != 0 { box.value.scrollY -= input.wheel.y }
        let caretLine = TextWrapping.line(of: box.value.edit.caret, in: layout.lines)
        if focused && (changed || !input.keys.isEmpty || r.pressed || r.isActive) {
            let top = Double(caretLine) * lineH
            if top < box.value.scrollY { box.value.scrollY = top }
            if top + lineH > box.value.scrollY + inner.height { box.value.scrollY = top + lineH - inner.height }
        }
        box.value.scrollY = min(max(0, box.value.scrollY), max(0, contentHeight - inner.height))
        return caretLine
    }

    /// The box, the visible lines with their selection, and the blinking caret while focused.
    private func drawTextEditor(
        _ rect: Rect, _ r: Interaction, focused: Bool, caretLine: Int, layout: TextEditorLayout,
        state: TextEditorState
    ) {
        let inner = layout.inner, lineH = layout.lineHeight, lines = layout.lines
        drawList.addRoundedRect(rect, radius: theme.cornerRadius, color: theme.surface)
        drawList.addRectBorder(
            rect, radius: theme.cornerRadius, color: focused ? theme.accent : theme.border, thickness: focused ? 2 : 1)
        drawList.pushClip(inner)
        let selection = state.edit.selection
        let first = max(0, Int(state.scrollY / lineH)),
            last = min(lines.count, Int((state.scrollY + inner.height) / lineH) + 1)
        for (k, line) in lines[first..<last].enumerated() {
            let y = inner.minY + Double(first + k) * lineH - state.scrollY
            // The selected part of the line; an empty line inside the selection shows a sliver.
            let lo = max(selection.lowerBound, line.range.lowerBound),
                hi = min(selection.upperBound, line.range.upperBound)
            if focused && (lo < hi || line.range.isEmpty && selection.lowerBound <= lo && lo < selection.upperBound) {
                let spans = layout.carets(line).selectionSpans(
                    (lo - line.range.lowerBound)..<(hi - line.range.lowerBound))
                for span in spans.isEmpty ? [0...0] : spans {
                    drawList.addRect(
                        Rect(
                            x: inner.minX + span.lowerBound, y: y, width: max(4, span.upperBound - span.lowerBound),
                            height: lineH),
                        color: theme.selection)
                }
            }
            layout.font.draw(layout.shown(line), at: Point(inner.minX, y), color: theme.text, into: &drawList)
        }
        if focused {
            let line = lines[caretLine]
            let x = inner.minX + layout.carets(line).x(atCaret: state.edit.caret - line.range.lowerBound)
            let y = inner.minY + Double(caretLine) * lineH - state.scrollY
            if Int(time * 2) % 2 == 0 || r.isActive {
                drawList.addRect(Rect(x: x.rounded(), y: y, width: 1.5, height: lineH), color: theme.accent)
            }
            requestRedraw(after: (time * 2).rounded(.down) / 2 + 0.5 - time)
        }
        drawList.popClip()
    }
}

/// A text editor's text this frame, as scalars wrapped into lines at the editor's width.
@MainActor
private struct TextEditorLayout {
    let font: Font
    /// The text's area: the editor's box inset by its padding.
    let inner: Rect
    var scalars: [Unicode.Scalar]
    private(set) var lines: [WrappedLine]

    init(text: String, font: Font, inner: Rect) {
        self.font = font
        self.inner = inner
        scalars = Array(text.unicodeScalars)
        lines = TextWrapping.lines(scalars, width: inner.width, caretOffsets: font.caretOffsets)
    }

    var lineHeight: Double { font.lineHeight }
    var text: String { String(String.UnicodeScalarView(scalars)) }

    mutating func replaceText(_ text: String) {
        scalars = Array(text.unicodeScalars)
        rewrap()
    }

    /// Wraps the lines again after an edit.
    mutating func rewrap() { lines = TextWrapping.lines(scalars, width: inner.width, caretOffsets: font.caretOffsets) }

    /// The line's text.
    func shown(_ line: WrappedLine) -> String {
        var shown = String.UnicodeScalarView()
        shown.append(contentsOf: scalars[line.range])
        return String(shown)
    }

    /// Where carets and selections go on a line (in any direction).
    func carets(_ line: WrappedLine) -> CaretLayout { font.caretLayout(shown(line)) }

    /// The caret index nearest `x` (from the text's left) on `line`, on a cluster boundary.
    func index(atX x: Double, in line: WrappedLine) -> Int {
        TextEditing.snapToCluster(scalars, line.range.lowerBound + carets(line).caret(atX: x))
    }

    /// The caret index nearest the window point `p`, the text scrolled by `scrollY`.
    func index(at p: Point, scrollY: Double) -> Int {
        let row = min(max(0, Int((p.y - inner.minY + scrollY) / lineHeight)), lines.count - 1)
        return index(atX: p.x - inner.minX, in: lines[row])
    }
}
