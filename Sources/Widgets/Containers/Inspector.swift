/// What an inspector keeps between frames: its split, whose fraction is set from the ideal
/// width once the container's width is known.
struct InspectorMemo {
    var split = SplitState(fraction: .nan, layout: .horizontal)
    /// The fraction while shown and not dragged: a drag that hides the column does not shrink
    /// it for when it shows again.
    var settledFraction = Double.nan
}

extension UI {
    /// SwiftUI's `inspector(isPresented:content:)`: a trailing column beside `content` that
    /// shows while `isPresented` is true. The user drags its edge between `width.min` and
    /// `width.max`; dragging it more than halfway past `width.min` hides it and sets
    /// `isPresented` to false. It keeps its width in pixels when the window resizes, and
    /// slides in and out when `isPresented` changes.
    ///
    /// ```swift
    /// ui.inspector(isPresented: Binding(self, \.showsInspector)) {
    ///     table(ui)
    /// } inspector: {
    ///     ui.list("stats") { columnStatistics(ui) }
    /// }
    /// if ui.button("Inspector") { showsInspector.toggle() }   // or a toolbar button
    /// ```
    public func inspector(
        _ name: String = "inspector", isPresented: Binding<Bool>,
        width: NavigationColumnWidth = .init(min: 200, ideal: 260, max: 420),
        _ content: () -> Void, inspector: () -> Void
    ) {
        let memo = stateBox(WidgetID(parent: id(name), "inspector"), InspectorMemo())
        let length = max(availableRect.width, 1)
        if memo.value.split.fraction.isNaN { memo.value.split.fraction = 1 - width.ideal / length }
        // The app's flag drives the column; the column's drag-to-hide drives the flag.
        if isPresented.wrappedValue, memo.value.split.isHidden(.secondary) { memo.value.split.show() }
        if !isPresented.wrappedValue, !memo.value.split.isHidden(.secondary) { memo.value.split.hide(.secondary) }
        let constraints = SplitConstraints(
            minPFraction: 1 - width.max / length, minSFraction: width.min / length,
            priority: .secondary, dragToHideS: true)
        let split = Binding(get: { memo.value.split }, set: { memo.value.split = $0 })
        hSplit(name, state: split, constraints: constraints, styling: SplitStyling(hideSplitter: true), content) {
            drawList.addRect(availableRect, color: theme.surface)
            inspector()
        }
        let dragged = activeID == WidgetID(parent: id(name), "splitter")
        if memo.value.split.isHidden(.secondary) {
            if !dragged, !memo.value.settledFraction.isNaN {
                memo.value.split.fraction = memo.value.settledFraction
                memo.value.settledFraction = .nan  // once: the split keeps it as the window resizes
            }
            if isPresented.wrappedValue { isPresented.wrappedValue = false }
        } else if !dragged {
            memo.value.settledFraction = memo.value.split.fraction
        }
    }
}
