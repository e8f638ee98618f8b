-- The viewers of `bench/viewers.py --client wrk`: one wrk process per page and language, each connection a
-- viewer polling that page with the ETag last seen (If-None-Match), as static/js/live.js does.
--
-- Arguments (after `--`): the poll interval in ms, the connections of this process, the Accept-Language.
-- Each connection's first poll comes at its own moment within one interval, then one every two intervals:
-- the bench alternates windows of one interval without the viewers and with them, and starts wrk at the
-- first window with them. At the end, the latency quantiles (0.1% steps, in microseconds), the requests and
-- the statuses are printed as one JSON line for the bench to merge.

local poll_ms, connections, language
local first_polls = 0
local etag = nil
statuses = {}  -- global: done() reads each thread's with thread:get

function init(args)
  poll_ms = tonumber(args[1])
  connections = tonumber(args[2])
  language = args[3]
  math.randomseed(connections * 7919 + #language)
end

-- wrk opens every connection at once, before its first poll; nginx closes a new connection that sends
-- nothing for 10 s (client_header_timeout), which a phone (connecting to ask) never meets: the first polls
-- come within the first 7 s of the window, so that none waits that long on a silent connection (with 9 s, wrk's
-- timers running late on the busy machine let nginx close 61 of 8,093 connections first: "read" failures).
local FIRST_POLL_MS = 7000

function delay()
  first_polls = first_polls + 1
  if first_polls <= connections then
    return math.random(0, math.min(poll_ms, FIRST_POLL_MS) - 1)
  end
  return 2 * poll_ms
end

function request()
  local headers = { ["Accept-Language"] = language, ["Accept-Encoding"] = "gzip" }
  if etag then
    headers["If-None-Match"] = etag
  end
  return wrk.format("GET", nil, headers)
end

function response(status, headers, body)
  local key = tostring(status)
  statuses[key] = (statuses[key] or 0) + 1
  local tag = headers["ETag"] or headers["Etag"] or headers["etag"]
  if tag then
    etag = tag
  end
end

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function done(summary, latency, requests)
  local merged = {}
  for _, thread in ipairs(threads) do
    for key, count in pairs(thread:get("statuses")) do
      merged[key] = (merged[key] or 0) + count
    end
  end
  local parts = {}
  for key, count in pairs(merged) do
    table.insert(parts, string.format('"%s": %d', key, count))
  end
  local quantiles = {}
  for step = 1, 1000 do
    table.insert(quantiles, string.format("%d", latency:percentile(step / 10)))
  end
  local errors = summary.errors
  io.write(string.format('{"requests": %d, "statuses": {%s}, "errors": %d, "error_kinds": {"connect": %d, '
    .. '"read": %d, "write": %d, "timeout": %d}, "quantiles_us": [%s]}\n',
    summary.requests, table.concat(parts, ", "),
    errors.connect + errors.read + errors.write + errors.timeout, errors.connect, errors.read, errors.write,
    errors.timeout, table.concat(quantiles, ", ")))
end
