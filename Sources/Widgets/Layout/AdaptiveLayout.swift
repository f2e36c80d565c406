import Render2D
import Imaging
import Profiling

/// What a row of columns does when the width cannot give each its minimum.
public enum ColumnOverflow: Sendable, Equatable {
    /// Columns that do not fit go onto the next line, as a flow layout does.
    case wrap
    /// The row keeps every column at its minimum and runs past the width (for a scroll view
    /// around it to scroll).
    case overflow
}

/// A column of a `columns` row built this frame.
struct ColumnEntry {
    /// The name it was given, or its place in the row.
    var name: String
    var minWidth: Double
    var idealWidth: Double?
    var key: WidgetID
    var content: () -> Void
}

/// The rows of columns and the `viewThatFits` alternatives being built, innermost last.
final class ColumnCollector {
    var columns: [ColumnEntry] = []
}

/// A column as it was laid out, noted for tests (`UI.recordsDrawnText`): its width against its minimum.
package struct ColumnReport: Sendable, Equatable {
    package let name: String
    package let width: Double
    package let minimum: Double
}

/// Where a row's columns go: lines of columns, each column at least its minimum, the width
/// left over shared in proportion to the columns' ideal widths. Pure: tested without a window.
struct ColumnLayout: Equatable {
    /// Each column's line and its x and width within the row.
    var placements: [(line: Int, x: Double, width: Double)]

    static func == (a: ColumnLayout, b: ColumnLayout) -> Bool {
        a.placements.elementsEqual(b.placements) { $0.line == $1.line && $0.x == $1.x && $0.width == $1.width }
    }

    init(minimums: [Double], ideals: [Double?], width: Double, spacing: Double, overflow: ColumnOverflow) {
        var lines: [[Int]] = [[]]
        var used = 0.0
        for (i, minimum) in minimums.enumerated() {
            let needed = (lines[lines.count - 1].isEmpty ? 0 : spacing) + minimum
            if overflow == .wrap && !lines[lines.count - 1].isEmpty && used + needed > width {
                lines.append([])
                used = 0
            }
            used += (lines[lines.count - 1].isEmpty ? 0 : spacing) + minimum
            lines[lines.count - 1].append(i)
        }
        var placements = [(line: Int, x: Double, width: Double)](repeating: (0, 0, 0), count: minimums.count)
        for (line, members) in lines.enumerated() where !members.isEmpty {
            let gaps = spacing * Double(members.count - 1)
            let least = members.map { minimums[$0] }.reduce(0, +)
            let spare = max(0, width - gaps - least)
            // The spare width goes to the columns in proportion to how much more than their
            // minimum they would like (their ideal); columns without an ideal take equal shares.
            let wants = members.map { i in ideals[i].map { max(0, $0 - minimums[i]) } ?? .infinity }
            let open = wants.filter { $0 == .infinity }.count
            let wanted = wants.filter { $0 != .infinity }.reduce(0, +)
            var x = 0.0
            for (k, i) in members.enumerated() {
                var extra: Double
                if open > 0 {
                    let given = min(spare, wanted)
                    extra =
                        wants[k] == .infinity
                        ? (spare - given) / Double(open) : (wanted > 0 ? given * wants[k] / wanted : 0)
                } else {
                    extra = wanted > 0 ? spare * wants[k] / wanted : spare / Double(members.count)
                }
                extra = extra.isFinite ? extra : 0
                placements[i] = (line, x, minimums[i] + extra)
                x += minimums[i] + extra + spacing
            }
        }
        self.placements = placements
    }
}

extension UI {
    /// Columns side by side that never get narrower than their minimum (`column(minWidth:)`):
    /// with room, the spare width goes to them by their ideal widths; without, the columns
    /// that do not fit `wrap` onto the next line (a flow layout), or (`.overflow`) run past
    /// the edge, for a scroll view to scroll. Each line is as tall as its tallest column.
    ///
    /// ```swift
    /// ui.scrollView("page") {
    ///     ui.columns(spacing: 16) {
    ///         ui.column(minWidth: 420) { controls() }
    ///         ui.column(minWidth: 320, idealWidth: 360) { samples() }
    ///     }
    /// }
    /// ```
    public func columns(spacing: Double? = nil, overflow: ColumnOverflow = .wrap, _ content: () -> Void) {
        let spacing = spacing ?? theme.spacing * 2
        let collector = collect(into: ColumnCollector(), on: \.columnCollectors, content)
        let entries = collector.columns
        guard !entries.isEmpty else { return }
        noteColumnMinimum(entries, spacing: spacing, overflow: overflow)
        let area = availableRect
        let layout = ColumnLayout(
            minimums: entries.map(\.minWidth), ideals: entries.map(\.idealWidth), width: area.width,
            spacing: spacing, overflow: overflow)
        let heights = stateBox(
            WidgetID(parent: id("columns"), index: layoutStack[layoutStack.count - 1].count), [Double]())
        let lineCount = (layout.placements.map(\.line).max() ?? 0) + 1
        var lineHeights = [Double](repeating: 0, count: lineCount)
        for (i, placement) in layout.placements.enumerated() where i < heights.value.count {
            lineHeights[placement.line] = max(lineHeights[placement.line], heights.value[i])
        }
        // One line with a bounded height: the columns take it all (a page that fills the window).
        let fillsHeight = lineCount == 1 && area.height.isFinite
        var lineTops = [0.0]
        for h in lineHeights.dropLast() { lineTops.append(lineTops[lineTops.count - 1] + h + spacing) }
        var measured = [Double](repeating: 0, count: entries.count)
        var extent = Size.zero
        for (i, (entry, placement)) in zip(entries, layout.placements).enumerated() {
            let height =
                fillsHeight
                ? area.height : area.height.isFinite ? max(0, area.height - lineTops[placement.line]) : .infinity
            let rect = Rect(
                x: area.x + placement.x, y: area.y + lineTops[placement.line], width: placement.width, height: height)
            noteColumn(entry.name, width: placement.width, minimum: entry.minWidth)
            let size = withID(entry.key) {
                child(
                    at: rect, axis: .vertical, spacing: theme.spacing, alignment: .fill, id: id("column"), entry.content
                )
            }
            measured[i] = fillsHeight ? area.height : size.height
            extent.width = max(extent.width, placement.x + placement.width)
            extent.height = max(extent.height, lineTops[placement.line] + measured[i])
        }
        if measured != heights.value {
            heights.value = measured
            requestRedraw()  // the lines settle at their tallest column's height in the next frame
        }
        _ = placeInStack(Size(max(extent.width, 0), extent.height))
    }

