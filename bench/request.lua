-- One fixed request, described by the environment (bench/endpoints.py): BENCH_METHOD, BENCH_PATH, BENCH_BODY
-- (optional, sent as JSON) and BENCH_AUTHORIZATION (optional, the Authorization header's value).
dofile("bench/common.lua")
wrk.method = os.getenv("BENCH_METHOD") or "GET"
wrk.path = assert(os.getenv("BENCH_PATH"))
local body = os.getenv("BENCH_BODY")
if body and body ~= "" then
  wrk.headers["Content-Type"] = "application/json"
  wrk.body = body
end
local authorization = os.getenv("BENCH_AUTHORIZATION")
if authorization and authorization ~= "" then wrk.headers["Authorization"] = authorization end
