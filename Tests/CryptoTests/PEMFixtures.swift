/// PEM fixtures made once with the openssl command-line tool, for the formats the Crypto API cannot write itself.
enum PEMFixtures {
    /// `openssl genrsa -traditional 2048`: PKCS#1 "RSA PRIVATE KEY".
    static let rsaPKCS1Private = """
-----BEGIN RSA PRIVATE KEY-----
MIIEpAIBAAKCAQEAo50jhF5HFMTpgoYy9vlp/LhRpQDId8n4IKVeK5juA+r1N0R1
BZy7KG3CdPHIJD1wcru67Ly3nySlnRjFQlpwTxh9OvygmZA3cclO7Q20FdtsNEJe
YO5ZyAEQagxsLJhX8c2iet5F2wq6ShWSszjkVe7lzg8XY0J/DRgB7c2AaLsMg1o/
m5NaONZrrvVMoJxw/kbM8w718hcT+0m1/KmTQzELVF1Ayn9ip+jgtpI2Kou09JoJ
kwxsR98EJjf+4Gii53QT6p7iBkwh6LiKYAg+lxfd7JKFTbNu872HO92zQoi+5RjJ
CYSiomqiehOUv8M2JbKXr+IxC16CegZJ19o/lwIDAQABAoIBAA+4dIYubNQBC5LA
BDuYwWdH6ohZJ+ninRW97etweUYlGESkLj5Ize7XhPypkppw0NIlWZOPmnEPG16Z
17JFcE8ZQkcdqOy4X6tuNUgvreL/v0jSK7FSlYvTFlmqMeajCKgyIu99VebzA+1E
X2EbEU10c941swCVjhGbAexwd2sYjon9aQ64uFLv48vMQ9a523EXB07TJBIvnp1Y
yrodGPxpDSJnPedg+gWN1OmWr8fO0GR7Z4swk/GA8I/u4n3tTugpC8QkC0bp6lHS
yjkefB9xl5cAcDK2lGZSsmqIfgxJIIPUR6t5NV5uIqGJi9tVrjVCwL2f/j7tBblY
fUR8IwECgYEAzM/ih6/fyV3IC45IoQvUd3+zKt64ngt8oZkYOnfLfRiYOFDlFZ9q
IrMkY1NDH8da4cHpjLmNDhsIwsb8QEsztbkRiOid8NvndodhGn01WN2twFsb2cpr
0pwIDG1JUqHgBK3qn+4+JIFiX7gf87jIt81YmT8e6Fb0zvJwSq13mIECgYEAzIFX
zYsdq/IEYqkwZ6XzGhnwL85kx6VoCynpRwnGA+RYSKYH1A/EqCGn5BBEvwq+VZra
mr863CjRIVdzQsxXkhi31rLRHZo5sDqNi8dQD+K7GPM8Z332ip8NoPjSt61q3BUU
Z/fUbFZPPZubg+IK5VMmPa7ktQLS+C4EEEg1jBcCgYEAhfCxuYC3/i1ZhM0hDEj7
Qsb9edy7qYfjkp7XLG1pYz7xVWr51eEx/M1gz6AE9sRd1+QDg2dZKs9dNFwDXVyQ
zZfhMsLFf12ginBQfY1ClQIr/e7XUN/DEbG+xbm2yNZZ9VVzafHZK/B9UBHOu4mt
oh4lgdq4sMMlSC1eaEf3PYECgYBJUw7ySbEH16yu207ZuuyhLS+rVGtaEfpuFkbo
C58OAi+NTMp9xHGUfwy9fv/HJ8j61J0Q4wPtsEzbkYloJ/A2F9rChjboUEXi4/ug
ZIRWTcsbtQqxaL6fEUxHrS+QYANyibRZWsi1V3Tt9/8YmFGjy95oO28RX8PY7FbU
p69bXQKBgQCwqhKw+KPHbbyYsD27eTCB/TBJELkKN3OcqTLa41Nws9PwQpIgL7Ca
F6lPDXObtcXYyQNbCVqLulRzZqDahZg2Rg0aWsVd4Am4c7A1yPqRU74biZ2vpOYL
kI9pbEjaQTozE9H28eEEJddq6bfide/Gh/8537kE3YNQBEbHH5BAiw==
-----END RSA PRIVATE KEY-----
"""
    /// The same key's public half as PKCS#1 "RSA PUBLIC KEY" (`-RSAPublicKey_out`).
    static let rsaPKCS1Public = """
-----BEGIN RSA PUBLIC KEY-----
MIIBCgKCAQEAo50jhF5HFMTpgoYy9vlp/LhRpQDId8n4IKVeK5juA+r1N0R1BZy7
KG3CdPHIJD1wcru67Ly3nySlnRjFQlpwTxh9OvygmZA3cclO7Q20FdtsNEJeYO5Z
yAEQagxsLJhX8c2iet5F2wq6ShWSszjkVe7lzg8XY0J/DRgB7c2AaLsMg1o/m5Na
ONZrrvVMoJxw/kbM8w718hcT+0m1/KmTQzELVF1Ayn9ip+jgtpI2Kou09JoJkwxs
R98EJjf+4Gii53QT6p7iBkwh6LiKYAg+lxfd7JKFTbNu872HO92zQoi+5RjJCYSi
omqiehOUv8M2JbKXr+IxC16CegZJ19o/lwIDAQAB
-----END RSA PUBLIC KEY-----
"""
    /// The same key's public half as SPKI "PUBLIC KEY" (`-pubout`).
    static let rsaSPKIPublic = """
-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAo50jhF5HFMTpgoYy9vlp
/LhRpQDId8n4IKVeK5juA+r1N0R1BZy7KG3CdPHIJD1wcru67Ly3nySlnRjFQlpw
Txh9OvygmZA3cclO7Q20FdtsNEJeYO5ZyAEQagxsLJhX8c2iet5F2wq6ShWSszjk
Ve7lzg8XY0J/DRgB7c2AaLsMg1o/m5NaONZrrvVMoJxw/kbM8w718hcT+0m1/KmT
QzELVF1Ayn9ip+jgtpI2Kou09JoJkwxsR98EJjf+4Gii53QT6p7iBkwh6LiKYAg+
lxfd7JKFTbNu872HO92zQoi+5RjJCYSiomqiehOUv8M2JbKXr+IxC16CegZJ19o/
lwIDAQAB
-----END PUBLIC KEY-----
"""
    /// `openssl ecparam -genkey -name prime256v1 -noout`: SEC1 "EC PRIVATE KEY".
    static let p256SEC1Private = """
-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIDOu4KucwZB3gqdLf1lqbJT+MlQTlktOCa1FMEw4an3MoAoGCCqGSM49
AwEHoUQDQgAEW1IBuLzGAwuqfyW79NEnAbqo+vduI69yPvLMz0PRZivNpGOs1i6X
bDNrX6xr9rWhXlBpLLJgJHSUcoBf0h1pHw==
-----END EC PRIVATE KEY-----
"""
    /// The public point of `p256SEC1Private`, from `openssl ec -text`.
    static let p256X = "5b5201b8bcc6030baa7f25bbf4d12701baa8faf76e23af723ef2cccf43d1662b"
    static let p256Y = "cda463acd62e976c336b5fac6bf6b5a15e50692cb26024749472805fd21d691f"
    /// `p256SEC1Private` as encrypted PKCS#8 (password "secret").
    static let p256EncryptedPKCS8 = """
-----BEGIN ENCRYPTED PRIVATE KEY-----
MIHsMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAjqOyNCSHVWeAICCAAw
DAYIKoZIhvcNAgkFADAdBglghkgBZQMEASoEELHiwIjc/eHF9myiihyRXG4EgZBs
ks6qRo3m+qD3lrBWnNjqlMMG9V5MX//70bLMgdo8eH47peLz19zRp4PEN1mVw1zj
cgsZhx6vmOFkjgZ4bh926LmsiJb+beOIBiSooASPm2/jEmY5vLL4OfKaD5uHimpF
eyi8Y4VMFw/+GLsI3lykt8zStOL4NTaPi2u30aLAD09RbzBL+Wvvq8fXNxzBqEg=
-----END ENCRYPTED PRIVATE KEY-----
"""
    /// A P-384 key, which the P-256 types must refuse.
    static let p384SEC1Private = """
-----BEGIN EC PRIVATE KEY-----
MIGkAgEBBDCtWm4DHsrmxqSDrF67uKrdQeFbzqmGgBRF7mEcscYB/a1Ypcl1S1Nz
kxC9446QZ3SgBwYFK4EEACKhZANiAATLIjV92fre5Ten3OUNUTHqcP+YblcIv3xq
+3YdF9UKLdC3YXUaTbZ29UyhbaMep8x+stbdDJIIIsOr0hZ+ypMMe9QRNp6IUIme
jgERUfLdOAJtDXx435YHyHWwydGZlxw=
-----END EC PRIVATE KEY-----
"""
}
