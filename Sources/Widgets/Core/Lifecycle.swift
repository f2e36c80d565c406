/// What the lifecycle hooks keep between frames: per hook, the frame it was last built in,
/// and what to do when it is not built in a frame (cancel its task, run its disappear action).
struct LifecycleHooks {
    struct Entry {
        var lastFrame: Int
        var task: Task<Void, Never>? = nil
        var taskID: AnyHashable? = nil
        var onDisappear: (@MainActor () -> Void)? = nil
        var value: Any? = nil
    }

    var entries: [WidgetID: Entry] = [:]
    /// Hooks of each kind built so far this frame in each ID scope: a hook's place among them names it.
    var builtInScope: [WidgetID: Int] = [:]

    /// The hooks not built in frame `frame`, removed.
    mutating func takeUnbuilt(before frame: Int) -> [Entry] {
        builtInScope.removeAll(keepingCapacity: true)
        guard entries.contains(where: { $0.value.lastFrame < frame }) else { return [] }
        var gone: [Entry] = []
        entries = entries.filter { _, entry in
            if entry.lastFrame >= frame { return true }
            gone.append(entry)
            return false
        }
        return gone
    }
}

// SwiftUI's `task`, `onAppear`, `onDisappear` and `onChange`, for the immediate mode: a hook
// belongs to the place in the UI where it is called (its ID scope, and its order among the
// hooks of its kind in that scope), is "built" in each frame that calls it, and disappears at
// the end of the first frame that does not. Call a hook inside `withID` to tie it to one
// widget, row or page: its life is then that widget's.
extension UI {
    /// Starts `action` on the main actor when this point of the UI is first built, and cancels
    /// it at the end of the first frame that does not build it, or when `id` changes (then a
    /// new one starts). Each time `action` resumes on the main actor a frame runs, so what it
    /// set is drawn; while it waits, an idle app draws nothing.
    ///
    /// ```swift
    /// ui.withID("preview") {
    ///     ui.task(id: selectedFile) {
    ///         let text = await loadPreview(selectedFile)   // off the main actor
    ///         guard !Task.isCancelled else { return }
    ///         preview = text                               // drawn in the next frame
    ///     }
    ///     ui.text(preview)
    /// }
    /// ```
    public func task<ID: Hashable>(
        id: ID, priority: TaskPriority = .userInitiated,
        _ action: @escaping @MainActor () async -> Void
    ) {
        let key = hookKey("task")
        var entry = lifecycle.entries[key] ?? LifecycleHooks.Entry(lastFrame: frameIndex)
        entry.lastFrame = frameIndex
        let id = AnyHashable(id)
        if entry.task == nil || entry.taskID != id {
            entry.task?.cancel()
            entry.taskID = id
            entry.task = Task(priority: priority) { @MainActor in await action() }
        }
        lifecycle.entries[key] = entry
    }

    /// Starts `action` on the main actor when this point of the UI is first built, and cancels
    /// it at the end of the first frame that does not build it (`task(id:priority:_:)` with a
    /// constant ID).
    ///
    /// ```swift
    /// ui.task { for await line in log.lines { lines.append(line) } }
    /// ```
    public func task(priority: TaskPriority = .userInitiated, _ action: @escaping @MainActor () async -> Void) {
        task(id: 0, priority: priority, action)
    }

    /// Runs `action` in the first frame that builds this point of the UI (again after a frame
    /// that did not), before anything built after it. A frame follows, so what it changed is
    /// drawn everywhere.
    ///
    /// ```swift
    /// if showsDetails { ui.withID("details") { ui.onAppear { loadDetails() }; details(ui) } }
    /// ```
    public func onAppear(_ action: () -> Void) {
        let key = hookKey("appear")
        if lifecycle.entries[key] == nil {
            action()
            requestRedraw()
        }
        lifecycle.entries[key, default: LifecycleHooks.Entry(lastFrame: frameIndex)].lastFrame = frameIndex
    }

    /// Runs `action` at the end of the first frame that does not build this point of the UI
    /// (the last `action` it was given). A frame follows, so what it changed is drawn.
    ///
    /// ```swift
    /// ui.withID("player") { ui.onDisappear { player.pause() }; playerView(ui) }
    /// ```
    public func onDisappear(_ action: @escaping @MainActor () -> Void) {
        let key = hookKey("disappear")
        var entry = lifecycle.entries[key] ?? LifecycleHooks.Entry(lastFrame: frameIndex)
        entry.lastFrame = frameIndex
        entry.onDisappear = action
        lifecycle.entries[key] = entry
    }

    /// Runs `action(old, new)` in the frame that builds this point with a `value` different
    /// from the one the previous frame built it with; with `initial`, also when it first
    /// appears (then old and new are equal). A frame follows, so what it changed is drawn.
    ///
    /// ```swift
    /// ui.onChange(of: filterText) { _, new in rows = allRows.filter { $0.matches(new) } }
    /// ```
    public func onChange<Value: Equatable>(
        of value: Value, initial: Bool = false,
        _ action: (_ oldValue: Value, _ newValue: Value) -> Void
    ) {
        let key = hookKey("change")
        let previous = lifecycle.entries[key].map { $0.value as? Value }
        lifecycle.entries[key] = LifecycleHooks.Entry(lastFrame: frameIndex, value: value)
        switch previous {
        case nil where initial:
            action(value, value)
        case .some(let previous?) where previous != value:
            action(previous, value)
        case .some(nil):  // the same place held a value of another type: a new one
            if initial { action(value, value) }
        default:
            return
        }
        requestRedraw()
    }

    /// The key of the next hook of `kind` in the current ID scope.
    private func hookKey(_ kind: String) -> WidgetID {
        let scope = WidgetID(parent: idStack[idStack.count - 1], kind)
        let place = lifecycle.builtInScope[scope, default: 0]
        lifecycle.builtInScope[scope] = place + 1
        return WidgetID(parent: scope, index: place)
    }

    /// Ends the hooks this frame did not build: cancels their tasks, runs their disappear actions.
    func endLifecycleFrame() {
        let gone = lifecycle.takeUnbuilt(before: frameIndex)
        for entry in gone {
            entry.task?.cancel()
            if let action = entry.onDisappear {
                action()
                requestRedraw()
            }
        }
    }
}
