import AuthCore
import Storage
import Synchronization
import Testing
@testable import Gateway
import WireFormats

/// A store that, once armed, makes a change right after the first transaction whose result `matches` and
/// before its caller sees that result: the change lands between a sign-in's check (its read of the account,
/// or its linking transaction) and the transaction that stores its session, every time.
final class ChangeBetweenStore: UserStore {
    typealias Change = @Sendable () async -> Void
    let inner: any UserStore
    private let armed = Mutex<(matches: @Sendable (Any) -> Bool, change: Change)?>(nil)

    init(_ inner: any UserStore) { self.inner = inner }

    func arm(after matches: @escaping @Sendable (Any) -> Bool, _ change: @escaping Change) {
        armed.withLock { $0 = (matches, change) }
    }

    var isArmed: Bool { armed.withLock { $0 != nil } }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        let result = try await inner.read(body)
        await changeIfArmed(after: result)
        return result
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        let result = try await inner.write(body)
        await changeIfArmed(after: result)
        return result
    }

    func close() async throws { try await inner.close() }

    private func changeIfArmed(after result: some Sendable) async {
        let change = armed.withLock { state -> Change? in
            guard let armed = state, armed.matches(result) else { return nil }
            state = nil
            return armed.change
        }
        await change?()
    }

    /// The read of the account a password sign-in checks the password against.
    static func readOf(_ localId: String) -> @Sendable (Any) -> Bool {
        { ($0 as? UserRecord)?.localId == localId }
    }

    /// The linking transaction of a federated, email-link or phone sign-in.
    static let linking: @Sendable (Any) -> Bool = { $0 is LinkingService.Outcome }
}

@Suite("A change between a sign-in's check and the storing of its session leaves no session behind")
struct SignInRaceTests {
    let v1 = TestGateway.v1

    /// What an admin changes while the sign-in is in flight.
    enum Change: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case password, disable, revoke, email, delete, unlink, link, profile
        var testDescription: String { rawValue }

        func make(_ gw: TestGateway, _ localId: String) async {
            let id = JSONValue.string(localId)
            let reply = switch self {
            case .password: await gw.admin("update", ["localId": id, "password": "changed-secret"])
            case .disable: await gw.admin("update", ["localId": id, "disableUser": true])
            // firebase-admin's revokeRefreshTokens: validSince = now (the clock moved on since the sign-up).
            case .revoke: await gw.admin("update", ["localId": id, "validSince": .string(String(gw.time.nowSeconds))])
            // In the second of the sign-up, so validSince does not move: only the address says it changed.
            case .email: await gw.admin("update", ["localId": id, "email": "moved@example.com"])
            case .delete: await gw.admin("delete", ["localId": id])
            case .unlink: await gw.admin("update", ["localId": id, "deleteProvider": ["test.example"]])
            case .link: await gw.admin("update", ["localId": id, "linkProviderUserInfo": ["providerId": "other.example",
                                                                                         "rawId": "other-ada"]])
            case .profile: await gw.admin("update", ["localId": id, "displayName": "Someone Else"])
            }
            #expect(reply.status == 200, "\(self): \(reply.json)")
        }

