import HTTP
import WireFormats

/// `GET /emulator/auth/iframe`: the frame the JS SDK embeds (through Google's `gapi.iframes`, which it loads in the
/// app's page) to receive the results of its sign-in window. It speaks the same messages as the Firebase
/// emulator's frame: answers `webStorageSupport`, and sends `authEvent` to the SDK, first any stored redirect
/// result (or `auth/no-auth-event`), later each popup result posted to it by the sign-in window.
///
/// Outside emulator mode it relays only to pages on the authorized domains and only what its own origin posts:
/// a result carries a redirect session id and the provider's code, which a stranger's page that embeds this
/// frame must never receive.
enum RelayFrame {
    static func page(authorizedDomains: [String]?) -> HTTPResponse {
        var data: JSONObject = [:]
        if let authorizedDomains { data["authorizedDomains"] = .array(authorizedDomains.map { .string($0.lowercased()) }) }
        return WidgetPages.frame(data: data, script: script)
    }

    static let script = """
    (function () {
      var context = JSON.parse(document.getElementById('gatehouse-widget').dataset.context);
      var query = new URLSearchParams(location.search);
      var apiKey = query.get('apiKey'), appName = query.get('appName');
      if (!apiKey || !appName) { return; }
      var storageKey = apiKey + ':' + appName, slot = 'firebase:redirectEvent:' + storageKey;
      var allowed = context.authorizedDomains;
      if (allowed) {
        var parent = (location.ancestorOrigins && location.ancestorOrigins.length)
          ? location.ancestorOrigins[0] : document.referrer;
        var host = '';
        try { host = new URL(parent).hostname.toLowerCase(); } catch (e) { host = ''; }
        var ok = host !== '' && allowed.some(function (d) {
          return host === d || host.slice(-(d.length + 1)) === '.' + d;
        });
        if (!ok) { return; }
      }
      var parentContainer = null;
      function send(authEvent) {
        parentContainer.send('authEvent', {
          type: 'authEvent',
          authEvent: authEvent || {type: 'unknown', error: {code: 'auth/no-auth-event'}}
        }, function () {}, gapi.iframes.CROSS_ORIGIN_IFRAMES_FILTER);
      }
      window.addEventListener('message', function (e) {
        if (e.origin !== location.origin || !e.data || e.data.eventType !== 'sendAuthEvent' || !e.data.data) { return; }
        if (e.data.data.storageKey !== storageKey) { return; }
        if (parentContainer) { send(e.data.data.authEvent); }
        else { sessionStorage.setItem(slot, JSON.stringify(e.data.data.authEvent)); }
      });
      window.gatehouseGapiLoaded = function () {
        gapi.load('gapi.iframes', {timeout: 10000, callback: function () {
          parentContainer = gapi.iframes.getContext().getParentIframe();
          parentContainer.register('webStorageSupport', function () {
            return {status: 'ACK', webStorageSupport: true};
          }, gapi.iframes.CROSS_ORIGIN_IFRAMES_FILTER);
          var stored = sessionStorage.getItem(slot), authEvent = null;
          sessionStorage.removeItem(slot);
          try { authEvent = stored ? JSON.parse(stored) : null; } catch (e) { authEvent = null; }
          send(authEvent);
        }});
      };
      var loader = document.createElement('script');
      loader.src = 'https://apis.google.com/js/api.js?onload=gatehouseGapiLoaded';
      document.head.appendChild(loader);
    })();
    """
}
