import Foundation
@testable import GatehouseAuth
import Testing

/// One way to make a real gateway answer with one of `GatewayErrorTable`'s codes, through the library.
struct ErrorScenario: Sendable, CustomTestStringConvertible {
    let gatewayCode: String
    let expected: AuthErrorCode
    let produce: @Sendable (ClientEnvironment) async throws -> Void

    var testDescription: String { "\(gatewayCode) → \(expected)" }
}

/// Ages a one-time token (action code, phone session) in the gateway's database: codes live for hours, and a
/// test cannot wait that long. The gateway itself then answers that it expired.
func expireOneTimeToken(_ token: String, in gateway: GatewayProcess) async throws {
    let hash = AuthNonce.sha256Hex(token)
    let sql = "UPDATE one_time_tokens SET expires_at = created_at WHERE token_hash = X'\(hash)'; SELECT changes();"
    let child = try ChildProcess(URL(fileURLWithPath: "/usr/bin/sqlite3"), ["-cmd", ".timeout 5000", gateway.database.path, sql],
                                 workDirectory: gateway.dataDirectory.deletingLastPathComponent(), name: "sqlite3-\(Unique.token(6))")
    let status = try await child.wait(timeout: 600)
    let changed = child.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    guard status == 0, changed == "1" else { throw TestSetupError("sqlite3 aged \(changed) rows: \(child.stderr)") }
}

