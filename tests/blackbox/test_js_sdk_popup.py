"""The Firebase JS SDK's `signInWithPopup` through `connectAuthEmulator`, in a real headless Chromium: the
gateway's sign-in window (`/emulator/auth/handler`), relay frame (`/emulator/auth/iframe`) and, outside emulator
mode, the provider's redirect sign-in and `/emulator/auth/return`."""

from __future__ import annotations

import json

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
def browser():
    started = Browser()
    yield started
    started.close()


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
