import AuthCore
import Testing

@Suite("Rate limiter")
struct RateLimiterTests {
    @Test("a fixed window per key: refused past the limit, refunded attempts given back, a new window starts empty")
    func window() {
        let time = ManualTime(milliseconds: 3_600_000 * 10)
        let limiter = RateLimiter(limit: 2, windowSeconds: 3600, time: time)
        #expect(limiter.allow("a") && limiter.allow("a"))
        #expect(!limiter.allow("a"))
        #expect(limiter.allow("b"))
        limiter.refund("a")
        #expect(limiter.remaining("a") == 1)
        time.advance(seconds: 3600)
        #expect(limiter.trackedKeys == 0, "an old window's keys are dropped at once")
        #expect(limiter.remaining("a") == 2)
    }

    @Test("memory is bounded: past maxKeys new keys pass uncounted, counted keys stay limited")
    func bounded() {
        let time = ManualTime(milliseconds: 0)
        let limiter = RateLimiter(limit: 1, windowSeconds: 60, time: time, maxKeys: 3)
        for key in ["a", "b", "c"] { #expect(limiter.allow(key)) }
        for index in 0..<1000 { #expect(limiter.allow("spread-\(index)")) }
        #expect(limiter.trackedKeys == 3)
        #expect(!limiter.allow("a"), "keys counted before the table filled stay limited")
    }

    @Test("allows the limit per window per key, then refuses until the next window")
    func windows() {
        let time = ManualTime(milliseconds: 0)
        let limiter = RateLimiter(limit: 2, windowSeconds: 60, time: time)
        #expect(limiter.allow("a") && limiter.allow("a"))
        #expect(!limiter.allow("a"))
        #expect(limiter.allow("b"))
        time.advance(seconds: 60)
        #expect(limiter.allow("a"))
    }

    @Test("a limit of zero disables limiting")
    func disabled() {
        let limiter = RateLimiter(limit: 0, windowSeconds: 60, time: ManualTime(milliseconds: 0))
        #expect((0..<1000).allSatisfy { _ in limiter.allow("a") })
    }
}
