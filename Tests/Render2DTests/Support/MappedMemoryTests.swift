import XCTest
@testable import Render2D

final class MappedMemoryTests: XCTestCase {
    /// Mapped pages cost nothing until written, read as zero, and go back when released.
    func testPagesAreZeroTakeMemoryOnlyWhenWrittenAndGoBackWhenReleased() {
        let page = 4096, memory = MappedMemory(count: 64 * page)
        XCTAssertEqual(memory.count, 64 * page)
        XCTAssertEqual(memory.residentBytes, 0, "nothing written yet")
        XCTAssertEqual(memory.bytes.load(fromByteOffset: 40 * page, as: UInt64.self), 0)
        for p in 0..<64 { memory.bytes.storeBytes(of: UInt64(p + 1), toByteOffset: p * page, as: UInt64.self) }
        XCTAssertEqual(memory.residentBytes, 64 * page)
        // Past an offset inside page 31: that page is kept, pages 32 on go back and read as zero.
        memory.releasePages(from: 31 * page + 8)
        XCTAssertEqual(memory.residentBytes, 32 * page)
        memory.releasePages(from: 64 * page)  // nothing past the end: no change
        XCTAssertEqual(memory.residentBytes, 32 * page)
        XCTAssertEqual(memory.bytes.load(fromByteOffset: 31 * page, as: UInt64.self), 32, "a kept page keeps its bytes")
        XCTAssertEqual(memory.bytes.load(fromByteOffset: 32 * page, as: UInt64.self), 0)
        XCTAssertEqual(MappedMemory(count: 0).count, 1, "an empty request still maps a byte")
    }
}
