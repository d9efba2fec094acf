import Foundation
import Testing
@testable import Gateway

/// The plugin boundary, checked on the source tree: providers never reach into the gateway, the HTTP server or a
/// storage backend, and the gateway names concrete providers in one file only (the registration table). A change
/// that crosses the line fails here, not in review.
@Suite("Module boundaries")
struct ModuleBoundaryTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// `import X` lines of every Swift file under `folder`, as (file, module).
    static func imports(under folder: String) throws -> [(file: String, module: String)] {
        let root = sources.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var found: [(String, String)] = []
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                      words[..<index].allSatisfy({ $0.hasPrefix("@") || $0 == "public" || $0 == "internal" }) else { continue }
                found.append(("\(folder)/\(relative)", String(words[index + 1])))
            }
        }
        return found
    }

    static let providerModules: Set = ["ProviderAnonymous", "ProviderApple", "ProviderEmail", "ProviderFacebook", "ProviderGitHub",
                                      "ProviderOIDC", "ProviderTelegram"]

    @Test("providers never import Gateway, HTTP or a storage module")
    func providersStayOutside() throws {
        let forbidden: Set = ["Gateway", "HTTP", "Storage", "StorageSQLite", "StoragePostgres", "CSQLite", "CLibPQ", "Linking"]
        let crossings = try Self.imports(under: "Providers").filter { forbidden.contains($0.module) }
        #expect(crossings.isEmpty, "\(crossings)")
        #expect(try !Self.imports(under: "Providers").isEmpty, "the scan found the provider sources")
    }

    @Test("the gateway names concrete providers only in the registration table")
    func gatewayKnowsProvidersOnce() throws {
        let all = try Self.imports(under: "Gateway")
        let concrete = all.filter { Self.providerModules.contains($0.module) || $0.module.hasPrefix("Provider") && $0.module != "ProviderKit" }
        #expect(Set(concrete.map(\.file)) == ["Gateway/App/ProviderRegistrations.swift"], "\(concrete)")
    }

    @Test("the plugin SDK, the federation toolkit and Linking never import the gateway or a backend")
    func sharedModulesStayLow() throws {
        let forbidden: Set = ["Gateway", "HTTP", "Storage", "StorageSQLite", "StoragePostgres"]
        for folder in ["ProviderKit", "Federation", "Linking", "AuthCore", "WireFormats"] {
            let crossings = try Self.imports(under: folder).filter { forbidden.contains($0.module) || Self.providerModules.contains($0.module) }
            #expect(crossings.isEmpty, "\(folder): \(crossings)")
        }
    }
}

@Suite("Stored kinds and sealing purposes")
struct StoredKindsTests {
    @Test("no two features share a stored kind or a sealing purpose")
    func distinct() {
        #expect(Set(StoredKinds.fixed).count == StoredKinds.fixed.count)
        #expect(Set(SealingPurposes.all).count == SealingPurposes.all.count)
        #expect(StoredKinds.providerEvent("apple.com") != StoredKinds.providerRecord("apple.com"))
    }
}
