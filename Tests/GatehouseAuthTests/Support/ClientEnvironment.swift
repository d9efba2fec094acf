import Foundation
@testable import GatehouseAuth
import Testing

/// The processes every client test talks to, started once for the whole suite: the provider stand-ins and
/// three gateways in production mode (not emulator mode, so tokens are really verified).
///
/// - `main`: every provider (Apple, Facebook, Telegram, Google, OpenID Connect, email with SMTP, phone with test
///   numbers), an API key list, three wrong passwords per account allowed.
/// - `short`: ID tokens live 8 s with no clock skew allowed, a sign-in is "recent" for 3 s, and improved email
///   privacy (`INVALID_LOGIN_CREDENTIALS`); email and phone only, no identity provider.
/// - `restricted`: anonymous and password sign-in off, no Apple; phone test numbers only.
final class ClientEnvironment: Sendable {
    static let projectID = "demo-client"
    static let shortTokenLifetime: TimeInterval = 8
    /// `short`'s recent-sign-in window. The gateway counts it in whole seconds: a sign-in is surely recent for
    /// less than this, and surely not after one second more.
    static let recentSignInSeconds: TimeInterval = 3

    @TaskLocal static var current: ClientEnvironment?

    let workDirectory: URL
    let standIns: StandInHost
    let main: GatewayProcess
    let short: GatewayProcess
    let restricted: GatewayProcess

    /// The current suite's environment; fails the test outside the suite.
    static var shared: ClientEnvironment {
        get throws {
            guard let current else { throw TestSetupError("the test runs outside ClientTests (its trait starts the gateways)") }
            return current
        }
    }

    static func start() async throws -> ClientEnvironment {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-client-tests-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let standIns = try await StandInHost(workDirectory: work)
        var started: [GatewayProcess] = []
        do {
            let sections = standIns.sections
            let main = try await start("main", config: mainConfig(sections), standIns: standIns, work: work)
            started.append(main)
            let short = try await start("short", config: shortConfig(sections), standIns: standIns, work: work)
            started.append(short)
            let restricted = try await start("restricted", config: restrictedConfig(sections), standIns: standIns, work: work)
            return ClientEnvironment(workDirectory: work, standIns: standIns, main: main, short: short, restricted: restricted)
        } catch {
            for gateway in started { _ = await gateway.stop() }
            await standIns.stop()
            throw error
        }
    }

    private init(workDirectory: URL, standIns: StandInHost, main: GatewayProcess, short: GatewayProcess, restricted: GatewayProcess) {
        self.workDirectory = workDirectory
        self.standIns = standIns
        self.main = main
        self.short = short
        self.restricted = restricted
    }

    private static func start(_ name: String, config: [String: Any], standIns: StandInHost, work: URL) async throws -> GatewayProcess {
        try await GatewayProcess(name: name, projectID: projectID, config: config, environment: standIns.environment,
                                 workDirectory: work, watcher: standIns)
    }

    /// Stops the gateways (each must exit 0 after draining) and the stand-ins; returns the problems.
    func stop() async -> [String] {
        var problems: [String] = []
        for gateway in [main, short, restricted] {
            let status = await gateway.stop()
            _ = try? await standIns.call("unwatch", ["pid": Int(gateway.child.pid)])
            if status != 0 { problems.append("gateway \(gateway.name) exited with \(status):\n\(gateway.child.stderr)") }
            let errors = gateway.log.split(separator: "\n").filter { $0.contains("\"level\":\"error\"") }
            if !errors.isEmpty { problems.append("gateway \(gateway.name) logged errors:\n" + errors.joined(separator: "\n")) }
        }
        await standIns.stop()
        if problems.isEmpty { try? FileManager.default.removeItem(at: workDirectory) }
        return problems
    }

    // MARK: Configurations

    static let testPhoneNumbers: [String: String] = (0..<40).reduce(into: [:]) { numbers, index in
        numbers[String(format: "+1555555%04d", index)] = String(format: "%06d", 100_000 + index)
    }

