"""Issue 19 item 7: `PATCH /v2/projects/{p}/config` and `/emulator/v1/projects/{p}/config` honour `updateMask` at
every depth (a message path replaces the whole sub-object, as Google's field masks do), and fields Gatehouse does
not serve yet are refused with a clear 400 instead of being accepted and dropped."""

from __future__ import annotations

import pytest

from verbs import admin_headers, assert_business_error, ok_json, send

BOTH_ON = {"signIn": {"allowDuplicateEmails": True}, "emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}}
DEFAULTS = {"signIn": {"allowDuplicateEmails": False}, "emailPrivacyConfig": {"enableImprovedEmailPrivacy": False}}


@pytest.fixture(params=["v2", "emulator"])
def config_route(request, make_gateway):
    """(gateway, patch(body, mask), get()) for the admin v2 route and the emulator's open route."""
    emulator = request.param == "emulator"
    gw = make_gateway(config={"emulator": True} if emulator else {})
    path = (f"/emulator/v1/projects/{gw.project_id}/config" if emulator
            else f"/identitytoolkit.googleapis.com/v2/projects/{gw.project_id}/config")
    headers = {} if emulator else admin_headers()

    def patch(body: dict, mask: str | None = None):
        return send(gw, "PATCH", path + (f"?updateMask={mask}" if mask is not None else ""), key=None, json=body,
                    headers=headers)

    def get() -> dict:
        return ok_json(send(gw, "GET", path, key=None, headers=headers))

    return gw, patch, get


def served(config: dict) -> dict:
    return {"signIn": config["signIn"], "emailPrivacyConfig": config["emailPrivacyConfig"]}


def test_a_leaf_mask_changes_only_that_leaf(config_route):
    _, patch, get = config_route
    answer = ok_json(patch(BOTH_ON, "signIn.allowDuplicateEmails"))
    assert served(answer) == {"signIn": {"allowDuplicateEmails": True}, "emailPrivacyConfig": {"enableImprovedEmailPrivacy": False}}
    assert served(get()) == served(answer)


def test_a_message_mask_replaces_the_whole_sub_object(config_route):
    _, patch, get = config_route
    assert served(ok_json(patch(BOTH_ON))) == BOTH_ON
    # The body leaves emailPrivacyConfig out: under its mask, the sub-object goes back to its defaults.
    answer = ok_json(patch({"signIn": {"allowDuplicateEmails": True}}, "emailPrivacyConfig"))
    assert served(answer) == {"signIn": {"allowDuplicateEmails": True}, "emailPrivacyConfig": {"enableImprovedEmailPrivacy": False}}
    answer = ok_json(patch({"signIn": {}}, "signIn,emailPrivacyConfig.enableImprovedEmailPrivacy"))
    assert served(answer) == DEFAULTS
    assert served(get()) == DEFAULTS


def test_without_a_mask_the_fields_in_the_body_change(config_route):
    _, patch, _ = config_route
    answer = ok_json(patch({"emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}}))
    assert served(answer) == {"signIn": {"allowDuplicateEmails": False}, "emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}}
    assert served(ok_json(patch({"signIn": {"allowDuplicateEmails": True}}))) == BOTH_ON


@pytest.mark.parametrize("body,mask,named", [
    ({"blockingFunctions": {"forwardInboundCredentials": {"idToken": True}}}, None,
     "blockingFunctions.forwardInboundCredentials.idToken"),
    ({"blockingFunctions": {"triggers": {"beforeCreate": {"functionUri": "http://localhost"}}}},
     "blockingFunctions", "blockingFunctions"),
    ({}, "mfa", "mfa"),
    ({"mfa": {"state": "ENABLED"}}, None, "mfa.state"),
    ({"smsRegionConfig": {"allowByDefault": {}}}, None, "smsRegionConfig.allowByDefault"),
    ({"signIn": {"allowDuplicateEmails": True, "anonymous": {"enabled": False}}}, "signIn", "signIn.anonymous.enabled"),
    ({}, "displayName", "displayName"),
])
def test_fields_not_served_are_refused_and_nothing_changes(config_route, body, mask, named):
    _, patch, get = config_route
    before = served(get())
    response = patch({**body, "emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}},
                      mask if mask is None else mask + ",emailPrivacyConfig")
    assert_business_error(response, f"INVALID_CONFIG : {named} cannot be set on this gateway (the project config serves "
                                    "signIn.allowDuplicateEmails and emailPrivacyConfig.enableImprovedEmailPrivacy; "
                                    "other settings live in the config file)")
    assert served(get()) == before


def test_wrong_types_are_refused(config_route):
    _, patch, get = config_route
    assert_business_error(patch({"emailPrivacyConfig": 7}), "INVALID_CONFIG : emailPrivacyConfig must be an object")
    assert_business_error(patch({"signIn": {"allowDuplicateEmails": "yes"}}),
                          "INVALID_CONFIG : signIn.allowDuplicateEmails must be true or false")
    assert served(get()) == DEFAULTS


def test_the_output_only_name_may_be_sent_back(config_route):
    _, patch, get = config_route
    config = get()
    config["signIn"]["allowDuplicateEmails"] = True
    assert ok_json(patch(config))["signIn"] == {"allowDuplicateEmails": True}
