import Render2D
import Imaging
import Profiling
import Widgets

/// Finds widgets as a screen reader sees them, by role and name, and acts on them through the
/// same requests the AT-SPI bridge sends: a test that passes here passes for Orca too.
///
/// ```swift
/// let h = try Harness()
/// h.frame(app.body)
/// try h.activate(h.find(.button, "Save"), app.body)
/// XCTAssertEqual(try h.find(.table).collection?.rows, 100_000)
/// ```
extension Harness {
    /// The last frame's accessibility tree.
    public var accessibilityTree: AccessibilityTree { ui.accessibilityTree }

    /// The first widget (in build order) of `role`, named `name` when given, in the last frame.
    /// Throws `HarnessError.notFound` with the tree when there is none.
    public func find(_ role: AccessibilityRole, _ name: String? = nil) throws -> AccessibilityNode {
        guard let node = findAll(role, name).first else {
            throw HarnessError.notFound(role, name, tree: accessibilityTree.dump(maxDepth: 8))
        }
        return node
    }

    /// Every widget of `role` (named `name` when given) in the last frame, in build order.
    public func findAll(_ role: AccessibilityRole, _ name: String? = nil) -> [AccessibilityNode] {
        accessibilityTree.all(role, name)
    }

    /// The children of `node` in the last frame's tree.
    public func children(of node: AccessibilityNode) -> [AccessibilityNode] {
        guard let index = accessibilityTree.index(of: node.id) else { return [] }
        return accessibilityTree.nodes[index].children.map { accessibilityTree.nodes[$0] }
    }

    /// Clicks `node` as a screen reader's `DoAction` does (a button, a toggle, a row, a tab),
    /// then runs two frames: one that acts, one that draws what changed.
    public func activate(_ node: AccessibilityNode, _ build: (UI) -> Void) {
        ui.perform(.activate(node.id))
        frames(2, build)
    }

    /// Opens or closes `node` (an outline row) as the "expand or contract" action does, then two frames.
    public func toggleExpansion(_ node: AccessibilityNode, _ build: (UI) -> Void) {
        ui.perform(.toggleExpansion(node.id))
        frames(2, build)
    }

    /// Gives `node` keyboard focus, as `GrabFocus` does, then two frames.
    public func focus(_ node: AccessibilityNode, _ build: (UI) -> Void) {
        ui.perform(.focus(node.id))
        frames(2, build)
    }

    /// Replaces a field's text, as `EditableText.SetTextContents` does, then two frames.
    public func setText(_ node: AccessibilityNode, _ text: String, _ build: (UI) -> Void) {
        ui.perform(.setText(node.id, text))
        frames(2, build)
    }

    /// Sets a slider's value, as `Value.CurrentValue` does, then two frames.
    public func setValue(_ node: AccessibilityNode, _ value: Double, _ build: (UI) -> Void) {
        ui.perform(.setValue(node.id, value))
        frames(2, build)
    }
}
