import Render2D
import Imaging
import Profiling
import Widgets

/// `bench damage`: what a frame that changes a little costs against one drawn whole, on the
/// photo browser (the whole demo window, 1280×800) once its first screen of thumbnails is in.
///
/// Five kinds of frame, `frames` of each, in runs of 8 of a kind, the runs interleaved so load
/// hits all alike; a run's first frame, which follows another kind's, is not counted:
/// - `full`: the same frame drawn whole (the kept frame forgotten first), today's cost;
/// - `hover`: the pointer moves onto a photo and off it, into the gap beside the next, so one
///   cell's highlight comes, then goes;
/// - `hover-across`: the pointer moves from one photo to the next, so one cell's highlight goes
///   and another's comes, in the same frame;
/// - `caret`: the filter field is focused and the clock moves half a second, so its caret blinks;
/// - `thumbnail`: one visible thumbnail's texture gets new pixels, as when its decode lands.
///
/// The kinds other than the two hovers are timed with the pointer in the gap, no photo hovered.
///
/// Each reports its total time (build, submit, present) p50, the ratio to `full`'s, the pixels
/// it drew again and its draw calls. Once per kind, outside the timing, the frame is read back,
/// drawn again whole and read back: `pixel_identical` says whether every byte matched.
///
/// `only` times one kind alone (its runs back to back), for a profiler to see that kind and
/// nothing else: `bench damage --only hover`. Without full frames timed, `of_full` is null.
@MainActor
enum DamageBench {
    static func run(host: AppHost, folder: String, frames: Int, only: Kind? = nil) -> String {
        let thumbnails = FreedesktopThumbnails()
        let images = ImagePipeline(renderer: host.window.renderer) {
            thumbnails.thumbnail(path: $0.path, spec: $0.spec)
        }
        host.ui.images = images
        defer { images.shutdown() }
        let app = DemoApp(page: .photos, darkTheme: false, library: folder)
        let build: (UI) -> Void = { ui in app.build(ui, host: host) }
        let settled = IdleBench.settle(host, app: app, build: build)
        var now = host.clock()  // from here the caret's clock moves only when the bench says
        host.clock = { now }
        let renderer = host.window.renderer
        let inject = EventInjector(window: host.window)
        // Focus the filter field (its caret then blinks), and find a thumbnail on screen.
        let field = app.browser.filterOrigin + Point(80, 13)
        inject.mouseButton(.left, down: true, at: field)
        inject.mouseButton(.left, down: false, at: field)
        for _ in 0..<3 { host.frame(build) }
        let thumbnail = visibleThumbnail(in: host.ui.contentDrawList, renderer: renderer)
        // In the first row of the grid (cells 238...423, 431...615, 623...808 across, at
        // 196...382 down): a photo, the gap between two, and the next photo.
        let photo = Point(420, 260), gap = Point(620, 260), nextPhoto = Point(520, 260)
        var thumbnailShade: UInt8 = 0
        var onPhoto = false
        let change: [Kind: () -> Void] = [
            .full: { renderer.invalidateLastFrame() },
            .hover: {
                onPhoto.toggle()
                inject.mouseMove(to: onPhoto ? photo : gap)
            },
            .hoverAcross: {
                onPhoto.toggle()
                inject.mouseMove(to: onPhoto ? photo : nextPhoto)
            },
            .caret: { now += 0.5 },
            .thumbnail: {
                guard let thumbnail else { return }
                thumbnailShade &+= 40
                let pixels = PixelBuffer(
                    width: thumbnail.size.width, height: thumbnail.size.height,
                    color: Color(r: thumbnailShade, g: 120, b: 200))
                try? renderer.updateTexture(thumbnail.texture, x: 0, y: 0, pixels: pixels)
            },
        ]
        var samples: [Kind: Samples] = [:], identical: [Kind: Bool] = [:]
        for kind in Kind.allCases {  // warm-up, and the pixel check
            change[kind]?()
            identical[kind] = drawsLikeAFullFrame(host, build: build)
        }
        let runs = (frames + runLength - 2) / (runLength - 1)
        let timed = only.map { [$0] } ?? Kind.allCases
        for _ in 0..<runs {
            for kind in timed {
                for step in 0..<runLength {
                    if step == 0, kind != .hover, kind != .hoverAcross {
                        // The other kinds are timed with no photo hovered (the move is drawn
                        // in the run's first frame, which is not counted).
                        inject.mouseMove(to: gap)
                        onPhoto = false
                    }
                    change[kind]?()
                    host.frame(build)
                    // The run's first frame follows another kind's (a full one's emptied caches).
                    guard step > 0, samples[kind, default: Samples()].totals.count < frames else { continue }
                    samples[kind, default: Samples()].add(host.profiler.lastFrame, renderer.stats)
                }
            }
        }
        var json = "{\"scene\":\"damage\",\"n\":\(app.browser.photos.count),\"renderer\":\"\(renderer.name)\""
        json += ",\"settled\":\(settled),\"thumbnail_found\":\(thumbnail != nil),\"frames\":\(frames)"
        json += ",\"window_px\":\(renderer.outputSize.width * renderer.outputSize.height)"
        return json + timedFigures(timed, samples: samples, identical: identical) + "}"
    }

