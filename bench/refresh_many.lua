-- POST securetoken token refresh, cycling through many users' refresh tokens (one per line in
-- $BENCH_REFRESH_TOKENS_FILE, starting at line $BENCH_OFFSET): one RSA signature per request, and no two
-- concurrent requests on one user row.
dofile("bench/common.lua")
local tokens = {}
for line in io.lines(assert(os.getenv("BENCH_REFRESH_TOKENS_FILE"))) do tokens[#tokens + 1] = line end
local counter = tonumber(os.getenv("BENCH_OFFSET") or "0")
wrk.method = "POST"
wrk.path = "/securetoken.googleapis.com/v1/token?key=bench-key"
wrk.headers["Content-Type"] = "application/json"
request = function()
  counter = counter + 1
  local token = tokens[(counter % #tokens) + 1]
  return wrk.format(nil, nil, nil, '{"grantType":"refresh_token","refreshToken":"' .. token .. '"}')
end
