"""The Firebase JS SDK's `signInWithPopup` through `connectAuthEmulator`, in a real headless Chromium: the
gateway's sign-in window (`/emulator/auth/handler`), relay frame (`/emulator/auth/iframe`) and, outside emulator
mode, the provider's redirect sign-in and `/emulator/auth/return`."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from browser import Browser
from js_sdk_app import GAPI, JsSdkApp
from verbs import admin_post, ok_json

CLICK_SIGN_IN = """(() => {
  const doc = document.getElementById('component').contentDocument;
  const button = doc && [...doc.querySelectorAll('button')].find(b => b.textContent.includes('Login with Google'));
  if (!button) return false;
  button.click();
  return true;
})()"""


@pytest.fixture(scope="module")
def chromium():
    started = Browser()
    yield started
    started.close()


@pytest.fixture
def browser(chromium):
    yield chromium
    chromium.close_pages()


@pytest.fixture
def app_for(browser):
    apps = []

    def make(gw, provider=None):
        app = JsSdkApp(gw.base_url, project_id=gw.project_id, provider=provider)
        apps.append(app)
        session = browser.open(app.url, serve=GAPI)
        browser.wait_for(session, CLICK_SIGN_IN, what="the component's sign-in button")
        return session

    yield make
    for app in apps:
        app.close()


def outcome(browser, session):
    return browser.wait_for(session, "window.outcomes.length && window.outcomes[0]", what="the SDK's sign-in result")


def test_emulator_popup_new_account_then_existing_account(make_gateway, browser, app_for):
    gw = make_gateway(config={"emulator": True})
    session = app_for(gw, provider="apple.com")
    popup = browser.page_opened(gw.base_url + "/emulator/auth/handler?")
    url = browser.evaluate(popup, "location.href")
    assert "providerId=apple.com" in url and "authType=signInViaPopup" in url and "apiKey=test-api-key" in url
    assert browser.evaluate(popup, "document.querySelector('.js-accounts-help-text').textContent") == \
        "No Apple.com accounts exist in the Auth Emulator."
    browser.evaluate(popup, """(() => {
      document.querySelector('#add-account-button button').click();
      const set = (id, v) => { const el = document.getElementById(id); el.value = v; el.dispatchEvent(new Event('input')); };
      set('email-input', 'ada@example.com'); set('display-name-input', 'Ada Lovelace'); set('screen-name-input', 'ada');
      document.getElementById('sign-in').click();
    })()""")
    result = outcome(browser, session)
    assert result["success"] is True, result
    user = result["user"]
    assert user["email"] == "ada@example.com" and user["displayName"] == "Ada Lovelace" and user["emailVerified"] is True
    [apple] = user["providerData"]
    assert apple["providerId"] == "apple.com" and len(apple["uid"]) == 40
    stored = ok_json(admin_post(gw, "accounts:lookup", {"localId": [user["uid"]]}))["users"][0]
    assert stored["providerUserInfo"][0]["rawId"] == apple["uid"]
    assert stored["providerUserInfo"][0]["screenName"] == "ada"

    # A second sign-in lists the account; picking it signs in to the same user.
    session = app_for(gw, provider="apple.com")
    popup = browser.page_opened(gw.base_url + "/emulator/auth/handler?")
    accounts = browser.evaluate(popup, "[...document.querySelectorAll('.js-reuse-account')].map(e => e.textContent)")
    assert len(accounts) == 1 and "Ada Lovelace" in accounts[0] and "ada@example.com" in accounts[0]
    browser.evaluate(popup, "document.querySelector('.js-reuse-account').click()")
    again = outcome(browser, session)
    assert again["success"] is True and again["user"]["uid"] == user["uid"]


def test_production_popup_runs_the_providers_redirect_flow(make_gateway, browser, app_for, google_idp):
    gw = make_gateway(config={"google": google_idp.google_section(), "authorizedDomains": ["127.0.0.1"]},
                      env={"GATEHOUSE_GOOGLE_CLIENT_SECRET": google_idp.client_secret})
    google_idp.next_user = {"sub": "4001", "email": "pop@gmail.com"}
    session = app_for(gw)  # the component's own GoogleAuthProvider, unchanged
    result = outcome(browser, session)
    assert result["success"] is True, result
    user = result["user"]
    assert user["email"] == "pop@gmail.com" and user["providerData"][0]["providerId"] == "google.com"
    assert user["providerData"][0]["uid"] == "4001"
    # The code went back to the gateway's return URL and was redeemed with the PKCE verifier (the stand-in
    # checks it against the challenge), once.
    [exchange] = google_idp.token_calls
    assert exchange["redirect_uri"] == gw.base_url + "/__/auth/handler" and exchange["code_verifier"]
    assert google_idp.codes == {}


def test_production_popup_with_apple_form_post(make_gateway, browser, app_for, apple, tmp_path):
    from test_apple import key_file

    config = apple.gateway_config(key_file(tmp_path, apple))
    config["authorizedDomains"] = ["127.0.0.1"]
    gw = make_gateway(config=config)
    session = app_for(gw, provider="apple.com")
    result = outcome(browser, session)
    assert result["success"] is True, result
    user = result["user"]
    assert user["displayName"] == "Web User" and user["providerData"][0]["providerId"] == "apple.com"
    assert user["providerData"][0]["uid"] == "web-user"
    assert apple.token_calls[-1]["redirect_uri"] == gw.base_url + "/__/auth/handler"


def test_production_popup_with_facebook_login(make_gateway, browser, app_for, facebook):
    """`signInWithPopup(new FacebookAuthProvider())`: Facebook's OAuth dialog, the code redeemed at Graph with the
    app secret and the PKCE verifier, then the classic token checks (debug_token, /me with appsecret_proof)."""
    config = facebook.gateway_config()
    config["authorizedDomains"] = ["127.0.0.1"]
    gw = make_gateway(config=config, env=facebook.gateway_env())
    facebook.dialog_user = "popup-user-7"
    session = app_for(gw, provider="facebook.com")
    result = outcome(browser, session)
    assert result["success"] is True, result
    user = result["user"]
    [info] = user["providerData"]
    assert info["providerId"] == "facebook.com" and info["uid"] == "popup-user-7"
    assert user["displayName"] == "Web User"
    [exchange] = facebook.exchanges
    assert exchange["redirect_uri"] == gw.base_url + "/__/auth/handler" and exchange["code_verifier"]
    assert facebook.codes == {}


def test_production_popup_with_telegram_login(make_gateway, browser, app_for, telegram):
    """`signInWithPopup(new OAuthProvider("telegram.org"))`: Telegram's OpenID Connect code flow with PKCE; the
    identity is the numeric Telegram user id, as with the Login Widget and Mini App."""
    config = telegram.gateway_config()
    config["authorizedDomains"] = ["127.0.0.1"]
    gw = make_gateway(config=config, env=telegram.gateway_env())
    telegram.next_user = {"id": 5150, "name": "Popup User", "preferred_username": "popup_user"}
    session = app_for(gw, provider="telegram.org")
    result = outcome(browser, session)
    assert result["success"] is True, result
    user = result["user"]
    [info] = user["providerData"]
    assert info["providerId"] == "telegram.org" and info["uid"] == "5150"
    assert user["displayName"] == "Popup User" and not user.get("email")
    [exchange] = telegram.token_calls
    assert exchange["form"]["redirect_uri"] == gw.base_url + "/__/auth/handler" and exchange["form"]["code_verifier"]


def test_production_refuses_apps_off_the_authorized_domains(make_gateway, browser, app_for):
    gw = make_gateway(config={"authorizedDomains": ["app.example"]})
    # The relay frame stays silent in a page of another domain: the SDK never gets a channel, so no result
    # (which would carry a session id and the provider's code) can reach that page.
    session = app_for(gw, provider="apple.com")
    result = outcome(browser, session)
    assert result["success"] is False and "auth/network-request-failed" in result["message"]
    # The window itself refuses to start a sign-in for an app on another domain.
    query = ("apiKey=k&appName=%5BDEFAULT%5D&authType=signInViaPopup&providerId=apple.com&v=11.3.1"
             "&redirectUrl=" + quote("http://127.0.0.1:9/app", safe=""))
    window = browser.open(gw.base_url + "/emulator/auth/handler?" + query)
    message = browser.wait_for(window, "document.getElementById('message') && document.getElementById('message').textContent")
    assert "not authorized" in message


def test_production_window_hands_provider_errors_to_the_sdk(make_gateway, browser, app_for):
    gw = make_gateway(config={"authorizedDomains": ["127.0.0.1"]})
    # Apple is not configured: the app's promise rejects with Firebase's code.
    session = app_for(gw, provider="apple.com")
    result = outcome(browser, session)
    assert result["success"] is False and "auth/operation-not-allowed" in result["message"]


# What the SDK's signInWithRedirect does before it leaves the page (the component has no redirect button):
# it marks a redirect as pending in the app's sessionStorage and sends the page to the sign-in window.
START_REDIRECT = """(() => {
  sessionStorage.setItem('firebase:pendingRedirect:test-api-key:[DEFAULT]', JSON.stringify('true'));
  location.href = GATEWAY + '/emulator/auth/handler?apiKey=test-api-key&appName=%5BDEFAULT%5D' +
    '&authType=signInViaRedirect&redirectUrl=' + encodeURIComponent(location.href) + '&v=11.3.1&providerId=' + PROVIDER;
  return true;
})()"""

SIGNED_IN_USER = "window.outcomes && window.outcomes.filter(o => o && o.uid)[0]"


def start_redirect(browser, gw, app, provider):
    session = browser.open(app.component_url, serve=GAPI)
    assert browser.wait_for(session, "window.outcomes && window.outcomes.length === 1", what="the first auth state")
    assert browser.evaluate(session, "window.outcomes[0]") is None
    browser.evaluate(session, START_REDIRECT.replace("GATEWAY", json.dumps(gw.base_url))
                     .replace("PROVIDER", json.dumps(provider)))
    return session


def test_emulator_redirect_sign_in_comes_back_to_the_app(make_gateway, browser):
    gw = make_gateway(config={"emulator": True})
    app = JsSdkApp(gw.base_url, project_id=gw.project_id, name="CheckSession")
    try:
        session = start_redirect(browser, gw, app, "facebook.com")
        browser.wait_for(session, "location.pathname === '/emulator/auth/handler' && !!document.getElementById('main-form')",
                         what="the sign-in window")
        browser.evaluate(session, """(() => {
          document.querySelector('#add-account-button button').click();
          document.getElementById('autogen-button').click();
          document.getElementById('sign-in').click();
        })()""")
        user = browser.wait_for(session, SIGNED_IN_USER, what="the redirect result")
        assert browser.evaluate(session, "location.href") == app.component_url
        [facebook] = user["providerData"]
        assert facebook["providerId"] == "facebook.com" and user["email"].endswith("@example.com")
        # The result was handed over once: the gateway origin's stored event is gone.
        assert ok_json(admin_post(gw, "accounts:lookup", {"localId": [user["uid"]]}))["users"][0]["email"] == user["email"]
    finally:
        app.close()


def test_production_redirect_sign_in_comes_back_to_the_app(make_gateway, browser, google_idp):
    gw = make_gateway(config={"google": google_idp.google_section(), "authorizedDomains": ["127.0.0.1"]},
                      env={"GATEHOUSE_GOOGLE_CLIENT_SECRET": google_idp.client_secret})
    google_idp.next_user = {"sub": "5001", "email": "back@gmail.com"}
    app = JsSdkApp(gw.base_url, project_id=gw.project_id, name="CheckSession")
    try:
        session = start_redirect(browser, gw, app, "google.com")
        user = browser.wait_for(session, SIGNED_IN_USER, what="the redirect result")
        assert browser.evaluate(session, "location.href") == app.component_url
        assert user["email"] == "back@gmail.com" and user["providerData"][0]["uid"] == "5001"
    finally:
        app.close()


def test_relay_frame_ignores_results_posted_by_other_origins(make_gateway, browser, app_for):
    gw = make_gateway(config={"emulator": True})
    session = app_for(gw, provider="apple.com")
    popup = browser.page_opened(gw.base_url + "/emulator/auth/handler?")
    event_id = browser.evaluate(popup, "new URLSearchParams(location.search).get('eventId')")
    # The app's own page (another origin than the gateway) posts a forged result to the relay frame.
    forged = {"type": "signInViaPopup", "eventId": event_id, "sessionId": "ValueNotUsedByAuthEmulator",
              "urlResponse": gw.base_url + "/emulator/auth/handler?providerId=apple.com&id_token="
              + quote(json.dumps({"sub": "forged", "email": "forged@example.com"}), safe=""),
              "postBody": "", "tenantId": None, "error": None}
    browser.evaluate(session, """(() => {
      const relay = document.getElementById('component').contentDocument.querySelector('iframe').contentWindow;
      relay.postMessage({eventType: 'sendAuthEvent', data: {authEvent: FORGED, storageKey: 'test-api-key:[DEFAULT]'}}, '*');
    })()""".replace("FORGED", json.dumps(forged)))
    browser.evaluate(popup, """(() => {
      document.querySelector('#add-account-button button').click();
      const email = document.getElementById('email-input');
      email.value = 'real@example.com'; email.dispatchEvent(new Event('input'));
      document.getElementById('sign-in').click();
    })()""")
    result = outcome(browser, session)
    assert result["success"] is True and result["user"]["email"] == "real@example.com"
    assert result["user"]["providerData"][0]["uid"] != "forged"
