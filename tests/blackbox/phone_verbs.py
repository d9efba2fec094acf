"""Phone sign-in verbs: what a client sends for `accounts:sendVerificationCode` and `accounts:signInWithPhoneNumber`,
and a gateway configured with the phone stand-ins."""

from __future__ import annotations

from verbs import IDENTITY, ok_json, post_json

SEND = IDENTITY + "/accounts:sendVerificationCode"
SIGN_IN = IDENTITY + "/accounts:signInWithPhoneNumber"
REPORTS = "/gatehouse/v1/providers/gateway.telegram.org/events"


def phone_setup(*, tg=None, sms=None, telegram_section: dict | None = None, **phone) -> tuple[dict, dict]:
    """Config and environment for a gateway with phone sign-in on, using the given stand-ins as senders."""
    tg_extra = phone.pop("_tg", {})
    config: dict = {"phone": {"enabled": True, **phone}}
    env: dict = {}
    if tg is not None or telegram_section is not None:
        config["telegram"] = dict(telegram_section or {})
    if tg is not None:
        config["telegram"]["gateway"] = tg.gateway_config(**tg_extra)["telegram"]["gateway"]
        env.update(tg.gateway_env())
    if sms is not None:
        config["phone"].update(sms.gateway_config())
        env.update(sms.gateway_env())
    return config, env


def send_code_raw(gw, phone_number, path: str = SEND, **extra):
    body = {"phoneNumber": phone_number, **extra} if phone_number is not None else dict(extra)
    return post_json(gw, path, body)


def send_code(gw, phone_number, **extra) -> str:
    return ok_json(send_code_raw(gw, phone_number, **extra))["sessionInfo"]


def sign_in_raw(gw, path: str = SIGN_IN, **fields):
    return post_json(gw, path, fields)


def sign_in(gw, **fields) -> dict:
    return ok_json(sign_in_raw(gw, **fields))


def sign_in_by_code(gw, sender, phone_number: str, *, after: int = 0, **extra) -> dict:
    """The whole flow: a code to the number, read where `sender` received it, signed in with."""
    session = send_code(gw, phone_number)
    return sign_in(gw, sessionInfo=session, code=sender.code_for(phone_number, after=after), **extra)
