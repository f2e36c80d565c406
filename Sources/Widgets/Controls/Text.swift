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
        var selection: TextEditState?
        if textIsSelectable {
            let scalars = Array(string.unicodeScalars)
            let line = selectableLine(
                scalars: 0..<scalars.count, string, width: whole, readsRightToLeft: readsRightToLeft, in: rect,
                font: font)
            selection = selectableText(scalars, lines: [line], id: id, in: rect, font: font)
        }
        if isAccessibilityEnabled {
            accessibilityElement(
                id, role: .label, name: string, frame: rect, states: textIsSelectable ? .selectableText : [],
                text: selection?.accessibilityText(string, focused: focusID == id) ?? AccessibilityText(string))
        }
        font.draw(string, in: rect, color: color ?? theme.text, truncation: truncation, into: &drawList)
    }

    /// Text on as many lines as it needs in the width available, as SwiftUI's `Text` wraps:
    /// words wrap after a space, a word wider than the line where the width runs out, and a
    /// newline starts a new line. `lineLimit` keeps at most that many lines, the last one
    /// cut with "…" (nil: no limit). The lines are worked out again only when the text, the
    /// width or the font changes. Inside `textSelection(.enabled)` it can be selected across
    /// its lines and copied.
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
        let memo = stateBox(WidgetID(parent: id, "lines"), WrappedText())  // (`id` keeps the selection)
        if memo.value.string != string || memo.value.width != width || memo.value.font !== font {
            memo.value = WrappedText(string: string, width: width, font: font)
        }
        let lines = memo.value.lines
        let shown = min(lines.count, max(1, lineLimit ?? lines.count))
        let widest = lines.prefix(shown).map(\.width).max() ?? 0
        let rect = placeInStack(Size(min(widest, width), font.lineHeight * Double(shown)))
        // The last line shown of a text cut short holds the rest of its paragraph, cut with "…".
        let shownLines = (0..<shown).map { k in
            (
                text: k == shown - 1 && shown < lines.count ? memo.value.rest(from: k) : lines[k].text,
                rect: Rect(
                    x: rect.x, y: rect.y + font.lineHeight * Double(k), width: rect.width, height: font.lineHeight)
            )
        }
        var selection: TextEditState?
        if textIsSelectable {
            let selectable = shownLines.enumerated().map { k, line in
                let (width, readsRightToLeft) = font.measureLine(line.text)
                let start = lines[k].start
                return selectableLine(
                    scalars: start..<start + line.text.unicodeScalars.count, line.text, width: width,
                    readsRightToLeft: readsRightToLeft, alignment: multilineAlignment, in: line.rect, font: font)
            }
            selection = selectableText(memo.value.scalars, lines: selectable, id: id, in: rect, font: font)
        }
        if isAccessibilityEnabled {
            accessibilityElement(
                id, role: .label, name: string, frame: rect, states: textIsSelectable ? .selectableText : [],
                text: selection?.accessibilityText(string, focused: focusID == id) ?? AccessibilityText(string))
        }
        for line in shownLines {
            font.draw(
                line.text, in: line.rect, alignment: multilineAlignment, color: color ?? theme.text,
                truncation: truncation, into: &drawList)
        }
    }

    /// Aligns the lines of wrapped text built in `content` with each other, as SwiftUI's
    /// `.multilineTextAlignment(_:)`: at their start (`.leading`, the default), centred, or at
    /// their end. The text as a whole is placed by its stack, as any other view.
    ///
    /// ```swift
    /// ui.vstack(alignment: .center) {
    ///     ui.multilineTextAlignment(.center) {
    ///         ui.text("No photos here yet. Drop some on the window, or open a folder.", lineLimit: nil)
    ///     }
    /// }
    /// ```
    public func multilineTextAlignment(_ alignment: TextAlignment, _ content: () -> Void) {
        let outer = multilineAlignment
        multilineAlignment = alignment
        content()
        multilineAlignment = outer
    }

    /// Where text built in `content` that is too long for its space is cut, as SwiftUI's
    /// `.truncationMode(_:)`: at its end (`.tail`, the default), its start (`.head`), or its
    /// middle, which keeps both ends of a path or a file name. It applies to `text` (to the
    /// last line of wrapped text cut short), and to the titles of buttons, labels, links, list
    /// rows, table cells, form rows, tabs and navigation bars built in `content`.
    ///
    /// ```swift
    /// ui.truncationMode(.middle) { ui.text(photo.path) }  // "/home/ann/…MG_0001.jpg" in 200 points
    /// ```
    public func truncationMode(_ mode: TruncationMode, _ content: () -> Void) {
        let outer = truncation
        truncation = mode
        content()
        truncation = outer
    }

    /// Makes the text built in `content` selectable with the pointer and copyable (Ctrl+C), as
    /// SwiftUI's `.textSelection(.enabled)`: drag to select (across the lines of wrapped
    /// text), double-click a word, triple-click a paragraph, Shift+click to extend, Ctrl+A all
    /// of it.
    ///
    /// ```swift
    /// ui.textSelection(.enabled) { ui.text(photo.path) }
    /// ui.textSelection(.enabled) { ui.text(photo.caption, lineLimit: nil) }
    /// ```
    public func textSelection(_ selectability: TextSelectability, _ content: () -> Void) {
        let outer = textIsSelectable
        textIsSelectable = selectability == .enabled
        content()
        textIsSelectable = outer
    }

    /// The line `text` (the text's `scalars`, `width` wide) as `Font.draw(_:in:alignment:)`
    /// draws it in `rect`: cut with "…" as the truncation mode says when it does not fit.
    private func selectableLine(
        scalars: Range<Int>, _ text: String, width: Double, readsRightToLeft: Bool,
        alignment: TextAlignment = .leading, in rect: Rect, font: Font
    ) -> SelectableLine {
        let cut = font.cut(text, toWidth: rect.width, mode: truncation)
        let width = cut.map { font.measure($0.shown) } ?? width
        return SelectableLine(
            range: scalars, text: cut?.shown ?? text,
            extent: drawnExtent(width: width, readsRightToLeft: readsRightToLeft, alignment: alignment, in: rect),
            cut: cut)
    }

    /// Where `Font.draw(_:in:alignment:)` draws a line `width` wide in `rect`: leading is the
    /// line's start, which for a right-to-left line in a left-to-right layout is the right edge.
    private func drawnExtent(width: Double, readsRightToLeft: Bool, alignment: TextAlignment, in rect: Rect) -> Rect {
        let width = min(width, rect.width)
        let x: Double
        switch alignment == .leading && readsRightToLeft && !drawList.isMirrored ? .trailing : alignment {
        case .leading: x = rect.minX
        case .center: x = rect.minX + (rect.width - width) / 2
        case .trailing: x = rect.maxX - width
        }
        return Rect(x: x, y: rect.y, width: width, height: rect.height)
    }

    /// The pointer and keys of selectable text, `scalars` shown as `lines` (one for a label,
    /// several for wrapped text), and its selection drawn under them. A press places the
    /// caret (Shift extends), a drag selects, a double click selects a word and a triple click
    /// its paragraph; Ctrl+A selects all and Ctrl+C copies. Returns the caret and selection
    /// (for screen readers).
    private func selectableText(
        _ scalars: [Unicode.Scalar], lines: [SelectableLine], id: WidgetID, in rect: Rect, font: Font
    ) -> TextEditState? {
        guard !lines.isEmpty else { return nil }
        let r = interact(id, rect: rect, sense: [.click, .drag, .clickFocus])
        if r.isHovered { setCursor(.iBeam) }
        let box = stateBox(id, TextEditState())
        // Laid out only for the lines the pointer or a visible part of the selection is on: a
        // long text's other lines cost nothing here.
        var laidOut = [CaretLayout?](repeating: nil, count: lines.count)
        func carets(_ k: Int) -> CaretLayout {
            if let known = laidOut[k] { return known }
            let layout = font.caretLayout(lines[k].text)
            laidOut[k] = layout
            return layout
        }
        let mirrored = drawList.isMirrored
        // The caret nearest `p`: its line by height, then its place along the line as drawn
        // (in a mirrored layout a line is moved, not flipped, so it reads from its right edge).
        func index(at p: Point) -> Int {
            let row = ((p.y - rect.minY) / font.lineHeight).rounded(.down)  // (any y, even far off: no trap)
            let k = row.isFinite ? Int(min(max(0, row), Double(lines.count - 1))) : 0
            let extent = lines[k].extent
            let x = mirrored ? extent.maxX - p.x : p.x - extent.minX
            let shown = carets(k).caret(atX: x)
            let offset = lines[k].cut?.textOffset(shown) ?? shown
            return TextEditing.snapToCluster(scalars, lines[k].range.lowerBound + offset)
        }
        if r.pressed {
            let i = index(at: input.pointer.pressPosition)
            switch input.pointer.clickCount {
            case 1:
                box.value.caret = i
                if !input.modifiers.contains(.shift) { box.value.anchor = i }
            case 2:
                (box.value.anchor, box.value.caret) = (
                    TextEditing.wordStart(scalars, before: i), TextEditing.wordEnd(scalars, after: i)
                )
            default:
                box.value.anchor = scalars[..<i].lastIndex(of: "\n").map { $0 + 1 } ?? 0
                box.value.caret = scalars[i...].firstIndex(of: "\n") ?? scalars.count
            }
        } else if r.isActive && input.pointer.isDragging {
            box.value.caret = index(at: input.pointer.position)
        }
        if focusID == id {
            for press in input.keys where press.modifiers.contains(.command) {
                if press.key == Key("a") { (box.value.anchor, box.value.caret) = (0, scalars.count) }
                if press.key == Key("c") && box.value.hasSelection {
                    var copied = String.UnicodeScalarView()
                    copied.append(contentsOf: scalars[box.value.selection.clamped(to: 0..<scalars.count)])
                    clipboard.text = String(copied)
                }
            }
        }
        let selection = box.value.selection.clamped(to: 0..<scalars.count)
        let clip = drawList.clipRect
        for (k, line) in lines.enumerated() where line.extent.maxY > clip.minY && line.extent.minY < clip.maxY {
            var lo = max(selection.lowerBound, line.range.lowerBound) - line.range.lowerBound
            var hi = min(selection.upperBound, line.range.upperBound) - line.range.lowerBound
            if let cut = line.cut { (lo, hi) = (cut.shownOffset(lo, asEnd: false), cut.shownOffset(hi, asEnd: true)) }
            guard lo < hi else { continue }
            let extent = line.extent
            for span in carets(k).selectionSpans(lo..<hi) {
                let start = mirrored ? extent.maxX - span.upperBound : extent.minX + span.lowerBound
                let x0 = max(rect.minX, start), x1 = min(rect.maxX, start + span.upperBound - span.lowerBound)
                drawList.addRect(
                    Rect(x: x0, y: extent.minY, width: max(0, x1 - x0), height: extent.height), color: theme.selection)
            }
        }
        return box.value
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
        font.draw(title, in: textRect, color: color ?? theme.text, truncation: truncation, into: &drawList)
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
        /// Where the line starts among the text's scalars.
        var start: Int
    }

    var string = ""
    var width = -1.0
    var font: Font?
    var lines: [Line] = []
    private(set) var scalars: [Unicode.Scalar] = []
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
            return Line(text: text, width: font.measure(text), start: range.lowerBound)
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

/// A line of selectable text as drawn: the scalars of the whole text it shows, what it draws
/// (`text`, cut with "…" when too long for its rectangle), and the logical rectangle its glyphs
/// were drawn in.
struct SelectableLine {
    var range: Range<Int>
    var text: String
    var extent: Rect
    /// How `text` was cut to fit (nil: it is drawn whole).
    var cut: TextCut?
}
