-- wrk script: each request signed in as one of many learners, a fixed number of requests in all.
-- Run with one wrk thread (-t1, any number of connections). Environment: BENCH_COOKIES (file of
-- "sessionid csrftoken" lines), BENCH_REQUESTS (total), BENCH_METHOD (GET or POST), BENCH_OUT
-- (JSON result file), BENCH_BODY (a JSON body to send, or empty), BENCH_EDITOR ("1": send the
-- learner's editor key, the line's third field, instead of the cookies). In a body, each @TIME@ is
-- written as the learner's next minute from six hours before the run, and @RUN@ as the run's
-- start: every heartbeat sent is new. When the count is reached the thread stops and writes BENCH_OUT .. ".stop";
-- wrk itself only ends at its duration or on SIGINT, which bench/run.py then sends.

local cookies = {}
local counter = 0
local answered = 0
local limit = 0
local stopping = false
local run = os.time()
local minutes = {}

function init(args)
  for line in io.lines(os.getenv("BENCH_COOKIES")) do
    local session, csrf, editor = line:match("^(%S+)%s+(%S+)%s*(%S*)$")
    if session then table.insert(cookies, {session, csrf, editor}) end
  end
  limit = tonumber(os.getenv("BENCH_REQUESTS"))
end

function request()
  counter = counter + 1
  local index = ((counter * 7919) % #cookies) + 1
  local pick = cookies[index]
  local headers = {
    ["Cookie"] = "sessionid=" .. pick[1] .. "; csrftoken=" .. pick[2],
    ["X-CSRFToken"] = pick[2],
  }
  if os.getenv("BENCH_EDITOR") == "1" then
    headers = {["Authorization"] = "Basic " .. pick[3]}
  elseif os.getenv("BENCH_METHOD") == "POST" then
    headers["HX-Request"] = "true"
  end
  local body = os.getenv("BENCH_BODY")
  if body == nil or body == "" then
    body = nil
  else
    body = body:gsub("@TIME@", function()
      minutes[index] = (minutes[index] or 0) + 1
      return tostring(run - 6 * 3600 + 60 * minutes[index])
    end):gsub("@RUN@", tostring(run))
    headers["Content-Type"] = "application/json"
  end
  return wrk.format(os.getenv("BENCH_METHOD"), nil, headers, body)
end

function response(status, headers, body)
  if status >= 400 then
    io.stderr:write("unexpected status " .. status .. "\n")
  end
  answered = answered + 1
  if answered >= limit and not stopping then
    stopping = true
    io.open(os.getenv("BENCH_OUT") .. ".stop", "w"):close()
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
