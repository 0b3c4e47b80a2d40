-- wrk: thumbnail requests of one movie. MOVIE is the percent-encoded url= value, DURATION its length in seconds.
-- MODE=cold: every request another time of the movie (a cold picture each time; the index stays warm).
-- MODE=soak: each connection sends one request every DELAY ms; one in ten is a cold picture, the rest one of 50 warm.
local movie = os.getenv("MOVIE")
local duration = tonumber(os.getenv("DURATION") or "60")
local mode = os.getenv("MODE") or "cold"
local pause = tonumber(os.getenv("DELAY") or "40")
local threads = 0
function setup(thread)
  thread:set("offset", threads)
  threads = threads + 1
end
local n = 0
local function cold()
  -- Steps interleaved between the two threads: no time is asked for twice in a run.
  local t = ((n * 2 + offset) * 0.0137) % (duration - 0.5)
  return string.format("/thumbnail.jpg?url=%s&width=320&time=%.4f", movie, t)
end
function request()
  n = n + 1
  local path
  if mode == "soak" and n % 10 ~= 0 then
    path = string.format("/thumbnail.jpg?url=%s&width=%d&time=30", movie, 200 + n % 50)
  else
    path = cold()
  end
  return wrk.format("GET", path)
end
if mode == "soak" then
  function delay() return pause end
end
