import AuthCore
import Storage
import WireFormats

/// The validated changes an `accounts:update` body asks for. Validation happens before any write, so a bad
/// field never leaves a half-applied update behind.
struct AccountChange: Sendable {
    enum Value<T: Sendable>: Sendable { case keep, set(T), delete }

    var displayName: Value<String> = .keep
    var photoUrl: Value<String> = .keep
    var phoneNumber: Value<String> = .keep
    var deleteEmail = false
    var deletePassword = false
    var deleteProviders: [String] = []
    var disabled: Bool?
    var emailVerified: Bool?
    var customAttributes: String?
    var validSince: Int64?
    var revokesTokens = false
    /// An admin's `linkProviderUserInfo`: a federated identity to attach as given (`AdminProviderLink`).
    var linkProvider: AdminProviderLink?

    init(body: RequestBody, admin: Bool) throws {
        // Second factors are not served yet: refusing beats storing an account that silently lost them.
        if body.has("mfa") {
            throw WireError.invalidPayload("mfa (second factors) is not supported by this gateway yet", reason: "invalid")
        }
        displayName = try Self.nullable(body, "displayName")
        photoUrl = try Self.nullable(body, "photoUrl")
        for attribute in try body.enumNames("deleteAttribute", WireEnums.userAttributeName) ?? [] {
            switch attribute {
            case "DISPLAY_NAME": displayName = .delete
            case "PHOTO_URL": photoUrl = .delete
            case "EMAIL": deleteEmail = true
            case "PASSWORD": deletePassword = true
            case "PHONE_NUMBER": phoneNumber = .delete
            default:
                throw WireError.invalidPayload("Invalid value at 'delete_attribute' (TYPE_ENUM), \"\(attribute.prefix(64))\"", reason: "invalid")
            }
        }
        for provider in try body.strings("deleteProvider") ?? [] {
            switch provider {
            case "phone": phoneNumber = .delete
            case "password": deletePassword = true
            default: deleteProviders.append(provider)
            }
        }
        if !admin {
            if body.has("customAttributes") || body.has("linkProviderUserInfo") { throw AuthError(.insufficientPermission) }
            if body.has("disableUser") { throw AuthError(.operationNotAllowed) }
            if body.has("phoneNumber") || body.has("emailVerified") { throw AuthError(.insufficientPermission) }
            // Any validSince from the user revokes their older tokens (server time, as Firebase).
            if body.has("validSince") { revokesTokens = true }
            return
        }
        disabled = try body.bool("disableUser") ?? body.bool("disabled")
        emailVerified = try body.bool("emailVerified")
        if let phone = try body.string("phoneNumber") {
            phoneNumber = .set(try PhoneNumbers.require(phone))
        }
        if let claims = try body.string("customAttributes") {
            customAttributes = try CustomClaims.validate(claims)
        }
        // Admins (firebase-admin's revoke_refresh_tokens) send the instant to store, in seconds; no instant
        // before the epoch (every reader of `validSince`, firebase-admin's included, expects one after it).
        validSince = try body.int64("validSince")
        if let validSince, validSince < 0 {
            throw WireError.invalidPayload("Invalid value at 'valid_since' (TYPE_INT64), \(validSince)", reason: "invalid")
        }
        linkProvider = try body.objects("linkProviderUserInfo")?.first.map { try AdminProviderLink(RequestBody(object: $0)) }
    }

    /// How this change ends sessions, in the order they apply (the last `validSince` written wins).
    func revocations(wasDisabled: Bool) -> [SessionRevocation.Kind] {
        var kinds: [SessionRevocation.Kind] = []
        if disabled == true && !wasDisabled { kinds.append(.refreshTokens) }
        if let validSince { kinds.append(.validSince(validSince)) }
        if revokesTokens { kinds.append(.everything) }
        return kinds
    }

    /// The profile and admin fields; sessions are ended separately through `revocations`.
    func apply(to user: inout UserRecord) {
        switch displayName { case .keep: break; case .set(let v): user.displayName = v; case .delete: user.displayName = nil }
        switch photoUrl { case .keep: break; case .set(let v): user.photoUrl = v; case .delete: user.photoUrl = nil }
        switch phoneNumber { case .keep: break; case .set(let v): user.phoneNumber = v; case .delete: user.phoneNumber = nil }
        if deleteEmail { user.email = nil; user.emailVerified = false; user.emailLinkSignin = false }
        if deletePassword { user.password = nil; user.emailLinkSignin = false }
        if let disabled { user.disabled = disabled }
        if let emailVerified { user.emailVerified = emailVerified }
        if let customAttributes { user.customAttributes = customAttributes }
    }

    private static func nullable(_ body: RequestBody, _ key: String) throws -> Value<String> {
        if body.isExplicitNull(key) { return .delete }
        guard let value = try body.string(key) else { return .keep }
        let limit = key == "photoUrl" ? ProfileLimits.photoUrl : ProfileLimits.displayName
        return value.isEmpty ? .delete : .set(try ProfileLimits.check(value, field: key, limit: limit))
    }
}

/// Validation of developer claims (`customAttributes`), with Firebase's limits and reserved names.
enum CustomClaims {
    static let maxLength = 1000

    static func validate(_ text: String) throws -> String {
        guard text.utf8.count <= maxLength else { throw AuthError(.claimsTooLarge) }
        guard case .object(let object)? = try? JSONParser.parse(text) else { throw AuthError(.invalidClaims) }
        if let reserved = object.keys.first(where: { IDTokenClaims.reserved.contains($0) }) {
            throw AuthError(.forbiddenClaim, reserved)
        }
        return text
    }
}