    /// What the timed frames of one kind measured, frame by frame.
    struct Samples {
        /// Total time (ms).
        var totals: [Double] = []
        /// Each frame's phases (ms), by `FramePhase.rawValue`.
        var phases: [[Double]] = []
        /// Pixels drawn again.
        var redrawn: [Int] = []
        /// `SDL_RenderGeometry` calls (`Renderer.Stats.drawCalls`; a region batch's one
        /// `SDL_RenderFillRectsF` clear is not counted). A software rasterizer pays for each
        /// about what it pays for thousands of pixels.
        var drawCalls: [Int] = []

        mutating func add(_ frame: FrameRecord?, _ stats: Renderer.Stats) {
            totals.append(frame?.totalMs ?? 0)
            phases.append((frame?.phaseNs ?? []).map { Double($0) / 1e6 })
            redrawn.append(stats.redrawnArea)
            drawCalls.append(stats.drawCalls)
        }
    }

    /// Each `timed` kind's figures, as `,"kind":{...}` JSON members.
    private static func timedFigures(_ timed: [Kind], samples: [Kind: Samples], identical: [Kind: Bool]) -> String {
        var json = ""
        let full = median(samples[.full]?.totals ?? [])
        for kind in timed {
            json += ",\"\(kind.rawValue)\":"
            json += figures(samples[kind] ?? Samples(), full: full, identical: identical[kind] ?? false)
        }
        return json
    }

    /// One kind's figures, as a JSON object: its total time against `full`'s median, the
    /// medians of its phases, of the pixels it drew again and of its draw calls, and whether
    /// it matched a full frame.
    nonisolated static func figures(_ samples: Samples, full: Double, identical: Bool) -> String {
        let total = median(samples.totals)
        var json = "{\"total_ms_p50\":\(FrameTimeSummary.format(total))"
        json += ",\"of_full\":\(full > 0 ? FrameTimeSummary.format(total / full) : "null")"
        let phaseMedians = FramePhase.allCases.map { phase in
            "\"\(phase.name)\":" + FrameTimeSummary.format(median(samples.phases.map { $0[phase.rawValue] }))
        }
        json += ",\"phase_p50_ms\":{\(phaseMedians.joined(separator: ","))}"
        json += ",\"redrawn_px_p50\":\(median(samples.redrawn)),\"draw_calls_p50\":\(median(samples.drawCalls))"
        return json + ",\"pixel_identical\":\(identical)}"
    }

    enum Kind: String, CaseIterable {
        case full, hover
        case hoverAcross = "hover-across"
        case caret, thumbnail
    }

    /// Frames of one kind in a row: small changes come in runs in use (a pointer moving, a
    /// caret blinking, thumbnails arriving), and so do whole-window ones (a scroll).
    static let runLength = 8

    /// Draws a frame (redrawing only its damage) and reads it back, then draws the same frame
    /// whole and reads that back: whether the two are the same bytes.
    private static func drawsLikeAFullFrame(_ host: AppHost, build: (UI) -> Void) -> Bool {
        host.readsBackFrames = true
        defer { host.readsBackFrames = false }
        host.frame(build)
        let damaged = host.lastFramePixels
        host.window.renderer.invalidateLastFrame()
        host.frame(build)
        return damaged != nil && damaged == host.lastFramePixels
    }

    /// A texture of the app's own (not the glyph atlas) that the frame draws: a thumbnail.
    private static func visibleThumbnail(
        in list: DrawList, renderer: Renderer
    ) -> (texture: TextureHandle, size: (width: Int, height: Int))? {
        for command in list.commands where command.texture != .none && command.texture != .flat {
            guard let size = renderer.textureSize(command.texture) else { continue }  // nil for the atlas
            return (command.texture, size)
        }
        return nil
    }

    private nonisolated static func median<Value: Comparable & AdditiveArithmetic>(_ values: [Value]) -> Value {
        let sorted = values.sorted()
        return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
    }
}
