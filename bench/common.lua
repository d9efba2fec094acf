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

-- With BENCH_DELAY_MS set, each connection pauses after every answer: a paced load (bench/run.sh and
-- bench/compare.py --half-load offer half the best rate this way to measure latency away from saturation).
-- BENCH_PACING=exponential draws each pause from an exponential distribution with that mean, so that the
-- connections' requests arrive independently (close to Poisson arrivals at the same mean rate). With the same
-- fixed pause everywhere (BENCH_PACING=fixed, the default), connections that were answered together wait
-- together and ask together again: the load arrives in bursts of up to all connections at once, and the last
-- request of a burst waits for every one before it, whatever the mean rate.
local pause = tonumber(os.getenv("BENCH_DELAY_MS") or "")
if pause and pause > 0 then
  if os.getenv("BENCH_PACING") == "exponential" then
    math.randomseed(tonumber(os.getenv("BENCH_SEED") or "") or os.time())
    function delay()
      -- 1 - random() is in (0, 1]; pauses are capped at 10 means (wrk takes whole milliseconds).
      local drawn = -pause * math.log(1 - math.random())
      return math.floor(math.min(drawn, 10 * pause) + 0.5)
    end
  else
    function delay() return pause end
  end
end
