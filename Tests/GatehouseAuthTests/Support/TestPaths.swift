import Foundation

/// Where the test finds the package's own binaries and tools.
enum TestPaths {
    /// The package root: this file is `Tests/GatehouseAuthTests/Support/TestPaths.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The gateway under test: `$GATEHOUSE_BIN` (as for the black-box suite), else the debug build of this package.
    static var gateway: URL {
        if let configured = ProcessInfo.processInfo.environment["GATEHOUSE_BIN"], !configured.isEmpty {
            return configured.hasPrefix("/") ? URL(fileURLWithPath: configured) : packageRoot.appendingPathComponent(configured)
        }
        return packageRoot.appendingPathComponent(".build/debug/gateway")
    }

    /// The test clients' Python (`scripts/bootstrap.sh` makes `.venv`), which runs the provider stand-ins.
    static var python: URL {
        if let configured = ProcessInfo.processInfo.environment["GATEHOUSE_TEST_PYTHON"], !configured.isEmpty {
            return URL(fileURLWithPath: configured)
        }
        return packageRoot.appendingPathComponent(".venv/bin/python")
    }

    static let standInHost = packageRoot.appendingPathComponent("tests/blackbox/stand_in_host.py")

    /// The TLS probe executable, built next to the test runner (`.build/<configuration>/`).
    static var tlsProbe: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("GatehouseAuthTLSProbe")
    }

    /// Fails the test (never skips it) when something the tests need is missing.
    static func require(_ url: URL, _ what: String) throws {
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw TestSetupError("\(what) not found at \(url.path)")
        }
    }
}

struct TestSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
