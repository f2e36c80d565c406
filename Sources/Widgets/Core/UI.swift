import Render2D
import Imaging
import Profiling

/// What a widget's rectangle should react to.
public struct Sense: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Reacts to clicks (and taps).
    public static let click = Sense(rawValue: 1)
    /// Keeps the pointer while dragging, even against a touch scroll.
    public static let drag = Sense(rawValue: 2)
    /// Takes keyboard focus when clicked, and is a stop of the Tab order.
    public static let focus = Sense(rawValue: 4)
    /// Space or Return while it has keyboard focus counts as a click.
    public static let activate = Sense(rawValue: 8)
    /// Takes keyboard focus when clicked, but is no Tab stop (selectable text).
    public static let clickFocus = Sense(rawValue: 16)
}

/// The result of `UI.interact`: what the pointer did to a widget this frame.
public struct Interaction: Sendable {
    public var id: WidgetID
    /// The widget's rectangle, in logical pixels.
    public var rect: Rect
    /// The pointer is over the widget (and no popup hides it).
    public var isHovered = false
    /// The widget holds the pointer (pressed on it and not yet released).
    public var isActive = false
    /// The widget became active with this frame (the press landed on it last frame).
    public var pressed = false
    /// Released over the widget after pressing it (a touch only when it was a tap).
    public var clicked = false
    /// The second click of a double click landed on the widget this frame.
    public var doubleClicked = false
    /// Right click or touch long-press.
    public var secondaryClicked = false
    /// Pointer motion this frame while active.
    public var dragDelta = Point.zero
}

/// A region a widget drew, noted for tests (`UI.recordsDrawnText`): the finders of
/// `TesseraTesting` look for a label inside one.
@usableFromInline
package struct Landmark: Sendable {
    /// What the region is.
    @usableFromInline
    package enum Kind: Sendable { case tableHeader, tableRows, list, popup }
    package let kind: Kind
    /// The widget's name (a popup's: the name it was opened with).
    package let name: String
    /// Where, in logical pixels.
    package let rect: Rect
}

/// Widget state kept by the `UI` between frames.
@usableFromInline
final class StateBox<Value>: AnyStateBox {
    // Read and written by every stateful widget every frame, on the main actor, never while
    // a write is under way: no dynamic exclusivity check (see `UI`'s note on the others).
    @exclusivity(unchecked) @usableFromInline var value: Value
    init(_ value: Value, frame: Int) {
        self.value = value
        super.init(frame: frame)
    }
}
@usableFromInline
class AnyStateBox {
    @exclusivity(unchecked) var lastUsedFrame: Int
    init(frame: Int) { lastUsedFrame = frame }
}

/// The immediate-mode context of one window: input, IDs, per-ID state, hot/active/focus,
/// layout cursor, theme and the draw lists of the content and overlay layers.
///
/// Each frame the app calls widget methods on it; each widget computes its rectangle,
/// handles its input, reads and writes its state by ID and appends to the draw list.
///
/// ```swift
/// host.run { ui in
///     ui.vstack {
///         ui.text("Hello")
///         if ui.button("Press me") { count += 1 }
///     }
/// }
/// ```
@MainActor
public final class UI {
    /// The fonts the widgets draw with.
    public let fonts: FontLibrary
    // The properties marked `@exclusivity(unchecked)` are read by widgets thousands of times a
    // frame, on the main actor, and never while they are being written; checked, each read is
    // a runtime call that records the access (about 10 % of a frame's build, measured).
    /// The colors and metrics of the widgets; assign to restyle.
    @exclusivity(unchecked) public var theme: Theme
    /// This frame's input: the pointer, keys, text, fingers, wheel.
    @exclusivity(unchecked) public internal(set) var input = InputState()
    /// Physical pixels per logical pixel.
    @exclusivity(unchecked) public private(set) var scale = 1.0
    /// The viewport, logical pixels.
    @exclusivity(unchecked) public private(set) var size = Size(1, 1)
    /// Seconds since an arbitrary origin; drives animations, double clicks and long presses.
    @exclusivity(unchecked) public private(set) var time = 0.0
    /// Seconds since the previous frame.
    public private(set) var deltaTime = 1.0 / 60
    /// The number of this frame, counted from the first.
    @exclusivity(unchecked) public private(set) var frameIndex = 0

