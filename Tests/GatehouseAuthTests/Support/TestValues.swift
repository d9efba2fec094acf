import Foundation
@testable import GatehouseAuth
import Testing

/// Fresh identifiers, so tests running in parallel on one gateway never meet each other's accounts.
enum Unique {
    static func token(_ length: Int = 10) -> String { String(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(length)).lowercased() }
    static func email(_ prefix: String = "user") -> String { "\(prefix)-\(token())@example.com" }
    static func subject(_ prefix: String) -> String { "\(prefix)-\(token(16))" }
    static func telegramUserID() -> Int { Int.random(in: 1_000_000_000..<9_999_999_999) }

    private static let nextPhone = Locked(0)

    /// A phone number of the gateways' test numbers (fixed codes, never sent), never handed out twice.
    static func phoneNumber() -> (number: String, code: String) {
        let index = nextPhone.withLock { value -> Int in
            defer { value += 1 }
            return value
        }
        precondition(index < ClientEnvironment.testPhoneNumbers.count, "add test phone numbers in ClientEnvironment")
        let number = String(format: "+1555555%04d", index)
        return (number, ClientEnvironment.testPhoneNumbers[number]!)
    }
}

/// Runs `body`, which must throw an `AuthError`, and returns it (recording an issue otherwise).
func authError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async -> AuthError? {
    do {
        try await body()
        Issue.record("expected an AuthError, but the call succeeded", sourceLocation: sourceLocation)
    } catch let error as AuthError {
        return error
    } catch {
        Issue.record("expected an AuthError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Credentials signed by the stand-ins, as the providers' SDKs would hand them to an app.
extension ClientEnvironment {
    /// A Sign in with Apple credential for `sub` with a fresh nonce (its SHA-256 in the token, as Apple does).
    func appleCredential(sub: String, email: String? = nil, fullName: PersonNameComponents? = nil) async throws -> OAuthCredential {
        let nonce = AuthNonce()
        var arguments: [String: any Sendable] = ["sub": sub, "nonce": nonce.raw]
        if let email { arguments["email"] = email }
        let token = try await standIns.string("apple_id_token", arguments)
        return OAuthProvider.appleCredential(withIDToken: token, rawNonce: nonce.raw, fullName: fullName)
    }

    func facebookCredential(userID: String, email: String? = nil) async throws -> OAuthCredential {
        var arguments: [String: any Sendable] = ["user_id": userID]
        if let email { arguments["email"] = email }
        return FacebookAuthProvider.credential(withAccessToken: try await standIns.string("facebook_access_token", arguments))
    }

    /// The text and action link of the `count`-th mail the gateway sent to `address`.
    func mail(to address: String, count: Int = 1) async throws -> (text: String, link: String) {
        let mail = try await standIns.call("mail", ["address": address, "count": count, "timeout": 120]).object
        return (mail["text"] as? String ?? "", mail["link"] as? String ?? "")
    }

    /// The `oobCode` of the `count`-th action link mailed to `address`.
    func oobCode(to address: String, count: Int = 1) async throws -> String {
        let link = try await mail(to: address, count: count).link
        guard let code = URLComponents(string: link)?.queryItems?.first(where: { $0.name == "oobCode" })?.value else {
            throw TestSetupError("no oobCode in \(link)")
        }
        return code
    }

    /// A user signed in with email and password on `gateway`, with a fresh address.
    func passwordUser(_ which: Gateway = .main, password: String = "secret-pass-1") async throws -> (auth: Auth, user: User, email: String) {
        let auth = try self.auth(which)
        let email = Unique.email()
        let result = try await auth.createUser(withEmail: email, password: password)
        return (auth, result.user, email)
    }
}
