import Foundation
import HTTP
import Testing
@testable import Gateway

@Suite("configuration loading and start-up checks")
struct ConfigurationTests {
    func write(_ json: String) throws -> String {
        let path = NSTemporaryDirectory() + "gh-config-\(UUID().uuidString).json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("flags beat environment beat the config file beat defaults")
    func precedence() throws {
        let path = try write(#"{"projectId":"from-file","port":1111,"host":"127.0.0.2","anonymous":{"enabled":false}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let config = try ConfigurationLoader.load(
            flags: ["config": path, "port": "3333"],
            environment: ["GATEHOUSE_PORT": "2222", "GATEHOUSE_PROJECT_ID": "from-env"])
        #expect(config.port == 3333)
        #expect(config.projectId == "from-env")
        #expect(config.host == "127.0.0.2")
        #expect(try config.anonymousSettings().enabled == false)
        #expect(try ConfigurationLoader.load(flags: [:], environment: [:]) == GatewayConfiguration())
    }

    @Test("unknown keys, wrong types and bad networks are refused with the key's name", arguments: [
        (#"{"prot":1}"#, "prot"), (#"{"port":"x"}"#, "port"), (#"{"anonymous":{"enabled":1}}"#, "anonymous.enabled"),
        (#"{"trustedProxies":["nope"]}"#, "nope"), (#"{"adminTokens":["short"]}"#, "adminTokens"),
        (#"{"tokens":{"idTokenLifetime":5}}"#, "tokens.idTokenLifetime"),
        (#"{"signIn":{"allowDuplicate":true}}"#, "signIn.allowDuplicate"),
        (#"{"anonymous":{"cleanup":{"maxAge":3}}}"#, "anonymous.cleanup.maxAge"),
        (#"{"http":{"maxBody":1}}"#, "http.maxBody"),
        (#"{"http":{"maxConnectionsPerClient":0}}"#, "http.maxConnectionsPerClient"),
        (#"{"http":{"maxConnections":0}}"#, "http.maxConnections"),
        (#"{"http":{"eventLoopScheduling":"fifo"}}"#, "http.eventLoopScheduling"),
        (#"{"http":{"eventLoopScheduling":1}}"#, "http.eventLoopScheduling"),
    ])
    func refusesBadConfig(_ json: String, _ named: String) throws {
        let path = try write(json)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try ConfigurationLoader.load(flags: ["config": path], environment: [:])
            Issue.record("accepted \(json)")
        } catch {
            #expect("\(error)".contains(named))
        }
    }

    @Test("the event loops are SCHED_BATCH unless the config says normal")
    func eventLoopScheduling() throws {
        #expect(GatewayConfiguration().http.eventLoopScheduling == .batch)
        let path = try write(#"{"http":{"eventLoopScheduling":"normal"}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let config = try ConfigurationLoader.load(flags: ["config": path], environment: [:])
        #expect(config.http.eventLoopScheduling == .normal)
    }

    @Test("unknown command-line options are named, also before a value")
    func unknownOption() {
        #expect(throws: Arguments.Failure.self) { try Arguments(["serve", "--bogus"]) }
        #expect(throws: Arguments.Failure.self) { try Arguments(["serve", "--prot=1"]) }
        #expect((try? Arguments(["serve", "--port", "1", "--emulator"]))?.flags == ["port": "1", "emulator": ""])
    }

    @Test("emulator mode refuses a non-loopback address unless told twice")
    func emulatorBind() throws {
        var config = GatewayConfiguration()
        config.emulator = true
        config.host = "0.0.0.0"
        #expect(throws: ConfigurationLoader.Failure.self) { try GatewayApp.checkBindAddress(config) }
        config.allowNonLoopback = true
        try GatewayApp.checkBindAddress(config)
        config.allowNonLoopback = false
        config.host = "127.0.0.1"
        try GatewayApp.checkBindAddress(config)
        config.emulator = false
        config.host = "0.0.0.0"
        try GatewayApp.checkBindAddress(config)
    }

    @Test("client addresses come from X-Forwarded-For only through trusted proxies")
    func forwardedFor() {
        let resolver = ClientAddressResolver(trustedProxies: ["10.0.0.0/8"].compactMap(NetworkRange.init))
        #expect(resolver.resolve(peer: "203.0.113.5", forwardedFor: "1.2.3.4") == "203.0.113.5")
        #expect(resolver.resolve(peer: "10.0.0.1", forwardedFor: "1.2.3.4, 10.0.0.7") == "1.2.3.4")
        #expect(resolver.resolve(peer: "10.0.0.1", forwardedFor: "garbage") == "10.0.0.1")
        #expect(NetworkRange("::1/128")!.contains("::1"))
        #expect(NetworkRange("127.0.0.0/8")!.contains("::ffff:127.0.0.9"))
        #expect(!NetworkRange("127.0.0.0/8")!.contains("128.0.0.1"))
    }

    @Test("a discovery path is served under a gateway-owned issuer")
    func issuerPath() {
        var config = GatewayConfiguration()
        #expect(GatewayApp.issuerPath(config) == nil)
        config.issuer = "https://auth.example.com/gatehouse/"
        #expect(GatewayApp.issuerPath(config) == "/gatehouse")
        config.issuer = "https://auth.example.com"
        #expect(GatewayApp.issuerPath(config) == "")
    }
}
