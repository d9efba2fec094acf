import WireFormats

/// Whether a successful answer started a session, for whom and through which provider: a pure reading of the
/// operation, the request and the reply, so the sign-in and sign-up counters are tested case by case.
/// Linking and reauthentication (the request names a user by `idToken`) start no new session and count as neither.
enum SessionOutcome: Sendable, Equatable {
    case signIn(provider: String)
    case signUp(provider: String)

    static func of(_ operation: APIOperation, request: RequestBody, reply: JSONObject) -> SessionOutcome? {
        guard reply["idToken"]?.stringValue != nil, reply["refreshToken"]?.stringValue != nil else { return nil }
        let isNewUser = reply["isNewUser"]?.boolValue ?? false
        let outcome = { (provider: String) in isNewUser ? SessionOutcome.signUp(provider: provider) : .signIn(provider: provider) }
        switch operation {
        case .signUp:
            guard !request.has("idToken") else { return nil }
            return .signUp(provider: reply["email"]?.stringValue == nil ? "anonymous" : "password")
        case .signInWithPassword:
            return .signIn(provider: "password")
        case .signInWithIdp:
            guard !request.has("idToken") else { return nil }
            return outcome(reply["providerId"]?.stringValue ?? "unknown")
        case .signInWithEmailLink:
            guard !request.has("idToken") else { return nil }
            return outcome("emailLink")
        case .signInWithCustomToken:
            return outcome("custom")
        default:
            return nil
        }
    }
}
