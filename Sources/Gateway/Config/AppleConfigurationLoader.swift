import AuthCore
import Foundation
import ProviderApple

extension ConfigurationLoader {
    /// Reads the `apple` section. The .p8 key comes from `privateKeyFile` (or the `GATEHOUSE_APPLE_PRIVATE_KEY`
    /// environment variable); it is never accepted inline in the config file, which tends to be committed.
    static func applyApple(_ r: FieldReader, to apple: inout AppleConfiguration) throws {
        let known: Set = ["enabled", "bundleIds", "servicesIds", "teamId", "keyId", "privateKeyFile", "baseUrl",
                          "clockSkewSeconds", "keyRefreshIntervalSeconds"]
        if let unknown = r.object.keys.first(where: { !known.contains($0) }) {
            throw Failure("unknown config key \"apple.\(unknown)\"")
        }
        apple.enabled = try r.bool("enabled") ?? apple.enabled
        apple.bundleIds = try r.strings("bundleIds") ?? apple.bundleIds
        apple.servicesIds = try r.strings("servicesIds") ?? apple.servicesIds
        apple.teamId = try r.string("teamId") ?? apple.teamId
        apple.keyId = try r.string("keyId") ?? apple.keyId
        apple.baseURL = try r.string("baseUrl") ?? apple.baseURL
        apple.clockSkewSeconds = try r.int64("clockSkewSeconds") ?? apple.clockSkewSeconds
        apple.keyRefreshIntervalSeconds = try r.int64("keyRefreshIntervalSeconds") ?? apple.keyRefreshIntervalSeconds
        if let path = try r.string("privateKeyFile") {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Failure("cannot read apple.privateKeyFile \(path)")
            }
            apple.privateKeyPEM = String(decoding: data, as: UTF8.self)
        }
    }
}
