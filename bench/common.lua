-- Shared by the wrk scripts: writes one JSON summary line to $BENCH_RESULT_FILE when wrk finishes.
function done(summary, latency, requests)
  local out = assert(io.open(os.getenv("BENCH_RESULT_FILE"), "w"))
  local e = summary.errors
  out:write(string.format(
    '{"requests":%d,"duration_us":%d,"non_2xx":%d,"connect_errors":%d,"read_errors":%d,' ..
    '"write_errors":%d,"timeouts":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
  out:close()
end

-- With BENCH_DELAY_MS set, each connection pauses that long after every answer: a paced load (bench/compare.py
-- --half-load offers half the best rate this way to measure latency away from saturation).
local pause = tonumber(os.getenv("BENCH_DELAY_MS") or "")
if pause and pause > 0 then
  function delay() return pause end
end
