import Foundation

extension Auth {
    /// Mails a password-reset link to `email`.
    public func sendPasswordReset(withEmail email: String, actionCodeSettings: ActionCodeSettings? = nil) async throws {
        var body = actionCodeSettings?.fields ?? [:]
        body["requestType"] = "PASSWORD_RESET"
        body["email"] = email
        _ = try await backend.post(.sendOobCode, body)
    }

    /// Mails an email sign-in link to `email`; `actionCodeSettings.url` is where the link returns, with
    /// `handleCodeInApp` set. Keep the address: `signIn(withEmail:link:)` needs it.
    public func sendSignInLink(toEmail email: String, actionCodeSettings: ActionCodeSettings) async throws {
        var body = actionCodeSettings.fields
        body["requestType"] = "EMAIL_SIGNIN"
        body["email"] = email
        _ = try await backend.post(.sendOobCode, body)
    }

    /// Whether `link` is an email sign-in link (the action link itself or the continue URL it redirects to).
    public func isSignIn(withEmailLink link: String) -> Bool {
        EmailLink.isSignInLink(link)
    }

    /// Sets a new password with the code from a reset link. Every earlier session of the account ends.
    public func confirmPasswordReset(withCode code: String, newPassword: String) async throws {
        _ = try await backend.post(.resetPassword, ["oobCode": code, "newPassword": newPassword])
    }

    /// The address a password-reset code is for, without using the code.
    public func verifyPasswordResetCode(_ code: String) async throws -> String {
        let info = try await checkActionCode(code)
        guard info.operation == .passwordReset else {
            throw AuthError(.invalidActionCode, "The code is not a password-reset code.", gatewayCode: "INVALID_OOB_CODE")
        }
        return info.email
    }

    /// What an action code is for, without using it.
    public func checkActionCode(_ code: String) async throws -> ActionCodeInfo {
        let response = try await backend.post(.resetPassword, ["oobCode": code])
        let email = response.string("email") ?? ""
        // For a change of address, `newEmail` is the address the code is about and `email` the one before it.
        let newEmail = response.string("newEmail")
        return ActionCodeInfo(operation: ActionCodeOperation(requestType: response.string("requestType")), email: newEmail ?? email,
                              previousEmail: newEmail == nil ? nil : email)
    }

    /// Uses an email verification (or change, or recovery) code. Call `User.reload()` afterwards to see the change.
    public func applyActionCode(_ code: String) async throws {
        _ = try await backend.post(.update, ["oobCode": code])
    }

    /// Revokes the app's Sign in with Apple authorization, with a fresh authorization code from Apple, for the
    /// current user (before deleting the account, as Apple requires).
    public func revokeToken(withAuthorizationCode authorizationCode: String) async throws {
        guard let user = currentUser else { throw AuthError(.userNotFound, "No user is signed in.") }
        try await user.withIDToken { idToken in
            _ = try await backend.post(.revokeToken, ["providerId": "apple.com", "tokenType": "CODE", "token": authorizationCode,
                                                      "idToken": idToken])
        }
    }
}
