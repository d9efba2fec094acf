import AppleTestSupport
import AuthCore
import Foundation
import Testing
@testable import Gateway
import WireFormats

/// The JS SDK's sign-in window (`/emulator/auth/handler`), relay frame and return page, on the wire. The browser
/// tests (tests/blackbox/test_js_sdk_popup.py) drive the same pages with the real SDK.
@Suite("JS SDK sign-in window: emulator account picker, provider redirect, relay frame", .serialized)
struct SignInWindowTests {
    static let query = "apiKey=k&appName=%5BDEFAULT%5D&authType=signInViaPopup&v=11.3.1&eventId=42"
        + "&redirectUrl=" + FormURLEncoding.encodeComponent("https://app.example.com/page")

    /// The JSON in the page's `data-context` attribute (what the page's script hands to the SDK).
    static func context(_ page: String) throws -> JSONObject {
        let marker = "data-context=\""
        let start = try #require(page.range(of: marker)).upperBound
        let end = try #require(page[start...].firstIndex(of: "\""))
        let escaped = String(page[start..<end])
        let text = escaped.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        return try #require(try JSONParser.parse(text).objectValue)
    }

    @Test("the query the SDK sends: required parameters, event types, custom parameters")
    func parsing() throws {
        #expect(throws: WidgetRequest.Problem.missingApiKeyOrProvider) { try WidgetRequest(query: "providerId=apple.com") }
        #expect(throws: WidgetRequest.Problem.missingApiKeyOrProvider) { try WidgetRequest(query: "apiKey=k") }
        #expect(throws: WidgetRequest.Problem.self) { try WidgetRequest(query: "apiKey=k&providerId=x&appName=a&authType=steal") }
        #expect(throws: WidgetRequest.Problem.self) {
            try WidgetRequest(query: "apiKey=k&providerId=x&appName=a&authType=signInViaRedirect")
        }
        #expect(throws: WidgetRequest.Problem.self) {
            try WidgetRequest(query: Self.query + "&providerId=x&customParameters=%5B1%5D")
        }
        let request = try WidgetRequest(query: Self.query + "&providerId=Apple.com&tid=t1&scopes=email,name"
                                        + "&customParameters=" + FormURLEncoding.encodeComponent(#"{"locale":"fa"}"#))
        #expect(request.providerId == "apple.com" && request.tenantId == "t1" && request.isPopup)
        #expect(request.customParameters == ["locale": "fa"] && request.scopes == "email,name" && request.eventId == "42")
    }

    @Test("emulator mode: the emulator's 400 without apiKey or providerId")
    func emulatorMissingParameters() async throws {
        let gw = try await TestGateway.make { $0.emulator = true }
        let reply = await gw.send("GET", "/emulator/auth/handler?apiKey=k")
        #expect(reply.status == 400)
        #expect(reply.json == ["authEmulator": ["error": "missing apiKey or providerId query parameters"]])
    }

    @Test("emulator mode: the picker lists the provider's identities, escaped, with the emulator's fake claims")
    func emulatorPicker() async throws {
        let gw = try await TestGateway.make { $0.emulator = true }
        let hostile = "<img src=x onerror=alert(1)>"
        let claims = JSONSerializer.string(["sub": "fb-1", "name": .string(hostile), "email": "x@example.com"])
        let signedIn = await gw.post("\(TestGateway.v1)/accounts:signInWithIdp", [
            "requestUri": "http://localhost", "returnSecureToken": true,
            "postBody": .string(FormURLEncoding.encode([("providerId", "facebook.com"), ("id_token", claims)]))])
        #expect(signedIn.status == 200)
        let other = await gw.send("GET", "/emulator/auth/handler?\(Self.query)&providerId=apple.com")
        #expect(other.text.contains("No Apple.com accounts exist in the Auth Emulator."))
        let page = await gw.send("GET", "/emulator/auth/handler?\(Self.query)&providerId=facebook.com")
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["cache-control"] == "no-store")
        #expect(page.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
        #expect(!page.text.contains(hostile) && page.text.contains("&lt;img src=x onerror=alert(1)&gt;"))
        let attribute = try #require(page.text.range(of: "data-id-token=\"")?.upperBound)
        let encoded = String(page.text[attribute...].prefix { $0 != "\"" })
        let decoded = try #require(FormURLEncoding.decode("t=" + encoded).first?.1)
        #expect(try JSONParser.parse(decoded) == ["sub": "fb-1", "iss": "", "aud": "", "exp": 0, "iat": 0,
                                                   "name": .string(hostile), "email": "x@example.com",
                                                   "email_verified": true])
        let context = try Self.context(page.text)
        #expect(context["apiKey"] == "k" && context["appName"] == "[DEFAULT]" && context["authType"] == "signInViaPopup")
        #expect(context["providerId"] == "facebook.com" && context["eventId"] == "42")
        #expect(context["redirectUrl"] == "https://app.example.com/page")
        let reserved = await gw.send("GET", "/emulator/auth/handler?\(Self.query)&providerId=password")
        #expect(reserved.status == 400)
    }

    @Test("emulator mode: the result the picker hands over signs in (sessionId ValueNotUsedByAuthEmulator)")
    func emulatorResult() async throws {
        let gw = try await TestGateway.make { $0.emulator = true }
        let claims = JSONSerializer.string(["sub": "a-1", "email": "a@example.com", "email_verified": true])
        let urlResponse = "http://127.0.0.1:9099/emulator/auth/handler?providerId=apple.com&id_token="
            + FormURLEncoding.encodeComponent(claims)
        let reply = await gw.post("\(TestGateway.v1)/accounts:signInWithIdp", [
            "requestUri": .string(urlResponse), "sessionId": "ValueNotUsedByAuthEmulator", "postBody": "",
            "returnSecureToken": true, "returnIdpCredential": true])
        #expect(reply.status == 200 && reply["providerId"] == "apple.com" && reply["email"] == "a@example.com")
        #expect(reply["isNewUser"] == true && reply["idToken"]?.stringValue != nil)
    }

    func appleGateway(_ apple: FakeApple) async throws -> TestGateway {
        try await TestGateway.withApple(apple) {
            $0.authorizedDomains = ["example.com"]
            $0.publicURL = "https://auth.example.com"
        }
    }

    @Test("production: the window opens a redirect session; the provider's answer comes back to the return page and signs in once")
    func providerRedirect() async throws {
        let apple = FakeApple()
        let gw = try await appleGateway(apple)
        let page = await gw.send("GET", "/emulator/auth/handler?\(Self.query)&providerId=apple.com&scopes=name,email")
        #expect(page.status == 200)
        let started = try Self.context(page.text)
        let authUri = try #require(started["authUri"]?.stringValue)
        #expect(authUri.hasPrefix(FakeApple.baseURL + "/auth/authorize?"))
        #expect(started["handlerUrl"] == "https://auth.example.com/__/auth/handler")
        var query: [String: String] = [:]
        for (k, v) in FormURLEncoding.decode(String(authUri.split(separator: "?")[1])) { query[k] = v }
        #expect(query["state"] == started["state"]?.stringValue && query["scope"] == "name email")

        var claims = FakeApple.claims(sub: "popup-user", nonce: nil, now: gw.time.nowSeconds, aud: FakeApple.servicesId)
        claims["nonce"] = .string(query["nonce"] ?? "")
        apple.acceptCode("popup-code", idToken: FakeApple.sign(claims))
        let answer = FormURLEncoding.encode([("state", query["state"] ?? ""), ("code", "popup-code")])
        let back = await gw.send("POST", "/__/auth/handler", body: answer,
                                 headers: [("Content-Type", "application/x-www-form-urlencoded")])
        #expect(back.status == 303)
        let location = try #require(back.headers["location"])
        let handedBack = FormURLEncoding.encode([("code", "popup-code"), ("state", query["state"] ?? "")])
        #expect(location == "https://auth.example.com/emulator/auth/return#" + handedBack)

        // What the return page hands the SDK, and what the SDK sends.
        let sessionId = try #require(started["sessionId"]?.stringValue)
        let finish: JSONValue = ["requestUri": .string("https://auth.example.com/__/auth/handler?" + handedBack),
                                 "sessionId": .string(sessionId), "postBody": "", "returnSecureToken": true,
                                 "returnIdpCredential": true]
        let user = await gw.post("\(TestGateway.v1)/accounts:signInWithIdp", finish)
        #expect(user.status == 200 && user["federatedId"] == "popup-user" && user["providerId"] == "apple.com")
        let again = await gw.post("\(TestGateway.v1)/accounts:signInWithIdp", finish)
        #expect(again.error?.hasPrefix("INVALID_IDP_RESPONSE") == true)
        let returnPage = await gw.send("GET", "/emulator/auth/return")
        #expect(returnPage.status == 200 && returnPage.headers["cache-control"] == "no-store")
    }

    @Test("production: apps off the authorized domains get nothing; a provider without a redirect flow is reported to the SDK")
    func productionRefusals() async throws {
        let apple = FakeApple()
        let gw = try await appleGateway(apple)
        let foreign = "apiKey=k&appName=a&authType=signInViaRedirect&providerId=apple.com&redirectUrl="
            + FormURLEncoding.encodeComponent("https://evil.example.net/steal")
        let refused = await gw.send("GET", "/emulator/auth/handler?" + foreign)
        #expect(refused.status == 403 && !refused.text.contains("authUri"))
        let unknown = await gw.send("GET", "/emulator/auth/handler?\(Self.query)&providerId=oidc.nothing")
        #expect(unknown.status == 400)
        let event = try #require(try Self.context(unknown.text)["event"]?.objectValue)
        #expect(event["error"]?["code"] == "auth/invalid-provider-id" && event["type"] == "signInViaPopup")
        #expect(event["eventId"] == "42")
    }

    @Test("relay frame: framable; outside emulator mode it carries the authorized domains it may answer")
    func relayFrame() async throws {
        let production = try await TestGateway.make { $0.authorizedDomains = ["Example.com"] }
        let frame = await production.send("GET", "/emulator/auth/iframe?apiKey=k&appName=a&v=11.3.1")
        #expect(frame.status == 200 && frame.headers["x-frame-options"] == nil)
        #expect(try Self.context(frame.text) == ["authorizedDomains": ["example.com"]])
        #expect(frame.text.contains("https://apis.google.com/js/api.js?onload=gatehouseGapiLoaded"))
        let emulator = try await TestGateway.make { $0.emulator = true }
        let open = await emulator.send("GET", "/emulator/auth/iframe?apiKey=k&appName=a")
        #expect(try Self.context(open.text) == [:])
    }
}
