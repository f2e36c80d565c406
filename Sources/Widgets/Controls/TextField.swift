import Render2D
import Imaging
import Profiling

/// Where copied text goes. `AppHost` installs SDL's clipboard; the default keeps it in memory.
@MainActor
public protocol Clipboard: AnyObject {
    var text: String { get set }
}

/// A clipboard that lives in the process (tests, headless runs).
@MainActor
public final class MemoryClipboard: Clipboard {
    /// The clipboard's text.
    public var text = ""
    /// An empty clipboard.
    public init() {}
}

/// Editing state of a text field: caret and selection anchor, as Unicode scalar indices
/// (always on grapheme cluster boundaries), and its undo history.
public struct TextEditState: Sendable, Equatable {
    /// The caret, in Unicode scalars from the start.
    public var caret = 0
    /// The other end of the selection (the caret when nothing is selected).
    public var anchor = 0
    /// How far the text is scrolled sideways, in logical pixels.
    public var scrollX = 0.0
    /// States before each edit step, newest last (Ctrl+Z), and the steps undone (Ctrl+Shift+Z).
    var undoStack: [TextSnapshot] = []
    var redoStack: [TextSnapshot] = []
    /// The kind of the last edit, while more of it joins the same undo step.
    var openEdit: TextEditKind?
    /// A caret at the start, nothing selected.
    public init() {}
    /// The selected scalars.
    public var selection: Range<Int> { min(caret, anchor)..<max(caret, anchor) }
    /// Whether some text is selected.
    public var hasSelection: Bool { caret != anchor }

    static let undoLimit = 100

    /// Records the state before an edit of `kind`, unless it continues the open step: typing
    /// coalesces into one step per word, a run of deletions into one; anything else is a step.
    mutating func willEdit(_ scalars: [Unicode.Scalar], kind: TextEditKind, startsWord: Bool = false) {
        if kind == openEdit && kind != .other && !startsWord { return }
        undoStack.append(TextSnapshot(scalars: scalars, caret: caret, anchor: anchor))
        if undoStack.count > Self.undoLimit { undoStack.removeFirst() }
        redoStack = []
        openEdit = kind
    }

    /// Ctrl+Z (`undo`) or Ctrl+Shift+Z: swaps `scalars` for the state one step back or forward.
    mutating func step(_ scalars: inout [Unicode.Scalar], undo: Bool) -> Bool {
        guard let target = undo ? undoStack.popLast() : redoStack.popLast() else { return false }
        let current = TextSnapshot(scalars: scalars, caret: caret, anchor: anchor)
        if undo { redoStack.append(current) } else { undoStack.append(current) }
        scalars = target.scalars
        caret = min(target.caret, scalars.count)
        anchor = min(target.anchor, scalars.count)
        openEdit = nil
        return true
    }
}

/// A text field's content and selection at one point of its undo history.
struct TextSnapshot: Sendable, Equatable {
    var scalars: [Unicode.Scalar]
    var caret: Int
    var anchor: Int
}

/// What an edit did, for coalescing undo steps.
enum TextEditKind: Sendable, Equatable { case typing, deleting, other }

/// Text editing operations on an array of scalars; pure logic, tested without SDL.
@MainActor
enum TextEditing {
    /// Applies one key press; returns true when `scalars` changed. `clipboard` receives copies.
    /// The caret moves, and deletes, by grapheme cluster (an emoji sequence or a letter with
    /// its accents is one step), and by word with Ctrl.
    static func apply(
        _ press: KeyPress, to scalars: inout [Unicode.Scalar], state s: inout TextEditState,
        clipboard: Clipboard
    ) -> Bool {
        let shift = press.modifiers.contains(.shift)
        let command = press.modifiers.contains(.command)
        func move(to index: Int) {
            s.caret = max(0, min(scalars.count, index))
            if !shift { s.anchor = s.caret }
            s.openEdit = nil
        }
        switch press.key {
        case .left:
            if !shift && s.hasSelection {
                move(to: s.selection.lowerBound)
            } else {
                move(to: command ? wordStart(scalars, before: s.caret) : clusterStart(scalars, before: s.caret))
            }
        case .right:
            if !shift && s.hasSelection {
                move(to: s.selection.upperBound)
            } else {
                move(to: command ? wordEnd(scalars, after: s.caret) : clusterEnd(scalars, after: s.caret))
            }
        case .home: move(to: 0)
        case .end: move(to: scalars.count)
        case .backspace:
            if s.hasSelection { return deleteSelection(&scalars, &s) }
            guard s.caret > 0 else { return false }
            let from = command ? wordStart(scalars, before: s.caret) : clusterStart(scalars, before: s.caret)
            s.willEdit(scalars, kind: .deleting)
            scalars.removeSubrange(from..<s.caret)
            s.caret = from
            s.anchor = from
            return true
        case .delete:
            if s.hasSelection { return deleteSelection(&scalars, &s) }
            guard s.caret < scalars.count else { return false }
            s.willEdit(scalars, kind: .deleting)
            scalars.removeSubrange(
                s.caret..<(command ? wordEnd(scalars, after: s.caret) : clusterEnd(scalars, after: s.caret)))
            return true
        case Key("a") where command:
            s.anchor = 0
            s.caret = scalars.count
        case Key("c") where command, Key("x") where command:
            guard s.hasSelection else { return false }
            var copied = String.UnicodeScalarView()
            copied.append(contentsOf: scalars[s.selection])
            clipboard.text = String(copied)
            if press.key == Key("x") { return deleteSelection(&scalars, &s) }
        case Key("v") where command:
            return insert(clipboard.text.replacingNewlines(), into: &scalars, state: &s, kind: .other)
        case Key("z") where command:
            return s.step(&scalars, undo: !shift)
        case Key("y") where command:
            return s.step(&scalars, undo: false)
        default:
            break
        }
        return false
    }

