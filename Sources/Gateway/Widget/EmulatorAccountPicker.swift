import AuthCore
import HTTP
import Storage
import WireFormats

/// Emulator mode's sign-in window, as the Firebase emulator's: pick an account that already has an identity
/// at the provider, or make up a new one (email, display name, screen name, photo); the choice becomes fake
/// ID-token claims, which the SDK sends to `signInWithIdp` in the `requestUri`
/// (`<this page>?providerId=<p>&id_token=<claims>`, `sessionId` `ValueNotUsedByAuthEmulator`).
///
/// The element ids and classes are the emulator's (`.js-reuse-account`, `#add-account-button`, `#email-input`,
/// `#display-name-input`, `#screen-name-input`, `#profile-photo-input`, `#autogen-button`, `#main-form`,
/// `#sign-in`), so browser automation written against the emulator's window keeps working.
enum EmulatorAccountPicker {
    /// The most accounts listed, and the most users looked through to find them: an emulator's data set is
    /// small, and the page must stay quick even when it is not.
    static let maxListed = 100
    static let maxScanned = 5_000

    static func page(_ request: WidgetRequest, store: any UserStore) async throws -> HTTPResponse {
        let identities = try await Self.identities(providerId: request.providerId, store: store)
        let name = request.providerId.prefix(1).uppercased() + request.providerId.dropFirst()
        var items = ""
        for identity in identities {
            let claims = JSONSerializer.string(.object(fakeClaims(identity)))
            items += """
            <li class="js-reuse-account" tabindex="0" data-id-token="\(HTMLEscaping.escape(FormURLEncoding.encodeComponent(claims)))">\
            <button type="button">\(HTMLEscaping.escape(identity.displayName ?? "(No display name)"))</button> \
            <span class="reuse-email">\(HTMLEscaping.escape(identity.email ?? ""))</span></li>

            """
        }
        let help = identities.isEmpty ? "No \(name) accounts exist in the Auth Emulator."
                                      : "Please select an existing account in the Auth Emulator or add a new one:"
        let body = """
        <div id="accounts-list">
        <p class="js-accounts-help-text">\(HTMLEscaping.escape(help))</p>
        <ul>
        \(items)<li id="add-account-button" class="js-new-account"><button type="button">Add new account</button></li>
        </ul>
        </div>
        <form id="main-form" hidden>
        <button id="autogen-button" type="button">Auto-generate user information</button>
        <label>Email <input id="email-input" type="text" autocomplete="off"></label>
        <span id="email-error" class="error"></span>
        <label>Display name (optional) <input id="display-name-input" type="text" autocomplete="off"></label>
        <label>Screen name (optional) <input id="screen-name-input" type="text" autocomplete="off"></label>
        <label>Profile photo URL (optional) <input id="profile-photo-input" type="text" autocomplete="off"></label>
        <button id="back-button" type="button">Back</button>
        <button id="sign-in" type="submit" disabled>Sign in with \(HTMLEscaping.escape(name))</button>
        </form>
        """
        return WidgetPages.window(title: "Sign-in with \(name)", data: request.delivery, body: body, script: script)
    }

    /// The claims the emulator puts in its fake ID token for an existing identity.
    static func fakeClaims(_ identity: ProviderIdentity) -> JSONObject {
        var claims: JSONObject = ["sub": .string(identity.federatedId), "iss": "", "aud": "", "exp": .int(0), "iat": .int(0)]
        claims.set("name", identity.displayName)
        claims.set("screen_name", identity.screenName)
        claims.set("email", identity.email)
        claims["email_verified"] = true
        claims.set("picture", identity.photoUrl)
        return claims
    }

    /// Identities at `providerId`, in user order, bounded by `maxListed` and `maxScanned`.
    static func identities(providerId: String, store: any UserStore) async throws -> [ProviderIdentity] {
        try await store.read { tx in
            var found: [ProviderIdentity] = []
            var after: String?
            var scanned = 0
            let pageSize = 500
            while found.count < maxListed && scanned < maxScanned {
                let users = try tx.users(afterLocalId: after, limit: pageSize)
                for user in users {
                    found += try tx.identities(localId: user.localId).filter { $0.providerId == providerId }
                }
                scanned += users.count
                guard users.count == pageSize, let last = users.last else { break }
                after = last.localId
            }
            return Array(found.prefix(maxListed))
        }
    }

    static let script = """
    function gatehouseFinish(urlEncodedClaims) {
      gatehouseDeliver({
        type: gatehouse.authType, eventId: gatehouse.eventId || null,
        urlResponse: location.href.split('?')[0] + '?providerId=' + encodeURIComponent(gatehouse.providerId) +
          '&id_token=' + urlEncodedClaims,
        sessionId: 'ValueNotUsedByAuthEmulator', postBody: '', tenantId: null, error: null
      });
    }
    [].forEach.call(document.querySelectorAll('.js-reuse-account'), function (el) {
      el.addEventListener('click', function (e) { e.preventDefault(); gatehouseFinish(el.dataset.idToken); });
    });
    function gatehouseShowForm(show) {
      document.getElementById('main-form').hidden = !show;
      document.getElementById('accounts-list').hidden = show;
    }
    document.querySelector('.js-new-account').addEventListener('click', function (e) {
      e.preventDefault(); gatehouseShowForm(true);
    });
    document.getElementById('back-button').addEventListener('click', function () { gatehouseShowForm(false); });
    function gatehouseValidate() {
      var value = document.getElementById('email-input').value;
      var error = !value ? 'Email required' : (value.indexOf('@') < 0 ? 'Missing "@"' : '');
      document.getElementById('email-error').textContent = error;
      document.getElementById('sign-in').disabled = !!error;
      return !error;
    }
    ['email-input', 'display-name-input', 'screen-name-input', 'profile-photo-input'].forEach(function (id) {
      document.getElementById(id).addEventListener('input', gatehouseValidate);
    });
    document.getElementById('autogen-button').addEventListener('click', function () {
      var names = ['raccoon', 'olive', 'orange', 'chicken', 'mountain', 'peach', 'panda', 'grass', 'algae', 'otter'];
      var given = names[Math.floor(Math.random() * names.length)], family = names[Math.floor(Math.random() * names.length)];
      function capital(a) { return a.charAt(0).toUpperCase() + a.slice(1); }
      document.getElementById('email-input').value = given + '.' + family + '.' + Math.floor(Math.random() * 1000) + '@example.com';
      document.getElementById('display-name-input').value = capital(given) + ' ' + capital(family);
      document.getElementById('screen-name-input').value = family + '_' + given;
      gatehouseValidate();
    });
    document.getElementById('main-form').addEventListener('submit', function (e) {
      e.preventDefault();
      if (!gatehouseValidate()) { return; }
      var sub = '';
      for (var i = 0; i < 40; i++) { sub += Math.floor(Math.random() * 10).toString(); }
      var claims = {sub: sub, iss: '', aud: '', exp: 0, iat: 0, email_verified: true,
                    email: document.getElementById('email-input').value};
      var name = document.getElementById('display-name-input').value;
      var screenName = document.getElementById('screen-name-input').value;
      var photo = document.getElementById('profile-photo-input').value;
      if (name) { claims.name = name; }
      if (screenName) { claims.screen_name = screenName; }
      if (photo) { claims.picture = photo; }
      gatehouseFinish(encodeURIComponent(JSON.stringify(claims)));
    });

    """
}
