/// SplitMix64: a tiny, fully deterministic PRNG, so randomised and mutation tests are reproducible from a seed.
/// One copy for every test target (each used to carry its own).
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A value in `0..<bound` (0 when `bound` is not positive).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }

    /// One of `items`, which must not be empty.
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