    /// The widget under the pointer this frame (the last one hovered: the topmost).
    @exclusivity(unchecked) public private(set) var hotID: WidgetID?
    /// The widget holding the pointer.
    @exclusivity(unchecked) public internal(set) var activeID: WidgetID?
    /// The widget receiving keyboard input.
    @exclusivity(unchecked) public internal(set) var focusID: WidgetID?
    /// The cursor requested for this frame.
    public internal(set) var cursor: CursorKind = .arrow
    /// Frames after which an unused state entry is dropped.
    public var stateLifetimeFrames = 600
    /// The profiler that records this UI's scopes (`AppHost` sets its own).
    public var profiler: FrameProfiler?

    // Every widget draws through `drawList` (hundreds of times a frame). The UI is confined to
    // the main thread and nothing draws into a layer while appending to it, so the layers
    // carry no dynamic exclusivity check (it cost about 5 % of a table frame's instructions).
    @exclusivity(unchecked) var content = DrawList()
    @exclusivity(unchecked) var overlayList = DrawList()
    @exclusivity(unchecked) var drawingOverlay = false
    // So are the ID scopes, the widgets' state and the layout frames, which every widget
    // reads: a table checked them on every row it drew (about 4 % of its frame).
    @exclusivity(unchecked) var idStack: [WidgetID] = [.root]
    @exclusivity(unchecked) var store: [WidgetID: AnyStateBox] = [:]
    @exclusivity(unchecked) var layoutStack: [LayoutFrame] = []
    /// The wrapping rows being built, innermost last (`LayoutFrame.wrapSlot`).
    var wrapLayouts: [WrapLayout] = []
    @exclusivity(unchecked) var pressCandidate: (id: WidgetID, sense: Sense)?
    @exclusivity(unchecked) var activeSinceFrame = 0
    var focusClaimedThisFrame = false
    /// This frame's focusable widgets in build order (the Tab order).
    @exclusivity(unchecked) var focusChain: [FocusEntry] = []
    var focusIsVisible = false
    /// Keys whose presses a widget handled this frame (`consumeKey`).
    @exclusivity(unchecked) var consumedKeys: Set<Int32> = []
    /// A drop target took this frame's drop (`onDrop`).
    var dropTaken = false
    /// The drag within the window under way (`draggable`), if any.
    @exclusivity(unchecked) var dragSession: DragSession?
    /// The press whose drag Escape cancelled: it does not start another.
    @exclusivity(unchecked) var cancelledDragPress: Double?
    /// The menu (popup) being built: its items count themselves for keyboard navigation.
    var menuState = MenuBuildState()
    /// Inside `textSelection(.enabled)`.
    var textIsSelectable = false
    /// How wrapped text's lines align (`multilineTextAlignment`).
    var multilineAlignment = TextAlignment.leading
    /// Where text too long for its space is cut, as the enclosing `truncationMode(_:_:)` says
    /// (`.tail` outside any): for widgets of your own that draw text.
    ///
    /// ```swift
    /// ui.font.draw(title, in: rect, color: ui.theme.text, truncation: ui.truncation, into: &ui.drawList)
    /// ```
    public internal(set) var truncation = TruncationMode.tail
    /// Popup rectangles drawn last frame / this frame: input under them goes to the popup.
    var popupRects: [Rect] = []
    var popupRectsThisFrame: [Rect] = []
    var openPopups: [PopupRecord] = []
    var tooltipText: String?
    var scrollStack: [(WidgetID, Rect)] = []
    /// Rows asked to be scrolled to (`scrollTable(_:toRow:anchor:)`), by table, until it is built.
    @usableFromInline var pendingRowScrolls: [WidgetID: (id: AnyHashable, anchor: ScrollAnchor?)] = [:]
    /// Columns asked to be scrolled into view (`scrollTable(_:toRow:column:anchor:)`), by table.
    @usableFromInline var pendingColumnScrolls: [WidgetID: String] = [:]
    /// Items of lazy stacks and grids asked to be scrolled to, by widget, until it is built.
    var pendingItemScrolls: [WidgetID: (index: Int, anchor: ScrollAnchor?)] = [:]
    /// The lists whose content is being built (innermost last).
    @usableFromInline var listStack: [ListCollector] = []
    /// Which way the layout reads: right to left mirrors stacks, splits, navigation columns,
    /// chevrons, swipe actions, table columns and scrollbars (text and images keep their
    /// orientation, and leading text aligns right). `AppHost` sets it from the locale
    /// (`LANG` of ar, he, fa or ur); set it to override.
    ///
    /// ```swift
    /// ui.layoutDirection = .rightToLeft
    /// ```
    @exclusivity(unchecked) public var layoutDirection = LayoutDirection.leftToRight
    /// The textures of the `ImageBitmap`s drawn (`image`); the host gives it the window's renderer.
    let bitmapTextures = BitmapTextures()
    /// The animation of the last `withAnimation`, and the last frame it applies to.
    var transaction: (animation: Animation, untilFrame: Int)?
    /// Reduce motion (GNOME's `enable-animations` off, or `TESSERA_REDUCE_MOTION=1`; `AppHost`
    /// follows both): animations and transitions jump to their end.
    @exclusivity(unchecked) public var reducesMotion = false
    /// The rows of columns (`columns`) being built, innermost last.
    var columnCollectors: [ColumnCollector] = []
    /// The `viewThatFits` being built, innermost last.
    var alternativeCollectors: [AlternativeCollector] = []
    /// The least width the rows of columns built since the innermost `viewThatFits` began need.
    var columnMinimumNeeded = 0.0
    /// This frame's columns with their widths and minimums (`recordsDrawnText` on), for tests.
    package private(set) var columnReports: [ColumnReport] = []
    /// The tab views whose tabs are being built (innermost last).
    var tabCollectors: [TabCollector] = []
    /// The navigation stacks whose pages are being built (innermost last).
    var navigationStacks: [NavigationStackContext] = []
    /// The toolbars whose items are being built (innermost last).
    var toolbarStack: [ToolbarCollector] = []
    /// The forms being built: controls inside take the label | control row layout.
    var formStack: [FormContext] = []
    /// Regions widgets drew this frame, for tests to scope their finders (`recordsDrawnText` on).
    package private(set) var landmarks: [Landmark] = []
    /// The menu bars being built (`menuBar`), innermost last.
    var menuBarStack: [MenuBarContext] = []
    /// Whether a text field or editor had the keyboard in the last frame: shortcuts leave its keys alone.
    @exclusivity(unchecked) var textInputFocusedLastFrame = false
    /// The dialog or sheet that was up last frame, if any: only what it builds gets input.
    @exclusivity(unchecked) var modalLastFrame: WidgetID?
    @exclusivity(unchecked) var modalThisFrame: WidgetID?
    /// Whether a dialog is building its content now.
    @exclusivity(unchecked) var buildingModal = false
    /// This frame's keys and typed text while a dialog is up: only the dialog sees them.
    var modalKeyboard: (keys: [KeyPress], typing: [TypedInput], text: String) = ([], [], "")
    /// The `task`, `onAppear`, `onDisappear` and `onChange` hooks built in recent frames.
    var lifecycle = LifecycleHooks()
    /// A text field has focus this frame: the host should enable SDL text input (and IME).
    @exclusivity(unchecked) public internal(set) var wantsTextInput = false
    /// Where the focused text field is, for placing the IME candidate window.
    public internal(set) var textInputRect = Rect.zero
    /// Where state that survives restarts goes (split positions...); nil keeps it in memory.
    public var persistentStore: PersistentStore?
    /// This frame's input events, as delivered (for input inspectors and logs).
    public private(set) var frameEvents: [InputEvent] = []
    /// Lazy thumbnails for image cells (`AppHost` runs its frame hooks); nil = no images.
    @exclusivity(unchecked) public var images: ImagePipeline?
    /// Where copy and paste go: the system clipboard in an `AppHost` (SDL's, shared with other
    /// apps), a `MemoryClipboard` otherwise. Text fields use it; so can your menus.
    ///
    /// ```swift
    /// if ui.menuItem("Copy Path") { ui.clipboard.text = file.path }
    /// ```
    public var clipboard: Clipboard = MemoryClipboard()
    /// What opens a URL (SwiftUI's `openURL` action): `link` calls it. The desktop's default
    /// program for the URL (`DesktopURLOpener`) unless the app, or a test, sets its own.
    ///
    /// ```swift
    /// if ui.button("Help") { _ = ui.openURL("https://example.org/help") }
    /// ```
    public var openURL: (String) -> Bool = { DesktopURLOpener.open($0) }
    /// Which chooser `fileImporter` and `fileExporter` show: the desktop's portal when there is
    /// one (`.automatic`), or always Tessera's own (`.builtIn`, what tests want).
    public var fileChooserBackend = FileChooserBackend.automatic
    @exclusivity(unchecked) var hoverStart: (id: WidgetID, time: Double)?
    /// When this frame asked for the next one (`time` scale); nil: only input or a wake-up.
    @exclusivity(unchecked) public private(set) var redrawTime: Double?
    /// Whether widgets report themselves to screen readers (`accessibilityTree`). The AT-SPI
    /// bridge turns it on while a screen reader listens, `TesseraTesting` for its queries;
    /// off, nothing is built and reporting costs a branch a widget.
    @exclusivity(unchecked) public var isAccessibilityEnabled = false
    /// The window's name in the accessibility tree (its title).
    public var accessibilityTitle = ""
    /// The last frame's widgets as a screen reader sees them (empty while accessibility is off).
    public internal(set) var accessibilityTree = AccessibilityTree()
    /// This frame's tree, while it is built.
    /// (Touched by every widget while accessibility is on: no dynamic exclusivity check, as for the layers above.)
    @exclusivity(unchecked) var accessibility = AccessibilityCollector()
    /// Requests for the next frame (`perform`), and this frame's.
    var queuedAccessibilityRequests: [AccessibilityRequest] = []
    /// Outline rows a screen reader opened or closed while a list drew them, applied once it has.
    var listAccessibilityToggles: [() -> Void] = []
    /// This frame's tables: the text of any cell, for a screen reader asking for one not built.
    var accessibilityCellText: [WidgetID: (Int, Int) -> String] = [:]
    var accessibilityRequests = AccessibilityRequests()
    /// How many `disabled(true)` wrappers the widget being built is inside.
    @exclusivity(unchecked) var disabledDepth = 0
    /// The window this UI draws, and what its frame asked of the host (`openWindow`).
    var windowScene = WindowScene()

