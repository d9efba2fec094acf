import AuthCore
import ProviderKit
import Storage
import WireFormats

/// An admin's `accounts:signUp` with an email and password: the account is created, nobody is signed in.
/// Not a merge (no credential meets an existing account): an address already taken is `EMAIL_EXISTS`.
enum AdminAccountCreation {
    struct Request: Sendable {
        var localId: String?
        var email: String
        var password: String?
        var displayName: String?
        var photoUrl: String?
        var emailVerified: Bool
        var disabled: Bool

        init(_ body: RequestBody) throws {
            localId = try ProfileLimits.checkLocalId(try body.string("localId"))
            email = try EmailAddress.require(try body.string("email"))
            password = try body.string("password")
            displayName = try body.string("displayName").map {
                try ProfileLimits.check($0, field: "displayName", limit: ProfileLimits.displayName)
            }
            photoUrl = try body.string("photoUrl").map {
                try ProfileLimits.check($0, field: "photoUrl", limit: ProfileLimits.photoUrl)
            }
            emailVerified = try body.bool("emailVerified") ?? false
            disabled = try body.bool("disabled") ?? false
        }
    }

    static func run(_ request: Request, _ services: GatewayServices) async throws -> JSONObject {
        let accounts = try services.email.requireAccounts()
        try accounts.requireEnabled()
        let credential = try await accounts.hash(try accounts.checkPassword(request.password))
        let now = services.time.nowMilliseconds
        let user = UserRecord(localId: request.localId ?? UserIDs.generate(), email: request.email,
                              emailVerified: request.emailVerified, displayName: request.displayName,
                              photoUrl: request.photoUrl, password: credential, passwordUpdatedAt: now,
                              disabled: request.disabled, validSince: now / 1000, createdAt: now)
        do {
            try await services.store.write { tx in try tx.insertUser(user) }
        } catch StoreError.uniqueViolation(.email) {
            throw AuthError(.emailExists)
        } catch StoreError.uniqueViolation(.localId) {
            throw AuthError(.duplicateLocalId)
        }
        var response: JSONObject = ["kind": "identitytoolkit#SignupNewUserResponse", "localId": .string(user.localId),
                                    "email": .string(request.email)]
        response.set("displayName", user.displayName)
        return response
    }
}
