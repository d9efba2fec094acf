-- POST accounts:signUp (anonymous): one RSA signature per request.
dofile("bench/common.lua")
wrk.method = "POST"
wrk.path = "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=bench-key"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"returnSecureToken":true}'