    /// A UI drawing with `fonts` in `theme`; `AppHost` makes one.
    public init(fonts: FontLibrary, theme: Theme = .light) {
        self.fonts = fonts
        self.theme = theme
    }

    // MARK: Frame

    /// Starts a frame: applies `events`, resets the layers and the layout to the viewport.
    public func beginFrame(events: [InputEvent], size: Size, scale: Double, time: Double) {
        frameIndex += 1
        frameEvents = events
        deltaTime = frameIndex > 1 ? min(max(time - self.time, 0), 0.25) : 1.0 / 60
        self.time = time
        self.size = Size(max(1, size.width), max(1, size.height))
        self.scale = scale > 0 && scale.isFinite ? scale : 1
        // A right-to-left layout is laid out left to right and mirrored at the end of the
        // frame: the input is mirrored to meet it (the arrows swap, but not in a text field).
        let mirrored = layoutDirection == .rightToLeft
        input.beginFrame(
            events: mirrored
                ? events.map { Self.mirrored($0, width: self.size.width, swapsArrows: !textInputFocusedLastFrame) }
                : events,
            time: time)
        let atlas = fonts.atlas
        atlas.beginFrame()  // before anything of this frame is drawn
        content.reset(scale: self.scale, solidTexture: atlas.whiteTexture, whiteUV: atlas.whiteUV)
        overlayList.reset(scale: self.scale, solidTexture: atlas.whiteTexture, whiteUV: atlas.whiteUV)
        content.isMirrored = mirrored
        overlayList.isMirrored = mirrored
        drawingOverlay = false
        hotID = nil
        cursor = .arrow
        pressCandidate = nil
        focusClaimedThisFrame = false
        focusChain.removeAll(keepingCapacity: true)
        consumedKeys.removeAll(keepingCapacity: true)
        dropTaken = false
        tooltipText = nil
        wantsTextInput = false
        idStack = [.root]
        landmarks.removeAll(keepingCapacity: true)
        columnReports.removeAll(keepingCapacity: true)
        redrawTime = nil
        layoutStack = [
            LayoutFrame(
                axis: .vertical, rect: Rect(origin: .zero, size: self.size), spacing: theme.spacing,
                alignment: .start)
        ]
        dismissPopupsOnOutsidePress()
        takeAccessibilityRequests()
        beginAccessibilityFrame()
        if modalLastFrame != nil {
            modalKeyboard = (input.keys, input.typing, input.text)
            input.keys = []
            input.typing = []
            input.text = ""
        }
    }

