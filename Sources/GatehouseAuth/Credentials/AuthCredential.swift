/// A proof of identity to sign in with, link to a user, or reauthenticate with: FirebaseAuth's `AuthCredential`.
///
/// Made by the providers (`OAuthProvider`, `FacebookAuthProvider`, `TelegramAuthProvider`, `EmailAuthProvider`,
/// `PhoneAuthProvider`), or handed back by the gateway inside an `AuthError` as the updated credential.
/// `@unchecked Sendable`: every stored property is an immutable `let` of a `Sendable` type.
public class AuthCredential: @unchecked Sendable {
    /// The provider id (`apple.com`, `facebook.com`, `password`, `phone`, `telegram.org`, `oidc.corp`, ...).
    public let provider: String
    let payload: CredentialPayload

    init(provider: String, payload: CredentialPayload) {
        self.provider = provider
        self.payload = payload
    }
}

/// What a credential carries to the gateway; `CredentialRequest` is the one place that puts it on the wire.
enum CredentialPayload: Sendable {
    /// `signInWithIdp`'s `postBody` fields after `providerId` (`id_token`, `nonce`, `access_token`, `user`, `code`).
    case idp(fields: [(String, String)])
    /// The gateway's single-use `pendingToken`: the updated credential of `credentialAlreadyInUse`.
    case pendingToken(String)
    case password(email: String, password: String)
    case emailLink(email: String, oobCode: String)
    case phoneCode(verificationID: String, code: String)
    /// The gateway's `temporaryProof` for a number another account holds: the phone's updated credential.
    case phoneProof(phoneNumber: String, temporaryProof: String)
}

/// A credential from an identity provider (Apple, Facebook, Google, Telegram, OpenID Connect), or the updated
/// credential the gateway returns for one.
public final class OAuthCredential: AuthCredential, @unchecked Sendable {
    /// The provider's ID token, if the credential carries one.
    public let idToken: String?
    /// The provider's access token (or Telegram's signed data), if the credential carries one.
    public let accessToken: String?
    /// The raw nonce whose SHA-256 the ID token carries.
    public let rawNonce: String?
    /// For an updated credential: the email address the gateway named, if any.
    public let email: String?

    init(providerID: String, idToken: String?, rawNonce: String?, accessToken: String?, extraFields: [(String, String)] = []) {
        self.idToken = idToken
        self.accessToken = accessToken
        self.rawNonce = rawNonce
        self.email = nil
        var fields: [(String, String)] = []
        if let idToken { fields.append(("id_token", idToken)) }
        if let rawNonce { fields.append(("nonce", rawNonce)) }
        if let accessToken { fields.append(("access_token", accessToken)) }
        super.init(provider: providerID, payload: .idp(fields: fields + extraFields))
    }

    init(pendingToken: String, providerID: String, email: String?) {
        idToken = nil
        accessToken = nil
        rawNonce = nil
        self.email = email
        super.init(provider: providerID, payload: .pendingToken(pendingToken))
    }
}

/// An email address with a password or an email sign-in link.
public final class EmailAuthCredential: AuthCredential, @unchecked Sendable {
    public let email: String

    init(email: String, payload: CredentialPayload) {
        self.email = email
        super.init(provider: EmailAuthProvider.id, payload: payload)
    }
}

/// A phone number proven by a code (or, as an updated credential, by the gateway's temporary proof).
public final class PhoneAuthCredential: AuthCredential, @unchecked Sendable {
    /// Set for an updated credential: the number that another account holds.
    public let phoneNumber: String?

    init(payload: CredentialPayload, phoneNumber: String? = nil) {
        self.phoneNumber = phoneNumber
        super.init(provider: PhoneAuthProvider.id, payload: payload)
    }
}
