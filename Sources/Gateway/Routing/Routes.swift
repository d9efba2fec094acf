/// The gateway's routes. Host names are the first path segment, as with the Firebase Auth Emulator, so SDKs
/// pointed at the gateway with their emulator settings find every endpoint where they expect it.
enum Routes {
    static let identityToolkitV1 = "/identitytoolkit.googleapis.com/v1"
    static let legacyV3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
    static let x509Path = "/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
    static let jwksPath = "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"

    /// Legacy v3 `relyingparty` method names (still used by the iOS SDK and pyrebase) and the v1 operation each
    /// one is.
    static let legacyNames: [(String, APIOperation)] = [
        ("signupNewUser", .signUp), ("getAccountInfo", .lookup), ("setAccountInfo", .update),
        ("deleteAccount", .delete), ("verifyAssertion", .signInWithIdp),
        ("verifyPassword", .signInWithPassword), ("getOobConfirmationCode", .sendOobCode),
        ("resetPassword", .resetPassword), ("emailLinkSignin", .signInWithEmailLink), ("createAuthUri", .createAuthUri),
    ]

    static func table(projectId: String, issuerPath: String?, emulator: Bool) -> RouteTable {
        var table = RouteTable()
        for (method, operation) in [("signUp", APIOperation.signUp), ("lookup", .lookup), ("update", .update),
                                    ("delete", .delete), ("signInWithIdp", .signInWithIdp),
                                    ("signInWithPassword", .signInWithPassword), ("sendOobCode", .sendOobCode),
                                    ("resetPassword", .resetPassword), ("signInWithEmailLink", .signInWithEmailLink),
                                    ("createAuthUri", .createAuthUri)] {
            table.add("POST", "\(identityToolkitV1)/accounts:\(method)", operation, .apiKey)
        }
        for (name, operation) in legacyNames {
            table.add("POST", "\(legacyV3)/\(name)", operation, .apiKey)
        }
        table.add("POST", "\(identityToolkitV1)/projects/{projectId}/accounts:lookup", .adminLookup, .admin)
        table.add("POST", "\(identityToolkitV1)/projects/{projectId}/accounts:delete", .adminDelete, .admin)
        table.add("POST", "\(identityToolkitV1)/projects/{projectId}/accounts:update", .adminUpdate, .admin)
        table.add("POST", "\(identityToolkitV1)/projects/{projectId}/accounts:sendOobCode", .adminSendOobCode, .admin)
        table.add("GET", "/__/auth/action", .actionPage, .open)
        table.add("POST", "/__/auth/action", .actionPageSubmit, .open)
        table.add("GET", "/identitytoolkit.googleapis.com/v2/projects/{projectId}/config", .getProjectConfig, .admin)
        table.add("PATCH", "/identitytoolkit.googleapis.com/v2/projects/{projectId}/config", .updateProjectConfig, .admin)
        if emulator {
            table.add("GET", "/emulator/v1/projects/{projectId}/config", .emulatorGetConfig, .open)
            table.add("PATCH", "/emulator/v1/projects/{projectId}/config", .emulatorUpdateConfig, .open)
            table.add("DELETE", "/emulator/v1/projects/{projectId}/accounts", .emulatorDeleteAccounts, .open)
            table.add("GET", "/emulator/v1/projects/{projectId}/oobCodes", .emulatorOobCodes, .open)
        }
        table.add("POST", "/identitytoolkit.googleapis.com/v2/accounts:revokeToken", .revokeToken, .apiKey)
        table.add("POST", "/__/auth/handler", .authHandler, .open)
        table.add("POST", "/gatehouse/v1/apple/notifications", .appleNotifications, .open)
        table.add("POST", "/securetoken.googleapis.com/v1/token", .token, .apiKey)
        table.add("GET", x509Path, .x509Keys, .open)
        table.add("GET", jwksPath, .jwks, .open)
        table.add("GET", "/securetoken.google.com/{projectId}/.well-known/openid-configuration", .openIDConfiguration, .open)
        if let issuerPath {
            table.add("GET", "\(issuerPath)/.well-known/openid-configuration", .issuerOpenIDConfiguration, .open)
        }
        table.add("GET", "/", .status, .open)
        table.add("GET", "/healthz", .healthz, .open)
        table.add("GET", "/readyz", .readyz, .open)
        return table
    }
}