        /// Whether the clock moves on before the change (so that `validSince` changes with a revocation).
        var advancesClock: Bool { self == .revoke }
    }

    /// The session handed out (if any) must not outlive the change: refusing is the only safe answer, except
    /// for a change the sign-in did not rely on.
    func expectNoSurvivingSession(_ gw: TestGateway, _ reply: TestGateway.Reply, refused expected: String?,
                                  sourceLocation: SourceLocation = #_sourceLocation) async {
        guard let expected else {
            #expect(reply.status == 200, sourceLocation: sourceLocation)
            let refreshed = await gw.refresh(reply["refreshToken"]?.stringValue ?? "")
            #expect(refreshed.status == 200, sourceLocation: sourceLocation)
            return
        }
        #expect(reply.error == expected, "\(reply.json)", sourceLocation: sourceLocation)
        #expect(reply["refreshToken"] == nil, sourceLocation: sourceLocation)
    }

    static let passwordAnswers: [Change: String?] = [
        .password: "INVALID_PASSWORD", .disable: "USER_DISABLED", .revoke: "TOKEN_EXPIRED", .email: "TOKEN_EXPIRED",
        .delete: "EMAIL_NOT_FOUND", .profile: nil,
    ]

    @Test("password sign-in: the change lands after the account was read for the password check",
          arguments: [Change.password, .disable, .revoke, .email, .delete, .profile])
    func passwordSignIn(change: Change) async throws {
        let store = ChangeBetweenStore(InMemoryUserStore())
        try await store.write { tx in try tx.insertSigningKey(SharedSigningKey.record) }
        let gw = try await TestGateway.withEmail(store: store)
        let localId = try #require(await gw.signUp("ada@example.com", "secret1")["localId"]?.stringValue)
        if change.advancesClock { gw.time.advance(seconds: 5) }
        store.arm(after: ChangeBetweenStore.readOf(localId)) { await change.make(gw, localId) }
        let reply = await gw.signIn("ada@example.com", "secret1")
        #expect(!store.isArmed)
        await expectNoSurvivingSession(gw, reply, refused: Self.passwordAnswers[change] ?? nil)
    }

    @Test("password sign-in with email privacy: a password changed in flight is the answer a wrong one gets")
    func passwordSignInWithPrivacy() async throws {
        let store = ChangeBetweenStore(InMemoryUserStore())
        try await store.write { tx in try tx.insertSigningKey(SharedSigningKey.record) }
        let gw = try await TestGateway.withEmail(store: store) { $0.setPluginValue("email.improvedEmailPrivacy", true) }
        let localId = try #require(await gw.signUp("ada@example.com", "secret1")["localId"]?.stringValue)
        store.arm(after: ChangeBetweenStore.readOf(localId)) { await Change.password.make(gw, localId) }
        await expectNoSurvivingSession(gw, await gw.signIn("ada@example.com", "secret1"), refused: "INVALID_LOGIN_CREDENTIALS")
    }

    static let federatedAnswers: [Change: String?] = [
        .password: "TOKEN_EXPIRED", .disable: "USER_DISABLED", .revoke: "TOKEN_EXPIRED", .unlink: "TOKEN_EXPIRED",
        .delete: "USER_NOT_FOUND", .link: nil, .profile: nil,
        // The account had no email: taken after the admin gave it one, this sign-in succeeds all the same.
        .email: nil,
    ]

    @Test("federated sign-in: the change lands after the linking transaction",
          arguments: [Change.password, .disable, .revoke, .unlink, .delete, .link, .email, .profile])
    func federatedSignIn(change: Change) async throws {
        let store = ChangeBetweenStore(InMemoryUserStore())
        let gw = try await TestGateway.make(store: store)
        let localId = try #require(await gw.signInWithIdp(sub: "ada")["localId"]?.stringValue)
        if change.advancesClock { gw.time.advance(seconds: 5) }
        store.arm(after: ChangeBetweenStore.linking) { await change.make(gw, localId) }
        let reply = await gw.signInWithIdp(sub: "ada")
        #expect(!store.isArmed)
        await expectNoSurvivingSession(gw, reply, refused: Self.federatedAnswers[change] ?? nil)
    }

    @Test("email-link sign-in shares the check: a disable after the linking transaction leaves no session")
    func emailLinkSignIn() async throws {
        let store = ChangeBetweenStore(InMemoryUserStore())
        try await store.write { tx in try tx.insertSigningKey(SharedSigningKey.record) }
        let gw = try await TestGateway.withEmail(store: store)
        let localId = try #require(await gw.signUp("ada@example.com", "secret1")["localId"]?.stringValue)
        let code = await gw.admin("sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "ada@example.com",
                                                  "returnOobLink": true])["oobCode"]?.stringValue ?? ""
        store.arm(after: ChangeBetweenStore.linking) { await Change.disable.make(gw, localId) }
        let reply = await gw.post("\(v1)/accounts:signInWithEmailLink", ["email": "ada@example.com", "oobCode": .string(code)])
        #expect(!store.isArmed)
        await expectNoSurvivingSession(gw, reply, refused: "USER_DISABLED")
    }

    @Test("phone sign-in shares the check: a revocation after the linking transaction leaves no session")
    func phoneSignIn() async throws {
        let phone = FakePhoneServices()
        let store = ChangeBetweenStore(InMemoryUserStore())
        let gw = try await TestGateway.withPhone(phone, store: store)
        let localId = try #require(await gw.phoneSignIn("+15550100", services: phone)["localId"]?.stringValue)
        gw.time.advance(seconds: 5)
        store.arm(after: ChangeBetweenStore.linking) { await Change.revoke.make(gw, localId) }
        let reply = await gw.phoneSignIn("+15550100", services: phone)
        #expect(!store.isArmed)
        await expectNoSurvivingSession(gw, reply, refused: "TOKEN_EXPIRED")
    }
}
