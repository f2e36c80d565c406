/// One change between two frames' trees, as an AT-SPI event sends it.
struct AccessibilityChange: Equatable {
    enum Kind: Equatable {
        /// The node took keyboard focus (`Focus`, with `StateChanged:focused` sent as a state).
        case focus
        /// A state turned on or off (`StateChanged`: "focused", "checked", "selected", "expanded").
        case state(String, Bool)
        /// The name changed (`PropertyChange:accessible-name`).
        case name(String)
        /// A child appeared or went (`ChildrenChanged`), at its index.
        case childAdded(Int, WidgetID), childRemoved(Int, WidgetID)
        /// Text went in or out (`TextChanged`), at a character offset.
        case textInserted(Int, String), textDeleted(Int, String)
        /// The caret moved (`TextCaretMoved`).
        case caret(Int)
        /// Which children are selected changed (`SelectionChanged`).
        case selection
    }
    let id: WidgetID
    let kind: Kind
}

/// Works out the events between two trees: only what changed is sent. Pure, so it is tested
/// without a bus.
enum AccessibilityChanges {
    /// At most this many children-changed events a frame: scrolling a long list replaces
    /// every row, and a client re-reads the container after a few.
    static let childEventLimit = 64

    static let watchedStates: [(AccessibilityStates, String)] = [
        (.checked, "checked"), (.selected, "selected"), (.expanded, "expanded"), (.showing, "showing"),
    ]

    static func between(_ old: AccessibilityTree, _ new: AccessibilityTree) -> [AccessibilityChange] {
        var changes: [AccessibilityChange] = []
        var childEvents = 0
        let oldFocus = old.nodes.first { $0.states.contains(.focused) }?.id
        let newFocus = new.nodes.first { $0.states.contains(.focused) }?.id
        if oldFocus != newFocus {
            if let oldFocus, new.node(oldFocus) != nil {
                changes.append(.init(id: oldFocus, kind: .state("focused", false)))
            }
            if let newFocus {
                changes.append(.init(id: newFocus, kind: .state("focused", true)))
                changes.append(.init(id: newFocus, kind: .focus))
            }
        }
        for node in new.nodes {
            guard let before = old.node(node.id) else { continue }
            if before.name != node.name { changes.append(.init(id: node.id, kind: .name(node.name))) }
            for (state, name) in watchedStates where before.states.contains(state) != node.states.contains(state) {
                changes.append(.init(id: node.id, kind: .state(name, node.states.contains(state))))
            }
            if let was = before.text?.string, let now = node.text?.string, was != now {
                changes.append(contentsOf: textChanges(node.id, from: was, to: now))
            }
            if let caret = node.text?.caret, caret >= 0, caret != before.text?.caret {
                changes.append(.init(id: node.id, kind: .caret(caret)))
            }
            let beforeChildren = before.children.map { old.nodes[$0].id },
                nowChildren = node.children.map { new.nodes[$0].id }
            guard beforeChildren != nowChildren else { continue }
            let kept = Set(nowChildren), had = Set(beforeChildren)
            for (index, child) in beforeChildren.enumerated().reversed()
            where !kept.contains(child) && childEvents < childEventLimit {
                changes.append(.init(id: node.id, kind: .childRemoved(index, child)))
                childEvents += 1
            }
            for (index, child) in nowChildren.enumerated() where !had.contains(child) && childEvents < childEventLimit {
                changes.append(.init(id: node.id, kind: .childAdded(index, child)))
                childEvents += 1
            }
            let selectedBefore = beforeChildren.filter { old.node($0)?.states.contains(.selected) == true }
            let selectedNow = nowChildren.filter { new.node($0)?.states.contains(.selected) == true }
            if selectedBefore != selectedNow { changes.append(.init(id: node.id, kind: .selection)) }
        }
        return changes
    }

    /// The smallest delete and insert that turn `old` into `new` (one run each, in characters).
    static func textChanges(_ id: WidgetID, from old: String, to new: String) -> [AccessibilityChange] {
        let a = Array(old.unicodeScalars), b = Array(new.unicodeScalars)
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix
            && a[a.count - 1 - suffix] == b[b.count - 1 - suffix]
        { suffix += 1 }
        var changes: [AccessibilityChange] = []
        let removed = a[prefix..<(a.count - suffix)], inserted = b[prefix..<(b.count - suffix)]
        if !removed.isEmpty {
            changes.append(.init(id: id, kind: .textDeleted(prefix, String(String.UnicodeScalarView(removed)))))
        }
        if !inserted.isEmpty {
            changes.append(.init(id: id, kind: .textInserted(prefix, String(String.UnicodeScalarView(inserted)))))
        }
        return changes
    }
}
