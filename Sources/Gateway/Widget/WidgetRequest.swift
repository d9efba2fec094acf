import AuthCore
import WireFormats

/// The query the Firebase JS SDK opens its sign-in window with when pointed at the gateway with
/// `connectAuthEmulator` (the SDK's `_getRedirectUrl`): `apiKey`, `appName`, `authType`, `redirectUrl`, `v`,
/// `eventId`, `providerId`, `scopes` (comma-separated), `customParameters` (a JSON object) and `tid`.
struct WidgetRequest: Sendable, Equatable {
    /// The event types the SDK opens the window for (`AuthEventType` in the SDK).
    static let authTypes: Set = ["signInViaPopup", "signInViaRedirect", "linkViaPopup", "linkViaRedirect",
                                 "reauthViaPopup", "reauthViaRedirect"]

    enum Problem: Error, Equatable {
        /// The emulator's own answer: `{"authEmulator":{"error":"missing apiKey or providerId query parameters"}}`.
        case missingApiKeyOrProvider
        /// Anything else the page cannot work with, in words for the person looking at the window.
        case invalid(String)
    }

    var apiKey: String
    var appName: String
    var authType: String
    var redirectUrl: String?
    var eventId: String?
    var providerId: String
    var scopes: String
    var customParameters: [String: String]
    var tenantId: String?

    init(query: String?) throws(Problem) {
        var values: [String: String] = [:]
        for (name, value) in FormURLEncoding.decode(query ?? "") where values[name] == nil { values[name] = value }
        func text(_ name: String) -> String? { values[name].flatMap { $0.isEmpty ? nil : $0 } }
        guard let apiKey = text("apiKey"), let providerId = text("providerId") else { throw .missingApiKeyOrProvider }
        guard let appName = text("appName") else { throw .invalid("The appName query parameter is missing.") }
        guard let authType = text("authType"), Self.authTypes.contains(authType) else {
            throw .invalid("The authType query parameter is missing or unknown.")
        }
        var custom: [String: String] = [:]
        if let json = text("customParameters") {
            guard case .object(let object)? = try? JSONParser.parse(json) else {
                throw .invalid("The customParameters query parameter is not a JSON object.")
            }
            for (key, value) in object { if let string = value.stringValue { custom[key] = string } }
        }
        self.apiKey = apiKey
        self.appName = appName
        self.authType = authType
        self.redirectUrl = text("redirectUrl")
        self.eventId = text("eventId")
        self.providerId = providerId.lowercased()
        self.scopes = values["scopes"] ?? ""
        self.customParameters = custom
        self.tenantId = text("tid") ?? text("tenantId")
        if !isPopup && redirectUrl == nil { throw .invalid("The redirectUrl query parameter is missing.") }
    }

    /// A popup hands its result to the opener's relay frame; a redirect stores it and goes back to the app.
    var isPopup: Bool { authType.hasSuffix("ViaPopup") }

    /// What the page's delivery script needs to hand an auth event to the SDK that opened the window.
    var delivery: JSONObject {
        var object: JSONObject = ["apiKey": .string(apiKey), "appName": .string(appName), "authType": .string(authType),
                                  "providerId": .string(providerId)]
        object.set("redirectUrl", redirectUrl)
        object.set("eventId", eventId)
        object.set("tenantId", tenantId)
        return object
    }

    /// The SDK's `AuthEvent` for a failure, which makes the app's `signInWithPopup` (or `getRedirectResult`)
    /// reject with `auth/<code>`.
    func errorEvent(code: String, message: String) -> JSONObject {
        var event: JSONObject = ["type": .string(authType), "urlResponse": .null, "sessionId": .null, "postBody": .null,
                                 "tenantId": .null,
                                 "error": ["code": .string("auth/" + code), "message": .string(message)]]
        event["eventId"] = eventId.map(JSONValue.string) ?? .null
        return event
    }
}
