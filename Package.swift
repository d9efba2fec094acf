// swift-tools-version:6.0
// Gatehouse: a Firebase-compatible authentication gateway.
// Only the Swift toolchain and Debian C libraries (through systemLibrary targets) are used.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Gatehouse",
    products: [
        .executable(name: "gateway", targets: ["GatewayServer"]),
    ],
    targets: [
        // C libraries from Debian, one module map each.
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CLinux"),

        // Swift wrappers: one module per C library.
        .target(name: "Crypto", dependencies: ["COpenSSL"], swiftSettings: strict),
        .target(name: "IPNetworks", swiftSettings: strict),
        .target(name: "HTTP", dependencies: ["CLinux", "IPNetworks"], swiftSettings: strict),
        .target(name: "Outbound", dependencies: ["CCurl"], swiftSettings: strict),

        // Domain.
        .target(name: "AuthCore", dependencies: ["Crypto"], swiftSettings: strict),
        .target(name: "Storage", dependencies: ["AuthCore"], swiftSettings: strict),
        .target(name: "StorageSQLite", dependencies: ["Storage", "CSQLite"], swiftSettings: strict),
        .target(name: "StoragePostgres", dependencies: ["Storage", "AuthCore", "CLibPQ"], swiftSettings: strict),
        .target(name: "Linking", dependencies: ["AuthCore"], swiftSettings: strict),

        // Provider plugins.
        .target(name: "ProviderAnonymous", dependencies: ["AuthCore"], path: "Sources/Providers/Anonymous",
                swiftSettings: strict),
        .target(name: "ProviderApple", dependencies: ["AuthCore", "Crypto", "Outbound"], path: "Sources/Providers/Apple",
                swiftSettings: strict),
        .target(name: "ProviderEmail", dependencies: ["AuthCore", "Crypto"], path: "Sources/Providers/Email",
                swiftSettings: strict),

        // The Firebase wire layer and the executable.
        .target(
            name: "Gateway",
            dependencies: ["AuthCore", "Storage", "StorageSQLite", "StoragePostgres", "Linking", "HTTP", "IPNetworks", "Outbound", "Crypto",
                           "ProviderAnonymous", "ProviderApple", "ProviderEmail"],
            swiftSettings: strict),
        .executableTarget(name: "GatewayServer", dependencies: ["Gateway", "Outbound"], swiftSettings: strict),

        .testTarget(name: "CryptoTests", dependencies: ["Crypto"]),
        .testTarget(name: "IPNetworksTests", dependencies: ["IPNetworks"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "IPNetworks"]),
        .testTarget(name: "OutboundTests", dependencies: ["Outbound", "HTTP"]),
        .testTarget(name: "AuthCoreTests", dependencies: ["AuthCore", "Crypto"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "StorageSQLite", "StoragePostgres", "AuthCore"]),
        .testTarget(name: "LinkingTests", dependencies: ["Linking", "AuthCore"]),
        .testTarget(name: "GatewayTests", dependencies: ["Gateway", "AuthCore", "Storage", "StorageSQLite", "StoragePostgres", "HTTP", "Crypto", "Linking",
                                                         "ProviderApple", "AppleTestSupport", "ProviderEmail", "Outbound"]),
        .target(name: "AppleTestSupport", dependencies: ["AuthCore", "Crypto", "Outbound"], path: "Tests/AppleTestSupport"),
        .testTarget(name: "ProviderAppleTests", dependencies: ["ProviderApple", "AppleTestSupport", "AuthCore", "Crypto", "Outbound"]),
        .testTarget(name: "ProviderEmailTests", dependencies: ["ProviderEmail", "AuthCore", "Crypto"]),
    ]
)
