import HTTP
import WireFormats

/// The HTML around the JS SDK's sign-in window and relay frame. Server data reaches the scripts only as JSON in
/// an escaped `data-` attribute, never spliced into script text, so nothing a caller sends can become code.
enum WidgetPages {
    /// A page of the sign-in window: never cached (it may carry a session id), never sent as a referrer, never
    /// framed (a framed account picker could be clickjacked).
    static func window(title: String, data: JSONObject, body: String, script: String, status: Int = 200) -> HTTPResponse {
        let html = """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLEscaping.escape(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        <div id="gatehouse-widget" data-context="\(HTMLEscaping.escape(JSONSerializer.string(.object(data))))"></div>
        <h1>\(HTMLEscaping.escape(title))</h1>
        \(body)
        <script>\(deliverScript)\(script)</script>
        </body>
        </html>

        """
        var headers = commonHeaders
        headers.add("X-Frame-Options", "DENY")
        headers.add("Content-Security-Policy",
                    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src * data:; "
                    + "form-action 'none'; frame-ancestors 'none'; base-uri 'none'")
        return HTTPResponse(status: status, headers: headers, body: Array(html.utf8))
    }

    /// The relay frame the SDK embeds in the app's page: framable by design, it decides in its script whom it
    /// answers (the authorized domains, outside emulator mode).
    static func frame(data: JSONObject, script: String) -> HTTPResponse {
        let html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Gatehouse sign-in relay</title></head>
        <body>
        <div id="gatehouse-widget" data-context="\(HTMLEscaping.escape(JSONSerializer.string(.object(data))))"></div>
        <script>\(script)</script>
        </body></html>

        """
        var headers = commonHeaders
        headers.add("Content-Security-Policy", "object-src 'none'; base-uri 'none'")
        return HTTPResponse(status: 200, headers: headers, body: Array(html.utf8))
    }

    /// A request the window cannot serve at all, in words (nothing is handed to the app).
    static func problem(_ message: String, status: Int = 400) -> HTTPResponse {
        window(title: "Sign-in failed", data: [:], body: "<p id=\"message\">\(HTMLEscaping.escape(message))</p>", script: "",
               status: status)
    }

    static var commonHeaders: HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/html; charset=utf-8")
        headers.add("Cache-Control", "no-store")
        headers.add("Referrer-Policy", "no-referrer")
        headers.add("X-Content-Type-Options", "nosniff")
        return headers
    }

    static let style = """
    body{font-family:sans-serif;max-width:32em;margin:2em auto;padding:0 1em}ul{list-style:none;padding:0}\
    li{margin:.3em 0}button{font-size:1em;padding:.4em .8em}label{display:block;margin:.6em 0}\
    input{font-size:1em;padding:.3em;width:100%;box-sizing:border-box}.error{color:#b00020}
    """

    /// Hands an auth event to the SDK exactly as Firebase's handler does: a popup posts it to the SDK's relay
    /// frame (same origin as this window, found among the opener's frames by `apiKey` and `appName`), which
    /// passes it to the SDK; a redirect stores it in `sessionStorage` under `firebase:redirectEvent:<apiKey>:<appName>`
    /// and goes back to the app, whose relay frame picks it up.
    static let deliverScript = """
    var gatehouse = JSON.parse(document.getElementById('gatehouse-widget').dataset.context);
    function gatehouseSay(text) {
      var p = document.getElementById('message') || document.body.appendChild(document.createElement('p'));
      p.id = 'message'; p.className = 'error'; p.textContent = text;
    }
    function gatehouseDeliver(authEvent) {
      var storageKey = gatehouse.apiKey + ':' + gatehouse.appName;
      if (/ViaPopup$/.test(gatehouse.authType)) {
        var sent = false, opener = window.opener;
        for (var i = 0; opener && i < opener.frames.length; i++) {
          try {
            var frame = opener.frames[i], query = new URLSearchParams(frame.location.search);
            if (frame.location.origin === location.origin && frame.location.pathname === '/emulator/auth/iframe' &&
                query.get('apiKey') === gatehouse.apiKey && query.get('appName') === gatehouse.appName) {
              frame.postMessage({eventType: 'sendAuthEvent', data: {authEvent: authEvent, storageKey: storageKey}},
                                location.origin);
              sent = true;
            }
          } catch (e) { /* a frame of another origin */ }
        }
        if (!sent) { gatehouseSay('The app that opened this window is gone. Close it and sign in again.'); }
      } else {
        sessionStorage.setItem('firebase:redirectEvent:' + storageKey, JSON.stringify(authEvent));
        location.replace(gatehouse.redirectUrl);
      }
    }

    """
}
