/// Phone sign-in: the gateway sends a code to the number (Telegram Gateway or an SMS company), and the code with
/// its verification id is the credential.
///
/// App verification (APNs, reCAPTCHA) is not part of the flow: Gatehouse does not enforce it and limits sends per
/// number and per client instead (docs/sign-in-with-phone.md).
public struct PhoneAuthProvider: Sendable {
    public static let id = "phone"

    let auth: Auth

    /// The provider of the shared instance, `Auth.auth()`.
    public static func provider() -> PhoneAuthProvider {
        PhoneAuthProvider(auth: Auth.auth())
    }

    public static func provider(auth: Auth) -> PhoneAuthProvider {
        PhoneAuthProvider(auth: auth)
    }

    /// Asks the gateway to send a code to `phoneNumber` (E.164, `+15555550100`) and returns the verification id
    /// to keep until the user types the code. `uiDelegate` is accepted for code written for FirebaseAuth and
    /// not used: there is no reCAPTCHA page to show.
    public func verifyPhoneNumber(_ phoneNumber: String, uiDelegate: (any AuthUIDelegate)? = nil) async throws -> String {
        guard !phoneNumber.isEmpty else { throw AuthError(.missingPhoneNumber, "The phone number is empty.") }
        let response = try await auth.backend.post(.sendVerificationCode, ["phoneNumber": phoneNumber])
        guard let sessionInfo = response.string("sessionInfo") else {
            throw AuthError(.internalError, "The gateway's sendVerificationCode answer has no sessionInfo.")
        }
        return sessionInfo
    }

    public func credential(withVerificationID verificationID: String, verificationCode: String) -> PhoneAuthCredential {
        PhoneAuthCredential(payload: .phoneCode(verificationID: verificationID, code: verificationCode))
    }
}

/// FirebaseAuth's `AuthUIDelegate` (what presents the reCAPTCHA page of phone sign-in), for code that names it.
/// Gatehouse shows no page, so nothing is asked of it: pass nil.
public protocol AuthUIDelegate: AnyObject {}
