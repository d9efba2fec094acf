import Crypto

/// Generates Firebase-shaped user ids: 28 characters from [0-9A-Za-z].
///
/// The first 8 characters are the creation time in milliseconds, in base 62 with the digits in byte order, so ids
/// sort by creation time; the other 20 are random (about 119 bits), so an id is still unguessable. Why: both stores
/// key users and their refresh tokens by id in B-trees. Random ids put every new user on a random page of each
/// tree, so a batch of sign-ups rewrote one page per user per tree (a WAL frame each, copied again by the
/// checkpoint); ids in creation order put them on the trees' last pages, which the batch shares. What an id
/// reveals is when its account was created, to the millisecond, as the account's `createdAt` does (the trade
/// RFC 9562's UUIDv7 makes). Ids imported or chosen by an admin keep whatever shape they had.
public enum UserIDs {
    /// Characters 0-9, A-Z, a-z: ascending byte values, so fixed-width numbers compare as their text does.
    private static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    static let timeLength = 8
    static let randomLength = 20

    public static func generate(createdAt milliseconds: Int64) -> String {
        timePrefix(milliseconds) + SecureRandom.alphanumeric(length: randomLength)
    }

    /// `milliseconds` in fixed-width base 62, clamped to what 8 digits hold (0 through year 8888).
    static func timePrefix(_ milliseconds: Int64) -> String {
        var value = min(max(milliseconds, 0), Int64(pow62(timeLength) - 1))
        var characters = [UInt8](repeating: digits[0], count: timeLength)
        for index in characters.indices.reversed() {
            characters[index] = digits[Int(value % 62)]
            value /= 62
        }
        return String(decoding: characters, as: UTF8.self)
    }

    private static func pow62(_ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { power, _ in power * 62 }
    }
}
