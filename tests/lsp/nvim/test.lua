-- tests/lsp/nvim/test.lua: semapraxd --lsp in a real editor. Run by
-- tests/lsp/nvim/run inside headless Neovim (0.7 or later), started in a copy
-- of examples/hello with the configuration of docs/editors.md as its init
-- file, so that the server is started and attached by Neovim's own client.
-- Opens src/app.spx and, each step synchronized with vim.wait on a condition
-- (never a fixed sleep) under a timeout: no diagnostics; an unknown function
-- typed into the buffer gives one diagnostic (message and position); removing
-- it clears it; a mis-laid buffer formats to what `semaprax fmt` writes; then,
-- each only when the server advertises it: definition of math.fact (the
-- cursor lands on its name in src/math.spx), hover (the floating window shows
-- the signature), rename math.fact to math.factorial (every buffer's text).
-- A step whose capability is not advertised prints "SKIPPED: <capability> not
-- advertised". Prints a transcript; on a mismatch prints "FAIL: ..." and
-- exits 1. Environment: SPX_CLI, the semaprax program.
local STEP_MS = 10000
local root = vim.fn.getcwd()
local cli = os.getenv("SPX_CLI")

local function say(text)
  io.stdout:write(text .. "\n")
  io.stdout:flush()
end

local function fail(text)
  error({ failure = text })
end

local function expect(condition, text)
  if not condition then
    fail(text)
  end
end

local function read_file(path)
  local file = assert(io.open(path, "rb"))
  local bytes = file:read("*a")
  file:close()
  return bytes
end

local function write_file(path, bytes)
  local file = assert(io.open(path, "wb"))
  file:write(bytes)
  file:close()
end

local function lines_of(bytes)
  local lines = vim.split(bytes, "\n", { plain = true })
  if lines[#lines] == "" then
    table.remove(lines)
  end
  return lines
end

local function buffer_text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
end

-- Waits until condition() is true, at most STEP_MS; fails saying what.
local function wait_for(what, condition)
  local started = vim.loop.hrtime()
  if not vim.wait(STEP_MS, condition, 10) then
    fail("timed out after " .. STEP_MS .. " ms waiting for " .. what)
  end
  return (vim.loop.hrtime() - started) / 1e6
end

local function describe(diagnostics)
  if #diagnostics == 0 then
    return "none"
  end
  local parts = {}
  for _, d in ipairs(diagnostics) do
    table.insert(
      parts,
      string.format("%d:%d %s [%s]", d.lnum + 1, d.col + 1, d.message, tostring(d.code))
    )
  end
  return table.concat(parts, "; ")
end

-- Every publishDiagnostics Neovim receives, counted by URI, then handled as usual.
local published = {}
local publish_handler = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  if result and result.uri then
    published[result.uri] = (published[result.uri] or 0) + 1
  end
  return publish_handler(err, result, ctx, config)
end

local function capabilities_of(client)
  return client.server_capabilities or {}
end

local function cursor_on(buf, line, text)
  local row = vim.api.nvim_buf_get_lines(buf, line - 1, line, false)[1]
  local column = row:find(text, 1, true)
  expect(column, "line " .. line .. " has no '" .. text .. "': " .. row)
  vim.api.nvim_win_set_cursor(0, { line, column - 1 })
end

local function run()
  say("nvim " .. tostring(vim.version().major) .. "." .. vim.version().minor .. "."
    .. vim.version().patch .. " in " .. root)

  -- 1. Open src/app.spx: the configuration starts semapraxd --lsp and attaches it.
  vim.cmd("edit src/app.spx")
  local app = vim.api.nvim_get_current_buf()
  local app_uri = vim.uri_from_bufnr(app)
  expect(vim.bo[app].filetype == "semaprax",
    "src/app.spx has filetype '" .. vim.bo[app].filetype .. "', not semaprax")
  local client
  local ms = wait_for("a client attached to src/app.spx and initialized", function()
    local attached = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = app })
      or vim.lsp.buf_get_clients(app)
    for _, c in pairs(attached) do
      if c.name == "semaprax" and c.initialized then
        client = c
        return true
      end
    end
    return false
  end)
  local caps = capabilities_of(client)
  say(string.format("open src/app.spx: client '%s' (id %d) initialized in %.0f ms, root %s",
    client.name, client.id, ms, client.config.root_dir))
  local advertised = {}
  for _, name in ipairs({ "documentFormattingProvider", "definitionProvider", "hoverProvider",
    "renameProvider", "referencesProvider", "completionProvider", "signatureHelpProvider",
    "semanticTokensProvider", "documentSymbolProvider", "codeActionProvider" }) do
    if caps[name] then
      table.insert(advertised, name)
    end
  end
  say("  server advertises: " .. table.concat(advertised, ", "))

  -- 2. The clean project: a list for app.spx, and it is empty.
  wait_for("the diagnostics of src/app.spx", function()
    return (published[app_uri] or 0) >= 1
  end)
  local diagnostics = vim.diagnostic.get(app)
  say("diagnostics of src/app.spx: " .. describe(diagnostics))
  expect(#diagnostics == 0, "the clean project has diagnostics: " .. describe(diagnostics))

  -- 3. An unknown function typed into the buffer (not saved).
  vim.api.nvim_buf_set_lines(app, 6, 6, false, { "    nosuch(1);" })
  say("insert line 7 '    nosuch(1);'")
  ms = wait_for("a diagnostic for the unknown function", function()
    return #vim.diagnostic.get(app) > 0
  end)
  diagnostics = vim.diagnostic.get(app)
  say(string.format("  after %.0f ms: %s", ms, describe(diagnostics)))
  expect(#diagnostics == 1, "one diagnostic expected, got: " .. describe(diagnostics))
  local d = diagnostics[1]
  expect(d.message:find("nosuch", 1, true), "the message does not name 'nosuch': " .. d.message)
  expect(d.lnum == 6 and d.col == 4,
    string.format("the diagnostic is at %d:%d, not at 7:5 where 'nosuch' starts",
      d.lnum + 1, d.col + 1))
  expect(d.severity == vim.diagnostic.severity.ERROR, "the diagnostic is not an error")
  expect(d.source == "semaprax", "the diagnostic's source is " .. tostring(d.source))

  -- 4. Removing it clears the diagnostic.
  vim.api.nvim_buf_set_lines(app, 6, 7, false, {})
  say("delete line 7")
  ms = wait_for("the diagnostic to clear", function()
    return #vim.diagnostic.get(app) == 0
  end)
  say(string.format("  after %.0f ms: %s", ms, describe(vim.diagnostic.get(app))))

  -- 5. Formatting a mis-laid buffer gives semaprax fmt's layout.
  local canonical = read_file(root .. "/src/app.spx")
  local messy = {}
  for _, line in ipairs(lines_of(canonical)) do
    local text = line:gsub("^%s+", "")
    if not text:find('"', 1, true) then
      text = text:gsub("%(", " ( "):gsub(",", " ,")
    end
    if text ~= "" and not text:find("^//") then
      text = string.rep(" ", #messy % 3) .. text .. "  "
    end
    table.insert(messy, text)
  end
  table.insert(messy, "")
  vim.api.nvim_buf_set_lines(app, 0, -1, false, messy)
  local scratch = vim.fn.tempname() .. ".spx"
  write_file(scratch, buffer_text(app))
  local fmt = vim.fn.system({ cli, "fmt", scratch })
  expect(vim.v.shell_error == 0, "semaprax fmt failed: " .. fmt)
  local expected = read_file(scratch)
  expect(expected ~= buffer_text(app), "semaprax fmt did not change the mis-laid text")
  say(string.format("lay out the buffer badly (%d lines); semaprax fmt makes %d lines of it",
    #messy, #lines_of(expected)))
  expect(caps.documentFormattingProvider, "documentFormattingProvider is not advertised")
  if vim.lsp.buf.format then
    vim.lsp.buf.format({ bufnr = app, timeout_ms = STEP_MS })
  else
    vim.lsp.buf.formatting_sync(nil, STEP_MS)
  end
  local formatted = buffer_text(app)
  if formatted ~= expected then
    fail("the formatted buffer differs from semaprax fmt's output:\n--- buffer\n" .. formatted
      .. "--- semaprax fmt\n" .. expected)
  end
  say("  formatting: the buffer is semaprax fmt's output, byte for byte ("
    .. (formatted == canonical and "the file's own bytes again" or "not the file's bytes")
    .. ")")
  wait_for("no diagnostics after formatting", function()
    return #vim.diagnostic.get(app) == 0
  end)

  -- 6. Go to the definition of math.fact (line 8: itos(math.fact(5))).
  local math_path = root .. "/src/math.spx"
  local math_line = 2 -- "export fn fact(n: int) -> int {"
  if not caps.definitionProvider then
    say("SKIPPED: definitionProvider not advertised (go to definition of math.fact)")
  else
    cursor_on(app, 8, "fact(5)")
    vim.lsp.buf.definition()
    say("definition of math.fact from src/app.spx:8")
    ms = wait_for("the cursor in src/math.spx", function()
      return vim.api.nvim_buf_get_name(0) == math_path
    end)
    local cursor = vim.api.nvim_win_get_cursor(0)
    local row = vim.api.nvim_buf_get_lines(0, cursor[1] - 1, cursor[1], false)[1]
    say(string.format("  after %.0f ms: src/math.spx:%d:%d '%s'", ms, cursor[1], cursor[2] + 1,
      row))
    local name_column = row:find("fact", 1, true)
    expect(cursor[1] == math_line and name_column and cursor[2] == name_column - 1,
      string.format("the cursor is at src/math.spx:%d:%d, not on fact's name at %d:11",
        cursor[1], cursor[2] + 1, math_line))
    vim.cmd("buffer " .. app)
  end

  -- 7. Hover on math.fact: the floating window holds its signature.
  if not caps.hoverProvider then
    say("SKIPPED: hoverProvider not advertised (hover on math.fact)")
  else
    cursor_on(app, 8, "fact(5)")
    local before = {}
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      before[win] = true
    end
    vim.lsp.buf.hover()
    local float
    ms = wait_for("a hover window", function()
      for _, win in ipairs(vim.api.nvim_list_wins()) do
        if not before[win] and vim.api.nvim_win_get_config(win).relative ~= "" then
          float = win
          return true
        end
      end
      return false
    end)
    local shown = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false)
    say(string.format("hover on math.fact, after %.0f ms:", ms))
    for _, line in ipairs(shown) do
      say("  | " .. line)
    end
    local text = table.concat(shown, "\n")
    expect(text:find("fn fact(n: int) -> int", 1, true),
      "the hover does not show the signature 'fn fact(n: int) -> int'")
    vim.api.nvim_win_close(float, true)
  end

  -- 8. Rename math.fact to math.factorial: every buffer's edits.
  if not caps.renameProvider then
    say("SKIPPED: renameProvider not advertised (rename math.fact)")
  else
    local math_bytes = read_file(math_path)
    local app_before = buffer_text(app)
    cursor_on(app, 8, "fact(5)")
    vim.lsp.buf.rename("factorial")
    say("rename math.fact to factorial from src/app.spx:8")
    local want = {
      [app] = (app_before:gsub("math%.fact%(", "math.factorial(")),
    }
    local want_math = math_bytes:gsub("fn fact%(", "fn factorial("):gsub("%* fact%(", "* factorial(")
    ms = wait_for("the rename's edits in src/app.spx and src/math.spx", function()
      local math_buf = vim.fn.bufnr(math_path)
      return math_buf ~= -1 and vim.api.nvim_buf_is_loaded(math_buf)
        and buffer_text(math_buf) ~= math_bytes and buffer_text(app) ~= app_before
    end)
    want[vim.fn.bufnr(math_path)] = want_math
    say(string.format("  after %.0f ms:", ms))
    for _, buf in ipairs(vim.api.nvim_list_bufs()) do
      local name = vim.api.nvim_buf_get_name(buf)
      if vim.api.nvim_buf_is_loaded(buf) and name:find("%.spx$") then
        local relative = name:sub(#root + 2)
        local text = buffer_text(buf)
        local expected_text = want[buf] or read_file(name)
        local changed = {}
        for i, line in ipairs(lines_of(text)) do
          if line:find("factorial", 1, true) then
            table.insert(changed, i)
          end
        end
        say(string.format("  %s: 'factorial' on lines %s", relative,
          #changed > 0 and table.concat(changed, ", ") or "none"))
        if text ~= expected_text then
          fail("after the rename " .. relative .. " is not as expected:\n--- buffer\n" .. text
            .. "--- expected\n" .. expected_text)
        end
      end
    end
    local renamed = select(2, buffer_text(app):gsub("math%.factorial%(", ""))
    expect(renamed == 3, "src/app.spx has " .. renamed .. " calls of math.factorial, not 3")
    expect(buffer_text(app):find("math.fact(", 1, true) == nil,
      "src/app.spx still calls math.fact")
    wait_for("no diagnostics after the rename", function()
      return #vim.diagnostic.get(app) == 0
    end)
    say("  no diagnostics in src/app.spx after the rename")
  end
  say("done")
end

local ok, err = pcall(run)
if ok then
  vim.cmd("qall!")
else
  local text = type(err) == "table" and err.failure or ("error: " .. tostring(err))
  say("FAIL: " .. text)
  vim.cmd("cquit 1")
end
