import CSDL2
import Render2D
import Imaging
import Profiling

// The AT-SPI methods, answered from the last frame's tree. What changes the UI (an action,
// focus, text, a value, a selection) becomes a request for the next frame.
extension AtspiBridge {
    func call(
        _ path: String, _ interface: String, _ method: String, _ args: OpaquePointer?, _ invocation: OpaquePointer
    ) -> AtspiReply {
        if path == Self.cachePath { return .value(GValue.tuple([GValue.array(.cacheItem, [])])) }  // GetItems
        let snapshot = current
        guard let target = target(path, in: snapshot) else { return .failure("\(path) is not in the window any more") }
        let tree = snapshot.tree
        switch target {
        case .application:
            return applicationCall(method, args, tree: tree)
        case .madeCell(let cell):
            return madeCellCall(cell, method, args, tree: tree, snapshot: snapshot)
        case .node(let i):
            let node = tree.nodes[i]
            switch interface {
            case AtspiInterfaces.accessible: return .value(accessibleCall(i, method, args, tree: tree))
            case AtspiInterfaces.component: return .value(componentCall(i, method, args, snapshot: snapshot))
            case AtspiInterfaces.action: return .value(actionCall(node, method, args))
            case AtspiInterfaces.text: return .value(textCall(node, method, args, snapshot: snapshot))
            case AtspiInterfaces.editableText: return .value(editableTextCall(node, method, args))
            case AtspiInterfaces.selection: return .value(selectionCall(i, method, args, tree: tree))
            case AtspiInterfaces.table: return tableCall(i, method, args, tree: tree, invocation: invocation)
            case AtspiInterfaces.tableCell: return .value(tableCellCall(i, method, tree: tree))
            default: return .failure("\(interface) is not served")
            }
        }
    }

    private func applicationCall(_ method: String, _ args: OpaquePointer?, tree: AccessibilityTree) -> AtspiReply {
        let one = { (v: OpaquePointer) in AtspiReply.value(GValue.tuple([v])) }
        switch method {
        case "GetChildAtIndex": return one(GValue.int(args, 0) == 0 ? reference(0, in: tree) : reference(nil, in: tree))
        case "GetChildren": return one(GValue.array(.reference, [reference(0, in: tree)]))
        case "GetIndexInParent": return one(GValue.int32(-1))
        case "GetRelationSet": return one(GValue.array(.relation, []))
        case "GetRole": return one(GValue.uint32(AccessibilityRole.application.atspiRole))
        case "GetRoleName", "GetLocalizedRoleName": return one(GValue.string("application"))
        case "GetState": return one(stateArray([]))
        case "GetAttributes": return one(GValue.stringDictionary([("toolkit", "Tessera")]))
        case "GetApplication": return one(applicationReference)
        case "GetInterfaces":
            return one(
                GValue.array(.string, [AtspiInterfaces.accessible, AtspiInterfaces.application].map(GValue.string)))
        case "GetLocale": return one(GValue.string("en_US.UTF-8"))
        default: return .failure("\(method) is not served")
        }
    }

    func stateArray(_ states: AccessibilityStates) -> OpaquePointer {
        GValue.array(
            .uint32,
            [
                GValue.uint32(UInt32(truncatingIfNeeded: states.rawValue)),
                GValue.uint32(UInt32(truncatingIfNeeded: states.rawValue >> 32)),
            ])
    }

    private func accessibleCall(_ i: Int, _ method: String, _ args: OpaquePointer?, tree: AccessibilityTree)
        -> OpaquePointer
    {
        let node = tree.nodes[i]
        let value: OpaquePointer
        switch method {
        case "GetChildAtIndex":
            let k = GValue.int(args, 0)
            value = reference(node.children.indices.contains(k) ? node.children[k] : nil, in: tree)
        case "GetChildren": value = GValue.array(.reference, node.children.map { reference($0, in: tree) })
        case "GetIndexInParent":
            value = GValue.int32(node.parent.flatMap { tree.nodes[$0].children.firstIndex(of: i) } ?? 0)
        case "GetRelationSet": value = GValue.array(.relation, [])
        case "GetRole": value = GValue.uint32(node.role.atspiRole)
        case "GetRoleName", "GetLocalizedRoleName": value = GValue.string(node.role.atspiName)
        case "GetState": value = stateArray(node.states)
        case "GetAttributes":
            var pairs = [("toolkit", "Tessera"), ("id", String(node.id.raw, radix: 16))]
            if let cell = node.cell, node.role != .columnHeader { pairs.append(("row-index", String(cell.row))) }
            value = GValue.stringDictionary(pairs)
        case "GetApplication": value = applicationReference
        default: value = GValue.array(.string, interfaces(of: node, in: tree).map(GValue.string))  // GetInterfaces
        }
        return GValue.tuple([value])
    }

