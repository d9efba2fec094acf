-- POST securetoken token refresh with a pre-created refresh token: one RSA signature per request.
dofile("bench/common.lua")
wrk.method = "POST"
wrk.path = "/securetoken.googleapis.com/v1/token?key=bench-key"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"grantType":"refresh_token","refreshToken":"' .. assert(os.getenv("BENCH_REFRESH_TOKEN")) .. '"}'