    /// Replaces the selection with `text`: typed text (one undo step per word) or pasted.
    static func insert(
        _ text: String, into scalars: inout [Unicode.Scalar], state s: inout TextEditState,
        kind: TextEditKind = .typing
    ) -> Bool {
        guard !text.isEmpty else { return false }
        let range = s.selection
        let new = Array(text.unicodeScalars)
        let afterSpace = range.lowerBound > 0 && scalars[range.lowerBound - 1].properties.isWhitespace
        s.willEdit(
            scalars, kind: s.hasSelection ? .other : kind,
            startsWord: afterSpace && !(new.first?.properties.isWhitespace ?? true))
        scalars.replaceSubrange(range, with: new)
        s.caret = range.lowerBound + new.count
        s.anchor = s.caret
        return true
    }

    static func deleteSelection(_ scalars: inout [Unicode.Scalar], _ s: inout TextEditState) -> Bool {
        let range = s.selection
        s.willEdit(scalars, kind: .other)
        scalars.removeSubrange(range)
        s.caret = range.lowerBound
        s.anchor = range.lowerBound
        return true
    }

    /// Scalar offsets where grapheme clusters start, and the end: the places a caret may stand.
    static func clusterBoundaries(_ scalars: [Unicode.Scalar]) -> [Int] {
        var boundaries = [0]
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        var offset = 0
        for character in String(text) {
            offset += character.unicodeScalars.count
            boundaries.append(offset)
        }
        return boundaries
    }

    static func clusterStart(_ scalars: [Unicode.Scalar], before index: Int) -> Int {
        clusterBoundaries(scalars).last { $0 < index } ?? 0
    }

    static func clusterEnd(_ scalars: [Unicode.Scalar], after index: Int) -> Int {
        clusterBoundaries(scalars).first { $0 > index } ?? scalars.count
    }

    /// The cluster boundary nearest `index` (a click between the scalars of one emoji).
    static func snapToCluster(_ scalars: [Unicode.Scalar], _ index: Int) -> Int {
        clusterBoundaries(scalars).min { abs($0 - index) < abs($1 - index) } ?? 0
    }

    /// Letters, digits and what joins them into one visible letter (combining marks, joiners,
    /// variation selectors) make words.
    static func isWordScalar(_ c: Unicode.Scalar) -> Bool {
        let p = c.properties
        switch p.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return p.isAlphabetic || p.numericType != nil || c == "_" || p.isJoinControl || p.isVariationSelector
        }
    }

    static func wordStart(_ scalars: [Unicode.Scalar], before index: Int) -> Int {
        var i = min(index, scalars.count)
        while i > 0 && !isWordScalar(scalars[i - 1]) { i -= 1 }
        while i > 0 && isWordScalar(scalars[i - 1]) { i -= 1 }
        return i
    }

    static func wordEnd(_ scalars: [Unicode.Scalar], after index: Int) -> Int {
        var i = max(index, 0)
        while i < scalars.count && !isWordScalar(scalars[i]) { i += 1 }
        while i < scalars.count && isWordScalar(scalars[i]) { i += 1 }
        return i
    }
}

extension String {
    func replacingNewlines() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 }))
    }
}

extension UI {
    /// A single-line text field: click or tap to focus, type (IME composition shown
    /// underlined), arrows/Home/End move, shift extends the selection, ctrl+A/C/X/V, Return
    /// or Escape ends editing. Returns true on frames where `text` changed.
    ///
    /// ```swift
    /// ui.textField("Search", text: &query, width: 240)
    /// ```
    @discardableResult
    public func textField(_ placeholder: String, text: inout String, width: Double = 200, id: String? = nil) -> Bool {
        textFieldBody(placeholder, text: &text, width: width, id: id, secure: false)
    }

