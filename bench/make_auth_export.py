#!/usr/bin/env python3
"""Writes a `firebase auth:export`-style JSON file of N users for the import benchmark and tests.

  bench/make_auth_export.py OUT N [--hmac-key KEY] [--password-prefix P]

With --hmac-key every user has a real HMAC_SHA256 hash (password = P + index, salt random), so the users can
sign in after import (`--hash-algo HMAC_SHA256 --hash-key base64(KEY)`). Without it, hashes are random 64-byte
strings shaped like Firebase scrypt hashes: pre-hashed users whose hashes the import stores without recomputing.
A third of the users carry a Google identity, every tenth one custom claims.
"""
import argparse
import base64
import hashlib
import hmac
import json
import os


def user(index: int, key: bytes | None, prefix: str) -> dict:
    salt = os.urandom(16)
    if key is None:
        digest = os.urandom(64)
    else:
        digest = hmac.new(key, (prefix + str(index)).encode() + salt, hashlib.sha256).digest()
    record = {
        "localId": f"user{index:08d}",
        "email": f"user{index}@example.com",
        "emailVerified": index % 2 == 0,
        "passwordHash": base64.b64encode(digest).decode(),
        "salt": base64.b64encode(salt).decode(),
        "displayName": f"User {index}",
        "createdAt": str(1_600_000_000_000 + index),
        "lastSignedInAt": str(1_600_000_500_000 + index),
        "disabled": False,
    }
    if index % 3 == 0:
        record["providerUserInfo"] = [{"providerId": "google.com", "rawId": f"g{index}",
                                       "email": f"user{index}@gmail.com", "displayName": f"User {index}"}]
    if index % 10 == 0:
        record["customAttributes"] = json.dumps({"tier": "gold", "n": index})
    return record


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("count", type=int)
    parser.add_argument("--hmac-key")
    parser.add_argument("--password-prefix", default="pw-")
    args = parser.parse_args()
    key = args.hmac_key.encode() if args.hmac_key else None
    with open(args.out, "w") as out:
        out.write('{"users": [\n')
        for index in range(args.count):
            out.write(("," if index else "") + json.dumps(user(index, key, args.password_prefix)) + "\n")
        out.write("]}\n")


if __name__ == "__main__":
    main()
