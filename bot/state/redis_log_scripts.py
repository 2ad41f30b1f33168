"""The answer log's Lua scripts on Redis (:mod:`bot.state.redis_log` runs them and says what
they keep): each change and each forget is one script, all of it or, if Redis fails, none.
"""

from __future__ import annotations

__all__ = ["FORGET_PERSON", "FORGET_PLACE", "LOG", "NOTE", "NOW_MS", "PURGE", "VERDICTS", "VOTE"]

NOW_MS = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
"""

PURGE = 100
"""Records past retention each write drops, at most."""

# A stored record as a Lua table, or nil when it cannot be read (so that one damaged record
# stops no script: a vote, a quote check, a forget, the purge of every answer logged after it).
_DECODED = """
local function decoded(text)
  if not text then return nil end
  local ok, r = pcall(cjson.decode, text)
  if ok and type(r) == 'table' then return r end
  return nil
end
"""

# A record's removal from every index (and, asked, the votes on it). ARGV[1] is the namespace.
_DROP = (
    _DECODED
    + """
local ns = ARGV[1]
local function drop_answer(id, with_votes)
  local key = ns .. ':log:answer:' .. id
  local text = redis.call('GET', key)
  redis.call('ZREM', ns .. ':log:time', id)
  if not text then return 0 end
  local r = decoded(text)
  if not r or type(r.platform) ~= 'string' or type(r.asker) ~= 'string' then
    redis.call('DEL', key)
    return 1
  end
  if type(r.server) == 'string' then
    redis.call('ZREM', ns .. ':log:in:' .. r.platform .. ':' .. r.server, id)
  end
  redis.call('ZREM', ns .. ':log:by:' .. r.platform .. ':' .. r.asker, id)
  local n = 1
  if type(r.vote_key) == 'string' then
    redis.call('DEL', ns .. ':log:vote:' .. r.vote_key)
    if with_votes then n = n + redis.call('HLEN', ns .. ':votes:' .. r.vote_key) end
    if with_votes then redis.call('DEL', ns .. ':votes:' .. r.vote_key) end
  end
  redis.call('DEL', key)
  return n
