import Render2D
import Imaging
import Profiling
#if canImport(Glibc)
    import Glibc
#endif

/// How tall a disclosure group's content measured.
struct DisclosureMemo {
    var contentHeight = 0.0
}

extension UI {
    /// A header with a chevron that shows or hides `content` (SwiftUI's `DisclosureGroup`).
    /// The content is built only while expanded (or animating closed); opening and closing
    /// slide it over 0.15 s.
    ///
    /// ```swift
    /// ui.disclosureGroup("Fill", isExpanded: &fillExpanded) {
    ///     ui.toggle("Fill shape?", isOn: &fill)
    /// }
    /// ```
    public func disclosureGroup(_ title: String, icon: Icon? = nil, isExpanded: inout Bool, _ content: () -> Void) {
        disclosureGroup(id: title, isExpanded: &isExpanded, content) { ui in
            if let icon { ui.label(title, icon: icon) } else { ui.text(title) }
        }
    }

    /// A disclosure group whose expansion the UI keeps, starting `initiallyExpanded`.
    public func disclosureGroup(
        _ title: String, icon: Icon? = nil, initiallyExpanded: Bool = false, _ content: () -> Void
    ) {
        let box = stateBox(WidgetID(parent: id(title), "expanded"), initiallyExpanded)
        disclosureGroup(title, icon: icon, isExpanded: &box.value, content)
    }

    /// A disclosure group with any label (SwiftUI's `DisclosureGroup(isExpanded:content:label:)`).
    ///
    /// ```swift
    /// ui.disclosureGroup(id: "shadow", isExpanded: &open) { ui.slider("Radius", value: &r, in: 0...20) }
    ///     label: { ui in ui.label("Shadow", icon: .star) }
    /// ```
    public func disclosureGroup(id name: String, isExpanded: inout Bool, _ content: () -> Void, label: (UI) -> Void) {
        let gid = id(name)
        let memo = stateBox(WidgetID(parent: gid, "memo"), DisclosureMemo())
        let header = allocate(Size(availableWidth, theme.controlHeight), flexibleWidth: true)
        let r = interact(gid, rect: header, sense: [.click, .focus, .activate])
        if r.isHovered { setCursor(.pointingHand) }
        if r.clicked { isExpanded.toggle() }
        if focusID == gid {
            for press in input.keys
            where press.key == .space || press.key == .returnKey || press.key == .left || press.key == .right {
                isExpanded = press.key == .left ? false : press.key == .right ? true : !isExpanded
            }
        }
        if isAccessibilityEnabled {
            accessibilityElement(
                gid, role: .toggleButton, name: name, frame: header,
                states: controlStates(isExpanded ? [.expandable, .expanded] : [.expandable, .collapsed]),
                actions: [.expandOrCollapse])
        }
        // Opens and closes over 0.15 s, or by the `withAnimation` in effect; at once with reduce motion.
        let t = min(
            1,
            max(
                0,
                animatedValue(
                    isExpanded ? 1.0 : 0, animation: currentTransaction ?? .linear(duration: 0.15),
                    id: WidgetID(parent: gid, "opening"))))

        if r.isHovered {
            drawList.addRoundedRect(header, radius: theme.cornerRadius, color: theme.control.opacity(0.5))
        }
        drawChevron(
            in: Rect(x: header.x + 4, y: header.midY - 6, width: 12, height: 12), turned: t, color: theme.secondaryText)
        withID(gid) {
            _ = child(
                at: Rect(x: header.x + 22, y: header.y, width: max(0, header.width - 22), height: header.height),
                axis: .horizontal,
                spacing: theme.spacing, alignment: .center
            ) { accessibilityHidden(true) { label(self) } }
        }
        guard t > 0 else { return }
        // The content, laid out at full height, revealed from the top as it opens.
        let area = stackRemainingRect
        let visible = (memo.value.contentHeight * t).rounded()
        drawList.pushClip(Rect(x: area.x, y: area.y, width: area.width, height: visible))
        let size = withID(gid) {
            child(
                at: Rect(x: area.x + 22, y: area.y, width: max(0, area.width - 22), height: .infinity), axis: .vertical,
                spacing: theme.spacing, alignment: .start, content)
        }
        drawList.popClip()
        memo.value.contentHeight = size.height
        _ = placeInStack(Size(area.width, t < 1 ? visible : size.height))
    }

    /// A chevron pointing right, turned towards down by `turned` (0...1).
    func drawChevron(in rect: Rect, turned: Double, color: Color) {
        let angle = turned * Double.pi / 2
        let c = Point(rect.midX, rect.midY), s = min(rect.width, rect.height)
        let points = [(-0.12, -0.28), (0.16, 0.0), (-0.12, 0.28)].map { (fx, fy) -> Point in
            Point(c.x + (fx * cos(angle) - fy * sin(angle)) * s, c.y + (fx * sin(angle) + fy * cos(angle)) * s)
        }
        drawList.addPolyline(points, color: color, thickness: max(1.25, s / 11))
    }
}
