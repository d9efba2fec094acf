import Foundation
import Testing
@testable import Gateway

/// The plugin boundary, checked on the source tree: providers never reach into the gateway, the HTTP server or a
/// storage backend, and the gateway names concrete providers in one file only (the registration table). A change
/// that crosses the line fails here, not in review. Members of a module are visible only where it is imported
/// (`MemberImportVisibility` in Package.swift), so checking the imports covers extensions too.
@Suite("Module boundaries")
struct ModuleBoundaryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sources = root.appendingPathComponent("Sources")

    /// An import declaration in any of its forms: attributes, an access level (`private import X`), a kind
    /// (`import struct X.Y`), any whitespace, a trailing `;`. The module is the first path component.
    static var importPattern: Regex<(Substring, module: Substring)> { #/^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|open)\s+)?import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(?<module>[A-Za-z_][A-Za-z0-9_]*)/# }

    /// The module a line of Swift imports, if it is an import declaration.
    static func importedModule(_ line: Substring) -> String? {
        (try? importPattern.prefixMatch(in: line)).map { String($0.output.module) }
    }

    /// The imports of every Swift file under `folder`, as (file, module).
    static func imports(under folder: String) throws -> [(file: String, module: String)] {
        let root = sources.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var found: [(String, String)] = []
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
            for line in text.split(whereSeparator: \.isNewline) {
                if let module = importedModule(line) { found.append(("\(folder)/\(relative)", module)) }
            }
        }
        return found
    }

    /// Every provider module, read from Package.swift (the targets whose sources are under Sources/Providers/), so
    /// a new provider is covered without editing this test.
    static func providerModules() throws -> Set<String> {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = #/\.target\(\s*name:\s*"(?<name>[A-Za-z0-9_]+)"[^)]*?path:\s*"Sources/Providers/(?<folder>[A-Za-z0-9_]+)"/#
        return Set(manifest.matches(of: target).map { String($0.output.name) })
    }

    @Test("the import scan recognises every form of import declaration")
    func importForms() {
        let lines: [(Substring, String?)] = [
            ("import Gateway", "Gateway"), ("private import Gateway", "Gateway"), ("fileprivate import HTTP", "HTTP"),
            ("package import Storage", "Storage"), ("@testable import Gateway", "Gateway"),
            ("@_implementationOnly import CSQLite", "CSQLite"), ("@preconcurrency internal import Linking", "Linking"),
            ("import struct Gateway.GatewayApp", "Gateway"), ("import\tHTTP;", "HTTP"), ("  import func StorageSQLite.x", "StorageSQLite"),
            ("// import Gateway", nil), ("let important = 1", nil), ("/// Providers never import Gateway", nil),
        ]
        for (line, module) in lines { #expect(Self.importedModule(line) == module, "\(line)") }
    }

    @Test("the provider modules come from Package.swift and match the folders under Sources/Providers")
    func providerModulesAreComplete() throws {
        let modules = try Self.providerModules()
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.appendingPathComponent("Providers").path)
            .filter { !$0.hasPrefix(".") }
        #expect(modules.count == folders.count, "\(modules) for \(folders)")
        #expect(modules.isSuperset(of: ["ProviderApple", "ProviderPhone", "ProviderEmail", "ProviderAnonymous"]))
    }

    @Test("providers never import Gateway, HTTP or a storage module")
    func providersStayOutside() throws {
        let forbidden: Set = ["Gateway", "HTTP", "Storage", "StorageSQLite", "StoragePostgres", "CSQLite", "CLibPQ", "Linking"]
        let found = try Self.imports(under: "Providers")
        let crossings = found.filter { forbidden.contains($0.module) }
        #expect(crossings.isEmpty, "\(crossings)")
        #expect(!found.isEmpty, "the scan found the provider sources")
    }

    @Test("the gateway names concrete providers only in the registration table")
    func gatewayKnowsProvidersOnce() throws {
        let providers = try Self.providerModules()
        let concrete = try Self.imports(under: "Gateway").filter { providers.contains($0.module) }
        #expect(Set(concrete.map(\.file)) == ["Gateway/App/ProviderRegistrations.swift"], "\(concrete)")
    }

    @Test("the plugin SDK, the federation toolkit and Linking never import the gateway, a backend or a provider")
    func sharedModulesStayLow() throws {
        let providers = try Self.providerModules()
        let forbidden: Set = ["Gateway", "HTTP", "Storage", "StorageSQLite", "StoragePostgres"]
        for folder in ["ProviderKit", "Federation", "Linking", "AuthCore", "WireFormats"] {
            let crossings = try Self.imports(under: folder).filter { forbidden.contains($0.module) || providers.contains($0.module) }
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
