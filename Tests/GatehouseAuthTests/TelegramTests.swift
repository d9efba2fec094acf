import Foundation
@testable import GatehouseAuth
import Testing

extension ClientTests {
    @Suite("Telegram: the Login Widget, a Mini App and OpenID Connect reach one account")
    struct TelegramTests {
        @Test("widget data, Mini App initData and an OIDC ID token of one Telegram user sign in to the same account")
        func threeWaysIn() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let telegramID = Unique.telegramUserID()
            let widget = try await environment.standIns.string("telegram_widget", ["user_id": telegramID])
            let first = try await auth.signIn(with: TelegramAuthProvider.credential(withLoginWidgetData: widget))
            #expect(first.additionalUserInfo?.isNewUser == true && first.additionalUserInfo?.username == "ada\(telegramID)")
            #expect(first.user.providerData.first?.uid == String(telegramID) && first.user.email == nil)
            #expect(await authError { try await auth.signIn(with: TelegramAuthProvider.credential(withLoginWidgetData: widget)) }?.code
                == .invalidCredential)

            let fields = Dictionary(uniqueKeysWithValues: FormDecoding.decode(
                try await environment.standIns.string("telegram_widget", ["user_id": telegramID, "first_name": "Ada Two"])).map { ($0.0, $0.1) })
            #expect(try await auth.signIn(with: TelegramAuthProvider.credential(withLoginWidgetFields: fields)).user.uid == first.user.uid)

            let initData = try await environment.standIns.string("telegram_init_data", ["user_id": telegramID])
            #expect(try await auth.signIn(with: TelegramAuthProvider.credential(withMiniAppInitData: initData)).user.uid == first.user.uid)

            let nonce = AuthNonce()
            let idToken = try await environment.standIns.string("telegram_id_token", ["user_id": telegramID, "nonce": nonce.raw])
            #expect(try await auth.signIn(with: TelegramAuthProvider.credential(withIDToken: idToken, rawNonce: nonce.raw)).user.uid
                == first.user.uid)
        }
    }

    @Suite("OpenID Connect: google.com and oidc.* by their provider id")
    struct OIDCTests {
        @Test("Google's ID token through GoogleAuthProvider and through OAuthProvider with the string id")
        func google() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let sub = Unique.subject("g")
            let token = try await environment.standIns.string("google_id_token", ["sub": sub, "email": "\(sub)@gmail.com"])
            let user = try await auth.signIn(with: GoogleAuthProvider.credential(withIDToken: token, accessToken: nil)).user
            #expect(user.providerData.first?.providerID == "google.com" && user.email == "\(sub)@gmail.com" && user.isEmailVerified)
            let again = try await environment.standIns.string("google_id_token", ["sub": sub])
            #expect(try await auth.signIn(with: OAuthProvider.credential(providerID: "google.com", idToken: again)).user.uid == user.uid)
        }

        @Test("a generic provider (oidc.corp) with a nonce, linked to an anonymous user")
        func genericProvider() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let anonymous = try await auth.signInAnonymously().user
            let nonce = AuthNonce()
            let token = try await environment.standIns.string("oidc_id_token", ["sub": Unique.subject("corp"), "nonce": nonce.raw])
            try await anonymous.link(with: OAuthProvider.credential(withProviderID: "oidc.corp", idToken: token, rawNonce: nonce.raw))
            #expect(anonymous.providerData.map(\.providerID) == ["oidc.corp"])
            #expect(try await anonymous.getIDTokenResult().signInProvider == "oidc.corp")
        }
    }
}
