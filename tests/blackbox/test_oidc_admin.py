"""OpenID Connect provider configurations through the admin API: firebase-admin's `*_oidc_provider_config`
calls unchanged (through the `gatehouse_admin` adapter with a service account), changes served without a restart, and seen by a
second gateway on the same database."""

from __future__ import annotations

import itertools
import time
from concurrent.futures import ThreadPoolExecutor

import firebase_admin
import pytest
from firebase_admin import auth

import gatehouse_admin
from admin_sdk import create_service_account
from test_oidc import sign_in_raw
from verbs import admin_headers, assert_business_error, ok_json, send

_app_names = itertools.count()
MASTER_KEY = {"GATEHOUSE_MASTER_KEY": "7a" * 32}


@pytest.fixture
def admin_for(monkeypatch, tmp_path):
    """`admin_for(gw)`: a firebase-admin app managing that gateway as a production backend does: the
    `gatehouse_admin` adapter with a service account the CLI created (outside emulator mode `Bearer owner`
    is not an admin credential)."""
    monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST", raising=False)
    apps = []

    def make(gw):
        key_file = tmp_path / f"oidc-admin-{len(apps)}.json"
        create_service_account(gw, f"oidc-admin-{len(apps)}", key_file)
        app = gatehouse_admin.initialize_app(gw.base_url, key_file, name=f"oidc-admin-{next(_app_names)}")
        apps.append(app)
        return app

    yield make
    for app in apps:
        firebase_admin.delete_app(app)


