-- wrk script for `npm run bench` (scripts/bench/api.ts), configured through the environment:
--   BENCH_METHOD, BENCH_BODY (a JSON body, sent with Content-Type: application/json)
--   BENCH_XFF=1      each request names its own client in X-Forwarded-For (the server trusts
--                    loopback as its proxy), so per-IP buckets measure the endpoint, not the limiter
--   BENCH_LIST=1     each request's body is a list with its own name (BENCH_BODY's ids)
--   BENCH_UNIQUE=1   each request's path has its own number in place of UNIQUE, so no answer is
--                    kept for another request (the search itself, uncached)
--   BENCH_DELAY_MS   each connection waits this long before its next request (a paced client)
--   BENCH_PIPELINE   paths separated by "|": each connection sends them all at once (pipelined),
--                    then the next batch when every answer has come (wrk counts each answer)
--   BENCH_BODY_FILE  bodies, one a line, sent in turn (a 4 MiB template, MCP calls): BENCH_BODY's
--                    environment variable cannot hold more than 128 KiB
--   BENCH_SEED       where this row's client numbers start, so rows do not share clients
--   BENCH_OUT        file to write the result to, as one JSON line, with wrk's own CPU time
-- Without BENCH_XFF/BENCH_LIST/BENCH_UNIQUE there is no per-request Lua: wrk sends one prepared request.

local method = os.getenv("BENCH_METHOD") or "GET"
local body = os.getenv("BENCH_BODY")
local xff = os.getenv("BENCH_XFF") == "1"
local list = os.getenv("BENCH_LIST") == "1"
local unique = os.getenv("BENCH_UNIQUE") == "1"
local seed = tonumber(os.getenv("BENCH_SEED") or "0")
local counter = 0
local delay_ms = tonumber(os.getenv("BENCH_DELAY_MS") or "0")
local pipeline = os.getenv("BENCH_PIPELINE") or ""
local body_file = os.getenv("BENCH_BODY_FILE") or ""
local bodies = {}
if body_file ~= "" then
  for line in io.lines(body_file) do
    if line ~= "" then bodies[#bodies + 1] = line end
  end
  body = bodies[1]
end

if delay_ms > 0 then
  delay = function()
    return delay_ms
  end
end

wrk.method = method
if body and body ~= "" then
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end

local threads = {}
function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end

if pipeline ~= "" then
  local requests
  -- Made in init, once wrk has set the Host header (at load time wrk.format has none to add).
  init = function()
    local batch = {}
    for path in pipeline:gmatch("[^|]+") do
      batch[#batch + 1] = wrk.format("GET", path)
    end
    requests = table.concat(batch)
  end
  request = function()
    return requests
  end
elseif xff or list or unique or #bodies > 1 then
  request = function()
    counter = counter + 1
    -- 24 bits of client number per thread: 16 M distinct clients before one repeats.
    local n = (seed + counter) % 16777216
    -- wrk.format takes these headers instead of wrk.headers, not beside them: start from a copy.
    local headers = {}
    for name, value in pairs(wrk.headers) do
      headers[name] = value
    end
    if xff then
      headers["X-Forwarded-For"] = string.format(
        "10.%d.%d.%d", math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
    end
    local payload = wrk.body
    if #bodies > 1 then
      payload = bodies[(counter % #bodies) + 1]
    end
    if list then
      payload = string.format('{"name":"Bench %d-%d","approvedServiceIds":%s}', tid or 0, n, body)
    end
    local path = nil
    if unique then
      path = wrk.path:gsub("UNIQUE", tostring(n + 1))
    end
    return wrk.format(nil, path, headers, payload)
  end
end

function done(summary, latency, requests)
  -- /proc/self/stat: utime and stime are fields 14 and 15, counted after the ")" of the name.
  local f = io.open("/proc/self/stat")
  local stat = f:read("*a")
  f:close()
  local fields = {}
  for word in stat:match("%) (.*)"):gmatch("%S+") do
    fields[#fields + 1] = word
  end
  local ticks = tonumber(fields[12]) + tonumber(fields[13])
  local out = io.open(os.getenv("BENCH_OUT"), "w")
  out:write(string.format(
    '{"requests":%d,"durationUs":%d,"bytes":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"timeoutErrors":%d,"status4xx5xx":%d,"p50Us":%d,"p99Us":%d,"cpuTicks":%d}\n',
    summary.requests, summary.duration, summary.bytes, summary.errors.connect, summary.errors.read,
    summary.errors.write, summary.errors.timeout, summary.errors.status,
    latency:percentile(50), latency:percentile(99), ticks))
  out:close()
end
