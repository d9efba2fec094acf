import Crypto

/// Generates Firebase-shaped user ids: 28 characters from [A-Za-z0-9] (about 166 bits of randomness).
public enum UserIDs {
    public static func generate() -> String { SecureRandom.alphanumeric(length: 28) }
}