/// A stored session with the given tokens, restored by a new `Auth` for `which`.
func authWithPlantedSession(_ environment: ClientEnvironment, uid: String, idToken: String, refreshToken: String,
                            expires: Date) throws -> Auth {
    let store = InMemorySessionStore()
    let configuration = environment.configuration(store: store)
    let session = StoredSession(gateway: configuration.gatewayURL,
                                tokens: TokenPair(idToken: idToken, refreshToken: refreshToken, expirationDate: expires),
                                profile: try #require(UserProfile(lookup: GatewayResponse(["localId": uid]))))
    try store.save(try session.encoded(), key: configuration.sessionKey)
    return try Auth(configuration: configuration)
}

extension ErrorScenario {
    static let all: [ErrorScenario] = [
        ErrorScenario(gatewayCode: "EMAIL_EXISTS", expected: .emailAlreadyInUse) { environment in
            let (auth, _, email) = try await environment.passwordUser()
            try await auth.createUser(withEmail: email, password: "another-pass-1")
        },
        ErrorScenario(gatewayCode: "EMAIL_NOT_FOUND", expected: .userNotFound) { environment in
            try await environment.auth().signIn(withEmail: Unique.email("nobody"), password: "some-pass-1")
        },
        ErrorScenario(gatewayCode: "USER_NOT_FOUND", expected: .userNotFound) { environment in
            let user = try await environment.auth().signInAnonymously().user
            try await environment.api().delete(user.uid)
            try await user.reload()
        },
        ErrorScenario(gatewayCode: "INVALID_PASSWORD", expected: .wrongPassword) { environment in
            let (auth, _, email) = try await environment.passwordUser(password: "right-pass-1")
            try await auth.signIn(withEmail: email, password: "wrong-pass-1")
        },
        ErrorScenario(gatewayCode: "INVALID_LOGIN_CREDENTIALS", expected: .invalidCredential) { environment in
            try await environment.auth(.short).signIn(withEmail: Unique.email("nobody"), password: "some-pass-1")
        },
        ErrorScenario(gatewayCode: "INVALID_EMAIL", expected: .invalidEmail) { environment in
            try await environment.auth().createUser(withEmail: "not-an-address", password: "some-pass-1")
        },
        ErrorScenario(gatewayCode: "MISSING_EMAIL", expected: .missingEmail) { environment in
            // A verification mail for an account without an address.
            try await environment.auth().signInAnonymously().user.sendEmailVerification()
        },
        ErrorScenario(gatewayCode: "WEAK_PASSWORD", expected: .weakPassword) { environment in
            try await environment.auth().createUser(withEmail: Unique.email(), password: "abc")
        },
        ErrorScenario(gatewayCode: "USER_DISABLED", expected: .userDisabled) { environment in
            let (auth, user, email) = try await environment.passwordUser(password: "disabled-pass-1")
            try await environment.api().disable(user.uid)
            try await auth.signIn(withEmail: email, password: "disabled-pass-1")
        },
        ErrorScenario(gatewayCode: "OPERATION_NOT_ALLOWED", expected: .operationNotAllowed) { environment in
            try await environment.auth().signIn(with: OAuthProvider.credential(withProviderID: "github.com", accessToken: "gho_x"))
        },
        ErrorScenario(gatewayCode: "PASSWORD_LOGIN_DISABLED", expected: .operationNotAllowed) { environment in
            try await environment.auth(.restricted).signIn(withEmail: Unique.email(), password: "some-pass-1")
        },
        ErrorScenario(gatewayCode: "ADMIN_ONLY_OPERATION", expected: .adminRestrictedOperation) { environment in
            try await environment.auth(.restricted).signInAnonymously()
        },
        ErrorScenario(gatewayCode: "TOO_MANY_ATTEMPTS_TRY_LATER", expected: .tooManyRequests) { environment in
            let (auth, _, email) = try await environment.passwordUser(password: "right-pass-1")
            for _ in 0..<3 {
                do {
                    try await auth.signIn(withEmail: email, password: "wrong-pass-1")
                } catch let error as AuthError where error.code == .wrongPassword {}
            }
            try await auth.signIn(withEmail: email, password: "right-pass-1")
        },
        ErrorScenario(gatewayCode: "CREDENTIAL_TOO_OLD_LOGIN_AGAIN", expected: .requiresRecentLogin) { environment in
            let (_, user, _) = try await environment.passwordUser(.short)
            try await Task.sleep(for: .seconds(ClientEnvironment.recentSignInSeconds + 1.2))
            try await user.updatePassword(to: "later-pass-1")
        },
        ErrorScenario(gatewayCode: "TOKEN_EXPIRED", expected: .userTokenExpired) { environment in
            let user = try await environment.auth().signInAnonymously().user
            try await Task.sleep(for: .seconds(1.1))
            try await environment.api().revokeSessions(user.uid)
            _ = try await user.getIDToken(forcingRefresh: true)
        },
        ErrorScenario(gatewayCode: "INVALID_ID_TOKEN", expected: .invalidUserToken) { environment in
            // A session of the other gateway (another signing key) presented to this one.
            let foreign = try await environment.auth(.short).signInAnonymously().user
            let auth = try authWithPlantedSession(environment, uid: foreign.uid, idToken: try await foreign.getIDToken(),
                                                  refreshToken: foreign.refreshToken ?? "", expires: .distantFuture)
            try await auth.currentUser?.reload()
        },
        ErrorScenario(gatewayCode: "INVALID_REFRESH_TOKEN", expected: .invalidUserToken) { environment in
            let auth = try authWithPlantedSession(environment, uid: "planted", idToken: "x.y.z", refreshToken: "not-a-refresh-token",
                                                  expires: .distantPast)
            _ = try await auth.currentUser?.getIDToken()
        },
        ErrorScenario(gatewayCode: "INVALID_IDP_RESPONSE", expected: .invalidCredential) { environment in
            let nonce = AuthNonce()
            let token = try await environment.standIns.string("apple_id_token", ["sub": "x", "nonce": nonce.raw, "aud": "com.other.app"])
            try await environment.auth().signIn(with: OAuthProvider.appleCredential(withIDToken: token, rawNonce: nonce.raw, fullName: nil))
        },
        ErrorScenario(gatewayCode: "INVALID_PENDING_TOKEN", expected: .invalidCredential) { environment in
            try await environment.auth().signIn(with: OAuthCredential(pendingToken: "ghp.not-issued", providerID: "apple.com", email: nil))
        },
        ErrorScenario(gatewayCode: "MISSING_OR_INVALID_NONCE", expected: .missingOrInvalidNonce) { environment in
            let token = try await environment.standIns.string("apple_id_token", ["sub": "x", "nonce": AuthNonce().raw])
            try await environment.auth().signIn(with: OAuthProvider.appleCredential(withIDToken: token, rawNonce: AuthNonce().raw, fullName: nil))
        },
        ErrorScenario(gatewayCode: "FEDERATED_USER_ID_ALREADY_LINKED", expected: .credentialAlreadyInUse) { environment in
            let sub = Unique.subject("apple")
            _ = try await environment.auth().signIn(with: environment.appleCredential(sub: sub))
            try await environment.auth().signInAnonymously().user.link(with: environment.appleCredential(sub: sub))
        },
        ErrorScenario(gatewayCode: "NEED_CONFIRMATION", expected: .accountExistsWithDifferentCredential) { environment in
            let (_, _, email) = try await environment.passwordUser()
            try await environment.auth().signIn(with: environment.facebookCredential(userID: Unique.subject("fb"), email: email))
        },
        ErrorScenario(gatewayCode: "PROVIDER_ALREADY_LINKED", expected: .providerAlreadyLinked) { environment in
            let user = try await environment.auth().signIn(with: environment.appleCredential(sub: Unique.subject("apple"))).user
            try await user.link(with: environment.appleCredential(sub: Unique.subject("apple")))
        },
        ErrorScenario(gatewayCode: "EXPIRED_OOB_CODE", expected: .expiredActionCode) { environment in
            // On `short`, which has no identity provider: nothing there issues pending tokens, whose issuing sweeps
            // expired one-time tokens away (the code would then be unknown rather than expired).
            let (auth, _, email) = try await environment.passwordUser(.short)
            try await auth.sendPasswordReset(withEmail: email)
            let code = try await environment.oobCode(to: email)
            try await expireOneTimeToken(code, in: environment.short)
            _ = try await auth.verifyPasswordResetCode(code)
        },
        ErrorScenario(gatewayCode: "INVALID_OOB_CODE", expected: .invalidActionCode) { environment in
            try await environment.auth().applyActionCode("not-a-code")
        },
        ErrorScenario(gatewayCode: "MISSING_OOB_CODE", expected: .invalidActionCode) { environment in
            try await environment.auth().applyActionCode("")
        },
        ErrorScenario(gatewayCode: "UNAUTHORIZED_DOMAIN", expected: .unauthorizedDomain) { environment in
            let settings = ActionCodeSettings()
            settings.url = URL(string: "https://phishing.example.net/")
            let (auth, _, email) = try await environment.passwordUser()
            try await auth.sendPasswordReset(withEmail: email, actionCodeSettings: settings)
        },
        ErrorScenario(gatewayCode: "INVALID_CONTINUE_URI", expected: .invalidContinueURI) { environment in
            let settings = ActionCodeSettings()
            settings.url = URL(string: "myapp://open")
            let (auth, _, email) = try await environment.passwordUser()
            try await auth.sendPasswordReset(withEmail: email, actionCodeSettings: settings)
        },
        ErrorScenario(gatewayCode: "INVALID_PHONE_NUMBER", expected: .invalidPhoneNumber) { environment in
            _ = try await PhoneAuthProvider.provider(auth: environment.auth()).verifyPhoneNumber("12345")
        },
        ErrorScenario(gatewayCode: "INVALID_CODE", expected: .invalidVerificationCode) { environment in
            let auth = try environment.auth()
            let provider = PhoneAuthProvider.provider(auth: auth)
            let id = try await provider.verifyPhoneNumber(Unique.phoneNumber().number)
            try await auth.signIn(with: provider.credential(withVerificationID: id, verificationCode: "000000"))
        },
        ErrorScenario(gatewayCode: "MISSING_CODE", expected: .missingVerificationCode) { environment in
            let auth = try environment.auth()
            let provider = PhoneAuthProvider.provider(auth: auth)
            let id = try await provider.verifyPhoneNumber(Unique.phoneNumber().number)
            try await auth.signIn(with: provider.credential(withVerificationID: id, verificationCode: ""))
        },
        ErrorScenario(gatewayCode: "INVALID_SESSION_INFO", expected: .invalidVerificationID) { environment in
            let auth = try environment.auth()
            try await auth.signIn(with: PhoneAuthProvider.provider(auth: auth).credential(withVerificationID: "not-a-session",
                                                                                          verificationCode: "123456"))
        },
        ErrorScenario(gatewayCode: "MISSING_SESSION_INFO", expected: .missingVerificationID) { environment in
            let auth = try environment.auth()
            try await auth.signIn(with: PhoneAuthProvider.provider(auth: auth).credential(withVerificationID: "", verificationCode: "123456"))
        },
        ErrorScenario(gatewayCode: "SESSION_EXPIRED", expected: .sessionExpired) { environment in
            let auth = try environment.auth(.short)
            let provider = PhoneAuthProvider.provider(auth: auth)
            let phone = Unique.phoneNumber()
            let id = try await provider.verifyPhoneNumber(phone.number)
            try await expireOneTimeToken(id, in: environment.short)
            try await auth.signIn(with: provider.credential(withVerificationID: id, verificationCode: phone.code))
        },
        ErrorScenario(gatewayCode: "INVALID_TEMPORARY_PROOF", expected: .invalidCredential) { environment in
            let proof = PhoneAuthCredential(payload: .phoneProof(phoneNumber: Unique.phoneNumber().number, temporaryProof: "not-a-proof"))
            try await environment.auth().signIn(with: proof)
        },
        ErrorScenario(gatewayCode: "PHONE_NUMBER_EXISTS", expected: .credentialAlreadyInUse) { environment in
            // The updated credential of a number another account holds, linked instead of signed in with.
            let phone = Unique.phoneNumber()
            let ownerAuth = try environment.auth()
            let owner = PhoneAuthProvider.provider(auth: ownerAuth)
            let ownerID = try await owner.verifyPhoneNumber(phone.number)
            try await ownerAuth.signIn(with: owner.credential(withVerificationID: ownerID, verificationCode: phone.code))
            let auth = try environment.auth()
            let user = try await auth.signInAnonymously().user
            let provider = PhoneAuthProvider.provider(auth: auth)
            let id = try await provider.verifyPhoneNumber(phone.number)
            var updated: AuthCredential?
            do {
                try await user.link(with: provider.credential(withVerificationID: id, verificationCode: phone.code))
            } catch let error as AuthError {
                updated = error.updatedCredential
            }
            try await user.link(with: try #require(updated))
        },
        ErrorScenario(gatewayCode: "API_KEY_INVALID", expected: .invalidAPIKey) { environment in
            var configuration = environment.configuration()
            configuration.apiKey = "not-a-listed-key"
            try await Auth(configuration: configuration).signInAnonymously()
        },
    ]

    /// Table entries produced by another test, with its name.
    static let producedElsewhere = ["UNAVAILABLE": "HTTPSTests: nginx answers 503 for a gateway that is down"]
}

extension ClientTests {
    @Suite("The error table: every gateway code, produced by a real gateway answer")
    struct ErrorTableTests {
        @Test("each code of GatewayErrorTable becomes its AuthErrorCode", arguments: ErrorScenario.all)
        func scenario(_ scenario: ErrorScenario) async throws {
            let environment = try ClientEnvironment.shared
            let error = await authError { try await scenario.produce(environment) }
            #expect(error?.gatewayCode == scenario.gatewayCode, "the gateway answered \(String(describing: error))")
            #expect(error?.code == scenario.expected)
            #expect(GatewayErrorTable.codes[scenario.gatewayCode] == scenario.expected)
        }

        @Test("every entry of the table has a scenario, and no scenario tests a code the table lacks")
        func coverage() {
            let covered = Set(ErrorScenario.all.map(\.gatewayCode)).union(ErrorScenario.producedElsewhere.keys)
            #expect(covered == Set(GatewayErrorTable.codes.keys))
            #expect(ErrorScenario.all.count == Set(ErrorScenario.all.map(\.gatewayCode)).count)
        }

        @Test("failures without a gateway code: nothing listening is networkError, a server that is not a gateway internalError")
        func transportFailures() async throws {
            let environment = try ClientEnvironment.shared
            var closed = environment.configuration()
            closed.gatewayURL = URL(string: "http://127.0.0.1:9")!
            let unreachable = await authError { try await Auth(configuration: closed).signInAnonymously() }
            #expect(unreachable?.code == .networkError && unreachable?.gatewayCode == nil)
            #expect(((unreachable.map { $0 as NSError })?.userInfo[NSUnderlyingErrorKey] as? NSError)?.domain == NSURLErrorDomain)

            let appleURL = try #require((environment.standIns.sections["apple"] as? [String: Any])?["baseUrl"] as? String)
            var notAGateway = environment.configuration()
            notAGateway.gatewayURL = try #require(URL(string: appleURL))
            let strange = await authError { try await Auth(configuration: notAGateway).signInAnonymously() }
            #expect(strange?.code == .internalError && strange?.gatewayCode == nil, "\(String(describing: strange))")
            #expect(strange?.message.contains("without Google's error envelope") == true && strange?.httpStatus == 400)
        }
    }
}
