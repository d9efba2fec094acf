import AuthCore
import ProviderKit
import Storage
import WireFormats

/// An anonymous account: admitted by the anonymous provider (switch and per-client limit), created together with
/// its first session in one transaction. (An admin's empty account is `AdminAccountCreation`.)
enum AnonymousSignUp {
    static func run(_ services: GatewayServices, _ context: OperationContext) async throws -> JSONObject {
        guard let anonymous = services.providers.provider(.anonymous, as: (any CredentialFreeSignUp).self) else {
            throw AuthError(.adminOnlyOperation)
        }
        try anonymous.admitSignUp(context.requestContext)
        let now = services.time.nowMilliseconds
        // A generated id colliding is astronomically unlikely, but the store is the arbiter: up to three tries.
        for _ in 0..<3 {
            let localId = UserIDs.generate(createdAt: now)
            let user = UserRecord(localId: localId, validSince: now / 1000, createdAt: now, lastLoginAt: now,
                                  lastRefreshAt: now)
            let (refreshToken, record) = try services.sessions.newRefreshToken(
                localId: localId, signInProvider: ProviderID.anonymous.rawValue)
            do {
                try await services.store.write { tx in
                    try tx.insertUser(user)
                    try tx.insertRefreshToken(record)
                }
            } catch StoreError.uniqueViolation(.localId) {
                continue
            }
            var response: JSONObject = ["kind": "identitytoolkit#SignupNewUserResponse", "localId": .string(localId)]
            SessionFields.add(try services.sessions.issued(refreshToken: refreshToken, for: user, identities: [],
                                                           signInProvider: ProviderID.anonymous.rawValue),
                              to: &response)
            return response
        }
        throw StoreError.unavailable("could not allocate a user id")
    }
}