    private func componentCall(_ i: Int, _ method: String, _ args: OpaquePointer?, snapshot: AccessibilitySnapshot)
        -> OpaquePointer
    {
        let tree = snapshot.tree
        let node = tree.nodes[i]
        let parentFrame = node.parent.map { tree.nodes[$0].frame }
        let e = { (coordinates: Int) in
            self.extents(node.frame, parent: parentFrame, coordinates: coordinates, in: snapshot)
        }
        switch method {
        case "Contains":
            let box = e(GValue.int(args, 2)), x = GValue.int(args, 0), y = GValue.int(args, 1)
            return GValue.tuple([GValue.bool(x >= box.x && y >= box.y && x < box.x + box.w && y < box.y + box.h)])
        case "GetAccessibleAtPoint":
            let coordinates = GValue.int(args, 2), x = GValue.int(args, 0), y = GValue.int(args, 1)
            // The deepest child under the point, topmost (last built) first.
            var hit: Int?
            var candidates = node.children
            while let found = candidates.last(where: { c in
                let box = extents(
                    tree.nodes[c].frame, parent: tree.nodes[i].frame, coordinates: coordinates, in: snapshot)
                return x >= box.x && y >= box.y && x < box.x + box.w && y < box.y + box.h
            }) {
                hit = found
                candidates = tree.nodes[found].children
            }
            return GValue.tuple([reference(hit, in: tree)])
        case "GetExtents":
            let box = e(GValue.int(args, 0))
            return GValue.tuple([
                GValue.tuple([GValue.int32(box.x), GValue.int32(box.y), GValue.int32(box.w), GValue.int32(box.h)])
            ])
        case "GetPosition":
            let box = e(GValue.int(args, 0))
            return GValue.tuple([GValue.int32(box.x), GValue.int32(box.y)])
        case "GetSize":
            let box = e(1)
            return GValue.tuple([GValue.int32(box.w), GValue.int32(box.h)])
        case "GetLayer":
            // window, popup, widget
            return GValue.tuple([GValue.uint32(node.role == .frame ? 7 : node.role == .popupMenu ? 5 : 3)])
        case "GetMDIZOrder": return GValue.tuple([GValue.int16(0)])
        case "GrabFocus":
            guard node.states.contains(.focusable) else { return GValue.tuple([GValue.bool(false)]) }
            return GValue.tuple([GValue.bool(request(.focus(node.id)))])
        case "GetAlpha": return GValue.tuple([GValue.double(1)])
        default: return GValue.tuple([GValue.bool(false)])  // ScrollTo
        }
    }

    private func actionCall(_ node: AccessibilityNode, _ method: String, _ args: OpaquePointer?) -> OpaquePointer {
        let k = GValue.int(args, 0), names = node.actions.names
        let action = names.indices.contains(k) ? names[k] : nil
        switch method {
        case "GetName", "GetLocalizedName": return GValue.tuple([GValue.string(action ?? "")])
        case "GetDescription":
            return GValue.tuple([GValue.string(action.map { $0 == "toggle" ? "Toggles it" : "Activates it" } ?? "")])
        case "GetKeyBinding": return GValue.tuple([GValue.string("")])
        case "GetActions":
            return GValue.tuple([
                GValue.array(
                    .actionEntry,
                    names.map {
                        GValue.tuple([GValue.string($0), GValue.string($0), GValue.string("")])
                    })
            ])
        default:  // DoAction
            guard let action else { return GValue.tuple([GValue.bool(false)]) }
            // A disclosure's header opens on a click; a row that also selects has an action of its own for it.
            let asked = request(
                action == "expand or contract" && node.actions.contains(.click)
                    ? .toggleExpansion(node.id) : .activate(node.id))
            return GValue.tuple([GValue.bool(asked)])
        }
    }

