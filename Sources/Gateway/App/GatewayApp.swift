import AuthCore
import Crypto
import Foundation
import HTTP
import IPNetworks
import Outbound
import ProviderKit
import Storage
import StorageSQLite

/// Builds the gateway from its configuration (the single wiring function) and runs it until SIGTERM/SIGINT.
public final class GatewayApp: Sendable {
    let services: GatewayServices
    let keys: SigningKeyService
    let responder: GatewayResponder
    let server: HTTPServer

    /// Opens the store, the master key and the signing keys. Throws a readable error for anything an
    /// operator must fix (bad config, unreadable key file, wrong master key).
    public static func make(configuration: GatewayConfiguration, environment: [String: String],
                            logger: Logger, time: any TimeSource = SystemTime()) async throws -> GatewayApp {
        try GatewayApp.checkBindAddress(configuration)
        let location = StoreOpening.location(configuration)
        let store = try StoreOpening.openStore(configuration)
        let (masterKey, source) = try StoreOpening.masterKey(configuration, environment: environment)
        logger.info("store opened", [("store", .string(location))])
        logger.info("master key loaded", [("source", .string(source))])
        let sealer = Sealer(masterKey: masterKey)
        try await MasterKeyCheck.verify(store: store, sealer: sealer, time: time, location: location)
        do {
            return try await assemble(configuration: configuration, store: store, sealer: sealer, logger: logger, time: time)
        } catch CryptoError.authenticationFailed {
            throw ConfigurationLoader.Failure(
                "the signing keys in \(location) were sealed with another master key; restore the master key that belongs to this database")
        }
    }

    /// Wires the gateway around an already opened store (tests use an in-memory store and a manual clock).
    static func assemble(configuration: GatewayConfiguration, store: any UserStore, sealer: Sealer, logger: Logger,
                         time: any TimeSource, factories: [any ProviderFactory] = ProviderRegistrations.factories,
                         extraProviders: [any CredentialProvider] = [],
                         fetcher: any HTTPFetching = CurlHTTPClient()) async throws -> GatewayApp {
        let metrics = GatewayMetrics(startedAt: time.nowSeconds)
        let store: any UserStore = MeasuredUserStore(base: store, metrics: metrics)
        let ring = KeyRing()
        let keys = SigningKeyService(store: store, sealer: sealer, settings: configuration.tokenSettings, time: time)
        try await keys.prepare(ring)
        let signer = IDTokenSigner(settings: configuration.tokenSettings, keyRing: ring, time: time)
        let plugins = try PluginAssembly.build(configuration, factories: factories, extraProviders: extraProviders,
                                               store: store, sealer: sealer, time: time, fetcher: fetcher, logger: logger)
        try await plugins.providers.refresh(from: store)
        let outbox = MessageOutbox(store: store, sealer: sealer, time: time, logger: logger, senders: plugins.senders,
                                   metrics: metrics)
        let email = EmailServices.make(configuration: configuration, store: store, time: time,
                                       providers: plugins.providers, outbox: outbox)
        let ownsUnboundTokens = try await UnboundRefreshTokens.claim(for: configuration.projectId, in: store)
        let sessions = SessionService(store: store, signer: signer, sealer: sealer, time: time,
                                      acceptsUnboundTokens: ownsUnboundTokens)
        let services = GatewayServices(
            configuration: configuration, store: store, sessions: sessions, keyRing: ring,
            providers: plugins.providers, sealer: sealer,
            time: time, logger: logger, readiness: Readiness(),
            projectSettings: ProjectSettings(store: store, defaults: configuration),
            linking: LinkingService(store: store, sealer: sealer, time: time),
            pendingCredentials: PendingCredentials(store: store, sealer: sealer, time: time, projectId: configuration.projectId,
                                                   logger: logger),
            emulatorVerifier: configuration.emulator ? EmulatorIdpVerifier() : nil, email: email,
            serviceAccounts: ServiceAccountRegistry(store: store),
            accessTokens: AdminAccessTokens(sealer: sealer, projectId: configuration.projectId),
            metrics: metrics)
        return GatewayApp(services: services, keys: keys)
    }

    init(services: GatewayServices, keys: SigningKeyService) {
        self.services = services
        self.keys = keys
        let configuration = services.configuration
        let callers = CallerAuthenticator(configuration: configuration, accessTokens: services.accessTokens)
        let responder = GatewayResponder(
            services: services,
            routes: Routes.table(projectId: configuration.projectId, issuerPath: GatewayApp.issuerPath(configuration),
                                 emulator: configuration.emulator),
            callers: callers,
            addresses: ClientAddressResolver(trustedProxies: configuration.trustedProxies.compactMap(NetworkRange.init)))
        var http = HTTPServerConfiguration()
        http.host = configuration.host
        http.port = configuration.port
        if configuration.http.eventLoops > 0 { http.eventLoopCount = configuration.http.eventLoops }
        http.eventLoopScheduling = configuration.http.eventLoopScheduling
        http.maxBodyBytes = configuration.http.maxBodyBytes
        // Admin imports carry up to 1000 users with hashes and identities, more than the default 1 MiB; only a
        // request that presents an admin credential may send that much.
        let time = services.time
        http.largeBodies = LargeBodyPaths(pathSuffixes: ["/accounts:batchCreate", "/relyingparty/uploadAccount"],
                                          maxBodyBytes: configuration.http.maxImportBodyBytes) { headers, peer in
            callers.presentsAdminCredential(headers, peer: peer, now: time.nowSeconds)
        }
        http.maxHeaderBytes = configuration.http.maxHeaderBytes
        http.maxHeaderCount = configuration.http.maxHeaderCount
        http.requestDeadline = .milliseconds(Int64(configuration.http.requestTimeoutSeconds * 1000))
        http.idleTimeout = .milliseconds(Int64(configuration.http.idleTimeoutSeconds * 1000))
        http.maxConnections = configuration.http.maxConnections
        http.maxConnectionsPerClient = configuration.http.maxConnectionsPerClient
        // Behind a proxy every client arrives from the proxy's address; its own limit (nginx's limit_conn)
        // is the per-client one there.
        http.perClientLimitExemptions = configuration.trustedProxies.compactMap(NetworkRange.init)
        http.refusalResponse = { status, reason in ErrorEnvelope.refusal(status: status, reason: reason) }
        self.responder = responder
        server = HTTPServer(configuration: http, handler: { request in await responder.respond(to: request) })
        services.metrics.countConnections { [server] in server.connectionCount }
    }

