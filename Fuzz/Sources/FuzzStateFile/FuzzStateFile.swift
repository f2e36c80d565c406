import FuzzDriver
import Foundation
import Render2D
import Widgets

/// The state file (`state.json`): any bytes decode to values or a clear error; what decodes
/// reads back as the types the app stores, or as nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateFileInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    fuzzStateFile(UnsafeBufferPointer(start: data, count: data == nil ? 0 : count))
}

@_cdecl("FuzzStateFile_main")
public func fuzzStateFileMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzStateFileInput)
}

func fuzzStateFile(_ input: UnsafeBufferPointer<UInt8>) -> Int32 {
    let bytes = Array(input)
    guard let values = try? PersistentStore.decodeValues(bytes) else { return 0 }
    for data in values.values {
        _ = try? JSONDecoder().decode(SplitState.self, from: data)
        _ = try? JSONDecoder().decode([Int].self, from: data)
        _ = try? JSONDecoder().decode(NavigationSplitState.self, from: data)
    }
    return 0
}
