#!/usr/bin/env bash
# Builds the HTTP request parser with libFuzzer + AddressSanitizer and fuzzes it for a bounded time.
# Usage: Fuzz/run-http-parser-fuzz.sh [seconds]   (default 60)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
src="$root/Sources/HTTP"
work="${FUZZ_WORK_DIR:-$here/.build}"
mkdir -p "$work/corpus"

# Only the pure parser files: they import nothing, so they build outside SwiftPM without CLinux.
parser_files=(
  "$src/ByteClass.swift" "$src/HTTPHeaders.swift" "$src/ParserTypes.swift" "$src/ParserState.swift"
  "$src/HTTPRequestParser.swift" "$src/RequestHeadParser.swift" "$src/FramingRules.swift"
  "$src/ChunkedDecoder.swift"
)

swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name HTTPParserFuzz \
  "${parser_files[@]}" "$here/HTTPParserFuzz.swift" -o "$work/http-parser-fuzz"

# Seed corpus: a few valid requests covering each framing.
printf 'GET /a?b=1 HTTP/1.1\r\nHost: x\r\n\r\n' > "$work/corpus/get"
printf 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc' > "$work/corpus/post"
printf 'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3;e=1\r\nabc\r\n0\r\nT: 1\r\n\r\n' > "$work/corpus/chunked"
printf 'GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /2 HTTP/1.1\r\nHost: y\r\n\r\n' > "$work/corpus/pipelined"

cd "$work"
./http-parser-fuzz -max_total_time="${1:-60}" -max_len=4096 -print_final_stats=1 corpus