    /// A column of the enclosing `columns` row, never narrower than `minWidth`, wider towards
    /// `idealWidth` (nil: as wide as it can get) when there is room.
    ///
    /// ```swift
    /// ui.column(minWidth: 280) { ui.list("rows") { … } }
    /// ```
    public func column(
        minWidth: Double, idealWidth: Double? = nil, id name: String? = nil, _ content: @escaping () -> Void
    ) {
        guard let collector = columnCollectors.last else {
            return frame(width: max(minWidth, idealWidth ?? 0), content)
        }
        let key = name.map { id($0) } ?? WidgetID(parent: id("column"), index: collector.columns.count)
        collector.columns.append(
            ColumnEntry(
                name: name ?? "column \(collector.columns.count + 1)",
                minWidth: max(0, minWidth.isFinite ? minWidth : 0), idealWidth: idealWidth, key: key, content: content))
    }

    /// The first of `alternatives` that fits the width offered (SwiftUI's `ViewThatFits`): one
    /// fits when the width is at least its `minWidth`, or, given none, the minimum its
    /// `columns` rows need (known once it was built; one never built is tried), and the last
    /// is the fallback. Only the one chosen is built.
    ///
    /// ```swift
    /// ui.viewThatFits {
    ///     ui.alternative { ui.columns(overflow: .overflow) { wideColumns() } }   // all side by side
    ///     ui.alternative { ui.tabView(selection: $tab) { … } }                     // else tabs
    /// }
    /// ```
    public func viewThatFits(_ alternatives: () -> Void) {
        let fits = stateBox(
            WidgetID(parent: id("viewThatFits"), index: layoutStack[layoutStack.count - 1].count), [Double?]())
        let collector = collect(into: AlternativeCollector(), on: \.alternativeCollectors, alternatives)
        guard !collector.alternatives.isEmpty else { return }
        let width = availableWidth
        let needs = collector.alternatives.enumerated().map { i, alternative in
            alternative.minWidth ?? (i < fits.value.count ? fits.value[i] : nil)
        }
        let chosen = needs.firstIndex { ($0 ?? 0) <= width + 0.5 } ?? collector.alternatives.count - 1
        if fits.value.count < needs.count {
            fits.value += [Double?](repeating: nil, count: needs.count - fits.value.count)
        }
        let before = columnMinimumNeeded
        columnMinimumNeeded = 0
        withID(WidgetID(parent: id("alternative"), index: chosen)) { collector.alternatives[chosen].content() }
        if collector.alternatives[chosen].minWidth == nil {
            let learnt = columnMinimumNeeded > 0 ? columnMinimumNeeded : nil
            if fits.value[chosen] != learnt {
                fits.value[chosen] = learnt
                requestRedraw()  // learnt what it needs: the next frame chooses again
            }
        }
        columnMinimumNeeded = before
    }

    /// An alternative of the enclosing `viewThatFits`.
    ///
    /// ```swift
    /// ui.alternative(minWidth: 900) { wideLayout() }
    /// ```
    public func alternative(minWidth: Double? = nil, _ content: @escaping () -> Void) {
        guard let collector = alternativeCollectors.last else { return content() }
        collector.alternatives.append((minWidth, content))
    }

    /// Notes what a row of columns needs at the least, for the `viewThatFits` around it: all
    /// of them side by side, or (wrapping) the widest one.
    private func noteColumnMinimum(_ entries: [ColumnEntry], spacing: Double, overflow: ColumnOverflow) {
        let least =
            overflow == .wrap
            ? entries.map(\.minWidth).max() ?? 0
            : entries.map(\.minWidth).reduce(0, +) + spacing * Double(entries.count - 1)
        columnMinimumNeeded = max(columnMinimumNeeded, least)
    }
}

/// The alternatives of a `viewThatFits` being built.
final class AlternativeCollector {
    var alternatives: [(minWidth: Double?, content: () -> Void)] = []
}
