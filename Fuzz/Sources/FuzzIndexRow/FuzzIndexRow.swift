import FuzzDriver
import Foundation
import GRDB
@_spi(Fuzzing) import GalleryKit

/// A row of the library index (`IndexEntry(row)`): values of any type in any column read as
/// an entry or as nothing, never a trap; what reads has a size, orientation and time the app
/// can use. `IndexEntry` is GalleryKit's, reached through its `@_spi(Fuzzing)` symbols.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIndexRowInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    fuzzIndexRow(Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : count)))
}

@_cdecl("FuzzIndexRow_main")
public func fuzzIndexRowMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzIndexRowInput)
}

func fuzzIndexRow(_ bytes: [UInt8]) -> Int32 {
    guard let entry = IndexEntry(IndexEntry.rowForFuzzing(bytes)) else { return 0 }
    precondition((1...8).contains(entry.facts.orientation), "orientation out of range")
    precondition(entry.facts.width >= 0 && entry.facts.height >= 0, "negative size")
    precondition(entry.modified.isFinite, "a time that is not a number")
    return 0
}
