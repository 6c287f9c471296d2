-- The word-frequency report of a generated text of N words (default 10^5),
-- in idiomatic Lua 5.4 (gmatch, a table as the map, table.sort): the
-- reference for examples/wordfreq's bench entry. Usage: lua5.4 wordfreq.lua [N]
local SYLLABLES = "kalominerutasovi"

local function word(k)
  local d = k % 8
  local parts = { SYLLABLES:sub(2 * d + 1, 2 * d + 2) }
  local rest = k // 8
  while rest > 0 do
    d = rest % 8
    parts[#parts + 1] = SYLLABLES:sub(2 * d + 1, 2 * d + 2)
    rest = rest // 8
  end
  return table.concat(parts)
end

local function generate(n)
  local seed, out = 12345, {}
  for i = 0, n - 1 do
    seed = (seed * 1103515245 + 12345) % 2147483648
    local a = (seed >> 8) % 64
    seed = (seed * 1103515245 + 12345) % 2147483648
    local b = (seed >> 8) % 64
    out[#out + 1] = word(a * b)
    if i % 17 == 16 then out[#out + 1] = ". "
    elseif i % 5 == 4 then out[#out + 1] = ", "
    else out[#out + 1] = " " end
  end
  return table.concat(out)
end

local function count(text)
  local counts, order = {}, {}
  for w in text:lower():gmatch("%a+'?%a*") do
    if w:sub(-1) == "'" then w = w:sub(1, -2) end
    local c = counts[w]
    if c then counts[w] = c + 1 else counts[w] = 1 order[#order + 1] = w end
  end
  return counts, order
end

local function percent(part, whole)
  if whole == 0 then return "0.0%" end
  local tenths = (part * 1000 + whole // 2) // whole
  return (tenths // 10) .. "." .. (tenths % 10) .. "%"
end
local function pad_left(s, w) return string.rep(" ", w - #s) .. s end
local function pad_right(s, w) return s .. string.rep(" ", w - #s) end

local function render(text, top)
  local counts, words = count(text)
  table.sort(words, function(a, b)
    if counts[a] ~= counts[b] then return counts[a] > counts[b] end
    return a < b
  end)
  local shown = math.min(top, #words)
  local total, once, letters, longest = 0, 0, 0, ""
  for _, w in ipairs(words) do
    local c = counts[w]
    total = total + c
    letters = letters + #w * c
    if c == 1 then once = once + 1 end
    if #w > #longest or (#w == #longest and w < longest) then longest = w end
  end
  local width = 4
  for i = 1, shown do width = math.max(width, #words[i]) end
  local out = { pad_left("#", 4), "  ", pad_right("word", width), pad_left("count", 7), pad_left("share", 8), "\n",
                string.rep("-", 4 + 2 + width + 7 + 8), "\n" }
  local most = counts[words[1]]
  for i = 1, shown do
    local w, c = words[i], counts[words[i]]
    out[#out + 1] = pad_left(tostring(i), 4) .. "  " .. pad_right(w, width) .. pad_left(tostring(c), 7)
      .. pad_left(percent(c, total), 8) .. "  " .. string.rep("#", math.max(c * 30 // most, 1)) .. "\n"
  end
  local avg = 0
  if total > 0 then avg = (letters * 10 + total // 2) // total end
  out[#out + 1] = "\nwords: " .. total .. ", distinct: " .. #words .. ", used once: " .. once .. "\n"
  out[#out + 1] = "average length: " .. (avg // 10) .. "." .. (avg % 10) .. ", longest: " .. longest .. "\n"
  return table.concat(out)
end

io.write(render(generate(tonumber(arg[1] or "100000")), 20))
