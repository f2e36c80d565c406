import FuzzDriver
import Render2D
import Widgets

/// Input recordings (`--replay`): any bytes parse to a bounded replay or a clear error, and
/// every event that comes out is in range.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReplayInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    fuzzReplay(UnsafeBufferPointer(start: data, count: data == nil ? 0 : count))
}

@_cdecl("FuzzReplay_main")
public func fuzzReplayMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzReplayInput)
}

func fuzzReplay(_ input: UnsafeBufferPointer<UInt8>) -> Int32 {
    let bytes = Array(input)
    guard let replay = try? InputReplay(bytes: bytes, name: "fuzz") else { return 0 }
    precondition(replay.duration.isFinite && replay.duration <= InputReplay.maxTime)
    precondition(
        zip(replay.steps, replay.steps.dropFirst()).allSatisfy { $0.time <= $1.time }, "steps out of time order")
    for step in replay.steps {
        for event in step.events {
            if case .pointerMoved(let p) = event { precondition(p.x.isFinite && abs(p.y) <= 1e6, "unsanitized point") }
        }
    }
    return 0
}