    /// Ends the frame: resolves the press, focus and popups, drops stale state.
    public func endFrame() {
        if let candidate = pressCandidate {
            activeID = candidate.id
            activeSinceFrame = frameIndex
            if !candidate.sense.isDisjoint(with: [.focus, .clickFocus]) {
                focusID = candidate.id
                focusClaimedThisFrame = true
            }
        }
        if input.pointer.pressed && !focusClaimedThisFrame && modalLastFrame == nil { focusID = nil }
        if modalLastFrame != nil { input.keys = modalKeyboard.keys }  // Tab moves focus among the dialog's widgets
        finishKeyboardFocus()
        // A touch held still becomes a long-press on time, with no event to wake the loop.
        let p = input.pointer
        if p.kind == .touch, p.isDown, !p.isDragging, !p.longPressFired {
            requestRedraw(after: p.pressTime + input.settings.longPressDuration - time)
        }
        if !input.pointer.isDown && !input.pointer.released { activeID = nil }
        finishDrag()
        drawTooltip()
        popupRects = popupRectsThisFrame
        popupRectsThisFrame.removeAll(keepingCapacity: true)
        openPopups.removeAll { $0.lastFrame < frameIndex }
        endLifecycleFrame()
        endAccessibilityFrame()
        textInputFocusedLastFrame = wantsTextInput
        modalLastFrame = modalThisFrame
        modalThisFrame = nil
        if layoutDirection == .rightToLeft {
            content.mirror(width: size.width)
            overlayList.mirror(width: size.width)
            textInputRect.x = size.width - textInputRect.maxX
        }
        if frameIndex % 60 == 0 {
            collectStaleState()
            bitmapTextures.sweep(frame: frameIndex)
        }
    }

