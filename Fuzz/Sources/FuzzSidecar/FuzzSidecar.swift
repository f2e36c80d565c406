import FuzzDriver
import Foundation
@_spi(Fuzzing) import GalleryKit

/// A folder's sidecar (`.tessera.json`): any bytes decode to a sidecar or a clear error. What
/// decodes has ratings in 0...5 and, unless a key of another shape makes it read-only, writes
/// back, reads back the same, and merges with itself unchanged. `FolderSidecar` is GalleryKit's,
/// reached through its `@_spi(Fuzzing)` symbols.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSidecarInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    fuzzSidecar(Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : count)))
}

@_cdecl("FuzzSidecar_main")
public func fuzzSidecarMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzSidecarInput)
}

func fuzzSidecar(_ bytes: [UInt8]) -> Int32 {
    guard let sidecar = try? FolderSidecar.decode(bytes) else { return 0 }
    precondition(sidecar.ratings.values.allSatisfy { (1...5).contains($0) }, "rating out of range")
    // A key of another shape makes the folder read-only: it is never written, so not written back.
    guard !sidecar.isReadOnly else { return 0 }
    guard let written = try? sidecar.encoded() else { return 0 }
    let reread = try! FolderSidecar.decode(Array(written))  // what we wrote must read back
    precondition(
        reread.ratings == sidecar.ratings && reread.favorites == sidecar.favorites && reread.tags == sidecar.tags,
        "sidecar changed through a save")
    precondition(Set(reread.unknown.keys) == Set(sidecar.unknown.keys), "unknown keys lost through a save")
    precondition(
        FolderSidecar.merge(base: sidecar, ours: sidecar, theirs: reread) == reread, "merge of no change changed it")
    return 0
}
