import AuthCore
import ProviderKit
import Storage
import WireFormats

/// An admin creating an account (`POST /v1/projects/{p}/accounts`, firebase-admin's `create_user`, or
/// `accounts:signUp` with an admin credential and no `idToken`): any of a chosen `localId`, email, password,
/// phone number, profile, `emailVerified` and `disabled`; nobody is signed in. Not a merge (no credential meets
/// an existing account), so a taken value is an error: `DUPLICATE_LOCAL_ID`, `EMAIL_EXISTS`,
/// `PHONE_NUMBER_EXISTS`, as Firebase answers (firebase-admin raises `UidAlreadyExistsError`,
/// `EmailAlreadyExistsError`, `PhoneNumberAlreadyExistsError`).
enum AdminAccountCreation {

    struct Request: Sendable {
        var localId: String?
        var email: String?
        var password: String?
        var phoneNumber: String?
        var displayName: String?
        var photoUrl: String?
        var emailVerified: Bool
        var disabled: Bool

        init(_ body: RequestBody) throws {
            localId = try ProfileLimits.checkLocalId(try body.string("localId"))
            email = try body.string("email").map { try EmailAddress.require($0) }
            password = try body.string("password")
            if password != nil && email == nil { throw AuthError(.missingEmail) }
            phoneNumber = try body.string("phoneNumber").map { try PhoneNumbers.require($0) }
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
        let credential = try await request.password.asyncMap { password in
            let accounts = try services.email.requireAccounts()
            try accounts.requireEnabled()
            return try await accounts.hash(try accounts.checkPassword(password))
        }
        let now = services.time.nowMilliseconds
        // A generated id colliding is astronomically unlikely, but the store is the arbiter: up to three tries.
        for _ in 0..<3 {
            let localId = request.localId ?? UserIDs.generate(createdAt: now)
            let user = UserRecord(localId: localId, email: request.email,
                                  emailVerified: request.emailVerified, displayName: request.displayName,
                                  photoUrl: request.photoUrl, phoneNumber: request.phoneNumber, password: credential,
                                  passwordUpdatedAt: credential == nil ? nil : now, disabled: request.disabled,
                                  validSince: now / 1000, createdAt: now)
            do {
                try await services.store.write { tx in try tx.insertUser(user) }
            } catch StoreError.uniqueViolation(.email) {
                throw AuthError(.emailExists)
            } catch StoreError.uniqueViolation(.phoneNumber) {
                throw AuthError(.phoneNumberExists)
            } catch StoreError.uniqueViolation(.localId) {
                if request.localId != nil { throw AuthError(.duplicateLocalId) }
                continue
            }
            var response: JSONObject = ["kind": "identitytoolkit#SignupNewUserResponse", "localId": .string(user.localId)]
            response.set("email", user.email)
            response.set("displayName", user.displayName)
            return response
        }
        throw StoreError.unavailable("could not allocate a user id")
    }
}
