import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import GatehouseAuth
import Testing

extension ClientTests {
    @Suite("Email link sign-in: send, check, sign in, link")
    struct EmailLinkTests {
        static func settings() -> ActionCodeSettings {
            let settings = ActionCodeSettings()
            settings.url = URL(string: "https://app.example.com/finish-sign-in?cart=7")
            settings.handleCodeInApp = true
            settings.setIOSBundleID("com.example.app")
            return settings
        }

        /// Where the gateway's action page sends the browser: the app's continue URL with the link's parameters.
        static func continueURL(after link: String) async throws -> String {
            let parts = try #require(URLComponents(string: link))
            let api = try GatewayAPI(gateway: ClientEnvironment.shared.main)
            let url = try #require(URL(string: api.gateway.url.absoluteString + parts.path + "?" + (parts.percentEncodedQuery ?? "")))
            final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
                func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                                newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
                    completionHandler(nil)
                }
            }
            let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
            let (_, response) = try await URLSessionTransport(session: session).send(URLRequest(url: url))
            #expect(response.statusCode == 303)
            return try #require(response.value(forHTTPHeaderField: "Location"))
        }

        @Test("the mailed link is a sign-in link, directly and after the action page's redirect, and signs in a new account")
        func signInWithLink() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let email = Unique.email("link")
            try await auth.sendSignInLink(toEmail: email, actionCodeSettings: Self.settings())
            let link = try await environment.mail(to: email).link
            #expect(auth.isSignIn(withEmailLink: link))
            let landing = try await Self.continueURL(after: link)
            #expect(landing.hasPrefix("https://app.example.com/finish-sign-in?cart=7&"))
            #expect(auth.isSignIn(withEmailLink: landing))
            #expect(!auth.isSignIn(withEmailLink: "https://app.example.com/finish-sign-in?cart=7"))

            let result = try await auth.signIn(withEmail: email, link: landing)
            #expect(result.user.email == email && result.user.isEmailVerified && result.additionalUserInfo?.isNewUser == true)
            #expect(await authError { try await auth.signIn(withEmail: email, link: link) }?.code == .invalidActionCode)
        }

        @Test("an email link credential linked to an anonymous user keeps its uid")
        func linkToAnonymous() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let anonymous = try await auth.signInAnonymously().user
            let email = Unique.email("upgrade")
            try await auth.sendSignInLink(toEmail: email, actionCodeSettings: Self.settings())
            let link = try await environment.mail(to: email).link
            try await anonymous.link(with: EmailAuthProvider.credential(withEmail: email, link: link))
            #expect(auth.currentUser === anonymous && anonymous.email == email && !anonymous.isAnonymous)
            #expect(try await environment.api().user(anonymous.uid)?["email"] as? String == email)
        }
    }
}