    /// A password field (SwiftUI's `SecureField`): a text field whose characters show as dots,
    /// whose text cannot be copied or cut out (Ctrl+C and Ctrl+X do nothing; pasting in works),
    /// and which a screen reader announces as a password field without reading its text.
    ///
    /// ```swift
    /// ui.secureField("Password", text: &password, width: 220)
    /// ```
    @discardableResult
    public func secureField(_ placeholder: String, text: inout String, width: Double = 200, id: String? = nil) -> Bool {
        textFieldBody(placeholder, text: &text, width: width, id: id, secure: true)
    }

    /// One dot a character (a Unicode scalar, so carets and selections keep their indices).
    static func masked(_ text: String) -> String { String(repeating: "•", count: text.unicodeScalars.count) }

    /// The text field, shown as typed or (`secure`) masked.
    private func textFieldBody(_ placeholder: String, text: inout String, width: Double, id: String?, secure: Bool)
        -> Bool
    {
        let rect =
            formRow(placeholder, height: theme.controlHeight).map {
                Rect(x: $0.x, y: $0.y, width: min(width, $0.width), height: $0.height)
            }
            ?? allocate(Size(width, theme.controlHeight))
        let fid = self.id(id ?? placeholder)
        let r = interact(fid, rect: rect, sense: [.click, .focus, .drag])
        if r.isHovered { setCursor(.iBeam) }
        let box = stateBox(fid, TextEditState())
        let inner = rect.insetBy(dx: 8, dy: 0)
        let focused = focusID == fid || (r.isActive && input.pointer.kind == .mouse)
        var changed = false
        if let asked = accessibilitySetText(fid), asked != text {
            box.value.willEdit(Array(text.unicodeScalars), kind: .other)
            text = asked.replacingNewlines()
            box.value.caret = text.unicodeScalars.count
            box.value.anchor = box.value.caret
            changed = true
        }
        var layout: CaretLayout?
        if focused {
            wantsTextInput = true
            textInputRect = rect
            let edited = editTextField(r, text: &text, fid: fid, inner: inner, secure: secure, box: box)
            changed = edited.changed || changed
            layout = edited.carets
        } else {
            box.value.scrollX = 0
        }
        if isAccessibilityEnabled {
            // A password field's text is its dots to a screen reader, as GTK's.
            accessibilityElement(
                fid, role: secure ? .passwordText : .entry, name: placeholder, frame: rect,
                states: controlStates([.editable, .singleLine, .selectableText]), actions: [.activate],
                text: box.value.accessibilityText(secure ? Self.masked(text) : text, focused: focusID == fid))
        }
        drawTextField(
            rect, inner: inner, r, placeholder: placeholder, shown: secure ? Self.masked(text) : text,
            focused: focusID == fid, carets: layout, state: box.value)
        return changed
    }

    /// A focused field's pointer and keys: a press places the caret, a drag selects, a double
    /// click selects the word and a triple click the line; typing edits by grapheme cluster,
    /// Return or Escape ends. Keeps the caret in view. Returns whether the text changed, and
    /// where its carets are.
    private func editTextField(
        _ r: Interaction, text: inout String, fid: WidgetID, inner: Rect, secure: Bool,
        box: StateBox<TextEditState>
    ) -> (changed: Bool, carets: CaretLayout) {
        var scalars = Array(text.unicodeScalars)
        box.value.caret = min(box.value.caret, scalars.count)
        box.value.anchor = min(box.value.anchor, scalars.count)
        var carets = font.caretLayout(secure ? Self.masked(text) : text)
        // Mirrored, the field's inside is moved, not flipped: the pointer is found in it as drawn.
        let pointerX =
            drawList.isMirrored ? inner.minX + inner.maxX - input.pointer.position.x : input.pointer.position.x
        let localX = pointerX - inner.minX + box.value.scrollX
        if r.pressed {
            let i = TextEditing.snapToCluster(scalars, carets.caret(atX: localX))
            box.value.openEdit = nil
            if input.pointer.clickCount >= 3 {  // the line
                box.value.anchor = 0
                box.value.caret = scalars.count
            } else if input.pointer.clickCount == 2 {  // the word
                box.value.anchor = TextEditing.wordStart(scalars, before: i)
                box.value.caret = TextEditing.wordEnd(scalars, after: i)
            } else {
                box.value.caret = i
                if !input.modifiers.contains(.shift) { box.value.anchor = i }
            }
        } else if r.isActive && input.pointer.kind == .mouse && input.pointer.isDragging {
            box.value.caret = TextEditing.snapToCluster(scalars, carets.caret(atX: localX))
        }
        var changed = false
        if focusID == fid {
            changed = typeIntoTextField(
                &scalars, readsRightToLeft: !secure && font.readsRightToLeft(text), secure: secure, box: box)
        }
        if changed {
            text = String(String.UnicodeScalarView(scalars))
            carets = font.caretLayout(secure ? Self.masked(text) : text)
        }
        // Keep the caret in view.
        let caretX = carets.x(atCaret: box.value.caret)
        if caretX - box.value.scrollX > inner.width { box.value.scrollX = caretX - inner.width }
        if caretX - box.value.scrollX < 0 { box.value.scrollX = caretX }
        box.value.scrollX = max(0, min(box.value.scrollX, max(0, carets.width - inner.width + 2)))
        return (changed, carets)
    }

