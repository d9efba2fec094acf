import AuthCore
import ProviderKit

/// Reads the `facebook` section and builds Facebook Login. The app secret comes from the
/// `GATEHOUSE_FACEBOOK_APP_SECRET` environment variable or the file named by `appSecretFile`; it is never
/// accepted inline in the config file, which tends to be committed.
public struct FacebookProviderFactory: ProviderFactory {
    public static let keys: Set = ["enabled", "appId", "appSecretFile", "graphVersion", "graphBaseUrl", "dialogBaseUrl",
                                   "limitedLoginBaseUrl", "acceptRawNonce", "requestTimeoutSeconds", "clockSkewSeconds",
                                   "keyRefreshIntervalSeconds", "callbackMaxAgeSeconds"]

    public init() {}

    public var section: String { "facebook" }

    public func settings(from section: ConfigSection, environment: [String: String]) throws -> FacebookConfiguration {
        try section.requireKnownKeys(Self.keys)
        var facebook = FacebookConfiguration()
        facebook.enabled = try section.bool("enabled") ?? facebook.enabled
        facebook.appId = try section.string("appId") ?? facebook.appId
        facebook.graphVersion = try section.string("graphVersion") ?? facebook.graphVersion
        facebook.graphBaseURL = try section.string("graphBaseUrl") ?? facebook.graphBaseURL
        facebook.dialogBaseURL = try section.string("dialogBaseUrl") ?? facebook.dialogBaseURL
        facebook.limitedLoginBaseURL = try section.string("limitedLoginBaseUrl") ?? facebook.limitedLoginBaseURL
        facebook.acceptsRawNonce = try section.bool("acceptRawNonce") ?? facebook.acceptsRawNonce
        facebook.requestTimeoutSeconds = try section.int64("requestTimeoutSeconds") ?? facebook.requestTimeoutSeconds
        facebook.clockSkewSeconds = try section.int64("clockSkewSeconds") ?? facebook.clockSkewSeconds
        facebook.keyRefreshIntervalSeconds = try section.int64("keyRefreshIntervalSeconds") ?? facebook.keyRefreshIntervalSeconds
        facebook.callbackMaxAgeSeconds = try section.int64("callbackMaxAgeSeconds") ?? facebook.callbackMaxAgeSeconds
        facebook.appSecret = try section.secret(fileKey: "appSecretFile", environmentVariable: "GATEHOUSE_FACEBOOK_APP_SECRET",
                                                environment: environment)
        if let problem = facebook.problem { throw ConfigurationError(problem) }
        return facebook
    }

    public func plugins(_ settings: FacebookConfiguration, context: ProviderContext) throws -> PluginSet {
        let provider = FacebookProvider(configuration: settings, fetcher: context.fetcher,
                                        ledger: context.ledger(kind: "facebook.nonce"), records: context.records(for: .facebook),
                                        publicBaseURL: context.publicBaseURL, time: context.time,
                                        log: context.log(for: .facebook))
        return PluginSet(providers: [provider])
    }
}
