/// The gateway's routes. Host names are the first path segment, as with the Firebase Auth Emulator, so SDKs
/// pointed at the gateway with their emulator settings find every endpoint where they expect it.
enum Routes {
    static let identityToolkitV1 = "/identitytoolkit.googleapis.com/v1"
    static let legacyV3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
    static let x509Path = "/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
    static let jwksPath = "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"

    /// End-user `accounts:<method>` operations and the legacy v3 `relyingparty` name of each (still used by the
    /// iOS SDK and pyrebase).
    static let accountMethods: [(v1: String, legacy: String, operation: APIOperation)] = [
        ("signUp", "signupNewUser", .signUp), ("lookup", "getAccountInfo", .lookup), ("update", "setAccountInfo", .update),
        ("delete", "deleteAccount", .delete), ("signInWithIdp", "verifyAssertion", .signInWithIdp),
        ("signInWithPassword", "verifyPassword", .signInWithPassword),
        ("sendOobCode", "getOobConfirmationCode", .sendOobCode), ("resetPassword", "resetPassword", .resetPassword),
        ("signInWithEmailLink", "emailLinkSignin", .signInWithEmailLink), ("createAuthUri", "createAuthUri", .createAuthUri),
        ("signInWithCustomToken", "verifyCustomToken", .signInWithCustomToken),
        ("sendVerificationCode", "sendVerificationCode", .sendVerificationCode),
        ("signInWithPhoneNumber", "verifyPhoneNumber", .signInWithPhoneNumber),
    ]

    /// Legacy v3 names and the operation each one is (the admin export `downloadAccount` has its own operation,
    /// since the v1 listing it stands for is a `GET` with a query).
    static var legacyNames: [(String, APIOperation)] { accountMethods.map { ($0.legacy, $0.operation) } }

    /// Where firebase-admin fetches the keys of session cookies.
    static let sessionCookieX509Path = "\(legacyV3)/publicKeys"

