import Render2D
import Imaging
import Profiling
/// Deterministic pseudo-random numbers (SplitMix64): benchmark data, generated samples and
/// tests use it so every run sees the same values.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let roll = rng.next(below: 6)
/// ```
package struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state; the same state gives the same sequence.
    package var state: UInt64
    /// A generator starting from `seed`.
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A value in `0..<n` (`n` > 0).
    package mutating func next(below n: Int) -> Int { Int(next() % UInt64(n)) }
}
