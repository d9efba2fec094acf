/// The one table from the gateway's error codes to `AuthErrorCode`.
///
/// A gateway code is the part of the error envelope's `message` before ` : ` (`EMAIL_EXISTS : ...`); for the
/// answers that carry no such code, `GatewayErrorDecoder` names them: `API_KEY_INVALID` (the envelope's reason
/// `keyInvalid`), `UNAVAILABLE` (Google's `status`, e.g. nginx's 503 when the gateway is down) and
/// `NEED_CONFIRMATION` (a 200 `signInWithIdp` answer with `needConfirmation: true`). A code missing here becomes
/// `internalError` with the gateway's message kept. The Swift tests produce every entry from a real gateway.
enum GatewayErrorTable {
    static let codes: [String: AuthErrorCode] = [
        // Accounts and passwords
        "EMAIL_EXISTS": .emailAlreadyInUse,
        "EMAIL_NOT_FOUND": .userNotFound,
        "USER_NOT_FOUND": .userNotFound,
        "INVALID_PASSWORD": .wrongPassword,
        "INVALID_LOGIN_CREDENTIALS": .invalidCredential,
        "INVALID_EMAIL": .invalidEmail,
        "MISSING_EMAIL": .missingEmail,
        "WEAK_PASSWORD": .weakPassword,
        "USER_DISABLED": .userDisabled,
        "OPERATION_NOT_ALLOWED": .operationNotAllowed,
        "PASSWORD_LOGIN_DISABLED": .operationNotAllowed,
        "ADMIN_ONLY_OPERATION": .adminRestrictedOperation,
        "TOO_MANY_ATTEMPTS_TRY_LATER": .tooManyRequests,
        "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": .requiresRecentLogin,
        // Sessions
        "TOKEN_EXPIRED": .userTokenExpired,
        "INVALID_ID_TOKEN": .invalidUserToken,
        "INVALID_REFRESH_TOKEN": .invalidUserToken,
        // Identity providers and linking
        "INVALID_IDP_RESPONSE": .invalidCredential,
        "INVALID_PENDING_TOKEN": .invalidCredential,
        "MISSING_OR_INVALID_NONCE": .missingOrInvalidNonce,
        "FEDERATED_USER_ID_ALREADY_LINKED": .credentialAlreadyInUse,
        "NEED_CONFIRMATION": .accountExistsWithDifferentCredential,
        "PROVIDER_ALREADY_LINKED": .providerAlreadyLinked,
        // Action codes (email links)
        "EXPIRED_OOB_CODE": .expiredActionCode,
        "INVALID_OOB_CODE": .invalidActionCode,
        "MISSING_OOB_CODE": .invalidActionCode,
        "UNAUTHORIZED_DOMAIN": .unauthorizedDomain,
        "INVALID_CONTINUE_URI": .invalidContinueURI,
        // Phone numbers
        "INVALID_PHONE_NUMBER": .invalidPhoneNumber,
        "INVALID_CODE": .invalidVerificationCode,
        "MISSING_CODE": .missingVerificationCode,
        "INVALID_SESSION_INFO": .invalidVerificationID,
        "MISSING_SESSION_INFO": .missingVerificationID,
        "SESSION_EXPIRED": .sessionExpired,
        "INVALID_TEMPORARY_PROOF": .invalidCredential,
        "PHONE_NUMBER_EXISTS": .credentialAlreadyInUse,
        // The request did not reach a working gateway, or used a key it does not know
        "API_KEY_INVALID": .invalidAPIKey,
        "UNAVAILABLE": .networkError,
    ]
}
