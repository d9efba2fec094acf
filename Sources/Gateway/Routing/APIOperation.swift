/// Every operation the gateway serves, named by the `operationId` it has in `openapi.yaml`.
///
/// A test reads the spec's operation ids and compares them with `allCases`, so the code and the contract
/// cannot drift apart silently.
enum APIOperation: String, CaseIterable, Sendable {
    // Identity Toolkit v1, end-user
    case signUp = "identitytoolkit.accounts.signUp"
    case lookup = "identitytoolkit.accounts.lookup"
    case update = "identitytoolkit.accounts.update"
    case delete = "identitytoolkit.accounts.delete"
    case signInWithIdp = "identitytoolkit.accounts.signInWithIdp"
    case signInWithPassword = "identitytoolkit.accounts.signInWithPassword"
    case sendOobCode = "identitytoolkit.accounts.sendOobCode"
    case resetPassword = "identitytoolkit.accounts.resetPassword"
    case signInWithEmailLink = "identitytoolkit.accounts.signInWithEmailLink"
    case createAuthUri = "identitytoolkit.accounts.createAuthUri"
    case signInWithCustomToken = "identitytoolkit.accounts.signInWithCustomToken"
    case sendVerificationCode = "identitytoolkit.accounts.sendVerificationCode"
    case signInWithPhoneNumber = "identitytoolkit.accounts.signInWithPhoneNumber"
    case recaptchaParams = "identitytoolkit.getRecaptchaParams"
    case recaptchaConfig = "identitytoolkit.getRecaptchaConfig"
    // Identity Toolkit v2, end-user
    case revokeToken = "identitytoolkit.accounts.revokeToken"
    // Identity Toolkit v1, admin
    case adminLookup = "identitytoolkit.projects.accounts.lookup"
    case adminDelete = "identitytoolkit.projects.accounts.delete"
    case adminUpdate = "identitytoolkit.projects.accounts.update"
    case adminSendOobCode = "identitytoolkit.projects.accounts.sendOobCode"
    case adminCreate = "identitytoolkit.projects.accounts.create"
    case adminBatchDelete = "identitytoolkit.projects.accounts.batchDelete"
    case adminBatchGet = "identitytoolkit.projects.accounts.batchGet"
    case adminQuery = "identitytoolkit.projects.accounts.query"
    case adminQueryAccounts = "identitytoolkit.projects.queryAccounts"
    case createSessionCookie = "identitytoolkit.projects.createSessionCookie"
    case legacyDownloadAccount = "legacy.downloadAccount"
    case adminBatchCreate = "identitytoolkit.projects.accounts.batchCreate"
    case legacyUploadAccount = "legacy.uploadAccount"
    // OAuth 2.0 token endpoint: the JWT-bearer grant for service accounts (admin API access tokens)
    case oauthToken = "oauth2.token"
    // Identity Toolkit v2, admin project config
    case getProjectConfig = "identitytoolkit.projects.getConfig"
    case updateProjectConfig = "identitytoolkit.projects.updateConfig"
    // Identity Toolkit v2, admin OpenID Connect provider configurations
    case createOAuthIdpConfig = "identitytoolkit.projects.oauthIdpConfigs.create"
    case getOAuthIdpConfig = "identitytoolkit.projects.oauthIdpConfigs.get"
    case listOAuthIdpConfigs = "identitytoolkit.projects.oauthIdpConfigs.list"
    case patchOAuthIdpConfig = "identitytoolkit.projects.oauthIdpConfigs.patch"
    case deleteOAuthIdpConfig = "identitytoolkit.projects.oauthIdpConfigs.delete"
    // Emulator mode only
    case emulatorGetConfig = "emulator.projects.config.get"
    case emulatorUpdateConfig = "emulator.projects.config.update"
    case emulatorDeleteAccounts = "emulator.projects.accounts.delete"
    case emulatorOobCodes = "emulator.projects.oobCodes.list"
    case emulatorVerificationCodes = "emulator.projects.verificationCodes.list"
    // Email action page (as Firebase Hosting's)
    case actionPage = "gatehouse.authAction.show"
    case actionPageSubmit = "gatehouse.authAction.submit"
    // Secure Token
    case token = "securetoken.token"
    // Published keys and discovery
    case x509Keys = "gatehouse.publicKeys.x509"
    case jwks = "gatehouse.publicKeys.jwks"
    case sessionCookieX509Keys = "gatehouse.publicKeys.sessionCookieX509"
    case sessionCookieJWKS = "identitytoolkit.getSessionCookiePublicKeys"
    case openIDConfiguration = "gatehouse.openidConfiguration"
    case issuerOpenIDConfiguration = "gatehouse.issuerOpenidConfiguration"
    // Federated sign-in plumbing: the redirect flow's return URL, providers' own endpoints (server-to-server
    // events, pages), and the older path of Apple's notifications (an alias of the events route)
    case authHandler = "gatehouse.auth.handler"
    /// The same return URL reached with a GET, the fields in the query: OAuth's default `response_mode=query`
    /// (Facebook's OAuth dialog, Telegram's code flow).
    case authHandlerQuery = "gatehouse.auth.handler.query"
    /// The JS SDK's sign-in window, relay frame and return page (`signInWithPopup`/`signInWithRedirect` through
    /// `connectAuthEmulator`), in both modes.
    case widgetHandler = "emulator.auth.handler"
    case widgetIframe = "emulator.auth.iframe"
    case widgetReturn = "gatehouse.auth.widgetReturn"
    case providerEvents = "gatehouse.providers.events"
    case providerPage = "gatehouse.providers.page"
    case appleNotifications = "gatehouse.apple.notifications"
    // Operations
    case status = "gatehouse.status"
    case healthz = "gatehouse.healthz"
    case readyz = "gatehouse.readyz"
    case metrics = "gatehouse.metrics"
}

/// Who may call an operation.
enum Access: Sendable {
    /// An API key (or an admin credential).
    case apiKey
    /// Admin credentials only.
    case admin
    /// Anyone (public keys, health).
    case open
    /// Directly from `metricsNetworks`, or with an admin credential from anywhere.
    case metrics
}
