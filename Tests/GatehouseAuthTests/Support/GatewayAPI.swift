import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GatehouseAuth

/// Plain REST calls to a test gateway, beside the library: what an admin backend does (disable a user, end its
/// sessions) and checks of what the gateway itself accepts.
struct GatewayAPI: Sendable {
    let gateway: GatewayProcess
    static let apiKey = "client-tests-api-key"

    struct Answer: @unchecked Sendable {
        let status: Int
        let json: [String: Any]
        var errorMessage: String { (json["error"] as? [String: Any])?["message"] as? String ?? "" }
    }

    func post(_ path: String, _ body: [String: Any], bearer: String? = nil, apiKey: String? = GatewayAPI.apiKey) async throws -> Answer {
        var request = URLRequest(url: URL(string: gateway.url.absoluteString + path)!)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let apiKey { request.setValue(apiKey, forHTTPHeaderField: "X-Goog-Api-Key") }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSessionTransport().send(request)
        return Answer(status: response.statusCode, json: (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }

    private var adminPrefix: String { "/identitytoolkit.googleapis.com/v1/projects/\(gateway.projectID)" }

    @discardableResult
    func adminUpdate(_ uid: String, _ fields: [String: Any]) async throws -> Answer {
        var body = fields
        body["localId"] = uid
        let answer = try await post(adminPrefix + "/accounts:update", body, bearer: GatewayProcess.adminToken, apiKey: nil)
        guard answer.status == 200 else { throw TestSetupError("admin update failed: \(answer.status) \(answer.json)") }
        return answer
    }

    func disable(_ uid: String) async throws { try await adminUpdate(uid, ["disableUser": true]) }

    /// Ends every session of the user now (firebase-admin's `revoke_refresh_tokens`).
    func revokeSessions(_ uid: String) async throws {
        try await adminUpdate(uid, ["validSince": Int(Date().timeIntervalSince1970)])
    }

    func delete(_ uid: String) async throws {
        let answer = try await post(adminPrefix + "/accounts:delete", ["localId": uid], bearer: GatewayProcess.adminToken, apiKey: nil)
        guard answer.status == 200 else { throw TestSetupError("admin delete failed: \(answer.status) \(answer.json)") }
    }

    /// The stored account, as the admin API shows it.
    func user(_ uid: String) async throws -> [String: Any]? {
        let answer = try await post(adminPrefix + "/accounts:lookup", ["localId": [uid]], bearer: GatewayProcess.adminToken, apiKey: nil)
        return (answer.json["users"] as? [[String: Any]])?.first
    }

    /// The account that has the identity `rawID` at `provider`, if any.
    func user(provider: String, rawID: String) async throws -> [String: Any]? {
        let body: [String: Any] = ["federatedUserId": [["providerId": provider, "rawId": rawID]]]
        let answer = try await post(adminPrefix + "/accounts:lookup", body, bearer: GatewayProcess.adminToken, apiKey: nil)
        guard answer.status == 200 else { throw TestSetupError("admin lookup failed: \(answer.status) \(answer.json)") }
        return (answer.json["users"] as? [[String: Any]])?.first
    }

    /// `accounts:lookup` with an ID token, as a backend or another client would send it.
    func lookup(idToken: String) async throws -> Answer {
        try await post("/identitytoolkit.googleapis.com/v1/accounts:lookup", ["idToken": idToken])
    }
}
