import AuthCore
import Crypto
import HTTP
import Synchronization
import WireFormats

/// `GET /`, `/healthz`, `/readyz`.
enum StatusHandlers {
    static let version = "0.1.0"

    static func status(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        // `authEmulator` is the shape Firebase tooling probes for; `gatehouse` says what is really answering.
        // `mail` makes delivery trouble visible: counts only, never addresses.
        let outbox = services.email.outbox
        let mail: JSONObject = ["sent": .int(Int64(outbox.sent.load(ordering: .relaxed))),
                                "failedAttempts": .int(Int64(outbox.failedAttempts.load(ordering: .relaxed))),
                                "abandoned": .int(Int64(outbox.abandoned.load(ordering: .relaxed))),
                                "queued": .int(Int64(outbox.queuedCount))]
        return .json(["authEmulator": ["ready": .bool(services.readiness.isReady)],
                      "gatehouse": ["ready": .bool(services.readiness.isReady), "version": .string(version),
                                    "projectId": .string(services.configuration.projectId),
                                    "emulator": .bool(services.configuration.emulator)],
                      "mail": .object(mail)])
    }

    static func healthz(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        .json(["status": "ok"])
    }

    static func readyz(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        services.readiness.isReady ? .json(["status": "ready"]) : .json(["status": "not ready"], status: 503)
    }
}
