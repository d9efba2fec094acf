import Foundation
import Testing
@testable import Gateway

/// The routing table and `openapi.yaml` must describe the same API: every operation the gateway serves has an
/// `operationId` in the spec and every `operationId` in the spec is served (legacy v3 aliases included).
@Suite("openapi.yaml matches the routing table")
struct OpenAPIContractTests {
    static let specPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("openapi.yaml").path

    /// Served at a path that depends on configuration (the issuer's own URL), so the spec cannot list it.
    static let configurationDependent: Set<APIOperation> = [.issuerOpenIDConfiguration]

    static func specOperationIds() throws -> Set<String> {
        let text = try String(contentsOfFile: specPath, encoding: .utf8)
        return Set(text.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("operationId:") else { return nil }
            return trimmed.dropFirst("operationId:".count).trimmingCharacters(in: .whitespaces)
        })
    }

    @Test("every served operation is in the spec and every spec operation is served")
    func sameOperations() throws {
        let spec = try Self.specOperationIds()
        let served = Set(APIOperation.allCases.filter { !Self.configurationDependent.contains($0) }.map(\.rawValue))
            .union(Routes.legacyNames.map { "legacy.\($0.0)" })
        #expect(served.subtracting(spec).sorted() == [], "served but missing from openapi.yaml")
        #expect(spec.subtracting(served).sorted() == [], "in openapi.yaml but not served")
    }

    @Test("every route of an emulator-mode gateway resolves to an operation")
    func routesResolve() {
        let table = Routes.table(projectId: "p", issuerPath: "/issuer", emulator: true)
        let operations = Set(table.routes.map(\.operation))
        #expect(operations == Set(APIOperation.allCases))
    }
}
