-- The calculator of examples/calc in idiomatic Lua 5.4: a tokenizer, a
-- recursive-descent parser into a tree of tables, and an evaluator with
-- checked integer arithmetic whose errors are raised with error() and caught
-- with pcall. The reference for examples/calc's bench entry: parses one
-- expression, evaluates it N times (default 10^5) with x = 0..N-1 and
-- prints the sum. Usage: lua5.4 calc.lua [N]
local MAX, MIN = math.maxinteger, math.mininteger
local OPERATORS = "+-*/%^()=,;"

local function tokenize(src)
  local toks, i, n = {}, 1, #src
  while i <= n do
    local c = src:sub(i, i)
    if c:match("%s") then
      i = i + 1
    elseif c:match("%d") then
      local digits = src:match("^%d+", i)
      local v = 0
      for d in digits:gmatch("%d") do
        d = tonumber(d)
        if v > (MAX - d) // 10 then error("number too large at " .. (i - 1), 0) end
        v = v * 10 + d
      end
      if src:match("^[%a_]", i + #digits) then error("bad number at " .. (i - 1), 0) end
      toks[#toks + 1] = { kind = "num", value = v, text = digits, pos = i - 1 }
      i = i + #digits
    elseif c:match("[%a_]") then
      local name = src:match("^[%w_]+", i)
      toks[#toks + 1] = { kind = "name", text = name, pos = i - 1 }
      i = i + #name
    elseif OPERATORS:find(c, 1, true) then
      toks[#toks + 1] = { kind = "op", text = c, pos = i - 1 }
      i = i + 1
    else
      error("unexpected byte " .. c:byte() .. " at " .. (i - 1), 0)
    end
  end
  toks[#toks + 1] = { kind = "end", text = "", pos = n }
  return toks
end

local function parse(toks)
  local pos = 1
  local function at(op) local t = toks[pos] return t.kind == "op" and t.text == op end
  local function fail(message)
    local t = toks[pos]
    local what = t.kind == "end" and "end of input" or ("'" .. t.text .. "'")
    error(message .. ", found " .. what .. " at " .. t.pos, 0)
  end
  local expr, unary
  local function primary()
    local t = toks[pos]
    if t.kind == "num" then pos = pos + 1 return { kind = "num", value = t.value } end
    if t.kind == "name" then
      pos = pos + 1
      if not at("(") then return { kind = "var", name = t.text } end
      pos = pos + 1
      local args = {}
      if not at(")") then
        args[1] = expr()
        while at(",") do pos = pos + 1 args[#args + 1] = expr() end
      end
      if not at(")") then fail("expected ')' after arguments") end
      pos = pos + 1
      return { kind = "call", name = t.text, args = args }
    end
    if not at("(") then fail("expected a number, a name or '('") end
    pos = pos + 1
    local e = expr()
    if not at(")") then fail("expected ')'") end
    pos = pos + 1
    return e
  end
  local function power()
    local base = primary()
    if not at("^") then return base end
    pos = pos + 1
    return { kind = "bin", op = "^", a = base, b = unary() }
  end
  function unary()
    if not at("-") then return power() end
    pos = pos + 1
    return { kind = "neg", a = unary() }
  end
  local function term()
    local left = unary()
    while at("*") or at("/") or at("%") do
      local op = toks[pos].text
      pos = pos + 1
      left = { kind = "bin", op = op, a = left, b = unary() }
    end
    return left
  end
  function expr()
    local left = term()
    while at("+") or at("-") do
      local op = toks[pos].text
      pos = pos + 1
      left = { kind = "bin", op = op, a = left, b = term() }
    end
    return left
  end
  local statements = {}
  while toks[pos].kind ~= "end" do
    local t = toks[pos]
    if t.kind == "name" and toks[pos + 1].kind == "op" and toks[pos + 1].text == "=" then
      pos = pos + 2
      statements[#statements + 1] = { kind = "assign", name = t.text, a = expr() }
    else
      statements[#statements + 1] = expr()
    end
    if at(";") then pos = pos + 1 elseif toks[pos].kind ~= "end" then fail("expected ';' or end of input") end
  end
  return statements
end

local function overflow(a, op, b) error("overflow in " .. a .. " " .. op .. " " .. b, 0) end
local function add(a, b)
  if (b > 0 and a > MAX - b) or (b < 0 and a < MIN - b) then overflow(a, "+", b) end
  return a + b
end
local function sub(a, b)
  if (b < 0 and a > MAX + b) or (b > 0 and a < MIN + b) then overflow(a, "-", b) end
  return a - b
end
local function mul(a, b)
  if a == 0 or b == 0 then return 0 end
  local over
  if a > 0 and b > 0 then over = a > MAX // b
  elseif a < 0 and b < 0 then over = a < MAX // b
  elseif a > 0 then over = b < MIN // a
  else over = a < MIN // b end
  if over then overflow(a, "*", b) end
  return a * b
end
local function pow(a, e)
  if e < 0 then error("negative exponent " .. e, 0) end
  local result, base, n = 1, a, e
  while n > 0 do
    if n % 2 == 1 then result = mul(result, base) end
    n = n // 2
    if n > 0 then base = mul(base, base) end
  end
  return result
end
-- Semaprax's / and % truncate toward zero; Lua's floor.
local function quot(a, b) local q = a // b if q < 0 and q * b ~= a then q = q + 1 end return q end
local function binary(op, a, b)
  if op == "+" then return add(a, b) end
  if op == "-" then return sub(a, b) end
  if op == "*" then return mul(a, b) end
  if op == "^" then return pow(a, b) end
  if b == 0 then error("division by zero", 0) end
  if a == MIN and b == -1 then overflow(a, op, b) end
  if op == "/" then return quot(a, b) end
  return a - quot(a, b) * b
end
local function call(name, values)
  local n = #values
  if name == "abs" and n == 1 then
    if values[1] == MIN then overflow(0, "-", MIN) end
    return math.abs(values[1])
  end
  if (name == "min" or name == "max") and n >= 1 then
    return (name == "min" and math.min or math.max)(table.unpack(values))
  end
  if name == "gcd" and n == 2 then
    local a, b = values[1], values[2]
    while b ~= 0 do a, b = b, math.fmod(a, b) end
    if a == MIN then overflow(0, "-", MIN) end
    return math.abs(a)
  end
  error("no function " .. name .. " taking " .. n .. " arguments", 0)
end

local function eval(e, env)
  local k = e.kind
  if k == "num" then return e.value end
  if k == "var" then
    local v = env[e.name]
    if v == nil then error("unknown variable " .. e.name, 0) end
    return v
  end
  if k == "neg" then return sub(0, eval(e.a, env)) end
  if k == "bin" then return binary(e.op, eval(e.a, env), eval(e.b, env)) end
  if k == "call" then
    local values = {}
    for i, a in ipairs(e.args) do values[i] = eval(a, env) end
    return call(e.name, values)
  end
  return eval(e.a, env)
end

local n = tonumber(arg[1] or "100000")
local ok, result = pcall(function()
  local e = parse(tokenize("x * (y + 3) - z / 2 + max(x, y, 7) % 11 ^ 2 - abs(x - 500)"))[1]
  local env = { y = 17, z = 9, x = 0 }
  local sum = 0
  for i = 0, n - 1 do
    env.x = i
    sum = sum + eval(e, env)
  end
  return sum
end)
if not ok then io.write("error: ", result, "\n") os.exit(1) end
io.write("sum ", result, "\n")
