@testable import AuthCore
import Testing

@Suite("Generated user ids")
struct UserIDsTests {
    @Test("an id is 28 characters of [0-9A-Za-z], the last 20 of them random")
    func shape() {
        let ids = (0..<200).map { _ in UserIDs.generate(createdAt: 1_765_000_000_000) }
        for id in ids {
            #expect(id.utf8.count == 28)
            #expect(id.utf8.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) })
        }
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids.map { $0.prefix(8) }).count == 1)
        #expect(Set(ids.map { $0.dropFirst(8).prefix(4) }).count > 150)
    }

    @Test("the time prefix is base 62 in byte order, fixed width, clamped to what 8 digits hold")
    func prefix() {
        #expect(UserIDs.timePrefix(0) == "00000000")
        #expect(UserIDs.timePrefix(9) == "00000009")
        #expect(UserIDs.timePrefix(10) == "0000000A")
        #expect(UserIDs.timePrefix(61) == "0000000z")
        #expect(UserIDs.timePrefix(62) == "00000010")
        #expect(UserIDs.timePrefix(-5) == "00000000")
        #expect(UserIDs.timePrefix(Int64.max) == "zzzzzzzz")
    }

    /// Ids in creation order are what keeps a batch of new users on the last pages of the stores' B-trees.
    @Test("ids sort by creation time as bytes, across digit carries and decades")
    func order() {
        let times: [Int64] = [0, 61, 62, 3_843, 3_844, 1_765_000_000_000, 1_765_000_000_001, 1_765_000_000_062,
                              4_102_444_800_000]
        let ids = times.map { UserIDs.generate(createdAt: $0) }
        #expect(ids == ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }
}
