/// The handler of every operation. Exhaustive by construction: a new `APIOperation` case does not compile
/// until it has a handler here.
enum OperationTable {
    static func handler(for operation: APIOperation) -> OperationHandler {
        switch operation {
        case .signUp, .adminCreate: return SignUpHandler.handle
        case .lookup: return AccountHandlers.lookup
        case .update, .adminUpdate: return UpdateHandler.handle
        case .delete: return AccountHandlers.delete
        case .adminLookup: return AccountHandlers.adminLookup
        case .adminDelete: return AccountHandlers.adminDelete
        case .adminBatchDelete: return BatchDelete.handle
        case .adminBatchGet: return BatchGet.handle
        case .legacyDownloadAccount: return BatchGet.legacyDownload
        case .adminBatchCreate, .legacyUploadAccount: return BatchCreate.handle
        case .adminQuery, .adminQueryAccounts: return QueryAccounts.handle
        case .createSessionCookie: return SessionCookies.handle
        case .signInWithCustomToken: return CustomTokenSignIn.handle
        case .oauthToken: return JWTBearerGrant.handle
        case .signInWithIdp: return SignInWithIdpHandler.handle
        case .signInWithPassword: return SignInWithPasswordHandler.handle
        case .sendOobCode, .adminSendOobCode: return SendOobCode.handle
        case .resetPassword: return ResetPasswordHandler.handle
        case .signInWithEmailLink: return EmailLinkSignIn.handle
        case .actionPage: return ActionPageHandler.show
        case .actionPageSubmit: return ActionPageHandler.submit
        case .emulatorOobCodes: return EmulatorOobCodesHandler.handle
        case .emulatorVerificationCodes: return EmulatorVerificationCodesHandler.handle
        case .sendVerificationCode: return SendVerificationCode.handle
        case .signInWithPhoneNumber: return SignInWithPhoneNumber.handle
        case .recaptchaParams: return RecaptchaHandlers.params
        case .recaptchaConfig: return RecaptchaHandlers.config
        case .createAuthUri: return CreateAuthUriHandler.handle
        case .revokeToken: return RevokeTokenHandler.handle
        case .authHandler, .authHandlerQuery: return AuthHandlerEndpoint.handle
        case .widgetHandler: return WidgetEndpoints.handler
        case .widgetIframe: return WidgetEndpoints.iframe
        case .widgetReturn: return WidgetEndpoints.returnPage
        case .createOAuthIdpConfig: return ProviderConfigHandlers.create
        case .getOAuthIdpConfig: return ProviderConfigHandlers.get
        case .listOAuthIdpConfigs: return ProviderConfigHandlers.list
        case .patchOAuthIdpConfig: return ProviderConfigHandlers.patch
        case .deleteOAuthIdpConfig: return ProviderConfigHandlers.delete
        case .providerEvents, .appleNotifications: return ProviderEndpointHandlers.events
        case .providerPage: return ProviderEndpointHandlers.page
        case .getProjectConfig, .emulatorGetConfig: return ProjectConfigHandlers.get
        case .updateProjectConfig, .emulatorUpdateConfig: return ProjectConfigHandlers.update
        case .emulatorDeleteAccounts: return ProjectConfigHandlers.deleteAllAccounts
        case .token: return TokenHandler.handle
        case .x509Keys, .sessionCookieX509Keys: return PublicKeyHandlers.x509
        case .jwks, .sessionCookieJWKS: return PublicKeyHandlers.jwks
        case .openIDConfiguration, .issuerOpenIDConfiguration: return PublicKeyHandlers.openIDConfiguration
        case .status: return StatusHandlers.status
        case .healthz: return StatusHandlers.healthz
        case .metrics: return MetricsHandler.scrape
        case .readyz: return StatusHandlers.readyz
        }
    }
}