    /// Whether both layers note the text they draw (`DrawList.drawnText`), so that a test can
    /// find a widget by its label. Off by default; `TesseraTesting.Harness` turns it on.
    public var recordsDrawnText: Bool {
        get { content.recordsText }
        set {
            content.recordsText = newValue
            overlayList.recordsText = newValue
        }
    }

    /// Notes that the widget `name` drew its `kind` of region at `rect` (logical), when
    /// text is recorded: `TesseraTesting` finds a label inside it.
    @usableFromInline
    func noteLandmark(_ kind: Landmark.Kind, _ name: String, _ rect: Rect) {
        if content.recordsText { landmarks.append(Landmark(kind: kind, name: name, rect: rect)) }
    }

    /// Notes a column's width against its minimum for tests (`recordsDrawnText`): columns of
    /// rows, split panes, navigation columns.
    func noteColumn(_ name: String, width: Double, minimum: Double) {
        if content.recordsText { columnReports.append(ColumnReport(name: name, width: width, minimum: minimum)) }
    }

    /// The content layer's geometry for this frame.
    public var contentDrawList: DrawList { content }
    /// The overlay layer (popups, menus, tooltips), drawn above the content.
    public var overlayDrawList: DrawList { overlayList }

    /// The draw list widgets append to: the overlay while building a popup, else the content.
    public var drawList: DrawList {
        // Read in place: a getter would copy the list, retaining each of its buffers, for
        // every `drawList.clipRect` a widget asks.
        _read {
            if drawingOverlay { yield overlayList } else { yield content }
        }
        _modify {
            if drawingOverlay { yield &overlayList } else { yield &content }
        }
    }

    /// Runs `body` drawing into the overlay layer, above all content.
    public func inOverlay(_ body: () -> Void) {
        let was = drawingOverlay
        drawingOverlay = true
        body()
        drawingOverlay = was
    }

    // MARK: Frames on demand

