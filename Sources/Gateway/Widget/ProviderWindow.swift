import AuthCore
import HTTP
import WireFormats

/// The JS SDK's sign-in window outside emulator mode: the real redirect sign-in with the provider (Apple,
/// Facebook, Google, GitHub, OpenID Connect; every `RedirectSignIn` plugin), its result handed to the SDK the
/// way Firebase's own handler does, so `signInWithPopup(auth, new OAuthProvider("apple.com"))` works unchanged.
///
/// 1. `/emulator/auth/handler` opens a redirect session (state, nonce, PKCE verifier, as `createAuthUri` does)
///    whose continue URL is `/emulator/auth/return`; the page keeps the session id and the SDK's parameters in
///    this window's `sessionStorage`, under the state, and goes on to the provider.
/// 2. The provider answers `/__/auth/handler`, which sends the window to `/emulator/auth/return` with the
///    answer in the fragment.
/// 3. That page builds the SDK's auth event (`urlResponse` = the return URL with the provider's parameters,
///    `sessionId`) and hands it over; the SDK finishes with `signInWithIdp`, where the session is checked.
///
/// The app's address (`redirectUrl`, sent for popups too) must be on the authorized domains: a result is only
/// ever handed to, or redirected to, an authorized site.
enum ProviderWindow {
    static let returnPath = "/emulator/auth/return"

    static func start(_ request: WidgetRequest, _ services: GatewayServices, _ context: OperationContext) async throws -> HTTPResponse {
        guard let app = request.redirectUrl,
              (try? AuthorizedDomains.checkedContinueUri(app, services.configuration)) != nil else {
            return WidgetPages.problem("This app's domain is not authorized for sign-in with this project "
                                       + "(add it to authorizedDomains).", status: 403)
        }
        let base = PublicKeyHandlers.publicBaseURL(services.configuration, context.request)
        let started: FederatedAuthUri.Started
        do {
            started = try await FederatedAuthUri.begin(
                providerId: request.providerId, continueUri: base + returnPath, scopes: request.scopes,
                customParameters: request.customParameters, services, context.request)
        } catch let error as AuthError {
            // The app learns why through its own promise (`auth/operation-not-allowed`, …), as with Firebase.
            var data = request.delivery
            data["event"] = .object(request.errorEvent(code: sdkCode(error.code), message: error.message))
            return WidgetPages.window(title: "Sign-in failed", data: data,
                                      body: "<p id=\"message\">\(HTMLEscaping.escape(error.message))</p>",
                                      script: "gatehouseDeliver(gatehouse.event);", status: 400)
        }
        var data = request.delivery
        data["state"] = .string(started.state)
        data["sessionId"] = .string(started.sessionId)
        data["authUri"] = .string(started.authUri)
        data["handlerUrl"] = .string(base + FederatedAuthUri.handlerPath)
        return WidgetPages.window(title: "Signing in…", data: data, body: "<p>Taking you to the sign-in page…</p>",
                                  script: startScript)
    }

    /// The page the provider's answer comes back to (in the fragment, which never reaches a server or a log).
    static func returnPage() -> HTTPResponse {
        WidgetPages.window(title: "Signing in…", data: [:], body: "<p>Finishing sign-in…</p>", script: returnScript)
    }

    /// The SDK's name for a refusal (`auth/<name>`).
    static func sdkCode(_ code: AuthError.Code) -> String {
        switch code {
        case .operationNotAllowed: return "operation-not-allowed"
        case .invalidProviderId: return "invalid-provider-id"
        default: return "internal-error"
        }
    }

    static let startScript = """
    sessionStorage.setItem('gatehouse:widget:' + gatehouse.state, JSON.stringify(gatehouse));
    location.replace(gatehouse.authUri);

    """

    static let returnScript = """
    (function () {
      var answer = location.hash.slice(1);
      var state = new URLSearchParams(answer).get('state') || '';
      var slot = 'gatehouse:widget:' + state, stored = state ? sessionStorage.getItem(slot) : null;
      sessionStorage.removeItem(slot);
      history.replaceState(null, '', location.pathname);
      if (!stored) {
        gatehouseSay('This sign-in has expired or was started in another window. Close it and sign in again.');
        return;
      }
      gatehouse = JSON.parse(stored);
      gatehouseDeliver({
        type: gatehouse.authType, eventId: gatehouse.eventId || null,
        urlResponse: gatehouse.handlerUrl + '?' + answer, sessionId: gatehouse.sessionId, postBody: '',
        tenantId: gatehouse.tenantId || null, error: null
      });
    })();

    """
}
