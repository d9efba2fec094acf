import AuthCore
import Crypto
import WireFormats

/// One user of an import (a `UserInfo` of `accounts:batchCreate`, or one entry of a `firebase auth:export` file),
/// checked and turned into what the store keeps: the account and its federated identities.
///
/// Everything Firebase exports is kept: profile, flags, claims, timestamps, identities and the password hash with
/// its algorithm. A field the gateway does not serve (second factors, tenants) refuses the user with a message
/// saying so, rather than importing a weaker account without it.
struct ImportedAccount: Sendable {
    var user: UserRecord
    var identities: [ProviderIdentity]

    /// A user the import refuses, with Firebase's per-user message (`error[].message` of the response).
    struct Refusal: Error, Equatable {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// Fields that would change what signing in means if dropped.
    static let unsupportedFields = ["mfaInfo", "tenantId"]

    /// - Parameters:
    ///   - hash: the request's (or file's) hash configuration; nil when it names none.
    ///   - now: milliseconds since the epoch, the creation time of users that carry none.
    /// - Parameter normalizingKeys: read snake_case field names too (API requests); files from `auth:export`
    ///   use camelCase only, and skipping the rewrite is a tenth of an import's time.
    init(_ object: JSONObject, hash: ImportedPasswordCredential.Template?, now: Int64,
         normalizingKeys: Bool = true) throws(Refusal) {
        let body = RequestBody(object: object, normalizingKeys: normalizingKeys)
        do {
            try self.init(body, hash: hash, now: now)
        } catch let refusal as Refusal {
            throw refusal
        } catch let error as AuthError {
            throw Refusal(Self.message(for: error))
        } catch let error as WireError {
            if case .invalidPayload(let detail, _) = error { throw Refusal(detail) }
            throw Refusal(error.logCode)
        } catch {
            throw Refusal("invalid user")
        }
    }

    private init(_ body: RequestBody, hash: ImportedPasswordCredential.Template?, now: Int64) throws {
        for field in Self.unsupportedFields where Self.isPresent(body.object[field]) {
            throw Refusal("\(field) is not supported by this gateway yet: the user was not imported")
        }
        if body.has("rawPassword") {
            throw Refusal("rawPassword is not imported: import a passwordHash, or set the password with accounts:update")
        }
        guard let localId = try body.string("localId"), !localId.isEmpty else { throw Refusal("localId is missing") }
        guard localId.utf8.count <= ProfileLimits.localId || localId.count <= ProfileLimits.localId else {
            throw Refusal("localId is longer than 128 characters")
        }
        let createdAt = try Self.milliseconds(body, "createdAt") ?? now
        var user = UserRecord(localId: localId, validSince: 0, createdAt: createdAt)
        if let email = try body.string("email"), !email.isEmpty {
            guard let canonical = EmailAddress.canonical(email) else { throw Refusal("email is invalid") }
            user.email = canonical
        }
        user.emailVerified = try body.bool("emailVerified") ?? false
        user.displayName = try body.string("displayName").map {
            try ProfileLimits.check($0, field: "displayName", limit: ProfileLimits.displayName)
        }
        user.photoUrl = try body.string("photoUrl").map {
            try ProfileLimits.check($0, field: "photoUrl", limit: ProfileLimits.photoUrl)
        }
        if let phone = try body.string("phoneNumber"), !phone.isEmpty {
            guard (try? PhoneNumbers.require(phone)) != nil else { throw Refusal("phone number format is invalid") }
            user.phoneNumber = phone
        }
        user.disabled = try body.bool("disabled") ?? false
        user.emailLinkSignin = try body.bool("emailLinkSignin") ?? false
        if let claims = try body.string("customAttributes"), !claims.isEmpty {
            user.customAttributes = try CustomClaims.validate(claims)
        }
        user.lastLoginAt = try Self.milliseconds(body, "lastLoginAt") ?? Self.milliseconds(body, "lastSignedInAt")
        user.validSince = max(0, try body.int64("validSince") ?? createdAt / 1000)
        user.password = try Self.password(body, hash: hash)
        if user.password != nil {
            user.passwordUpdatedAt = try body.int64("passwordUpdatedAt") ?? createdAt
        }
        self.user = user
        self.identities = try Self.identities(body, localId: localId, linkedAt: createdAt)
    }

