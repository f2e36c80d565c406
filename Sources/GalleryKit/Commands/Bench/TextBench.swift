import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// `bench text`: 2,000 labels of 20 characters in a grid filling the window; every frame
/// the labels' contents shift by one word, so layout is redone but glyphs come from the atlas.
/// `--scripts mixed` draws the labels from nine scripts (shaped, some right to left, some
/// from fallback fonts) instead of Latin syllables.
@MainActor
final class TextBench: BenchScene {
    enum Scripts: String { case latin, mixed }

    let n = 2000
    let columns = 20
    let scripts: Scripts
    private var drawCalls: [Int] = []
    /// The last frame built and its font: its glyphs are counted after the run, so that
    /// neither the setup nor a frame's work includes shaping them again.
    private var lastFrame: (number: Int, font: Font)?

    init(scripts: Scripts) {
        self.scripts = scripts
    }

    /// Nothing: the words are drawn from the generator and each label is put together the
    /// first time a frame shows it (`label(_:)`), as the Dear ImGui peer builds its labels
    /// in its frames, so the setup measures the toolkit's own start alone.
    func setUp(host: AppHost) throws {}

    /// The words labels are made of: 4,096 drawn with SplitMix64 (seed 42), a quarter numbers.
    private lazy var words: [String] = {
        var rng = SplitMix64(seed: 42)
        let alphabets = scripts == .latin ? [FileRow.syllables] : ScriptSamples.syllables
        return (0..<Self.wordCount).map { _ in
            if rng.next(below: 4) == 0 { return String(rng.next(below: 100_000)) }
            let syllables = alphabets[rng.next(below: alphabets.count)]
            var w = ""
            for _ in 0..<(1 + rng.next(below: 3)) { w += syllables[rng.next(below: syllables.count)] }
            return w.prefix(1).uppercased() + w.dropFirst()
        }
    }()
    private static let wordCount = 4096
    private lazy var wordLengths = words.map(\.count)
    private var labels = [String?](repeating: nil, count: wordCount)

    /// Label `k`: words k, k+1, ... cut to 20 characters (label i at frame f is label i + f).
    private func label(_ k: Int) -> String {
        let k = k % Self.wordCount
        if let made = labels[k] { return made }
        var s = words[k]
        var length = wordLengths[k], j = k + 1
        while length < 20 {
            s += " " + words[j % Self.wordCount]
            length += 1 + wordLengths[j % Self.wordCount]
            j += 1
        }
        let made = length == 20 ? s : String(s.prefix(20))
        labels[k] = made
        return made
    }

    func build(_ ui: UI, frame: Int) {
        let rows = n / columns
        let cell = Size(ui.size.width / Double(columns), ui.size.height / Double(rows))
        let font = ui.font
        for i in 0..<n {
            let origin = Point(Double(i % columns) * cell.width, Double(i / columns) * cell.height)
            font.draw(label(i + frame), at: origin, color: ui.theme.text, into: &ui.drawList)
        }
        lastFrame = (frame, font)
    }

    func measured(frame: FrameRecord) { drawCalls.append(frame.drawCalls) }

    func fields() -> String {
        let sorted = drawCalls.sorted()
        let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        return ",\"scripts\":\"\(scripts.rawValue)\",\"draw_calls\":\(median),\"glyphs\":\(glyphsInLastFrame())"
    }

    /// The glyphs the last frame drew (ligatures and clusters count once).
    private func glyphsInLastFrame() -> Int {
        guard let (frame, font) = lastFrame else { return 0 }
        return (0..<n).reduce(0) { $0 + font.glyphCount(label($1 + frame)) }
    }
}
