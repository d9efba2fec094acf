"""A web app that uses the real Firebase JS SDK (11.3.1, as bundled in the registry package
streamlit-firebase-auth 1.1.6 that scripts/bootstrap.sh fetches) against a gateway, plus a stand-in for Google's
`gapi.iframes` (the SDK and the relay frame load it from apis.google.com, which tests never reach).

The bundle is a small sign-in component: `initializeApp(args.firebase_config)`, `getAuth()` (which calls
`connectAuthEmulator` when `__FIREBASE_DEFAULTS__` names an auth emulator host), and a button that runs
`signInWithPopup(auth, new GoogleAuthProvider())` and posts the outcome (`{success, user | message}`) to its
parent window. The host page here plays the parent: it renders the component and records the outcomes."""

from __future__ import annotations

import json
import threading
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from harness import free_loopback_port

WHEEL = "streamlit_firebase_auth-1.1.6-py3-none-any.whl"
BUILD = "streamlit_firebase_auth/frontend/build/"


def sdk_wheel() -> Path:
    path = Path(__file__).resolve().parents[2] / ".venv" / "firebase-js" / WHEEL
    if not path.exists():
        raise RuntimeError(f"{path} is missing: scripts/bootstrap.sh fetches it")
    return path


# The gapi.iframes stand-in: the parent side opens frames and the frame side finds its parent; both register
# named handlers and send named messages answered with the list of handler results, over postMessage. Messages
# for a name nobody has registered yet wait for its handler, as a frame's first event may arrive before the
# SDK registers `authEvent`.
GAPI_STAND_IN = r"""
(function () {
  var calls = {}, channels = [], seq = 0;
  function Channel(target) { this.target = target; this.handlers = {}; this.waiting = []; this.ready = false; this.onReady = []; channels.push(this); }
  Channel.prototype.register = function (name, handler) {
    this.handlers[name] = handler;
    var waiting = this.waiting; this.waiting = [];
    for (var i = 0; i < waiting.length; i++) { this.dispatch(waiting[i]); }
  };
  Channel.prototype.dispatch = function (m) {
    var handler = this.handlers[m.name];
    if (!handler) { this.waiting.push(m); return; }
    this.target.postMessage({gapiStandIn: 'reply', id: m.id, result: [handler(m.data)]}, '*');
  };
  Channel.prototype.send = function (name, data, callback) {
    var id = 'c' + (++seq) + '-' + Math.random();
    calls[id] = callback;
    this.target.postMessage({gapiStandIn: 'call', name: name, data: data, id: id}, '*');
  };
  Channel.prototype.restyle = function () { return Promise.resolve(); };
  Channel.prototype.ping = function (callback) {
    var self = this;
    return new Promise(function (resolve) {
      function done() { if (callback) { callback(); } resolve(); }
      if (self.ready) { done(); } else { self.onReady.push(done); }
    });
  };
  window.addEventListener('message', function (e) {
    var m = e.data;
    if (!m || !m.gapiStandIn) { return; }
    for (var i = 0; i < channels.length; i++) {
      var channel = channels[i];
      if (channel.target !== e.source) { continue; }
      if (m.gapiStandIn === 'ready') { channel.ready = true; channel.onReady.splice(0).forEach(function (f) { f(); }); }
      if (m.gapiStandIn === 'call') { channel.dispatch(m); }
      if (m.gapiStandIn === 'reply' && calls[m.id]) {
        var cb = calls[m.id]; delete calls[m.id];
        try { cb(m.result); } catch (error) { /* gapi swallows what a callback throws */ }
      }
    }
  });
  var filter = function () { return true; };
  var context = {
    open: function (options, opened) {
      var frame = document.createElement('iframe');
      var style = (options.attributes || {}).style || {};
      for (var key in style) { frame.style[key] = style[key]; }
      frame.src = options.url;
      options.where.appendChild(frame);
      var channel = new Channel(frame.contentWindow);
      return Promise.resolve(opened ? opened(channel) : channel);
    },
    getParentIframe: function () {
      var channel = new Channel(window.parent);
      window.parent.postMessage({gapiStandIn: 'ready'}, '*');
      return channel;
    }
  };
  window.gapi = {
    load: function (name, options) { setTimeout(typeof options === 'function' ? options : options.callback, 0); },
    iframes: {Iframe: Channel, CROSS_ORIGIN_IFRAMES_FILTER: filter, getContext: function () { return context; }}
  };
  var src = document.currentScript && document.currentScript.src, onload = src && new URL(src).searchParams.get('onload');
  if (onload && window[onload]) { window[onload](); }
  if (window.gapi_onload) { window.gapi_onload(); }
})();
"""