    private static func password(_ body: RequestBody, hash: ImportedPasswordCredential.Template?) throws -> PasswordCredential? {
        guard let hashText = try body.string("passwordHash"), !hashText.isEmpty else { return nil }
        guard let hash else { throw Refusal("passwordHash needs a hashAlgorithm") }
        // BCRYPT hashes are modular-crypt strings; Firebase's export still base64-encodes them, as it does others.
        guard let stored = Base64.decode(hashText) else { throw Refusal("passwordHash is not base64") }
        if hash.parameters.algorithm == .bcrypt {
            // Refused here rather than failing every sign-in later: the user could never sign in.
            guard let cost = BCrypt.cost(of: stored) else { throw Refusal("passwordHash is not a bcrypt hash ($2a$, $2b$ or $2y$)") }
            guard cost <= BCrypt.maxCost else { throw Refusal("bcrypt cost \(cost) is above \(BCrypt.maxCost)") }
        }
        let saltText = try body.string("salt") ?? ""
        guard let salt = saltText.isEmpty ? [] : Base64.decode(saltText) else { throw Refusal("salt is not base64") }
        return hash.credential(hash: stored, salt: salt)
    }

    /// Federated identities. `password` and `phone` entries describe the email/password and the phone number,
    /// which are fields of the account here, so they are not stored twice.
    private static func identities(_ body: RequestBody, localId: String, linkedAt: Int64) throws -> [ProviderIdentity] {
        var identities: [ProviderIdentity] = []
        for entry in try body.objects("providerUserInfo") ?? [] {
            let info = RequestBody(object: entry)
            let providerId = try info.string("providerId") ?? ""
            if providerId == "password" || providerId == "phone" { continue }
            guard let given = try info.string("rawId") ?? info.string("federatedId"), !providerId.isEmpty, !given.isEmpty else {
                throw Refusal("federatedId or (providerId & rawId) is required")
            }
            let rawId = FederatedIdURL.subject(providerId: providerId, id: given)
            guard !rawId.isEmpty else { throw Refusal("federatedId \(given) names no Google account") }
            guard providerId.count <= ProfileLimits.federatedKey, rawId.count <= ProfileLimits.federatedKey else {
                throw Refusal("providerId or rawId is longer than \(ProfileLimits.federatedKey) characters")
            }
            guard !identities.contains(where: { $0.providerId == providerId }) else {
                throw Refusal("providerUserInfo lists \(providerId) twice")
            }
            identities.append(ProviderIdentity(
                providerId: providerId, federatedId: rawId, localId: localId, email: try info.string("email"),
                displayName: ProfileLimits.clip(try info.string("displayName"), limit: ProfileLimits.displayName),
                photoUrl: ProfileLimits.clip(try info.string("photoUrl"), limit: ProfileLimits.photoUrl),
                screenName: try info.string("screenName"), phoneNumber: try info.string("phoneNumber"), linkedAt: linkedAt))
        }
        return identities
    }

    /// Milliseconds, as a number or a string of digits; 0 and below mean "not given" (firebase-admin refuses them).
    private static func milliseconds(_ body: RequestBody, _ key: String) throws -> Int64? {
        guard let value = try body.int64(key), value > 0 else { return nil }
        return value
    }

    private static func isPresent(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: return false
        case .array(let items)?: return !items.isEmpty
        case .string(let text)?: return !text.isEmpty
        case .object(let fields)?: return !fields.isEmpty
        default: return true
        }
    }

    /// Firebase's per-user wording for the checks shared with other operations.
    private static func message(for error: AuthError) -> String {
        switch error.code {
        case .invalidClaims: return "Invalid custom claims provided."
        case .forbiddenClaim: return "Custom claims provided include a reserved claim."
        case .claimsTooLarge: return "Custom claims provided are too large."
        default: return error.message
        }
    }
}
