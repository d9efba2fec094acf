import AuthCore

/// Where a refresh token is stored: its user, then the SHA-256 of the token. Listing pages in this order, bytes
/// compared as unsigned (SQLite's BINARY collation and BLOB order, PostgreSQL's `C` collation and BYTEA order).
public struct RefreshTokenKey: Hashable, Sendable {
    public var localId: String
    public var tokenHash: [UInt8]

    public init(localId: String, tokenHash: [UInt8]) {
        self.localId = localId
        self.tokenHash = tokenHash
    }

    public init(of token: RefreshTokenRecord) {
        self.init(localId: token.localId, tokenHash: token.tokenHash)
    }

    /// Whether `self` sorts before `other`: by `localId`'s UTF-8 bytes, then by `tokenHash`.
    public func precedes(_ other: RefreshTokenKey) -> Bool {
        localId != other.localId ? localId.precedesInByteOrder(other.localId)
            : tokenHash.lexicographicallyPrecedes(other.tokenHash)
    }
}
