/// The gateway routes the library calls. Gatehouse serves each Google host name as the first path segment, so
/// these are Firebase's REST paths under the gateway's base URL.
enum GatewayEndpoint: String, Sendable {
    case signUp = "identitytoolkit.googleapis.com/v1/accounts:signUp"
    case signInWithPassword = "identitytoolkit.googleapis.com/v1/accounts:signInWithPassword"
    case signInWithIdp = "identitytoolkit.googleapis.com/v1/accounts:signInWithIdp"
    case signInWithEmailLink = "identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink"
    case sendVerificationCode = "identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode"
    case signInWithPhoneNumber = "identitytoolkit.googleapis.com/v1/accounts:signInWithPhoneNumber"
    case sendOobCode = "identitytoolkit.googleapis.com/v1/accounts:sendOobCode"
    case resetPassword = "identitytoolkit.googleapis.com/v1/accounts:resetPassword"
    case update = "identitytoolkit.googleapis.com/v1/accounts:update"
    case lookup = "identitytoolkit.googleapis.com/v1/accounts:lookup"
    case delete = "identitytoolkit.googleapis.com/v1/accounts:delete"
    case revokeToken = "identitytoolkit.googleapis.com/v2/accounts:revokeToken"
    /// Secure Token: refresh tokens for new ID tokens (a form body, not JSON).
    case token = "securetoken.googleapis.com/v1/token"
}
