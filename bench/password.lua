-- POST accounts:signInWithPassword for one pre-created account: one scrypt verification (on the KDF pool),
-- a storage write and an RSA signature per request.
dofile("bench/common.lua")
wrk.method = "POST"
wrk.path = "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=bench-key"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"email":"bench@example.com","password":"bench-password","returnSecureToken":true}'
