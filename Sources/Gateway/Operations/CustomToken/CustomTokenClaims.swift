import AuthCore
import WireFormats

/// What a custom token asks for, read from its verified (or, in emulator mode, merely decoded) claims: the uid
/// to sign in as (created on first use) and the developer claims to put into its ID tokens. Pure.
struct CustomTokenClaims: Sendable, Equatable {
    /// Firebase's audience for custom tokens (what firebase-admin's `create_custom_token` writes).
    static let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
    static let maxUidLength = 128

    let uid: String
    /// Developer claims as JSON object text (stored with the refresh token, repeated in refreshed ID tokens).
    let developerClaims: String?

    init(_ claims: JSONObject) throws(AuthError) {
        // The emulator also reads `user_id`; firebase-admin, pyrebase and the other SDKs write `uid`.
        guard let uid = (claims["uid"] ?? claims["user_id"])?.stringValue else { throw AuthError(.missingIdentifier) }
        guard !uid.isEmpty, uid.count <= Self.maxUidLength else {
            throw AuthError(.invalidCustomToken, "uid must be a string of 1 to \(Self.maxUidLength) characters")
        }
        // This gateway serves one project and no tenants: a token minted for a tenant is for somewhere else.
        if let tenant = claims["tenant_id"], !tenant.isNull { throw AuthError(.tenantIdMismatch) }
        self.uid = uid
        switch claims["claims"] {
        case nil, .null?:
            developerClaims = nil
        case .object(let object)?:
            if let reserved = object.keys.first(where: { IDTokenClaims.reserved.contains($0) }) {
                throw AuthError(.forbiddenClaim, reserved)
            }
            let text = JSONSerializer.string(.object(object))
            guard text.utf8.count <= CustomClaims.maxLength else { throw AuthError(.claimsTooLarge) }
            developerClaims = object.isEmpty ? nil : text
        default:
            throw AuthError(.invalidClaims)
        }
    }
}