    /// Starts serving and returns the bound port.
    public func start() throws -> Int {
        let port = try server.start()
        services.readiness.set(true)
        return port
    }

    /// Runs until a termination signal, then drains: `/readyz` turns 503, the listener closes, in-flight
    /// requests finish, and the store is closed.
    public func run() async throws {
        let configuration = services.configuration
        let fileLimit = DescriptorLimit.raiseToHardLimit()
        if !DescriptorLimit.suffices(fileLimit, maxConnections: configuration.http.maxConnections) {
            services.logger.warning("open-file limit is below http.maxConnections plus a reserve; raise LimitNOFILE", [
                ("limit", .int(Int64(fileLimit))), ("maxConnections", .int(Int64(configuration.http.maxConnections))),
            ])
        }
        ProviderLogLines.logEnabled(services.providers.current, to: services.logger)
        let port = try start()
        services.logger.info("listening", [
            ("host", .string(configuration.host)), ("port", .int(Int64(port))), ("fileLimit", .int(Int64(fileLimit))),
            ("project", .string(configuration.projectId)), ("emulator", .bool(configuration.emulator)),
        ])
        let reload = Task { [services, keys] in await BackgroundJobs.keyReloadLoop(services, keys: keys) }
        let cleanup = Task { [services] in await BackgroundJobs.anonymousCleanupLoop(services) }
        let revocations = Task { [services] in await ProviderRevocations.loop(services) }
        let mail = Task { [services] in await services.outbox.run() }
        let providers = Task { [services] in await services.providers.refreshLoop(store: services.store, logger: services.logger) }
        let signal = await SignalWaiter.waitForTermination()
        services.logger.info("shutting down", [("signal", .int(Int64(signal)))])
        services.readiness.set(false)
        await server.shutdown(gracePeriod: .seconds(10))
        reload.cancel()
        cleanup.cancel()
        revocations.cancel()
        providers.cancel()
        // Not awaited: a send in progress may take up to the SMTP timeout; an unfinished item stays leased
        // in the outbox and is sent after the lease ends (by this or another instance).
        mail.cancel()
        services.outbox.stop()
        services.providers.shutdown()
        // Let the jobs finish what they are doing before the store goes away.
        await reload.value
        await cleanup.value
        await revocations.value
        await providers.value
        await Self.closeStore(services)
        services.logger.info("stopped")
    }

    /// Closes the store after everything that uses it. A failed close is logged as an error, never
    /// swallowed: with SQLite it means the WAL was not folded into the database file, so `gatehouse.sqlite`
    /// alone is not a complete copy and its `-wal` file must stay next to it.
    static func closeStore(_ services: GatewayServices) async {
        do {
            try await services.store.close()
        } catch {
            services.logger.error("the store did not close cleanly; keep the -wal file next to the database",
                                  [("error", .string("\(error)"))])
        }
    }

    /// Emulator mode accepts fake credentials, so it must not be reachable from other machines unless the
    /// operator says so twice (`--emulator --allow-non-loopback`).
    static func checkBindAddress(_ configuration: GatewayConfiguration) throws {
        guard configuration.emulator, !configuration.allowNonLoopback else { return }
        let loopback = ["127.0.0.0/8", "::1/128"].compactMap(NetworkRange.init)
        let host = configuration.host == "localhost" ? "127.0.0.1" : configuration.host
        guard loopback.contains(where: { $0.contains(host) }) else {
            throw ConfigurationLoader.Failure(
                "emulator mode refuses to listen on \(configuration.host): it accepts unsigned credentials. Use a loopback address, or add --allow-non-loopback if you really mean it")
        }
    }

    /// When the issuer is a URL of the gateway itself (not Firebase's default), discovery is also served under
    /// the issuer's own path.
    static func issuerPath(_ configuration: GatewayConfiguration) -> String? {
        guard let issuer = configuration.issuer, issuer != TokenSettings.firebaseIssuer(projectId: configuration.projectId),
              let url = URL(string: issuer), url.scheme == "http" || url.scheme == "https"
        else { return nil }
        let path = url.path
        return path == "/" ? "" : (path.hasSuffix("/") ? String(path.dropLast()) : path)
    }
}

/// The data directory's layout: the SQLite database and the master key file.
public enum DataDirectory {
    public static func databasePath(_ directory: String) -> String {
        (directory as NSString).appendingPathComponent("gatehouse.sqlite")
    }

    public static func openStore(_ directory: String) throws -> SQLiteUserStore {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return try SQLiteUserStore(path: databasePath(directory))
    }
}