    static func table(projectId: String, issuerPath: String?, emulator: Bool) -> RouteTable {
        var table = RouteTable()
        for method in accountMethods {
            table.add("POST", "\(identityToolkitV1)/accounts:\(method.v1)", method.operation, .apiKey)
            table.add("POST", "\(legacyV3)/\(method.legacy)", method.operation, .apiKey)
        }
        table.add("POST", "\(identityToolkitV1)/projects/{projectId}/accounts:lookup", .adminLookup, .admin)
        table.add("POST", "\(identityToolkitV1)/projects/{projectId}/accounts:delete", .adminDelete, .admin)
        table.add("POST", "\(identityToolkitV1)/projects/{projectId}/accounts:update", .adminUpdate, .admin)
        table.add("POST", "\(identityToolkitV1)/projects/{projectId}/accounts:sendOobCode", .adminSendOobCode, .admin)
        table.add("POST", "\(identityToolkitV1)/projects/{projectId}/accounts", .adminCreate, .admin)
        table.add("POST", "\(identityToolkitV1)/projects/{projectId}/accounts:batchDelete", .adminBatchDelete, .admin)
        table.add("GET", "\(identityToolkitV1)/projects/{projectId}/accounts:batchGet", .adminBatchGet, .admin)
        table.add("POST", "\(identityToolkitV1)/projects/{projectId}/accounts:query", .adminQuery, .admin)
        // `{p}:method` is one path segment: one gateway serves one project, so the project is part of the literal.
        table.add("POST", "\(identityToolkitV1)/projects/\(projectId):queryAccounts", .adminQueryAccounts, .admin)
        table.add("POST", "\(identityToolkitV1)/projects/\(projectId):createSessionCookie", .createSessionCookie, .admin)
        table.add("POST", "\(legacyV3)/downloadAccount", .legacyDownloadAccount, .admin)
        table.add("POST", "\(identityToolkitV1)/projects/{projectId}/accounts:batchCreate", .adminBatchCreate, .admin)
        table.add("POST", "\(legacyV3)/uploadAccount", .legacyUploadAccount, .admin)
        table.add("POST", JWTBearerGrant.path, .oauthToken, .open)
        table.add("GET", "/__/auth/action", .actionPage, .open)
        table.add("POST", "/__/auth/action", .actionPageSubmit, .open)
        table.add("GET", "/identitytoolkit.googleapis.com/v2/projects/{projectId}/config", .getProjectConfig, .admin)
        table.add("PATCH", "/identitytoolkit.googleapis.com/v2/projects/{projectId}/config", .updateProjectConfig, .admin)
        let idpConfigs = "/identitytoolkit.googleapis.com/v2/projects/{projectId}/oauthIdpConfigs"
        table.add("POST", idpConfigs, .createOAuthIdpConfig, .admin)
        table.add("GET", idpConfigs, .listOAuthIdpConfigs, .admin)
        table.add("GET", "\(idpConfigs)/{providerId}", .getOAuthIdpConfig, .admin)
        table.add("PATCH", "\(idpConfigs)/{providerId}", .patchOAuthIdpConfig, .admin)
        table.add("DELETE", "\(idpConfigs)/{providerId}", .deleteOAuthIdpConfig, .admin)
        if emulator {
            table.add("GET", "/emulator/v1/projects/{projectId}/config", .emulatorGetConfig, .open)
            table.add("PATCH", "/emulator/v1/projects/{projectId}/config", .emulatorUpdateConfig, .open)
            table.add("DELETE", "/emulator/v1/projects/{projectId}/accounts", .emulatorDeleteAccounts, .open)
            table.add("GET", "/emulator/v1/projects/{projectId}/oobCodes", .emulatorOobCodes, .open)
            table.add("GET", "/emulator/v1/projects/{projectId}/verificationCodes", .emulatorVerificationCodes, .open)
        }
        table.add("POST", "/identitytoolkit.googleapis.com/v2/accounts:revokeToken", .revokeToken, .apiKey)
        table.add("GET", "\(identityToolkitV1)/recaptchaParams", .recaptchaParams, .apiKey)
        table.add("GET", "/identitytoolkit.googleapis.com/v2/recaptchaConfig", .recaptchaConfig, .apiKey)
        table.add("POST", "/__/auth/handler", .authHandler, .open)
        table.add("GET", "/__/auth/handler", .authHandlerQuery, .open)
        table.add("GET", "/emulator/auth/handler", .widgetHandler, .open)
        table.add("GET", "/emulator/auth/iframe", .widgetIframe, .open)
        table.add("GET", ProviderWindow.returnPath, .widgetReturn, .open)
        table.add("POST", "/gatehouse/v1/providers/{providerId}/events", .providerEvents, .open)
        table.add("GET", "/gatehouse/v1/providers/{providerId}/{page}", .providerPage, .open)
        // The path Apple's notifications were registered at before provider events had a general route.
        table.add("POST", "/gatehouse/v1/apple/notifications", .appleNotifications, .open, fixed: ["providerId": "apple.com"])
        table.add("POST", "/securetoken.googleapis.com/v1/token", .token, .apiKey)
        table.add("GET", x509Path, .x509Keys, .open)
        table.add("GET", jwksPath, .jwks, .open)
        table.add("GET", sessionCookieX509Path, .sessionCookieX509Keys, .open)
        table.add("GET", "\(identityToolkitV1)/sessionCookiePublicKeys", .sessionCookieJWKS, .open)
        table.add("GET", "/securetoken.google.com/{projectId}/.well-known/openid-configuration", .openIDConfiguration, .open)
        if let issuerPath {
            table.add("GET", "\(issuerPath)/.well-known/openid-configuration", .issuerOpenIDConfiguration, .open)
        }
        table.add("GET", "/", .status, .open)
        table.add("GET", "/healthz", .healthz, .open)
        table.add("GET", "/metrics", .metrics, .metrics)
        table.add("GET", "/readyz", .readyz, .open)
        return table
    }
}
