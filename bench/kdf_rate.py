"""Single-thread scrypt rate with the gateway's default parameters, through the same OpenSSL function the
gateway calls (EVP_PBE_scrypt, which Python's hashlib.scrypt wraps). Prints hashes per second."""

import hashlib
import sys
import time

N, R, P = (int(x) for x in sys.argv[1:4]) if len(sys.argv) >= 4 else (32768, 8, 1)
seconds = float(sys.argv[4]) if len(sys.argv) >= 5 else 5.0
count = 0
start = time.perf_counter()
while time.perf_counter() - start < seconds:
    hashlib.scrypt(b"bench-password", salt=b"0123456789abcdef", n=N, r=R, p=P, maxmem=(128 * R * (N + 2) + (2 << 20)), dklen=32)
    count += 1
print(f"{count / (time.perf_counter() - start):.2f}")