    private func textCall(
        _ node: AccessibilityNode, _ method: String, _ args: OpaquePointer?, snapshot: AccessibilitySnapshot
    ) -> OpaquePointer {
        let scalars = Array((node.text?.string ?? "").unicodeScalars)
        let count = scalars.count
        func clamp(_ v: Int) -> Int { min(max(0, v), count) }
        func slice(_ a: Int, _ b: Int) -> String {
            let lo = clamp(a), hi = b < 0 ? count : clamp(b)
            return lo < hi ? String(String.UnicodeScalarView(scalars[lo..<hi])) : ""
        }
        switch method {
        case "GetText": return GValue.tuple([GValue.string(slice(GValue.int(args, 0), GValue.int(args, 1)))])
        case "GetTextAtOffset", "GetStringAtOffset", "GetTextBeforeOffset", "GetTextAfterOffset":
            let range = TextUnits.range(
                in: scalars, at: GValue.int(args, 0), unit: GValue.int(args, 1),
                shift: method == "GetTextBeforeOffset" ? -1 : method == "GetTextAfterOffset" ? 1 : 0)
            return GValue.tuple([
                GValue.string(slice(range.lowerBound, range.upperBound)), GValue.int32(range.lowerBound),
                GValue.int32(range.upperBound),
            ])
        case "GetCharacterAtOffset":
            let k = GValue.int(args, 0)
            return GValue.tuple([GValue.int32(k >= 0 && k < count ? Int(scalars[k].value) : 0)])
        case "GetNSelections": return GValue.tuple([GValue.int32(node.text?.selection == nil ? 0 : 1)])
        case "GetSelection":
            let s = node.text?.selection ?? 0..<0
            return GValue.tuple([GValue.int32(s.lowerBound), GValue.int32(s.upperBound)])
        case "GetAttributes":
            return GValue.tuple([GValue.stringDictionary([]), GValue.int32(0), GValue.int32(count)])
        case "GetDefaultAttributes", "GetDefaultAttributeSet": return GValue.tuple([GValue.stringDictionary([])])
        case "GetAttributeValue": return GValue.tuple([GValue.string("")])
        case "GetCharacterExtents", "GetRangeExtents":
            let coordinates = GValue.int(args, method == "GetCharacterExtents" ? 1 : 2)
            let box = extents(node.frame, parent: nil, coordinates: coordinates, in: snapshot)
            return GValue.tuple([GValue.int32(box.x), GValue.int32(box.y), GValue.int32(box.w), GValue.int32(box.h)])
        case "GetOffsetAtPoint": return GValue.tuple([GValue.int32(-1)])
        // SetCaretOffset, AddSelection, RemoveSelection, SetSelection
        default: return GValue.tuple([GValue.bool(false)])
        }
    }

    private func editableTextCall(_ node: AccessibilityNode, _ method: String, _ args: OpaquePointer?) -> OpaquePointer
    {
        var scalars = Array((node.text?.string ?? "").unicodeScalars)
        func clamp(_ v: Int) -> Int { min(max(0, v), scalars.count) }
        switch method {
        case "SetTextContents": scalars = Array(GValue.string(args, 0).unicodeScalars)
        case "InsertText":
            scalars.insert(contentsOf: GValue.string(args, 1).unicodeScalars, at: clamp(GValue.int(args, 0)))
        case "DeleteText", "CutText":
            let lo = clamp(GValue.int(args, 0)), hi = max(lo, clamp(GValue.int(args, 1)))
            scalars.removeSubrange(lo..<hi)
        // PasteText: the clipboard is the app's
        default: return method == "CopyText" ? GValue.tuple([]) : GValue.tuple([GValue.bool(false)])
        }
        return GValue.tuple([GValue.bool(request(.setText(node.id, String(String.UnicodeScalarView(scalars)))))])
    }

    private func selectionCall(_ i: Int, _ method: String, _ args: OpaquePointer?, tree: AccessibilityTree)
        -> OpaquePointer
    {
        let node = tree.nodes[i]
        let selected = selectedChildren(i, in: tree)
        let k = GValue.int(args, 0)
        switch method {
        case "GetSelectedChild":
            return GValue.tuple([reference(selected.indices.contains(k) ? selected[k] : nil, in: tree)])
        case "IsChildSelected":
            return GValue.tuple([
                GValue.bool(
                    node.children.indices.contains(k) && tree.nodes[node.children[k]].states.contains(.selected))
            ])
        case "SelectChild":
            guard node.children.indices.contains(k) else { return GValue.tuple([GValue.bool(false)]) }
            // a click selects it
            return GValue.tuple([GValue.bool(request(.activate(tree.nodes[node.children[k]].id)))])
        // Deselect…, SelectAll, ClearSelection: a click cannot say it
        default: return GValue.tuple([GValue.bool(false)])
        }
    }

