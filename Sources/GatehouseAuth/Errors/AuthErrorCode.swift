/// Every error the library reports, with FirebaseAuth's names and numbers so code ported from it compiles and
/// compares the same way (`AuthErrorCode.credentialAlreadyInUse.rawValue == 17025`).
///
/// The gateway's codes become these in one place, `GatewayErrorTable`. The last two cases are Gatehouse's own:
/// a configuration that the library refuses before any request.
public enum AuthErrorCode: Int, Sendable, CaseIterable {
    case invalidCredential = 17004
    case userDisabled = 17005
    case operationNotAllowed = 17006
    case emailAlreadyInUse = 17007
    case invalidEmail = 17008
    case wrongPassword = 17009
    case tooManyRequests = 17010
    case userNotFound = 17011
    case accountExistsWithDifferentCredential = 17012
    case requiresRecentLogin = 17014
    case providerAlreadyLinked = 17015
    case noSuchProvider = 17016
    case invalidUserToken = 17017
    case networkError = 17020
    case userTokenExpired = 17021
    case invalidAPIKey = 17023
    case userMismatch = 17024
    case credentialAlreadyInUse = 17025
    case weakPassword = 17026
    case expiredActionCode = 17029
    case invalidActionCode = 17030
    case missingEmail = 17034
    case unauthorizedDomain = 17038
    case invalidContinueURI = 17039
    case missingPhoneNumber = 17041
    case invalidPhoneNumber = 17042
    case missingVerificationCode = 17043
    case invalidVerificationCode = 17044
    case missingVerificationID = 17045
    case invalidVerificationID = 17046
    case sessionExpired = 17051
    case adminRestrictedOperation = 17085
    case missingOrInvalidNonce = 17094
    case keychainError = 17995
    case internalError = 17999
    /// Gatehouse: the configuration is unusable (no project id, a base URL without a host, a scheme that is
    /// neither https nor http, a gateway URL that answers with a redirect).
    case invalidConfiguration = 19000
    /// Gatehouse: an `http://` base URL without `allowsInsecureHTTPForLocalDevelopment`.
    case insecureGatewayURL = 19001
}
