import Render2D
import Imaging
import Profiling

/// Whether text can be selected and copied (`UI.textSelection(_:_:)`).
public enum TextSelectability: Sendable {
    /// The text can be selected with the pointer and copied.
    case enabled
    /// The text is only drawn.
    case disabled
}

extension UI {
    /// A line of text, truncated with "…" when wider than the space available.
    ///
    /// ```swift
    /// ui.text("Hello, Tessera")
    /// ui.text("3 items", color: ui.theme.secondaryText)
    /// ```
    public func text(_ string: String, color: Color? = nil, font: Font? = nil) {
        let font = font ?? self.font
        let (whole, readsRightToLeft) = font.measureLine(string)
        let parent = layoutStack[layoutStack.count - 1]
        // A right-to-left paragraph in a left-to-right column takes the column's width, to
        // start at its right edge (the text draws aligned to its start).
        let width =
            readsRightToLeft && parent.axis == .vertical && parent.alignment == .start && parent.layered == nil
                && !content.isMirrored && parent.crossAvailable.isFinite ? availableWidth : min(whole, availableWidth)
        let rect = placeInStack(
            Size(width, font.lineHeight),
            desiredMain: parent.axis == .horizontal ? whole : nil)
        let id = WidgetID(parent: parent.id, index: parent.count)
        if textIsSelectable { selectableText(string, id: id, in: rect, font: font) }
        if isAccessibilityEnabled {
            accessibilityElement(
                id, role: .label, name: string, frame: rect, states: textIsSelectable ? .selectableText : [],
                text: AccessibilityText(string))
        }
        font.draw(string, in: rect, color: color ?? theme.text, into: &drawList)
    }

    /// Text on as many lines as it needs in the width available, as SwiftUI's `Text` wraps:
    /// words wrap after a space, a word wider than the line where the width runs out, and a
    /// newline starts a new line. `lineLimit` keeps at most that many lines, the last one
    /// cut with "…" (nil: no limit). The lines are worked out again only when the text, the
    /// width or the font changes.
    ///
    /// ```swift
    /// ui.text("Drag photos here, or choose a folder with File ▸ Open Folder…", lineLimit: nil)
    /// ui.text(photo.caption, lineLimit: 2, color: ui.theme.secondaryText)
    /// ```
    public func text(_ string: String, lineLimit: Int?, color: Color? = nil, font: Font? = nil) {
        let font = font ?? self.font
        let parent = layoutStack[layoutStack.count - 1]
        let id = WidgetID(parent: parent.id, index: parent.count)
        let available = availableWidth
        let width = available.isFinite ? available : font.measure(string)  // (in a sideways scroll: one line)
        let memo = stateBox(id, WrappedText())
        if memo.value.string != string || memo.value.width != width || memo.value.font !== font {
            memo.value = WrappedText(string: string, width: width, font: font)
        }
        let lines = memo.value.lines
        let shown = min(lines.count, max(1, lineLimit ?? lines.count))
        let widest = lines.prefix(shown).map(\.width).max() ?? 0
        let rect = placeInStack(Size(min(widest, width), font.lineHeight * Double(shown)))
        if isAccessibilityEnabled {
            accessibilityElement(id, role: .label, name: string, frame: rect, text: AccessibilityText(string))
        }
        for (k, line) in lines.prefix(shown).enumerated() {
            // The last line shown of a text cut short holds the rest of its paragraph, cut with "…".
            let text = k == shown - 1 && shown < lines.count ? memo.value.rest(from: k) : line.text
            font.draw(
                text,
                in: Rect(
                    x: rect.x, y: rect.y + font.lineHeight * Double(k), width: rect.width, height: font.lineHeight),
                color: color ?? theme.text, into: &drawList)
        }
    }

    /// Makes the text built in `content` selectable with the pointer and copyable (Ctrl+C), as
    /// SwiftUI's `.textSelection(.enabled)`: drag to select, double-click a word, triple-click
    /// the line, Ctrl+A all of it.
    ///
    /// ```swift
    /// ui.textSelection(.enabled) { ui.text(photo.path) }
    /// ```
    public func textSelection(_ selectability: TextSelectability, _ content: () -> Void) {
        let outer = textIsSelectable
        textIsSelectable = selectability == .enabled
        content()
        textIsSelectable = outer
    }