    /// The table's built row `row`, if the last frame built it.
    private func builtRow(_ row: Int, of table: Int, in tree: AccessibilityTree) -> Int? {
        tree.nodes[table].children.first { tree.nodes[$0].role == .tableRow && tree.nodes[$0].cell?.row == row }
    }

    private func tableCall(
        _ i: Int, _ method: String, _ args: OpaquePointer?, tree: AccessibilityTree, invocation: OpaquePointer
    ) -> AtspiReply {
        let node = tree.nodes[i]
        let rows = node.collection?.rows ?? 0, columns = max(1, node.collection?.columns ?? 1)
        let a = GValue.int(args, 0), b = GValue.int(args, 1)
        let one = { (v: OpaquePointer) in AtspiReply.value(GValue.tuple([v])) }
        let selectedRows = selectedChildren(i, in: tree).compactMap { tree.nodes[$0].cell?.row }
        switch method {
        case "GetAccessibleAt":
            guard a >= 0, a < rows, b >= 0, b < columns else { return one(reference(nil, in: tree)) }
            if let row = builtRow(a, of: i, in: tree),
                let cell = tree.nodes[row].children.first(where: { tree.nodes[$0].cell?.column == b })
            {
                return one(reference(cell, in: tree))
            }
            // Not built: the main thread reads the cell at the next frame and answers then.
            let queued = shared.withLock { state -> Bool in
                guard state.cellQueries.count < Self.pendingLimit else { return false }
                state.cellQueries.append(CellQuery(invocation: invocation, table: node.id, row: a, column: b))
                return true
            }
            guard queued else { return .failure("too many cells asked for at once; ask again after the next frame") }
            FrameWaker.wake()
            return .later
        case "GetIndexAt": return one(GValue.int32(a * columns + b))
        case "GetRowAtIndex": return one(GValue.int32(a >= 0 ? a / columns : -1))
        case "GetColumnAtIndex": return one(GValue.int32(a >= 0 ? a % columns : -1))
        case "GetRowDescription": return one(GValue.string(""))
        case "GetColumnDescription":
            let titles = node.collection?.columnTitles ?? []
            return one(GValue.string(titles.indices.contains(a) ? titles[a] : ""))
        case "GetRowExtentAt", "GetColumnExtentAt": return one(GValue.int32(1))
        case "GetRowHeader": return one(reference(nil, in: tree))
        case "GetColumnHeader":
            return one(
                reference(
                    node.children.first { tree.nodes[$0].role == .columnHeader && tree.nodes[$0].cell?.column == a },
                    in: tree))
        case "GetSelectedRows": return one(GValue.array(.int32, selectedRows.map { GValue.int32($0) }))
        case "GetSelectedColumns": return one(GValue.array(.int32, []))
        case "IsRowSelected": return one(GValue.bool(selectedRows.contains(a)))
        case "IsSelected": return one(GValue.bool(selectedRows.contains(a)))
        case "IsColumnSelected": return one(GValue.bool(false))
        case "AddRowSelection":
            guard let row = builtRow(a, of: i, in: tree) else { return one(GValue.bool(false)) }
            return one(GValue.bool(request(.activate(tree.nodes[row].id))))
        case "GetRowColumnExtentsAtIndex":
            let row = a / columns, column = a % columns
            return .value(
                GValue.tuple([
                    GValue.bool(a >= 0 && row < rows), GValue.int32(row), GValue.int32(column), GValue.int32(1),
                    GValue.int32(1), GValue.bool(selectedRows.contains(row)),
                ]))
        default: return one(GValue.bool(false))
        }
    }

    private func tableCellCall(_ i: Int, _ method: String, tree: AccessibilityTree) -> OpaquePointer {
        let node = tree.nodes[i]
        switch method {
        case "GetColumnHeaderCells":
            let table = enclosingTable(i, in: tree)
            let header = table.flatMap { t in
                tree.nodes[t].children.first {
                    tree.nodes[$0].role == .columnHeader && tree.nodes[$0].cell?.column == node.cell?.column
                }
            }
            return GValue.tuple([GValue.array(.reference, header.map { [reference($0, in: tree)] } ?? [])])
        case "GetRowHeaderCells": return GValue.tuple([GValue.array(.reference, [])])
        default:  // GetRowColumnSpan
            return GValue.tuple([
                GValue.int32(node.cell?.row ?? 0), GValue.int32(node.cell?.column ?? 0), GValue.int32(1),
                GValue.int32(1),
            ])
        }
    }