HOST_PAGE = """<!DOCTYPE html>
<meta charset="utf-8"><title>app</title>
<script>
window.outcomes = [];
var args = ARGS;
window.addEventListener('message', function (e) {
  var m = e.data;
  if (!m || !m.isStreamlitMessage) { return; }
  if (m.type === 'streamlit:componentReady') {
    document.getElementById('component').contentWindow.postMessage(
      {type: 'streamlit:render', args: args, dfs: [], disabled: false}, '*');
  }
  if (m.type === 'streamlit:setComponentValue') { window.outcomes.push(m.value); }
});
</script>
<iframe id="component" src="/component/index.html" style="width:600px;height:600px"></iframe>
"""

# Runs before the bundle: point the SDK at the gateway, and (to try a provider the component has no button
# for) rewrite the provider id in the window the SDK opens: the only part of the flow the provider object
# decides (the SDK builds `OAuthProvider("apple.com")`'s window exactly so).
COMPONENT_PRELUDE = """<script>
window.__FIREBASE_DEFAULTS__ = {emulatorHosts: {auth: EMULATOR_HOST}};
if (window.parent === window) {
  // Opened as the page itself (a redirect sign-in leaves and comes back to it): it plays its own host.
  window.outcomes = [];
  window.addEventListener('message', function (e) {
    var m = e.data;
    if (!m || !m.isStreamlitMessage) { return; }
    if (m.type === 'streamlit:componentReady') {
      window.postMessage({type: 'streamlit:render', args: ARGS, dfs: [], disabled: false}, '*');
    }
    if (m.type === 'streamlit:setComponentValue') { window.outcomes.push(m.value); }
  });
}
(function (providerOverride) {
  if (!providerOverride) { return; }
  var originalOpen = window.open;
  window.open = function (url, name, features) {
    var rewritten = url.replace(/providerId=[^&]*/, 'providerId=' + encodeURIComponent(providerOverride));
    return originalOpen.call(window, rewritten, name, features);
  };
})(PROVIDER);
</script>"""


class JsSdkApp:
    """Serves the host page, the SDK component and its files on a loopback port."""

    def __init__(self, gateway_base: str, api_key: str = "test-api-key", project_id: str = "demo-gatehouse",
                 provider: str | None = None, name: str = "LoginForm") -> None:
        self.files = {}
        with zipfile.ZipFile(sdk_wheel()) as wheel:
            for member in wheel.namelist():
                if member.startswith(BUILD) and not member.endswith(".map"):
                    self.files["/component/" + member[len(BUILD):]] = wheel.read(member)
        host = gateway_base.split("://", 1)[1]
        args = {"name": name, "lang": "en", "providers": ["google"],
                "firebase_config": {"apiKey": api_key, "authDomain": host, "projectId": project_id, "appId": "1:1:web:1"}}
        prelude = (COMPONENT_PRELUDE.replace("EMULATOR_HOST", json.dumps(host))
                   .replace("PROVIDER", json.dumps(provider)).replace("ARGS", json.dumps(args)))
        index = self.files["/component/index.html"].decode()
        self.files["/component/index.html"] = index.replace("<head>", "<head>" + prelude, 1).encode()
        self.files["/"] = HOST_PAGE.replace("ARGS", json.dumps(args)).encode()
        self.port = free_loopback_port()
        files = self.files

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                body = files.get(self.path.split("?")[0])
                if body is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                kind = ("text/html" if self.path.endswith(".html") or self.path == "/" else
                        "application/javascript" if self.path.endswith(".js") else
                        "text/css" if self.path.endswith(".css") else "application/octet-stream")
                self.send_response(200)
                self.send_header("Content-Type", kind + "; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def component_url(self) -> str:
        return self.url + "component/index.html"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


GAPI = {"https://apis.google.com/": ("application/javascript", GAPI_STAND_IN)}