    /// The pointer and keys of a selectable label, and its selection drawn under the text.
    private func selectableText(_ string: String, id: WidgetID, in rect: Rect, font: Font) {
        let r = interact(id, rect: rect, sense: [.click, .drag, .clickFocus])
        if r.isHovered { setCursor(.iBeam) }
        let box = stateBox(id, TextEditState())
        let scalars = Array(string.unicodeScalars)
        let carets = font.caretLayout(string)
        let at = { (x: Double) in TextEditing.snapToCluster(scalars, carets.caret(atX: x - rect.minX)) }
        if r.pressed {
            let i = at(input.pointer.pressPosition.x)
            switch input.pointer.clickCount {
            case 1: (box.value.anchor, box.value.caret) = (i, i)
            case 2:
                (box.value.anchor, box.value.caret) = (
                    TextEditing.wordStart(scalars, before: i), TextEditing.wordEnd(scalars, after: i)
                )
            default: (box.value.anchor, box.value.caret) = (0, scalars.count)
            }
        } else if r.isActive && input.pointer.isDragging {
            box.value.caret = at(input.pointer.position.x)
        }
        guard focusID == id else { return }
        for press in input.keys where press.modifiers.contains(.command) {
            if press.key == Key("a") { (box.value.anchor, box.value.caret) = (0, scalars.count) }
            if press.key == Key("c") && box.value.hasSelection {
                var copied = String.UnicodeScalarView()
                copied.append(contentsOf: scalars[box.value.selection.clamped(to: 0..<scalars.count)])
                clipboard.text = String(copied)
            }
        }
        let selection = box.value.selection.clamped(to: 0..<scalars.count)
        for span in carets.selectionSpans(selection) {
            let x0 = rect.minX + span.lowerBound, x1 = min(rect.maxX, rect.minX + span.upperBound)
            drawList.addRect(
                Rect(x: x0, y: rect.y, width: max(0, x1 - x0), height: rect.height), color: theme.selection)
        }
    }

    /// An icon followed by a title, as SwiftUI's `Label`.
    ///
    /// ```swift
    /// ui.label("Favorites", icon: .star)
    /// ```
    public func label(_ title: String, icon: Icon, color: Color? = nil, iconColor: Color? = nil) {
        let font = self.font
        let iconSize = (font.lineHeight * 0.95).rounded()
        let gap = 6.0
        let width = min(iconSize + gap + font.measure(title), availableWidth)
        let rect = allocate(Size(width, font.lineHeight))
        if isAccessibilityEnabled {
            accessibilityElement(id(title), role: .label, name: title, frame: rect, text: AccessibilityText(title))
        }
        let iconRect = Rect(x: rect.x, y: rect.midY - iconSize / 2, width: iconSize, height: iconSize)
        drawIcon(icon, in: iconRect, color: iconColor ?? theme.accent)
        let textRect = Rect(
            x: rect.x + iconSize + gap, y: rect.y, width: max(0, rect.width - iconSize - gap), height: rect.height)
        font.draw(title, in: textRect, color: color ?? theme.text, into: &drawList)
    }

    /// A thin line across the enclosing stack (horizontal in a VStack, vertical in an HStack).
    public func divider() {
        let axis = layoutStack[layoutStack.count - 1].axis
        let rect =
            axis == .vertical ? allocate(Size(0, 1), flexibleWidth: true) : allocate(Size(1, 0), flexibleHeight: true)
        if isAccessibilityEnabled {
            let parent = layoutStack[layoutStack.count - 1]
            accessibilityElement(
                WidgetID(parent: parent.id, index: parent.count), role: .separator, name: "", frame: rect,
                states: axis == .vertical ? .horizontal : .vertical)
        }
        drawList.addRect(rect, color: theme.separator)
    }
}

/// A text's lines at a width (`UI.text(_:lineLimit:color:font:)`), kept while the text, the
/// width and the font stay the same.
struct WrappedText {
    struct Line {
        /// The line's text, without the spaces it wrapped after.
        var text: String
        var width: Double
    }

    var string = ""
    var width = -1.0
    var font: Font?
    var lines: [Line] = []
    private var scalars: [Unicode.Scalar] = []
    private var ranges: [Range<Int>] = []

    init() {}

    @MainActor
    init(string: String, width: Double, font: Font) {
        self.string = string
        self.width = width
        self.font = font
        scalars = Array(string.unicodeScalars)
        ranges = TextWrapping.lines(scalars, width: width, caretOffsets: font.caretOffsets).map(\.range)
        lines = ranges.map { range in
            var end = range.upperBound
            while end > range.lowerBound, scalars[end - 1].properties.isWhitespace { end -= 1 }
            let text = Self.string(scalars[range.lowerBound..<end])
            return Line(text: text, width: font.measure(text))
        }
    }

    /// Line `k` and the rest of its paragraph, as one line (to be cut with "…").
    func rest(from k: Int) -> String {
        let start = ranges[k].lowerBound
        let end = scalars[start...].firstIndex(of: "\n") ?? scalars.count
        return Self.string(scalars[start..<end])
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
