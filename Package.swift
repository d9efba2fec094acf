// swift-tools-version:6.0
// Gatehouse: a Firebase-compatible authentication gateway.
// Only the Swift toolchain and Debian C libraries (through systemLibrary targets) are used.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Gatehouse",
    // Only the client library (GatehouseAuth) builds for Apple platforms; these are its oldest (Swift concurrency).
    // The gateway itself is Linux only.
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .executable(name: "gateway", targets: ["GatewayServer"]),
        // The Swift client for apps (iOS, macOS, Linux): FirebaseAuth's shape over HTTPS, Foundation only.
        .library(name: "GatehouseAuth", targets: ["GatehouseAuth"]),
    ],
    targets: [
        // C libraries from Debian, one module map each.
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CLinux"),
        .systemLibrary(name: "CXCrypt", pkgConfig: "libxcrypt", providers: [.apt(["libcrypt-dev"])]),

        // Wire formats every other module reads and writes: JSON, base64/hex, percent and form encoding.
        .target(name: "WireFormats", swiftSettings: strict),

        // Swift wrappers: one module per C library.
        .target(name: "Crypto", dependencies: ["COpenSSL", "CXCrypt", "WireFormats"], swiftSettings: strict),
        .target(name: "IPNetworks", swiftSettings: strict),
        .target(name: "HTTP", dependencies: ["CLinux", "IPNetworks"], swiftSettings: strict),
        .target(name: "Outbound", dependencies: ["CCurl", "WireFormats"], swiftSettings: strict),

        // Domain.
        .target(name: "AuthCore", dependencies: ["CLinux", "Crypto", "WireFormats"], swiftSettings: strict),
        .target(name: "Storage", dependencies: ["AuthCore", "WireFormats"], swiftSettings: strict),
        .target(name: "StorageSQLite", dependencies: ["Storage", "CSQLite"], swiftSettings: strict),
        .target(name: "StoragePostgres", dependencies: ["Storage", "AuthCore", "CLibPQ", "WireFormats"], swiftSettings: strict),
        .target(name: "Linking", dependencies: ["AuthCore", "WireFormats"], swiftSettings: strict),

        // The plugin SDK: what a provider implements and what the gateway hands it.
        .target(name: "ProviderKit", dependencies: ["AuthCore", "Crypto", "Outbound", "WireFormats"], swiftSettings: strict),
        // The federation toolkit every token-based provider uses: JWKS cache, JWS and claim checks, nonce rules.
        .target(name: "Federation", dependencies: ["ProviderKit", "AuthCore", "Crypto", "Outbound", "WireFormats"],
                swiftSettings: strict),

        // Provider plugins.
        .target(name: "ProviderAnonymous", dependencies: ["AuthCore", "ProviderKit", "WireFormats"], path: "Sources/Providers/Anonymous",
                swiftSettings: strict),
        .target(name: "ProviderApple", dependencies: ["AuthCore", "ProviderKit", "Federation", "Crypto", "Outbound", "WireFormats"], path: "Sources/Providers/Apple",
                swiftSettings: strict),
        .target(name: "ProviderEmail", dependencies: ["AuthCore", "ProviderKit", "Crypto", "Outbound", "WireFormats"], path: "Sources/Providers/Email",
                swiftSettings: strict),
        .target(name: "ProviderFacebook", dependencies: ["AuthCore", "ProviderKit", "Federation", "Crypto", "Outbound", "WireFormats"], path: "Sources/Providers/Facebook",
                swiftSettings: strict),
        .target(name: "ProviderTelegram", dependencies: ["AuthCore", "ProviderKit", "Federation", "Crypto", "Outbound", "WireFormats"],
                path: "Sources/Providers/Telegram", swiftSettings: strict),
        .target(name: "ProviderGitHub", dependencies: ["AuthCore", "ProviderKit", "Outbound", "WireFormats"], path: "Sources/Providers/GitHub",
                swiftSettings: strict),
        .target(name: "ProviderPhone", dependencies: ["AuthCore", "ProviderKit", "Crypto", "Outbound", "WireFormats"], path: "Sources/Providers/Phone",
                swiftSettings: strict),
        .target(name: "ProviderOIDC", dependencies: ["AuthCore", "ProviderKit", "Federation", "Crypto", "Outbound", "WireFormats"], path: "Sources/Providers/OIDC",
                swiftSettings: strict),

        // The Firebase wire layer and the executable.
        .target(
            name: "Gateway",
            dependencies: ["AuthCore", "Storage", "StorageSQLite", "StoragePostgres", "Linking", "HTTP", "IPNetworks", "Outbound",
                           "Crypto", "WireFormats", "ProviderKit",
                           "ProviderAnonymous", "ProviderApple", "ProviderEmail", "ProviderFacebook", "ProviderTelegram",
                           "ProviderOIDC", "ProviderGitHub", "ProviderPhone"],
            swiftSettings: strict),
        .executableTarget(name: "GatewayServer", dependencies: ["Gateway", "Crypto", "Outbound", "WireFormats"], swiftSettings: strict),

        // The client library: no dependency on any other module here, so it builds for Apple platforms too.
        .target(name: "GatehouseAuth", swiftSettings: strict),

        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "WireFormatsTests", dependencies: ["WireFormats", "TestSupport"]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto", "WireFormats"]),
        .testTarget(name: "IPNetworksTests", dependencies: ["IPNetworks"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "IPNetworks", "TestSupport"]),
        .testTarget(name: "OutboundTests", dependencies: ["Outbound", "HTTP", "WireFormats"]),
        .testTarget(name: "AuthCoreTests", dependencies: ["AuthCore", "Crypto", "WireFormats"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "StorageSQLite", "StoragePostgres", "AuthCore", "WireFormats", "TestSupport"]),
        .testTarget(name: "LinkingTests", dependencies: ["Linking", "AuthCore", "WireFormats"]),
        .testTarget(name: "GatewayTests", dependencies: ["Gateway", "AuthCore", "Storage", "StorageSQLite", "StoragePostgres", "HTTP", "Crypto", "Linking",
                                                         "ProviderApple", "AppleTestSupport", "ProviderEmail", "ProviderOIDC", "OIDCTestSupport", "Outbound", "WireFormats", "ProviderKit", "TestSupport"]),
        .target(name: "AppleTestSupport", dependencies: ["AuthCore", "Crypto", "Outbound", "WireFormats"], path: "Tests/AppleTestSupport"),
        .testTarget(name: "ProviderAppleTests", dependencies: ["ProviderApple", "AppleTestSupport", "AuthCore", "Crypto", "Outbound", "WireFormats", "ProviderKit"]),
        .testTarget(name: "FederationTests", dependencies: ["Federation", "ProviderKit", "AuthCore", "Crypto", "Outbound", "WireFormats"]),
        .target(name: "OIDCTestSupport", dependencies: ["AuthCore", "Crypto", "Outbound", "WireFormats"], path: "Tests/OIDCTestSupport"),
        .testTarget(name: "ProviderOIDCTests", dependencies: ["ProviderOIDC", "OIDCTestSupport", "Federation", "AuthCore", "Crypto", "Outbound", "WireFormats", "ProviderKit"]),
        .testTarget(name: "ProviderGitHubTests", dependencies: ["ProviderGitHub", "AuthCore", "Crypto", "Outbound", "WireFormats", "ProviderKit"]),
        .testTarget(name: "ProviderEmailTests", dependencies: ["ProviderEmail", "AuthCore", "Crypto", "WireFormats", "ProviderKit"]),
        .testTarget(name: "ProviderFacebookTests", dependencies: ["ProviderFacebook", "Federation", "AuthCore", "Crypto", "Outbound", "WireFormats", "ProviderKit"]),
        .testTarget(name: "ProviderTelegramTests", dependencies: ["ProviderTelegram", "AuthCore", "Crypto", "Outbound", "WireFormats", "ProviderKit"]),
        .testTarget(name: "GatehouseAuthTests", dependencies: ["GatehouseAuth"]),
        // Runs the client over HTTPS in its own process for GatehouseAuthTests (built by `swift build --build-tests`).
        .executableTarget(name: "GatehouseAuthTLSProbe", dependencies: ["GatehouseAuth"], path: "Tests/GatehouseAuthTLSProbe"),
        .testTarget(name: "ProviderPhoneTests", dependencies: ["ProviderPhone", "AuthCore", "Crypto", "Outbound", "WireFormats", "ProviderKit"]),
    ]
)
