import Foundation

/// The error domain of `AuthError` seen as an `NSError`: FirebaseAuth's `AuthErrorDomain` by name, but
/// `"GatehouseAuthErrorDomain"` rather than `"FIRAuthErrorDomain"` (compare with the constant, not the text).
public let AuthErrorDomain = "GatehouseAuthErrorDomain"
/// `NSError.userInfo` key of the updated credential of `credentialAlreadyInUse` and
/// `accountExistsWithDifferentCredential` (FirebaseAuth's `AuthErrorUserInfoUpdatedCredentialKey`).
public let AuthErrorUserInfoUpdatedCredentialKey = "FIRAuthErrorUserInfoUpdatedCredentialKey"
/// `NSError.userInfo` key of the email address of the account that already exists.
public let AuthErrorUserInfoEmailKey = "FIRAuthErrorUserInfoEmailKey"
/// `NSError.userInfo` key of the error's short name (`ERROR_CREDENTIAL_ALREADY_IN_USE`).
public let AuthErrorUserInfoNameKey = "FIRAuthErrorUserInfoNameKey"

/// What every throwing call of the library throws.
///
/// Catch it typed (`catch let error as AuthError where error.code == .credentialAlreadyInUse`), or as an
/// `NSError` exactly as with FirebaseAuth: `AuthErrorCode(rawValue: error.code)` and
/// `error.userInfo[AuthErrorUserInfoUpdatedCredentialKey] as? AuthCredential`.
public struct AuthError: Error, Sendable, CustomStringConvertible {
    public let code: AuthErrorCode
    /// A sentence for developers (not for end users), with the gateway's detail when it sent one.
    public let message: String
    /// The gateway's code (`FEDERATED_USER_ID_ALREADY_LINKED`, `EMAIL_EXISTS`, ...) when the error came from an answer.
    public let gatewayCode: String?
    /// The HTTP status of the answer, when there was one.
    public let httpStatus: Int?
    /// For `credentialAlreadyInUse` and `accountExistsWithDifferentCredential`: a credential that signs in to the
    /// account that owns the identity (`Auth.signIn(with:)`) or, after signing in there, links it (`User.link(with:)`).
    public let updatedCredential: AuthCredential?
    /// The email address of the account that already exists, when the gateway named one.
    public let email: String?
    /// The phone number in use, for `credentialAlreadyInUse` of a phone credential.
    public let phoneNumber: String?
    /// For `networkError`: the transport's error (a `URLError` from `URLSession`), also under `NSUnderlyingErrorKey`.
    public let underlyingError: (any Error)?

    init(_ code: AuthErrorCode, _ message: String, gatewayCode: String? = nil, httpStatus: Int? = nil,
         updatedCredential: AuthCredential? = nil, email: String? = nil, phoneNumber: String? = nil,
         underlyingError: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.gatewayCode = gatewayCode
        self.httpStatus = httpStatus
        self.updatedCredential = updatedCredential
        self.email = email
        self.phoneNumber = phoneNumber
        self.underlyingError = underlyingError
    }

    public var description: String {
        "AuthError(\(code), \(gatewayCode.map { "\($0): " } ?? "")\(message))"
    }
}

extension AuthError: CustomNSError, LocalizedError {
    public static var errorDomain: String { AuthErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorDescription: String? { message }

    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message, AuthErrorUserInfoNameKey: code.errorName]
        if let updatedCredential { info[AuthErrorUserInfoUpdatedCredentialKey] = updatedCredential }
        if let email { info[AuthErrorUserInfoEmailKey] = email }
        if let underlyingError { info[NSUnderlyingErrorKey] = underlyingError as NSError }
        return info
    }
}

extension AuthErrorCode {
    /// FirebaseAuth's short name: `credentialAlreadyInUse` → `ERROR_CREDENTIAL_ALREADY_IN_USE`,
    /// `invalidAPIKey` → `ERROR_INVALID_API_KEY`.
    var errorName: String {
        let characters = Array(String(describing: self))
        var name = "ERROR_"
        for (index, character) in characters.enumerated() {
            let previous = index > 0 ? characters[index - 1] : nil
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if character.isUppercase, let previous,
               !previous.isUppercase || (next?.isLowercase ?? false) {
                name.append("_")
            }
            name += character.uppercased()
        }
        return name
    }
}
