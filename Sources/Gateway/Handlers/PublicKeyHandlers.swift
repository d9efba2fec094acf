import AuthCore
import Crypto
import HTTP
import WireFormats

/// Publishes the ID-token verification keys where Firebase's verifiers look for them (with the host as the
/// first path segment): the x509 map firebase-admin reads, a JWKS, and OpenID discovery.
enum PublicKeyHandlers {
    static func x509(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        var map = JSONObject()
        for key in services.keyRing.publishedKeys(at: services.time.nowSeconds) {
            map[key.record.kid] = .string(key.record.certificatePEM)
        }
        return .json(map, headers: cacheHeaders(services))
    }

    static func jwks(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let keys: [JSONValue] = services.keyRing.publishedKeys(at: services.time.nowSeconds).map { key in
            let jwk = JWK(rsa: key.publicKey, kid: key.record.kid)
            var object: JSONObject = ["kty": .string(jwk.kty), "alg": "RS256", "use": "sig", "kid": .string(key.record.kid)]
            object.set("n", jwk.n)
            object.set("e", jwk.e)
            return .object(object)
        }
        return .json(["keys": .array(keys)], headers: cacheHeaders(services))
    }

    static func openIDConfiguration(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        if context.parameters["projectId"].map({ $0 != services.configuration.projectId }) ?? false {
            throw WireError.notFound
        }
        let base = publicBaseURL(services.configuration, context.request)
        return .json([
            "issuer": .string(services.sessions.signer.settings.issuer),
            "jwks_uri": .string(base + Routes.jwksPath),
            "response_types_supported": ["id_token"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
        ], headers: cacheHeaders(services))
    }

    /// `Cache-Control: max-age` tells verifiers how long they may cache the key set; rotation waits that long
    /// before signing with a new key.
    static func cacheHeaders(_ services: GatewayServices) -> [(String, String)] {
        [("Cache-Control", "public, max-age=\(services.configuration.keyCacheMaxAgeSeconds), must-revalidate, no-transform")]
    }

    static func publicBaseURL(_ configuration: GatewayConfiguration, _ request: HTTPRequest) -> String {
        if let url = configuration.publicURL { return url.hasSuffix("/") ? String(url.dropLast()) : url }
        return "http://\(request.headers["host"] ?? "\(configuration.host):\(configuration.port)")"
    }
}
