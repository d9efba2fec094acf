/// A failure a Firebase client understands: one of Firebase's error codes plus an optional human detail.
///
/// The set of codes is closed (`AuthError.Code`); the gateway renders it as
/// `{"error":{"code":400,"message":"CODE : detail",...}}` in exactly one place. Everything below the
/// gateway throws these values and never builds wire strings itself.
public struct AuthError: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: Code
    public let detail: String?

    public init(_ code: Code, _ detail: String? = nil) {
        self.code = code
        self.detail = detail
    }

    /// The Firebase `message` text: `CODE` or `CODE : detail` (one space, colon, one space; SDKs split on it).
    public var message: String {
        guard let detail, !detail.isEmpty else { return code.rawValue }
        return "\(code.rawValue) : \(detail)"
    }

    public var description: String { message }

    /// Firebase error codes, spelled exactly as on the wire.
    public enum Code: String, Sendable, CaseIterable {
        // ID tokens and users
        case missingIdToken = "MISSING_ID_TOKEN"
        case invalidIdToken = "INVALID_ID_TOKEN"
        case tokenExpired = "TOKEN_EXPIRED"
        case userNotFound = "USER_NOT_FOUND"
        case userDisabled = "USER_DISABLED"
        case missingLocalId = "MISSING_LOCAL_ID"
        case credentialTooOldLoginAgain = "CREDENTIAL_TOO_OLD_LOGIN_AGAIN"
        // Secure Token
        case missingGrantType = "MISSING_GRANT_TYPE"
        case invalidGrantType = "INVALID_GRANT_TYPE"
        case missingRefreshToken = "MISSING_REFRESH_TOKEN"
        case invalidRefreshToken = "INVALID_REFRESH_TOKEN"
        // Permissions and project settings
        case adminOnlyOperation = "ADMIN_ONLY_OPERATION"
        case operationNotAllowed = "OPERATION_NOT_ALLOWED"
        case insufficientPermission = "INSUFFICIENT_PERMISSION"
        case unexpectedParameter = "UNEXPECTED_PARAMETER"
        case tooManyAttemptsTryLater = "TOO_MANY_ATTEMPTS_TRY_LATER"
        case configurationNotFound = "CONFIGURATION_NOT_FOUND"
        // Provider configurations (admin API)
        case configurationExists = "CONFIGURATION_EXISTS"
        case invalidConfig = "INVALID_CONFIG"
        // Account fields
        case invalidClaims = "INVALID_CLAIMS"
        case forbiddenClaim = "FORBIDDEN_CLAIM"
        case claimsTooLarge = "CLAIMS_TOO_LARGE"
        case duplicateLocalId = "DUPLICATE_LOCAL_ID"
        case emailExists = "EMAIL_EXISTS"
        case emailNotFound = "EMAIL_NOT_FOUND"
        case invalidEmail = "INVALID_EMAIL"
        case missingEmail = "MISSING_EMAIL"
        case missingPassword = "MISSING_PASSWORD"
        case weakPassword = "WEAK_PASSWORD"
        case invalidPassword = "INVALID_PASSWORD"
        case invalidLoginCredentials = "INVALID_LOGIN_CREDENTIALS"
        case phoneNumberExists = "PHONE_NUMBER_EXISTS"
        case invalidPhoneNumber = "INVALID_PHONE_NUMBER"
        // Phone sign-in (accounts:sendVerificationCode, accounts:signInWithPhoneNumber)
        case missingPhoneNumber = "MISSING_PHONE_NUMBER"
        case missingSessionInfo = "MISSING_SESSION_INFO"
        case invalidSessionInfo = "INVALID_SESSION_INFO"
        case sessionExpired = "SESSION_EXPIRED"
        case missingCode = "MISSING_CODE"
        case invalidCode = "INVALID_CODE"
        case invalidTemporaryProof = "INVALID_TEMPORARY_PROOF"
        // Federated sign-in and linking
        case missingRequestUri = "MISSING_REQUEST_URI"
        case invalidRequestUri = "INVALID_REQUEST_URI"
        case invalidCredentialOrProviderId = "INVALID_CREDENTIAL_OR_PROVIDER_ID"
        case invalidIdpResponse = "INVALID_IDP_RESPONSE"
        case missingOrInvalidNonce = "MISSING_OR_INVALID_NONCE"
        case invalidPendingToken = "INVALID_PENDING_TOKEN"
        case federatedUserIdAlreadyLinked = "FEDERATED_USER_ID_ALREADY_LINKED"
        case providerAlreadyLinked = "PROVIDER_ALREADY_LINKED"
        case invalidProviderId = "INVALID_PROVIDER_ID"
        // Out-of-band codes
        case missingReqType = "MISSING_REQ_TYPE"
        case missingOobCode = "MISSING_OOB_CODE"
        case invalidOobCode = "INVALID_OOB_CODE"
        case expiredOobCode = "EXPIRED_OOB_CODE"
        case invalidContinueUri = "INVALID_CONTINUE_URI"
        case unauthorizedDomain = "UNAUTHORIZED_DOMAIN"
        // createAuthUri and the redirect flow
        case missingContinueUri = "MISSING_CONTINUE_URI"
        case missingNewEmail = "MISSING_NEW_EMAIL"
        // Email provider
        case passwordLoginDisabled = "PASSWORD_LOGIN_DISABLED"
        case missingIdentifier = "MISSING_IDENTIFIER"
        case invalidIdentifier = "INVALID_IDENTIFIER"
        // Custom tokens
        case missingCustomToken = "MISSING_CUSTOM_TOKEN"
        case invalidCustomToken = "INVALID_CUSTOM_TOKEN"
        case credentialMismatch = "CREDENTIAL_MISMATCH"
        case tenantIdMismatch = "TENANT_ID_MISMATCH"
        // Admin API
        case localIdListExceedsLimit = "LOCAL_ID_LIST_EXCEEDS_LIMIT"
        case invalidDuration = "INVALID_DURATION"
        case missingProviderId = "MISSING_PROVIDER_ID"
        case missingRawId = "MISSING_RAW_ID"
        // User import (accounts:batchCreate, uploadAccount)
        case missingUserAccount = "MISSING_USER_ACCOUNT"
        case maximumUserCountExceeded = "MAXIMUM_USER_COUNT_EXCEEDED"
        case invalidHashAlgorithm = "INVALID_HASH_ALGORITHM"
        case invalidHashKey = "INVALID_HASH_KEY"
        case invalidHashSaltSeparator = "INVALID_HASH_SALT_SEPARATOR"
        case invalidHashRounds = "INVALID_HASH_ROUNDS"
        case invalidHashMemoryCost = "INVALID_HASH_MEMORY_COST"
        case invalidHashParallelization = "INVALID_HASH_PARALLELIZATION"
        case invalidHashBlockSize = "INVALID_HASH_BLOCK_SIZE"
        case invalidHashDerivedKeyLength = "INVALID_HASH_DERIVED_KEY_LENGTH"
        case duplicateEmail = "DUPLICATE_EMAIL"
        case duplicateRawId = "DUPLICATE_RAW_ID"
    }
}

extension AuthError {
    public static let missingIdToken = AuthError(.missingIdToken)
    public static let invalidIdToken = AuthError(.invalidIdToken)
    public static let tokenExpired = AuthError(.tokenExpired)
    public static let userNotFound = AuthError(.userNotFound)
    public static let userDisabled = AuthError(.userDisabled)
    public static let invalidRefreshToken = AuthError(.invalidRefreshToken)
}
