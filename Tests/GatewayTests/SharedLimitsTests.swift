import AuthCore
import Storage
import Testing
@testable import Gateway
import WireFormats

/// Several instances on one database must enforce one budget per abuse limit, not one each: the counters
/// live in the store. Two in-process gateways on one store stand for two instances.
@Suite("Abuse limits shared by instances on one store")
struct SharedLimitsTests {
    private func twoInstances(_ configure: @escaping (inout GatewayConfiguration) -> Void) async throws
        -> (TestGateway, TestGateway) {
        let store = InMemoryUserStore()
        try await store.write { tx in try tx.insertSigningKey(SharedSigningKey.record) }
        return (try await TestGateway.withEmail(store: store, configure),
                try await TestGateway.withEmail(store: store, configure))
    }

    @Test("wrong passwords counted on one instance lock the address on the other")
    func passwordAttempts() async throws {
        let (one, two) = try await twoInstances {
            $0.setPluginValue("email.limits.failedPasswordsPerAccount", 3)
            $0.setPluginValue("email.limits.failedPasswordWindowSeconds", 600)
        }
        #expect(await one.signUp("ada@example.com", "secret1").status == 200)
        #expect(await one.signIn("ada@example.com", "wrong-1").error == "INVALID_PASSWORD")
        #expect(await two.signIn("ada@example.com", "wrong-2").error == "INVALID_PASSWORD")
        #expect(await one.signIn("ada@example.com", "wrong-3").error == "INVALID_PASSWORD")
        #expect(await two.signIn("ada@example.com", "secret1").error == "TOO_MANY_ATTEMPTS_TRY_LATER")
        #expect(await one.signIn("ada@example.com", "secret1").error == "TOO_MANY_ATTEMPTS_TRY_LATER")
    }

    @Test("a right password on one instance gives its attempt back on every instance")
    func refundShared() async throws {
        let (one, two) = try await twoInstances {
            $0.setPluginValue("email.limits.failedPasswordsPerAccount", 2)
            $0.setPluginValue("email.limits.failedPasswordWindowSeconds", 600)
        }
        #expect(await one.signUp("bob@example.com", "secret1").status == 200)
        for _ in 0..<5 { #expect(await one.signIn("bob@example.com", "secret1").status == 200) }
        #expect(await two.signIn("bob@example.com", "wrong-1").error == "INVALID_PASSWORD")
        #expect(await one.signIn("bob@example.com", "secret1").status == 200)
    }

    @Test("mail sent to one address is counted across instances")
    func sendsPerAddress() async throws {
        let (one, two) = try await twoInstances { $0.setPluginValue("email.limits.sendsPerEmailPerHour", 2) }
        #expect(await one.signUp("cy@example.com", "secret1").status == 200)
        let reset: JSONObject = ["requestType": "PASSWORD_RESET", "email": "cy@example.com"]
        #expect(await one.sendOobCode(reset).status == 200)
        #expect(await two.sendOobCode(reset).status == 200)
        #expect(await one.sendOobCode(reset).error == "TOO_MANY_ATTEMPTS_TRY_LATER")
        #expect(await two.sendOobCode(reset).error == "TOO_MANY_ATTEMPTS_TRY_LATER")
    }

    @Test("mail sent from one client is counted across instances")
    func sendsPerClient() async throws {
        let (one, two) = try await twoInstances { $0.setPluginValue("email.limits.sendsPerIPPerHour", 2) }
        for name in ["d1", "d2", "d3"] { #expect(await one.signUp("\(name)@example.com", "secret1").status == 200) }
        #expect(await one.sendOobCode(["requestType": "PASSWORD_RESET", "email": "d1@example.com"]).status == 200)
        #expect(await two.sendOobCode(["requestType": "PASSWORD_RESET", "email": "d2@example.com"]).status == 200)
        #expect(await one.sendOobCode(["requestType": "PASSWORD_RESET", "email": "d3@example.com"]).error
            == "TOO_MANY_ATTEMPTS_TRY_LATER")
    }
}
