import AuthCore
import Testing
@testable import Gateway
import WireFormats

@Suite("request bodies: a cap on members per object, the usual parse-error envelope, linear key normalisation")
struct BodyMemberLimitTests {
    static func body(members: Int) -> String {
        "{\"returnSecureToken\":true" + (1..<members).map { ",\"pad_\($0)\":0" }.joined() + "}"
    }

    @Test("a body object over the cap is 400 INVALID_ARGUMENT in the same envelope as any parse error")
    func overCap() async throws {
        let gw = try await TestGateway.make()
        let over = Self.body(members: JSONParser.defaultMaxMembers + 1)
        let reply = await gw.send("POST", "\(TestGateway.v1)/accounts:signUp?key=k", body: over)
        let offset = over.utf8.count - ",\"pad_1000\":0}".utf8.count + 1
        let message = "Invalid JSON payload received. Too many members in object at offset \(offset)"
        #expect(reply.status == 400)
        #expect(reply.json == ["error": ["code": 400, "message": .string(message),
                                         "errors": [["message": .string(message), "reason": "parseError", "domain": "global"]],
                                         "status": "INVALID_ARGUMENT"]])
        // The envelope is the one a syntax error gets.
        let syntax = await gw.send("POST", "\(TestGateway.v1)/accounts:signUp?key=k", body: "{")
        #expect(syntax.json["error"]?["errors"]?.arrayValue?.first?["reason"] == "parseError")
        #expect(syntax.json["error"]?["status"] == "INVALID_ARGUMENT")
    }

    @Test("a body at the cap is served, with snake_case keys read as camelCase")
    func atCap() async throws {
        let gw = try await TestGateway.make()
        let reply = await gw.send("POST", "\(TestGateway.v1)/accounts:signUp?key=k",
                                  body: Self.body(members: JSONParser.defaultMaxMembers))
        #expect(reply.status == 200)
        #expect(reply["idToken"]?.stringValue != nil)
    }

    @Test("a form body over the cap is 400 INVALID_ARGUMENT too")
    func formOverCap() async throws {
        let gw = try await TestGateway.make()
        let form = "grant_type=refresh_token&refresh_token=x" + (0..<JSONParser.defaultMaxMembers).map { "&p\($0)=0" }.joined()
        let reply = await gw.send("POST", "/securetoken.googleapis.com/v1/token?key=k", body: form,
                                  headers: [("Content-Type", "application/x-www-form-urlencoded")])
        #expect(reply.status == 400)
        #expect(reply.json["error"]?["status"] == "INVALID_ARGUMENT")
        #expect(reply.error == "Invalid JSON payload received. Too many fields in form body")
    }

    #if DEBUG
    @Test("parsing and key normalisation: eight times the keys costs about eight times the key operations")
    func normalisationGrowth() throws {
        // snake_case keys (renamed), their camelCase spellings (which win), and plain keys.
        func body(_ n: Int) -> [UInt8] {
            let members = (0..<n).flatMap { ["\"some_field_\($0)\":1", "\"someField\($0)\":2", "\"plain\($0)\":3"] }
            return Array(("{" + members.joined(separator: ",") + "}").utf8)
        }
        func operations(_ n: Int) throws -> Int {
            let count = KeyOperationCount()
            let parsed = try KeyOperationCount.$current.withValue(count) { try RequestBody.json(body(n)) }
            #expect(parsed.object.count == 2 * n && parsed.object["someField\(n - 1)"] == 2)
            return count.total
        }
        let small = try operations(40)
        let large = try operations(320)
        let ratio = Double(large) / Double(small)
        // Linear: a ratio near 8; a scan of the object (or of the result) per key gives 64.
        #expect(ratio < 12, "key operations: \(small) for 120 keys, \(large) for 960 (ratio \(ratio))")
    }
    #endif

    @Test("past the index threshold, the explicit camelCase key still wins over its snake_case spelling")
    func camelCaseWins() {
        var members: [(String, JSONValue)] = (0..<40).map { ("field_\($0)", .int(Int64($0))) }
        members.insert(("idToken", "camel"), at: 5)
        members.append(("id_token", "snake"))
        members.append(("photoURL", "p"))
        let object = RequestBody(object: JSONObject(members)).object
        #expect(object["idToken"] == "camel")
        #expect(object["field39"] == 39 && object["photoUrl"] == "p")
        #expect(object.count == 42)
        #expect(object.keys.prefix(6) == ["field0", "field1", "field2", "field3", "field4", "idToken"])
    }
}