    private func madeCellCall(
        _ cell: MadeCell, _ method: String, _ args: OpaquePointer?, tree: AccessibilityTree,
        snapshot: AccessibilitySnapshot
    ) -> AtspiReply {
        let one = { (v: OpaquePointer) in AtspiReply.value(GValue.tuple([v])) }
        switch method {
        case "GetRole": return one(GValue.uint32(AccessibilityRole.tableCell.atspiRole))
        case "GetRoleName", "GetLocalizedRoleName": return one(GValue.string(AccessibilityRole.tableCell.atspiName))
        case "GetState": return one(stateArray([.enabled, .sensitive, .visible, .selectable]))
        case "GetChildren": return one(GValue.array(.reference, []))
        case "GetChildAtIndex": return one(reference(nil, in: tree))
        case "GetIndexInParent": return one(GValue.int32(-1))
        case "GetRelationSet": return one(GValue.array(.relation, []))
        case "GetAttributes": return one(GValue.stringDictionary([("row-index", String(cell.row))]))
        case "GetApplication": return one(applicationReference)
        case "GetInterfaces":
            return one(
                GValue.array(
                    .string,
                    interfaces(
                        of: String(
                            Self.madeCellPath(
                                table: cell.table, row: cell.row,
                                column: cell.column
                            ).dropFirst(Self.objectPrefix.count + 1))
                    ).map(GValue.string)))
        case "GetText":
            let scalars = Array(cell.text.unicodeScalars)
            let lo = min(max(0, GValue.int(args, 0)), scalars.count), end = GValue.int(args, 1)
            let hi = end < 0 ? scalars.count : min(max(lo, end), scalars.count)
            return one(GValue.string(String(String.UnicodeScalarView(scalars[lo..<hi]))))
        case "GetRowColumnSpan":
            return .value(
                GValue.tuple([GValue.int32(cell.row), GValue.int32(cell.column), GValue.int32(1), GValue.int32(1)]))
        case "GetColumnHeaderCells", "GetRowHeaderCells": return one(GValue.array(.reference, []))
        case "GetExtents":
            return one(GValue.tuple([GValue.int32(0), GValue.int32(0), GValue.int32(0), GValue.int32(0)]))
        default: return .failure("\(method) is not served for a cell scrolled out of view")
        }
    }
}

/// AT-SPI's text units (`AtspiTextBoundaryType` / granularity): a character, a word, a
/// sentence, a line; for the small texts of labels and fields.
enum TextUnits {
    /// The range of the unit `unit` (0 character, 1–2 word, 3–4 sentence, 5–6 line) at
    /// `offset`, or the one before (`shift` -1) or after (+1).
    static func range(in scalars: [Unicode.Scalar], at offset: Int, unit: Int, shift: Int) -> Range<Int> {
        let count = scalars.count
        guard count > 0 else { return 0..<0 }
        let at = min(max(0, offset), count)
        func unitRange(_ k: Int) -> Range<Int>? {
            guard k >= 0 && k <= count else { return nil }
            switch unit {
            case 0: return k < count ? k..<(k + 1) : nil
            case 1, 2:
                var lo = min(k, count - 1), hi = lo
                if scalars[lo].properties.isWhitespace { return lo..<(lo + 1) }
                while lo > 0 && !scalars[lo - 1].properties.isWhitespace { lo -= 1 }
                while hi < count && !scalars[hi].properties.isWhitespace { hi += 1 }
                return lo..<hi
            default:
                var lo = min(k, count - 1), hi = lo
                while lo > 0 && scalars[lo - 1] != "\n" { lo -= 1 }
                while hi < count && scalars[hi] != "\n" { hi += 1 }
                return lo..<min(count, hi + 1)
            }
        }
        guard let here = unitRange(at) else { return at..<at }
        switch shift {
        case -1: return here.lowerBound > 0 ? (unitRange(here.lowerBound - 1) ?? here) : 0..<0
        case 1: return here.upperBound < count ? (unitRange(here.upperBound) ?? here) : count..<count
        default: return here
        }
    }
}