    /// Asks for another frame as soon as the display can show it, without waiting for input.
    /// Call it every frame while something moves on its own: an animation, momentum, a
    /// progress cue. The host paces such frames at the display's refresh rate. Work that
    /// finishes on another thread wakes the loop with `FrameWaker.wake()` instead.
    ///
    /// ```swift
    /// if spinnerVisible { drawSpinner(angle: ui.time * 4); ui.requestRedraw() }
    /// ```
    public func requestRedraw() { requestRedraw(after: 0) }

    /// Asks for a frame `seconds` from now (a timer: a caret blink, a tooltip delay, a long
    /// press). The earliest request of a frame wins; nothing is drawn in between unless
    /// something else asks.
    ///
    /// ```swift
    /// ui.requestRedraw(after: 0.5 - hoverDuration(id))   // the tooltip appears on time
    /// ```
    public func requestRedraw(after seconds: Double) {
        guard seconds.isFinite else { return }  // NaN or never: no timer
        let due = time + max(0, seconds)
        redrawTime = min(redrawTime ?? due, due)
    }

    // MARK: Fonts

    /// The body font at the current scale.
    public var font: Font { fonts.font(size: theme.fontSize, scale: scale) }
    /// The font of `size` logical pixels and `weight` at the current scale.
    public func font(size: Double, weight: FontWeight = .regular) -> Font {
        fonts.font(size: size, weight: weight, scale: scale)
    }

    // MARK: IDs

    /// The ID of `label` in the current ID scope.
    public func id(_ label: String) -> WidgetID { WidgetID(parent: idStack[idStack.count - 1], label) }
    /// The ID of the `index`th item in the current ID scope.
    public func id(index: Int) -> WidgetID { WidgetID(parent: idStack[idStack.count - 1], index: index) }

    /// Builds `body` in the ID scope of `label`, so identical labels inside do not collide.
    @discardableResult
    public func withID<R>(_ label: String, _ body: () throws -> R) rethrows -> R {
        idStack.append(id(label))
        defer { idStack.removeLast() }
        return try body()
    }
    /// Builds `body` in the ID scope of item `index`, so that identical labels in rows built by a loop do not collide.
    @discardableResult
    public func withID<R>(index: Int, _ body: () throws -> R) rethrows -> R {
        idStack.append(id(index: index))
        defer { idStack.removeLast() }
        return try body()
    }
    @usableFromInline
    func withID<R>(_ id: WidgetID, _ body: () throws -> R) rethrows -> R {
        idStack.append(id)
        defer { idStack.removeLast() }
        return try body()
    }

    // MARK: State

    /// The state stored for `id`, created with `initial` on first use. Entries unused for
    /// `stateLifetimeFrames` frames are dropped.
    @usableFromInline
    func stateBox<Value>(_ id: WidgetID, _ initial: @autoclosure () -> Value) -> StateBox<Value> {
        if let box = store[id] as? StateBox<Value> {
            box.lastUsedFrame = frameIndex
            return box
        }
        let box = StateBox(initial(), frame: frameIndex)
        store[id] = box
        return box
    }

    /// Reads the state for `id` (the initial value when there is none yet).
    public func state<Value>(_ id: WidgetID, default initial: @autoclosure () -> Value) -> Value {
        stateBox(id, initial()).value
    }
    /// Replaces the state for `id`.
    public func setState<Value>(_ id: WidgetID, _ value: Value) {
        stateBox(id, value).value = value
    }
    /// Mutates the state for `id` in place.
    public func withState<Value, R>(
        _ id: WidgetID, default initial: @autoclosure () -> Value,
        _ body: (inout Value) -> R
    ) -> R {
        body(&stateBox(id, initial()).value)
    }

    /// Whether widgets built now get input: always, unless a dialog is up and they are not in it.
    var modalAllowsInput: Bool { modalLastFrame == nil || buildingModal }

    /// Whether a dialog or sheet is up: the rest of the window takes no input until it closes.
    public var isShowingDialog: Bool { modalLastFrame != nil || modalThisFrame != nil }

    /// Number of live state entries (for tests and the HUD).
    public var stateCount: Int { store.count }

    private func collectStaleState() {
        let cutoff = frameIndex - stateLifetimeFrames
        store = store.filter { $0.value.lastUsedFrame >= cutoff }
    }

