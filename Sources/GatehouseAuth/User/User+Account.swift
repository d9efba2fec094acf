import Foundation

extension User {
    /// Reads the account again (after verifying the email from another device, for example).
    public func reload() async throws {
        let profile = try await withIDToken { idToken in try await backend.lookup(idToken: idToken) }
        adopt(profile)
    }

    /// Deletes the account at the gateway and signs out. Needs a recent sign-in (`requiresRecentLogin`).
    public func delete() async throws {
        try await withIDToken { idToken in
            _ = try await backend.post(.delete, ["idToken": idToken])
        }
        auth?.endSession(of: self)
    }

    /// Changes the address at once (the old one gets a recovery link). Needs a recent sign-in. Prefer
    /// `sendEmailVerification(beforeUpdatingEmail:)`, which changes it only once the new address is proven.
    public func updateEmail(to email: String) async throws {
        try await change(["email": email])
    }

    /// Needs a recent sign-in; every other session of the account ends.
    public func updatePassword(to password: String) async throws {
        try await change(["password": password])
    }

    /// Gives the account the number proven by `credential` (a number another account holds fails with
    /// `credentialAlreadyInUse`).
    public func updatePhoneNumber(_ credential: PhoneAuthCredential) async throws {
        try await link(with: credential)
    }

    /// Mails a verification link to the account's address.
    public func sendEmailVerification(with actionCodeSettings: ActionCodeSettings? = nil) async throws {
        try await withIDToken { idToken in
            var body = actionCodeSettings?.fields ?? [:]
            body["requestType"] = "VERIFY_EMAIL"
            body["idToken"] = idToken
            _ = try await backend.post(.sendOobCode, body)
        }
    }

    /// Mails a link to `newEmail`; the address changes when it is opened.
    public func sendEmailVerification(beforeUpdatingEmail newEmail: String, actionCodeSettings: ActionCodeSettings? = nil) async throws {
        try await withIDToken { idToken in
            var body = actionCodeSettings?.fields ?? [:]
            body["requestType"] = "VERIFY_AND_CHANGE_EMAIL"
            body["idToken"] = idToken
            body["newEmail"] = newEmail
            _ = try await backend.post(.sendOobCode, body)
        }
    }

    /// Starts a change of display name or photo URL; `commitChanges()` sends it.
    public func createProfileChangeRequest() -> UserProfileChangeRequest {
        UserProfileChangeRequest(user: self)
    }

    /// `accounts:update` with `fields`, taking the fresh session the gateway returns.
    func change(_ fields: [String: any Sendable]) async throws {
        try await withIDToken { idToken in
            var body = fields
            body["idToken"] = idToken
            body["returnSecureToken"] = true
            let response = try await backend.post(.update, body)
            try await adoptSession(from: response)
        }
    }
}
