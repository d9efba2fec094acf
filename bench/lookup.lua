-- POST accounts:lookup with a pre-created ID token: one RSA verification plus a storage read per request.
dofile("bench/common.lua")
wrk.method = "POST"
wrk.path = "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=bench-key"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"idToken":"' .. assert(os.getenv("BENCH_ID_TOKEN")) .. '"}'