    // MARK: Interaction

    /// Whether the pointer is over `rect` and not hidden from it by the clip or a popup.
    public func isPointerOver(_ rect: Rect) -> Bool {
        let p = input.pointer.position
        guard rect.contains(p), drawList.clipRect.contains(p), modalAllowsInput else { return false }
        if !drawingOverlay && popupRects.contains(where: { $0.contains(p) }) { return false }
        return true
    }

    /// Hit-tests `rect` for widget `id` and updates hot/active state.
    ///
    /// A press is given at the end of the frame to the last (topmost) widget that was hovered
    /// when it happened; that widget is then active until the release.
    public func interact(_ id: WidgetID, rect: Rect, sense: Sense = .click) -> Interaction {
        var r = Interaction(id: id, rect: rect)
        if disabledDepth > 0 { return disabledInteraction(r) }
        let pointer = input.pointer
        let over = isPointerOver(rect)
        r.isHovered = over && (activeID == nil || activeID == id)
        if r.isHovered { hotID = id }
        if sense.contains(.focus) { registerFocusable(id, rect: rect) }
        if sense.contains(.activate) && keyboardActivates(id) { r.clicked = true }
        if !sense.isDisjoint(with: [.click, .activate]) && accessibilityActivated(id) { r.clicked = true }
        if over && pointer.pressed && (activeID == nil || activeID == id) {
            pressCandidate = (id, sense)
        }
        // A touch that turns into a drag belongs to the scroll view, not a click target.
        if activeID == id, pointer.kind == .touch, pointer.isDragging, !sense.contains(.drag) {
            activeID = nil
        }
        if activeID == id {
            r.isActive = true
            r.dragDelta = pointer.delta
            r.pressed = activeSinceFrame == frameIndex - 1
            if pointer.released {
                let isClick = pointer.kind == .mouse || pointer.wasTap
                // The release that ends a drag (or its cancel) is not a click on its source.
                let dragged = dragSession?.sourceID == id || cancelledDragPress == pointer.pressTime
                r.clicked = over && isClick && !dragged
                r.doubleClicked = r.clicked && pointer.clickCount == 2
                activeID = nil
            }
        }
        if over && pointer.secondaryPressed && (activeID == nil || activeID == id) {
            r.secondaryClicked = true
            if pointer.kind == .touch { activeID = nil }  // a long-press is not also a tap
        }
        if r.isHovered {
            if hoverStart?.id != id { hoverStart = (id, time) }
        } else if hoverStart?.id == id {
            hoverStart = nil
        }
        return r
    }

    /// Requests `kind` as the mouse cursor for this frame.
    public func setCursor(_ kind: CursorKind) { cursor = kind }

    /// Seconds the pointer has rested on widget `id` (0 when it is not hovered).
    public func hoverDuration(_ id: WidgetID) -> Double {
        guard let h = hoverStart, h.id == id else { return 0 }
        return time - h.time
    }

    /// Gives keyboard focus to `id` (nil clears it).
    public func focus(_ id: WidgetID?) {
        focusID = id
        focusClaimedThisFrame = id != nil
    }
}

extension UI {
    /// `event` as a right-to-left layout, laid out left to right in a window `width` wide,
    /// sees it: positions mirrored, sideways wheel turned, Left and Right swapped (`swapsArrows`).
    static func mirrored(_ event: InputEvent, width: Double, swapsArrows: Bool) -> InputEvent {
        func flip(_ p: Point) -> Point { Point(width - p.x, p.y) }
        switch event {
        case .pointerMoved(let p): return .pointerMoved(flip(p))
        case .mouseButton(let button, let isDown, let p): return .mouseButton(button, isDown: isDown, at: flip(p))
        case .finger(let id, let phase, let p): return .finger(id: id, phase: phase, at: flip(p))
        case .wheel(let dx, let dy): return .wheel(dx: -dx, dy: dy)
        case .key(let key, let isDown, let modifiers, let isRepeat)
        where swapsArrows && (key == .left || key == .right):
            return .key(key == .left ? .right : .left, isDown: isDown, modifiers: modifiers, isRepeat: isRepeat)
        default: return event
        }
    }
}
