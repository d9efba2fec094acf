#!/usr/bin/env python3
"""WAL pages and CPU per anonymous sign-up for the current SQLite schema ("old") and a candidate ("new": email
and phone unique only where set, refresh tokens keyed by (local_id, token_hash) WITHOUT ROWID, no separate
local_id index; "new2": the users table WITHOUT ROWID as well). Python's sqlite3, 100,000 users first, then 2,000
transactions of the given size; CPU includes Python's own overhead (the same for every schema). "mid" is the
schema of migration 5: the old users table, refresh tokens as in "new". With TIMEID=1 the local ids start with the
time (as `UserIDs` makes them since migration 5) instead of being random throughout.

    [TIMEID=1] bench/sqlite_wal_pages.py old|new|new2|mid <sign-ups per transaction>
"""
import sqlite3, os, time, secrets, hashlib, tempfile
OLD = """
CREATE TABLE users (local_id TEXT NOT NULL, email TEXT, email_verified INTEGER NOT NULL, display_name TEXT, photo_url TEXT, phone_number TEXT,
 password_algorithm TEXT, password_parameters TEXT, password_hash BLOB, password_salt BLOB, password_updated_at INTEGER,
 email_link_signin INTEGER NOT NULL, disabled INTEGER NOT NULL, custom_attributes TEXT, valid_since INTEGER NOT NULL, created_at INTEGER NOT NULL,
 last_login_at INTEGER, last_refresh_at INTEGER, tenant_id TEXT, initial_email TEXT,
 CONSTRAINT users_pkey PRIMARY KEY (local_id), CONSTRAINT users_email_key UNIQUE (email), CONSTRAINT users_phone_number_key UNIQUE (phone_number)) STRICT;
CREATE INDEX users_created_at_idx ON users (created_at);
CREATE TABLE refresh_tokens (token_hash BLOB NOT NULL, local_id TEXT NOT NULL, sign_in_provider TEXT NOT NULL, tenant_id TEXT, extra_claims TEXT, issued_at INTEGER NOT NULL,
 CONSTRAINT refresh_tokens_pkey PRIMARY KEY (token_hash)) STRICT;
CREATE INDEX refresh_tokens_local_id_idx ON refresh_tokens (local_id);
"""
NEW = """
CREATE TABLE users (local_id TEXT NOT NULL, email TEXT, email_verified INTEGER NOT NULL, display_name TEXT, photo_url TEXT, phone_number TEXT,
 password_algorithm TEXT, password_parameters TEXT, password_hash BLOB, password_salt BLOB, password_updated_at INTEGER,
 email_link_signin INTEGER NOT NULL, disabled INTEGER NOT NULL, custom_attributes TEXT, valid_since INTEGER NOT NULL, created_at INTEGER NOT NULL,
 last_login_at INTEGER, last_refresh_at INTEGER, tenant_id TEXT, initial_email TEXT,
 CONSTRAINT users_pkey PRIMARY KEY (local_id)) STRICT;
CREATE UNIQUE INDEX users_email_key ON users (email) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX users_phone_number_key ON users (phone_number) WHERE phone_number IS NOT NULL;
CREATE INDEX users_created_at_idx ON users (created_at);
CREATE TABLE refresh_tokens (local_id TEXT NOT NULL, token_hash BLOB NOT NULL, sign_in_provider TEXT NOT NULL, tenant_id TEXT, extra_claims TEXT, issued_at INTEGER NOT NULL,
 CONSTRAINT refresh_tokens_pkey PRIMARY KEY (local_id, token_hash)) STRICT, WITHOUT ROWID;
"""
import sys
variant = sys.argv[1]
TIMEID = os.environ.get("TIMEID") == "1"
path=os.path.join(tempfile.mkdtemp(), f"walt-{variant}.db")
for suf in ("","-wal","-shm"):
    try: os.remove(path+suf)
    except FileNotFoundError: pass
db=sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA synchronous=NORMAL"); db.execute("PRAGMA wal_autocheckpoint=0")
NEW2 = NEW.replace("CONSTRAINT users_pkey PRIMARY KEY (local_id)) STRICT;", "CONSTRAINT users_pkey PRIMARY KEY (local_id)) STRICT, WITHOUT ROWID;")
MID = OLD.split("CREATE TABLE refresh_tokens")[0] + "CREATE TABLE refresh_tokens" + NEW.split("CREATE TABLE refresh_tokens")[1]
db.executescript({"old": OLD, "new": NEW, "new2": NEW2, "mid": MID}[variant])
def signup(n):
    db.execute("BEGIN IMMEDIATE")
    now=int(time.time()*1000)
    for _ in range(n):
        # A time prefix of 12 hex digits of nanoseconds (65 us steps) stands in for UserIDs' base-62 milliseconds.
        lid=("%012x" % time.time_ns())[:12] + secrets.token_urlsafe(21)[:16] if TIMEID else secrets.token_urlsafe(21)[:28]
        db.execute("INSERT INTO users (local_id,email_verified,email_link_signin,disabled,valid_since,created_at,last_login_at,last_refresh_at) VALUES (?,0,0,0,?,?,?,?)",(lid,now//1000,now,now,now))
        db.execute("INSERT INTO refresh_tokens (token_hash,local_id,sign_in_provider,issued_at) VALUES (?,?,?,?)",(hashlib.sha256(os.urandom(16)).digest(),lid,"anonymous",now))
    db.execute("COMMIT")
# prefill
for i in range(100000//50): signup(50)
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
t=time.process_time()
batches=2000; per=int(sys.argv[2])
for i in range(batches): signup(per)
cpu=time.process_time()-t
frames=os.path.getsize(path+"-wal")//(4096+24)
print(variant, "batch",per,"frames/signup %.2f"%(frames/(batches*per)), "cpu us/signup %.1f"%(cpu*1e6/(batches*per)), "db MB %.1f"%(os.path.getsize(path)/1e6))