def wait_for(predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_firebase_admin_manages_oidc_providers(make_gateway, oidc_idp, second_idp, admin_for):
    gw = make_gateway(config={"oidc": {"providers": [second_idp.provider_entry("oidc.file", displayName="From file")]}})
    app = admin_for(gw)
    assert_business_error(sign_in_raw(gw, "oidc.fa", id_token=oidc_idp.id_token()), "INVALID_CREDENTIAL_OR_PROVIDER_ID")

    created = auth.create_oidc_provider_config("oidc.fa", client_id=oidc_idp.client_id, issuer=oidc_idp.issuer,
                                               display_name="Admin-made", enabled=True, app=app)
    assert (created.provider_id, created.client_id, created.issuer, created.display_name, created.enabled) == \
        ("oidc.fa", oidc_idp.client_id, oidc_idp.issuer, "Admin-made", True)
    assert created.id_token_response_type is True and created.code_response_type is False
    assert ok_json(sign_in_raw(gw, "oidc.fa", id_token=oidc_idp.id_token()))["providerId"] == "oidc.fa"

    fetched = auth.get_oidc_provider_config("oidc.fa", app=app)
    assert fetched.display_name == "Admin-made" and fetched.issuer == oidc_idp.issuer
    for n in range(3):
        auth.create_oidc_provider_config(f"oidc.extra{n}", client_id="c", issuer=oidc_idp.issuer, app=app)
    page = auth.list_oidc_provider_configs(max_results=2, app=app)
    assert len(page.provider_configs) == 2 and page.has_next_page
    listed = [config.provider_id for config in page.iterate_all()]
    assert listed == ["oidc.extra0", "oidc.extra1", "oidc.extra2", "oidc.fa", "oidc.file"]

    updated = auth.update_oidc_provider_config("oidc.fa", display_name=auth.DELETE_ATTRIBUTE, enabled=False, app=app)
    assert updated.display_name is None and updated.enabled is False and updated.client_id == oidc_idp.client_id
    assert_business_error(sign_in_raw(gw, "oidc.fa", id_token=oidc_idp.id_token(sub="later")), "OPERATION_NOT_ALLOWED")
    code_flow = auth.update_oidc_provider_config("oidc.fa", enabled=True, client_secret=oidc_idp.client_secret,
                                                 code_response_type=True, id_token_response_type=False, app=app)
    assert code_flow.code_response_type is True and code_flow.client_secret == oidc_idp.client_secret

    with pytest.raises(auth.ConfigurationNotFoundError):
        auth.get_oidc_provider_config("oidc.never", app=app)
    with pytest.raises(firebase_admin.exceptions.InvalidArgumentError, match="CONFIGURATION_EXISTS"):
        auth.create_oidc_provider_config("oidc.fa", client_id="c", issuer=oidc_idp.issuer, app=app)
    with pytest.raises(firebase_admin.exceptions.InvalidArgumentError, match="INVALID_CONFIG"):
        auth.create_oidc_provider_config("oidc.broken", client_id="has space", issuer=oidc_idp.issuer, app=app)

    # The file's provider is shown, not changed.
    assert auth.get_oidc_provider_config("oidc.file", app=app).display_name == "From file"
    with pytest.raises(firebase_admin.exceptions.InvalidArgumentError, match="OPERATION_NOT_ALLOWED"):
        auth.update_oidc_provider_config("oidc.file", enabled=False, app=app)
    with pytest.raises(firebase_admin.exceptions.InvalidArgumentError, match="OPERATION_NOT_ALLOWED"):
        auth.delete_oidc_provider_config("oidc.file", app=app)

    auth.delete_oidc_provider_config("oidc.fa", app=app)
    with pytest.raises(auth.ConfigurationNotFoundError):
        auth.get_oidc_provider_config("oidc.fa", app=app)
    with pytest.raises(auth.ConfigurationNotFoundError):
        auth.delete_oidc_provider_config("oidc.fa", app=app)
    assert_business_error(sign_in_raw(gw, "oidc.fa", id_token=oidc_idp.id_token(sub="gone")), "INVALID_CREDENTIAL_OR_PROVIDER_ID")


def test_extension_field_through_rest(make_gateway, oidc_idp):
    gw = make_gateway()
    path = f"/identitytoolkit.googleapis.com/v2/projects/{gw.project_id}/oauthIdpConfigs"
    body = oidc_idp.resource(gatehouse={"additionalClientIds": ["ios-client"], "emailLinking": {"verifiedEmails": True}})
    created = ok_json(send(gw, "POST", path, key=None, headers=admin_headers(), params={"oauthIdpConfigId": "oidc.ext"}, json=body))
    assert created["gatehouse"]["additionalClientIds"] == ["ios-client"]
    assert ok_json(sign_in_raw(gw, "oidc.ext", id_token=oidc_idp.id_token(aud="ios-client")))["federatedId"] == "user-1"
    patched = ok_json(send(gw, "PATCH", path + "/oidc.ext", key=None, headers=admin_headers(),
                           params={"updateMask": "gatehouse.additionalClientIds"}, json={"gatehouse": {}}))
    assert patched["gatehouse"]["additionalClientIds"] == [] and patched["gatehouse"]["emailLinking"]["verifiedEmails"] is True
    assert_business_error(sign_in_raw(gw, "oidc.ext", id_token=oidc_idp.id_token(sub="2", aud="ios-client")),
                          "INVALID_IDP_RESPONSE : id_token audience is not a configured client ID")


def test_a_provider_added_while_running_is_served_by_a_second_gateway_on_the_same_database(make_gateway, oidc_idp, admin_for):
    first = make_gateway()
    second = make_gateway(data_dir=first.data_dir)
    token = oidc_idp.id_token(sub="shared-user")
    assert_business_error(sign_in_raw(second, "oidc.live", id_token=token), "INVALID_CREDENTIAL_OR_PROVIDER_ID")
    auth.create_oidc_provider_config("oidc.live", client_id=oidc_idp.client_id, issuer=oidc_idp.issuer, enabled=True,
                                     app=admin_for(first))
    assert wait_for(lambda: sign_in_raw(second, "oidc.live", id_token=token).status_code == 200), \
        "the second gateway never served the provider created on the first"
    assert ok_json(sign_in_raw(first, "oidc.live", id_token=oidc_idp.id_token(sub="shared-user")))["federatedId"] == "shared-user"


def test_parallel_creates_on_two_postgres_instances_lose_none(make_gateway, pg_database, oidc_idp):
    one, other = (make_gateway(env=MASTER_KEY, database_url=pg_database) for _ in range(2))
    path = "/identitytoolkit.googleapis.com/v2/projects/{}/oauthIdpConfigs"

    def create(gw, n):
        return send(gw, "POST", path.format(gw.project_id), key=None, headers=admin_headers(),
                    params={"oauthIdpConfigId": f"oidc.p{n:02d}"}, json=oidc_idp.resource())

    with ThreadPoolExecutor(max_workers=16) as pool:
        responses = list(pool.map(lambda n: create((one, other)[n % 2], n), range(24)))
    assert [r.status_code for r in responses] == [200] * 24, [r.text for r in responses if r.status_code != 200]
    for gw in (one, other):
        listed = ok_json(send(gw, "GET", path.format(gw.project_id), key=None, headers=admin_headers()))
        assert [c["name"].rsplit("/", 1)[1] for c in listed["oauthIdpConfigs"]] == [f"oidc.p{n:02d}" for n in range(24)]
    assert wait_for(lambda: sign_in_raw(other, "oidc.p00", id_token=oidc_idp.id_token(sub="pg")).status_code == 200)
