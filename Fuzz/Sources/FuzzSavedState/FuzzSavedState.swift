import FuzzDriver
import Foundation
import Widgets

/// A table's saved column arrangement (`TableColumnCustomization`, as the browser keeps it in
/// `state.json`): any JSON decodes to one or to a clear error; what decodes orders any declared
/// columns as a permutation of them, survives moves, and writes back to itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSavedStateInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    fuzzSavedState(Data(UnsafeBufferPointer(start: data, count: data == nil ? 0 : count)))
}

@_cdecl("FuzzSavedState_main")
public func fuzzSavedStateMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzSavedStateInput)
}

struct Row {}

func fuzzSavedState(_ data: Data) -> Int32 {
    _ = try? JSONDecoder().decode(NavigationSplitState.self, from: data)
    guard var customization = try? JSONDecoder().decode(TableColumnCustomization<Row>.self, from: data) else {
        return 0
    }
    let declared = ["name", "size", "kind", "date", "rating"]
    let ordered = customization.orderedIDs(declared: declared)
    precondition(
        ordered.sorted() == declared.sorted(), "the order is not a permutation of the declared columns: \(ordered)")
    for id in declared { _ = customization[visibility: id] }
    customization.move("kind", before: "name", declared: declared)
    precondition(customization.orderedIDs(declared: declared).sorted() == declared.sorted(), "a move lost a column")
    let written = try! JSONEncoder().encode(customization)  // what we decoded must encode
    precondition(
        try! JSONDecoder().decode(TableColumnCustomization<Row>.self, from: written) == customization,
        "changed through a save")
    return 0
}
