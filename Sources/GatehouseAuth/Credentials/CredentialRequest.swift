/// What a credential asks of the gateway: signing in, linking to the user whose ID token is given, or
/// reauthenticating (which never creates an account).
enum CredentialIntent: Sendable, Equatable {
    case signIn
    case link(idToken: String)
    case reauthenticate
}

/// The one place that puts a credential on the wire: the route and JSON body for an intent, and the refusals
/// that come back inside a 200 answer.
struct CredentialRequest: Sendable {
    let credential: AuthCredential
    let endpoint: GatewayEndpoint
    let body: [String: any Sendable]

    /// What `signInWithIdp` needs as `requestUri` when the credential is in `postBody` (an absolute URL).
    static let requestURI = "http://localhost"

    init(_ credential: AuthCredential, intent: CredentialIntent) {
        self.credential = credential
        var body: [String: any Sendable] = ["returnSecureToken": true]
        if case .link(let idToken) = intent { body["idToken"] = idToken }
        let reauthenticating = intent == .reauthenticate
        switch credential.payload {
        case .idp(let fields):
            endpoint = .signInWithIdp
            body.merge(Self.idpFields(reauthenticating: reauthenticating)) { $1 }
            body["postBody"] = FormEncoding.encode([("providerId", credential.provider)] + fields)
        case .pendingToken(let token):
            endpoint = .signInWithIdp
            body.merge(Self.idpFields(reauthenticating: reauthenticating)) { $1 }
            body["pendingToken"] = token
        case .password(let email, let password):
            // Adding a password to a signed-in user is a sign-up with its ID token.
            if case .link = intent { endpoint = .signUp } else { endpoint = .signInWithPassword }
            body["email"] = email
            body["password"] = password
        case .emailLink(let email, let oobCode):
            endpoint = .signInWithEmailLink
            body["email"] = email
            body["oobCode"] = oobCode
        case .phoneCode(let verificationID, let code):
            endpoint = .signInWithPhoneNumber
            body["sessionInfo"] = verificationID
            body["code"] = code
            if reauthenticating { body["operation"] = "REAUTH" }
        case .phoneProof(let phoneNumber, let temporaryProof):
            endpoint = .signInWithPhoneNumber
            body["phoneNumber"] = phoneNumber
            body["temporaryProof"] = temporaryProof
            if reauthenticating { body["operation"] = "REAUTH" }
        }
        self.body = body
    }

    /// What every `signInWithIdp` request carries besides the credential; reauthentication never creates an account.
    private static func idpFields(reauthenticating: Bool) -> [String: any Sendable] {
        var fields: [String: any Sendable] = ["requestUri": requestURI, "returnIdpCredential": true]
        if reauthenticating { fields["autoCreate"] = false }
        return fields
    }

    /// A 200 answer that is a refusal: `signInWithIdp`'s `errorMessage`/`needConfirmation` with a pending token,
    /// or `signInWithPhoneNumber`'s temporary proof for a number another account holds (read as
    /// `PHONE_NUMBER_EXISTS`, with the proof as the updated credential).
    func refusal(in response: GatewayResponse) -> AuthError? {
        switch endpoint {
        case .signInWithIdp:
            return GatewayErrorDecoder.idpRefusal(response, providerID: credential.provider)
        case .signInWithPhoneNumber:
            guard let proof = response.string("temporaryProof"), let number = response.string("phoneNumber") else { return nil }
            let updated = PhoneAuthCredential(payload: .phoneProof(phoneNumber: number, temporaryProof: proof), phoneNumber: number)
            return GatewayErrorDecoder.error(name: "PHONE_NUMBER_EXISTS", detail: "The phone number belongs to another account.",
                                             status: 200, updatedCredential: updated, phoneNumber: number)
        default:
            return nil
        }
    }
}