end
local function unvote(vote_key, person)
  local id = redis.call('GET', ns .. ':log:vote:' .. vote_key)
  if not id then return end
  local key = ns .. ':log:answer:' .. id
  local r = decoded(redis.call('GET', key))
  if not r then return end
  local kept = {}
  for _, vote in ipairs(type(r.votes) == 'table' and r.votes or {}) do
    if person and vote.user ~= person then kept[#kept + 1] = vote end
  end
  r.votes = kept
  redis.call('SET', key, cjson.encode(r), 'KEEPTTL')
end
"""
)

# KEYS: the record, the time index, its server's index (or the time index again), its asker's,
# its vote key's (or the record again). ARGV: namespace, id, question time ms, retention ms, the
# record, purge at most, whether it has a server and a vote key (1/0).
LOG = (
    NOW_MS
    + _DROP
    + """
local id, at, retention = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local cutoff = now - retention
for _, old in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', cutoff, 'LIMIT', 0, ARGV[6])) do
  drop_answer(old, false)
end
if at <= cutoff then return 0 end
local left = at + retention - now
redis.call('SET', KEYS[1], ARGV[5], 'PX', left)
local indexes = {KEYS[2], KEYS[4]}
if ARGV[7] == '1' then indexes[3] = KEYS[3] end
for _, index in ipairs(indexes) do
  redis.call('ZADD', index, at, id)
  redis.call('ZREMRANGEBYSCORE', index, '-inf', cutoff)
  redis.call('PEXPIRE', index, retention)
end
if ARGV[8] == '1' then redis.call('SET', KEYS[5], id, 'PX', left) end
return 1
"""
)

# KEYS: the record. ARGV: the verdicts as JSON (null keeps one).
VERDICTS = (
    _DECODED
    + """
local r = decoded(redis.call('GET', KEYS[1]))
if not r or type(r.sources) ~= 'table' then return 0 end
for i, verdict in ipairs(cjson.decode(ARGV[1])) do
  if verdict ~= cjson.null and type(r.sources[i]) == 'table' then r.sources[i].verdict = verdict end
end
redis.call('SET', KEYS[1], cjson.encode(r), 'KEEPTTL')
return 1
"""
)

# KEYS: the vote key's record id. ARGV: the records' key prefix, the vote as JSON. Returns the
# record as it was, or ''.
VOTE = (
    _DECODED
    + """
local id = redis.call('GET', KEYS[1])
if not id then return '' end
local key = ARGV[1] .. id
local text = redis.call('GET', key)
local r = decoded(text)
if not r then return '' end
local vote = cjson.decode(ARGV[2])
local kept = {}
for _, other in ipairs(type(r.votes) == 'table' and r.votes or {}) do
  if other.user ~= vote.user then kept[#kept + 1] = other end
end
kept[#kept + 1] = vote
r.votes = kept
redis.call('SET', key, cjson.encode(r), 'KEEPTTL')
return text
"""
)

# KEYS: the person's notes (or ''), the server's notes (or ''). ARGV: ttl ms, then the notes.
NOTE = (
    NOW_MS
    + """
local ttl = tonumber(ARGV[1])
for _, index in ipairs(KEYS) do
  if index ~= '' then
    for i = 2, #ARGV do redis.call('ZADD', index, 'GT', now + ttl, ARGV[i]) end
    redis.call('ZREMRANGEBYSCORE', index, '-inf', now)
    if redis.call('PTTL', index) < ttl then redis.call('PEXPIRE', index, ttl) end
  end
end
return 0
"""
)

# ARGV: namespace, platform, person, the rate window's key, FORGOTTEN. Returns how many things
# went.
FORGET_PERSON = (
    _DROP
    + """
local platform, person = ARGV[2], ARGV[3]
local n = 0
local by = ns .. ':log:by:' .. platform .. ':' .. person
for _, id in ipairs(redis.call('ZRANGE', by, 0, -1)) do n = n + drop_answer(id, false) end
redis.call('DEL', by)
local own = ns .. ':own:person:' .. platform .. ':' .. person
for _, member in ipairs(redis.call('ZRANGE', own, 0, -1)) do
  local note = cjson.decode(member)
  if note[1] == 'thread' then
    n = n + redis.call('DEL', ns .. ':turns:' .. note[2])
  elseif note[1] == 'note' then
    n = n + redis.call('DEL', ns .. ':cache:' .. note[2])
  elseif note[1] == 'counter' then
    n = n + redis.call('DEL', ns .. ':daily:' .. note[2])
  elseif note[1] == 'change' then
    local list = ns .. ':settings-history:' .. note[2]
    for i, entry in ipairs(redis.call('LRANGE', list, 0, -1)) do
      local change = decoded(entry)
      if change and change.by == person then
        change.by = ARGV[5]
        redis.call('LSET', list, i - 1, cjson.encode(change))
      end
    end
  else
    n = n + redis.call('HDEL', ns .. ':votes:' .. note[2], person)
    unvote(note[2], person)
  end
  if note[4] ~= '' then
    redis.call('ZREM', ns .. ':own:place:' .. platform .. ':' .. note[4], member)
  end
end
redis.call('DEL', own)
n = n + redis.call('DEL', ARGV[4])
return n
"""
)

# ARGV: namespace, platform, server, its daily counters' keys as JSON, and as JSON the notes of
# people's that name it ([[their notes' key, the note], ...]). Returns how many went.
FORGET_PLACE = (
    _DROP
    + """
local platform, server = ARGV[2], ARGV[3]
local here = platform .. ':' .. server
local function inside(place)
  return place == here or string.sub(place, 1, #here + 1) == here .. '/'
end
local n = 0
local places = ns .. ':settings-index:places'
for _, place in ipairs(redis.call('SMEMBERS', places)) do
  if inside(place) then
    n = n + redis.call('DEL', ns .. ':settings:' .. place)
    redis.call('SREM', places, place)
  end
end
local histories = ns .. ':settings-index:history'
for _, place in ipairs(redis.call('ZRANGE', histories, 0, -1)) do
  if inside(place) then
    n = n + redis.call('DEL', ns .. ':settings-history:' .. place)
    redis.call('ZREM', histories, place)
  end
end
local answers = ns .. ':log:in:' .. here
for _, id in ipairs(redis.call('ZRANGE', answers, 0, -1)) do n = n + drop_answer(id, true) end
redis.call('DEL', answers)
local own = ns .. ':own:place:' .. here
for _, member in ipairs(redis.call('ZRANGE', own, 0, -1)) do
  local note = cjson.decode(member)
  if note[1] == 'thread' then
    n = n + redis.call('DEL', ns .. ':turns:' .. note[2])
  elseif note[1] == 'note' then
    n = n + redis.call('DEL', ns .. ':cache:' .. note[2])
  else
    n = n + redis.call('HLEN', ns .. ':votes:' .. note[2])
    redis.call('DEL', ns .. ':votes:' .. note[2])
    unvote(note[2], false)
  end
  if note[3] ~= '' then
    redis.call('ZREM', ns .. ':own:person:' .. platform .. ':' .. note[3], member)
  end
end
redis.call('DEL', own)
for _, counter in ipairs(cjson.decode(ARGV[4])) do n = n + redis.call('DEL', counter) end
for _, named in ipairs(cjson.decode(ARGV[5])) do redis.call('ZREM', named[1], named[2]) end
return n
"""
)