    /// This frame's typing into a focused field. In a right-to-left paragraph the arrows move
    /// the caret the way they point (Left towards the paragraph's end); a password is never
    /// copied or cut out. Returns whether the text changed.
    private func typeIntoTextField(
        _ scalars: inout [Unicode.Scalar], readsRightToLeft: Bool, secure: Bool,
        box: StateBox<TextEditState>
    ) -> Bool {
        var changed = false
        typing: for typed in input.typing {
            switch typed {
            case .text(let t):
                changed = TextEditing.insert(t.replacingNewlines(), into: &scalars, state: &box.value) || changed
            case .key(let press):
                if press.key == .returnKey || press.key == .escape {
                    focus(nil)
                    break typing
                }
                if secure && press.modifiers.contains(.command) && (press.key == Key("c") || press.key == Key("x")) {
                    continue
                }
                var press = press
                if readsRightToLeft && (press.key == .left || press.key == .right) {
                    press.key = press.key == .left ? .right : .left
                }
                changed = TextEditing.apply(press, to: &scalars, state: &box.value, clipboard: clipboard) || changed
            }
        }
        return changed
    }

    /// The field's box, its text (or placeholder), selection, input-method pre-edit text and
    /// blinking caret, upright even in a mirrored frame.
    private func drawTextField(
        _ rect: Rect, inner: Rect, _ r: Interaction, placeholder: String, shown: String, focused: Bool,
        carets layout: CaretLayout?, state: TextEditState
    ) {
        let font = self.font
        drawList.addRoundedRect(rect, radius: theme.cornerRadius, color: theme.surface)
        drawList.addRectBorder(
            rect, radius: theme.cornerRadius, color: focused ? theme.accent : theme.border, thickness: focused ? 2 : 1)
        drawList.pushClip(inner)
        let upright = drawList.beginUpright()  // the text, its selection and caret read left to right even mirrored
        let x0 = inner.minX - state.scrollX
        let textY = inner.midY - font.lineHeight / 2
        if focused && state.hasSelection, let layout {
            // One span per direction run the selection covers (mixed-direction text).
            for span in layout.selectionSpans(state.selection) {
                drawList.addRect(
                    Rect(
                        x: x0 + span.lowerBound, y: textY, width: span.upperBound - span.lowerBound,
                        height: font.lineHeight),
                    color: theme.selection)
            }
        }
        if shown.isEmpty && input.composition.isEmpty || (shown.isEmpty && !focused) {
            font.draw(placeholder, at: Point(inner.minX, textY), color: theme.secondaryText, into: &drawList)
        } else {
            font.draw(shown, at: Point(x0, textY), color: theme.text, into: &drawList)
        }
        if focused, let layout {
            var caretX = x0 + layout.x(atCaret: state.caret)
            if !input.composition.isEmpty {
                // The pre-edit text, underlined, with the caret where the input method puts it.
                let w = font.draw(input.composition, at: Point(caretX, textY), color: theme.accent, into: &drawList)
                drawList.addRect(
                    Rect(x: caretX, y: textY + font.lineHeight - 1, width: w, height: 1), color: theme.accent)
                let inside = font.caretLayout(input.composition)
                caretX += inside.x(atCaret: min(max(0, input.compositionCursor), inside.caretCount - 1))
            }
            // Blink: on for 0.5 s, off for 0.5 s; a frame at each change, none in between.
            if Int(time * 2) % 2 == 0 || r.isActive {
                drawList.addRect(
                    Rect(x: caretX.rounded(), y: textY, width: 1.5, height: font.lineHeight), color: theme.accent)
            }
            requestRedraw(after: (time * 2).rounded(.down) / 2 + 0.5 - time)
        }
        drawList.endUpright(upright, spanning: inner)
        drawList.popClip()
    }
}
