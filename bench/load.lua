-- wrk script: each request signed in as one of many learners, a fixed number of requests in all.
-- Environment: BENCH_COOKIES (file of "sessionid csrftoken" lines), BENCH_REQUESTS (total),
-- BENCH_METHOD (GET or POST), BENCH_THREADS (wrk's -t), BENCH_OUT (JSON result file).

local cookies = {}
local counter = 0
local limit = 0
local threads = {}

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  for line in io.lines(os.getenv("BENCH_COOKIES")) do
    local session, csrf = line:match("^(%S+)%s+(%S+)$")
    if session then table.insert(cookies, {session, csrf}) end
  end
  limit = math.floor(tonumber(os.getenv("BENCH_REQUESTS")) / tonumber(os.getenv("BENCH_THREADS")))
  counter = 0
end

function request()
  counter = counter + 1
  local pick = cookies[((counter * 7919 + id * 104729) % #cookies) + 1]
  local headers = {
    ["Cookie"] = "sessionid=" .. pick[1] .. "; csrftoken=" .. pick[2],
    ["X-CSRFToken"] = pick[2],
  }
  if os.getenv("BENCH_METHOD") == "POST" then
    headers["HX-Request"] = "true"
  end
  return wrk.format(os.getenv("BENCH_METHOD"), nil, headers, nil)
end

function response(status, headers, body)
  if status >= 400 then
    io.stderr:write("unexpected status " .. status .. "\n")
  end
  if counter >= limit then
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local out = io.open(os.getenv("BENCH_OUT"), "w")
  out:write(string.format(
    '{"requests": %d, "seconds": %.3f, "rps": %.1f, "median_ms": %.2f, "p95_ms": %.2f, "errors": %d}\n',
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read
      + summary.errors.write + summary.errors.timeout))
  out:close()
end
