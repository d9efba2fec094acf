import AuthCore
import Foundation
import Storage
import WireFormats

/// `gateway service-accounts create|register|list|delete`: the service accounts the admin API and custom-token
/// sign-in trust, managed in the configured database (safe while gateways run; every instance sees a change
/// on its next request).
enum ServiceAccountCommands {
    typealias Failure = Arguments.Failure

    static func run(_ words: [String], flags: [String: String], configuration: GatewayConfiguration) async throws -> String {
        let store = try StoreOpening.openStore(configuration)
        let outcome: Result<String, any Error>
        do {
            outcome = .success(try await dispatch(Array(words.dropFirst()), flags: flags, configuration: configuration,
                                                  registry: ServiceAccountRegistry(store: store), now: SystemTime().nowSeconds))
        } catch {
            outcome = .failure(error)
        }
        await GatewayCommand.closeReporting(store)
        return try outcome.get()
    }

    static func dispatch(_ words: [String], flags: [String: String], configuration: GatewayConfiguration,
                         registry: ServiceAccountRegistry, now: Int64) async throws -> String {
        switch words {
        case let rest where rest.count == 2 && rest[0] == "create":
            return try await create(name: rest[1], flags: flags, configuration: configuration, registry: registry, now: now)
        case let rest where rest.count == 2 && rest[0] == "register":
            return try await register(email: rest[1], flags: flags, registry: registry, now: now)
        case ["list"]:
            return list(try await registry.all())
        case let rest where rest.count == 2 && rest[0] == "delete":
            guard try await registry.remove(rest[1], keyId: flags["key-id"]) else {
                throw Failure(description: "no service account \(rest[1])\(flags["key-id"].map { " with key \($0)" } ?? "")")
            }
            return "deleted \(rest[1])\(flags["key-id"].map { " key \($0)" } ?? ""); its access tokens stop working now"
        default:
            throw Failure(description: "usage: gateway service-accounts create NAME --key-file FILE | register EMAIL --certificate FILE | list | delete EMAIL (see gateway help service-accounts)")
        }
    }

    static func create(name: String, flags: [String: String], configuration: GatewayConfiguration,
                       registry: ServiceAccountRegistry, now: Int64) async throws -> String {
        guard ServiceAccountKeyFile.isValidName(name) else {
            throw Failure(description: "a service account name has 6-30 lower-case letters, digits or hyphens and starts with a letter")
        }
        guard let path = flags["key-file"] else { throw Failure(description: "create needs --key-file FILE (where the private key is written)") }
        guard !FileManager.default.fileExists(atPath: path) else { throw Failure(description: "\(path) exists; choose a new file") }
        let url = flags["gateway-url"] ?? configuration.publicBaseURL
        let created = try ServiceAccountKeyFile.create(name: name, projectId: configuration.projectId, gatewayURL: url, now: now)
        if try await registry.account(created.account.clientEmail) != nil {
            throw Failure(description: "\(created.account.clientEmail) exists; delete it first or pick another name")
        }
        // Written (0600 under the command's umask) before the account is stored: no account without its key.
        guard FileManager.default.createFile(atPath: path, contents: Data(JSONSerializer.bytes(.object(created.json), pretty: true)),
                                             attributes: [.posixPermissions: 0o600])
        else { throw Failure(description: "cannot write \(path)") }
        try await registry.register(created.account)
        return """
        created \(created.account.clientEmail) (key \(created.account.keys[0].keyId))
        key file: \(path) (token_uri \(created.json["token_uri"]?.stringValue ?? "")); keep it secret, the gateway has no copy
        """
    }

    static func register(email: String, flags: [String: String], registry: ServiceAccountRegistry, now: Int64) async throws -> String {
        guard EmailAddress.canonical(email) != nil else { throw Failure(description: "\(email) is not a service account email") }
        guard let path = flags["certificate"] else {
            throw Failure(description: "register needs --certificate FILE: a PEM certificate or public key (with --key-id), or Google's JSON map of key ids to certificates")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "cannot read \(path)") }
        let keys = try RegisteredKeys.parse(String(decoding: data, as: UTF8.self), keyId: flags["key-id"])
        let stored = try await registry.register(ServiceAccount(clientEmail: email, keys: keys, origin: .registered, createdAt: now))
        return "registered \(email): keys \(stored.keys.map(\.keyId).joined(separator: ", "))"
    }

    static func list(_ accounts: [ServiceAccount]) -> String {
        guard !accounts.isEmpty else { return "no service accounts" }
        return accounts.map { account in
            "\(account.clientEmail)  \(account.origin.rawValue)  \(KeyCommands.date(account.createdAt))  keys: \(account.keys.map(\.keyId).joined(separator: ","))"
        }.joined(separator: "\n")
    }
}

/// The public keys an operator registers for an existing service account: a PEM certificate or public key
/// (named by `--key-id`, the key file's `private_key_id`), or the JSON map Google publishes at
/// `https://www.googleapis.com/service_accounts/v1/metadata/x509/<client email>` (`{key id: certificate}`).
/// Every key must be an RSA key that parses, or nothing is registered.
enum RegisteredKeys {
    static func parse(_ text: String, keyId: String?) throws -> [ServiceAccount.Key] {
        let keys: [ServiceAccount.Key]
        if case .object(let map)? = try? JSONParser.parse(text) {
            keys = map.compactMap { id, value in value.stringValue.map { ServiceAccount.Key(keyId: id, publicPEM: $0) } }
                .filter { keyId == nil || $0.keyId == keyId }
        } else {
            guard let keyId, !keyId.isEmpty else {
                throw Arguments.Failure(description: "a PEM file needs --key-id (the private_key_id of the service account's key file)")
            }
            keys = [ServiceAccount.Key(keyId: keyId, publicPEM: text)]
        }
        guard !keys.isEmpty else { throw Arguments.Failure(description: "no keys found") }
        for key in keys where ServiceAccount.publicKey(key.publicPEM) == nil {
            throw Arguments.Failure(description: "key \(key.keyId) is not an RSA certificate or public key in PEM")
        }
        return keys
    }
}
