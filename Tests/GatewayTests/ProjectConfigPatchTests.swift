import AuthCore
import Testing
@testable import Gateway
import WireFormats

@Suite("project config PATCH: field masks at every depth, fields not served refused")
struct ProjectConfigPatchTests {
    let defaults = ProjectConfigPatch.Defaults(allowDuplicateEmails: false, improvedEmailPrivacy: false)

    func plan(_ body: JSONObject, _ mask: [String]?) throws -> ProjectConfigPatch {
        try ProjectConfigPatch.plan(body: body, mask: mask, defaults: defaults)
    }

    @Test("without a mask the fields present in the body change, and only they")
    func impliedMask() throws {
        #expect(try plan(["signIn": ["allowDuplicateEmails": true]], nil)
                == ProjectConfigPatch(allowDuplicateEmails: true, improvedEmailPrivacy: nil))
        #expect(try plan([:], []) == ProjectConfigPatch())
        #expect(try plan(["name": "projects/p/config", "signIn": [:]], nil) == ProjectConfigPatch())
    }

    @Test("a mask naming a message replaces the whole sub-object: a served field left out goes back to its default")
    func messageMask() throws {
        #expect(try plan([:], ["emailPrivacyConfig"]) == ProjectConfigPatch(improvedEmailPrivacy: false))
        #expect(try plan(["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]], ["emailPrivacyConfig"])
                == ProjectConfigPatch(improvedEmailPrivacy: true))
        #expect(try plan(["signIn": [:]], ["signIn"]) == ProjectConfigPatch(allowDuplicateEmails: false))
    }

    @Test("a mask restricts the body: fields present but not masked stay as they are")
    func restrictingMask() throws {
        let body: JSONObject = ["signIn": ["allowDuplicateEmails": true], "emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]]
        #expect(try plan(body, ["signIn.allowDuplicateEmails"]) == ProjectConfigPatch(allowDuplicateEmails: true))
        #expect(try plan([:], ["signIn.allowDuplicateEmails"]) == ProjectConfigPatch(allowDuplicateEmails: false))
    }

    @Test("fields not served are INVALID_CONFIG, whether named by the mask or present in the body")
    func unserved() throws {
        for (body, mask) in [(["blockingFunctions": ["forwardInboundCredentials": ["idToken": true]]], nil),
                             ([:], ["blockingFunctions.forwardInboundCredentials.idToken"]),
                             (["mfa": ["state": "ENABLED"]], ["mfa"]),
                             (["smsRegionConfig": ["allowByDefault": [:]]], nil),
                             (["signIn": ["allowDuplicateEmails": true, "email": ["enabled": true]]], ["signIn"]),
                             (["signIn": ["anonymous": ["enabled": true]]], nil),
                             ([:], ["displayName"])] as [(JSONObject, [String]?)] {
            #expect(throws: AuthError.self) { try plan(body, mask) }
        }
        #expect(throws: AuthError.self) { try plan(["emailPrivacyConfig": 7], nil) }
        #expect(throws: AuthError.self) { try plan(["signIn": ["allowDuplicateEmails": "yes"]], nil) }
        #expect(throws: AuthError.self) { try plan(["emailPrivacyConfig": ["enableImprovedEmailPrivacy": [:]]], nil) }
        #expect(throws: AuthError.self) { try plan(["name": [:]], nil) }
    }
}
