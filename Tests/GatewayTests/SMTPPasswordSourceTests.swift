import Foundation
import Outbound
import Testing
@testable import Gateway

/// The SMTP password can stay out of the config file: in a file of its own or an environment variable.
@Suite("Where the SMTP password comes from")
struct SMTPPasswordSourceTests {
    func load(_ json: String, environment: [String: String] = [:]) throws -> GatewayConfiguration {
        let path = NSTemporaryDirectory() + "gh-smtp-config-\(UUID().uuidString).json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try ConfigurationLoader.load(flags: ["config": path], environment: environment)
    }

    func smtp(_ extra: String) -> String {
        #"{"email": {"smtp": {"url": "smtp://127.0.0.1:2525", "from": "noreply@example.com""# + extra + "}}}"
    }

    @Test("passwordFile is read without its trailing newline")
    func passwordFile() throws {
        let file = NSTemporaryDirectory() + "gh-smtp-password-\(UUID().uuidString)"
        try "from-a-file\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try load(smtp(#", "passwordFile": "\#(file)""#)).emailSettings().smtp?.server.password == "from-a-file")
    }

    @Test("GATEHOUSE_SMTP_PASSWORD replaces the configured password")
    func environment() throws {
        let config = try load(smtp(#", "password": "inline""#), environment: ["GATEHOUSE_SMTP_PASSWORD": "from-env"])
        #expect((try config.emailSettings()).smtp?.server.password == "from-env")
        #expect(try load(smtp(#", "password": "inline""#)).emailSettings().smtp?.server.password == "inline")
    }

    @Test("password and passwordFile together, or an unreadable file, are refused")
    func refusals() throws {
        #expect(throws: ConfigurationLoader.Failure.self) {
            try load(smtp(#", "password": "x", "passwordFile": "/etc/hostname""#))
        }
        #expect(throws: ConfigurationLoader.Failure.self) { try load(smtp(#", "passwordFile": "/nonexistent/gh-password""#)) }
    }

    @Test("printing the settings never shows the password")
    func redacted() {
        let settings = SMTPSettings(url: "smtp://mail.example.com", username: "u", password: "hunter2-secret")
        #expect(!String(describing: settings).contains("hunter2"))
        #expect(!String(reflecting: settings).contains("hunter2"))
    }
}