    /// One event loop and one password-hashing thread each: three gateways share the machine with every other test.
    private static func common(_ sections: [String: Any]) -> [String: Any] {
        [
            "http": ["eventLoops": 1],
            "apiKeys": [GatewayAPI.apiKey],
            "trustedProxies": ["127.0.0.1"],
            "authorizedDomains": ["localhost", "app.example.com"],
            "anonymous": ["signUpsPerIPPerHour": 0],
            "phone": ["enabled": true, "testNumbers": testPhoneNumbers, "sendsPerPhonePerHour": 0, "sendsPerIPPerHour": 0],
        ]
    }

    private static func email(_ sections: [String: Any], _ extra: [String: Any] = [:]) -> [String: Any] {
        var email: [String: Any] = [
            "scrypt": ["n": 1024, "r": 8, "p": 1],
            "kdfWorkers": 1,
            "smtp": sections["smtp"] ?? [:],
            "limits": ["signUpsPerIPPerHour": 0, "sendsPerIPPerHour": 0, "sendsPerEmailPerHour": 0, "failedPasswordsPerAccount": 3],
        ]
        email.merge(extra) { $1 }
        return email
    }

    private static func mainConfig(_ sections: [String: Any]) -> [String: Any] {
        var config = common(sections)
        for key in ["apple", "facebook", "telegram", "google", "oidc"] { config[key] = sections[key] }
        config["email"] = email(sections)
        return config
    }

    private static func shortConfig(_ sections: [String: Any]) -> [String: Any] {
        var config = common(sections)
        config["tokens"] = ["idTokenLifetimeSeconds": Int(shortTokenLifetime), "clockSkewSeconds": 0]
        config["email"] = email(sections, ["improvedEmailPrivacy": true, "recentSignInSeconds": Int(recentSignInSeconds)])
        return config
    }

    private static func restrictedConfig(_ sections: [String: Any]) -> [String: Any] {
        var config = common(sections)
        config["anonymous"] = ["enabled": false]
        config["email"] = ["enabled": false]
        return config
    }

    // MARK: Clients

    enum Gateway { case main, short, restricted }

    func gateway(_ which: Gateway) -> GatewayProcess {
        switch which {
        case .main: main
        case .short: short
        case .restricted: restricted
        }
    }

    func api(_ which: Gateway = .main) -> GatewayAPI { GatewayAPI(gateway: gateway(which)) }

    /// A configuration for `which` over plain http (allowed: the gateway is on loopback), sessions in memory.
    func configuration(_ which: Gateway = .main, store: any AuthSessionStore = InMemorySessionStore()) -> AuthConfiguration {
        var configuration = AuthConfiguration(gatewayURL: gateway(which).url, apiKey: GatewayAPI.apiKey, projectID: Self.projectID)
        configuration.allowsInsecureHTTPForLocalDevelopment = true
        configuration.sessionStore = store
        return configuration
    }

    func auth(_ which: Gateway = .main, store: any AuthSessionStore = InMemorySessionStore()) throws -> Auth {
        try Auth(configuration: configuration(which, store: store))
    }
}

/// Starts the `ClientEnvironment` once around the whole suite it is attached to and stops it afterwards; the
/// suite fails if a gateway did not exit cleanly or logged an error.
struct ClientEnvironmentTrait: SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let environment = try await ClientEnvironment.start()
        do {
            try await ClientEnvironment.$current.withValue(environment) { try await function() }
        } catch {
            _ = await environment.stop()
            throw error
        }
        let problems = await environment.stop()
        if !problems.isEmpty { throw TestSetupError(problems.joined(separator: "\n")) }
    }
}

extension Trait where Self == ClientEnvironmentTrait {
    static var clientEnvironment: Self { ClientEnvironmentTrait() }
}

/// Every client test lives in an extension of this suite, so one environment serves them all.
@Suite(.clientEnvironment)
struct ClientTests {}
