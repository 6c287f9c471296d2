#!/usr/bin/env python3
# Phase A throughput benchmark input generator (tests/bench/run uses it; it is
# not part of ctest). Writes a synthetic, valid Semaprax project of about
# --lines lines into OUT/spx (semaprax.toml plus one .spx file per module) and
# an equivalent Lua program into OUT/lua (the same functions and statements)
# for `luac5.4 -p`. By default the Lua program is one file, OUT/lua/all.lua,
# each module wrapped in `do ... end`, because luac 5.4.4 (Debian bookworm)
# aborts with a double free when given more than one file; --lua-per-module
# writes one .lua file per module instead. Python 3 standard library only.
#
# Every module m<i> (i > 0) imports m<i-1> and, when i > 1, one more earlier
# module, and calls their exported functions. Each function has lets/vars, a
# while loop, if/else, string concatenation, a local call and a cross-module
# call; f0 of every module is recursive.
import argparse
import os
import sys

SIZES = {"10k": 10_000, "100k": 100_000, "1m": 1_000_000}


def deps_of(i):
    if i == 0:
        return []
    if i == 1:
        return [0]
    return [i - 1, (i * 7919) % (i - 1)]


def spx_function(i, k, deps):
    """One Semaprax function; returns a list of lines."""
    if k == 0:
        return [
            "// f0: recursion and string concatenation.",
            "export fn f0(n: int, s: str) -> int {",
            "  if n <= 1 {",
            "    return len(s);",
            "  }",
            '  let t = s + "x";',
            "  return n + f0(n - 1, t);",
            "}",
            "",
        ]
    d = deps[k % len(deps)] if deps else None
    call = "m%d.f%d(i, tag)" % (d, k) if d is not None else "f%d(i, tag)" % (k - 1)
    return [
        "// f%d: loops, branches, a local and a cross-module call." % k,
        "export fn f%d(n: int, s: str) -> int {" % k,
        "  var acc: int = n * %d;" % (k + 1),
        "  var i = 0;",
        '  let tag: str = s + "-" + itos(n);',
        "  while i < n {",
        "    if i %% 3 == 0 && n > %d {" % (k % 7),
        "      acc = acc + %s;" % call,
        "    } else if i % 3 == 1 {",
        "      acc = acc - i * 2 + f%d(i, s);" % (k - 1),
        "    } else {",
        "      acc = (acc + 7) / 2;",
        "    }",
        "    i = i + 1;",
        "  }",
        '  var msg: str = "m%df%d:\\t";' % (i, k),
        "  msg = msg + itos(acc) + tag;",
        "  if len(msg) > 100 || !(acc != 0) {",
        '    print(msg + "\\n");',
        "    return acc % 1000;",
        "  }",
        "  return acc + len(msg);",
        "}",
        "",
    ]


def lua_function(i, k, deps):
    """The same function in Lua 5.4; returns a list of lines."""
    if k == 0:
        return [
            "-- f0: recursion and string concatenation.",
            "function M.f0(n, s)",
            "  if n <= 1 then",
            "    return #s",
            "  end",
            '  local t = s .. "x"',
            "  return n + M.f0(n - 1, t)",
            "end",
            "",
        ]
    d = deps[k % len(deps)] if deps else None
    call = "m%d.f%d(i, tag)" % (d, k) if d is not None else "M.f%d(i, tag)" % (k - 1)
    return [
        "-- f%d: loops, branches, a local and a cross-module call." % k,
        "function M.f%d(n, s)" % k,
        "  local acc = n * %d" % (k + 1),
        "  local i = 0",
        '  local tag = s .. "-" .. tostring(n)',
        "  while i < n do",
        "    if i %% 3 == 0 and n > %d then" % (k % 7),
        "      acc = acc + %s" % call,
        "    elseif i % 3 == 1 then",
        "      acc = acc - i * 2 + M.f%d(i, s)" % (k - 1),
        "    else",
        "      acc = (acc + 7) // 2",
        "    end",
        "    i = i + 1",
        "  end",
        '  local msg = "m%df%d:\\t"' % (i, k),
        "  msg = msg .. tostring(acc) .. tag",
        "  if #msg > 100 or not (acc ~= 0) then",
        '    print(msg .. "\\n")',
        "    return acc % 1000",
        "  end",
        "  return acc + #msg",
        "end",
        "",
    ]


def generate(out, lines, modules, funcs, lua_per_module):
    spx_dir = os.path.join(out, "spx")
    lua_dir = os.path.join(out, "lua")
    os.makedirs(os.path.join(spx_dir, "src"), exist_ok=True)
    os.makedirs(lua_dir, exist_ok=True)
    per_fn = 24  # lines of a typical function (f1..), blank line included
    if modules is None:
        modules = max(1, round(lines / 1000))
    if funcs is None:
        funcs = max(2, round((lines / modules - 4) / per_fn))
    if modules > 4096 or funcs > 65536:
        sys.exit("gen_project: over the declared-sources or functions-per-module limit")
    manifest = [
        "# Synthetic Phase A benchmark project (tests/bench/gen_project.py).",
        'manifest = "semaprax.project-manifest.v1"',
        "",
        "[project]",
        'name = "bench"',
        'version = "0.1.0"',
        "",
    ]
    spx_lines = lua_lines = spx_bytes = lua_bytes = 0
    lua_all = None if lua_per_module else open(os.path.join(lua_dir, "all.lua"), "w", newline="\n")
    for i in range(modules):
        deps = deps_of(i)
        spx = ["// Synthetic benchmark module m%d." % i]
        spx += ["import m%d;" % d for d in deps]
        spx.append("")
        lua = ["-- Synthetic benchmark module m%d." % i, "local M = {}"]
        lua += ['local m%d = require("m%d")' % (d, d) for d in deps]
        lua.append("")
        for k in range(funcs):
            spx += spx_function(i, k, deps)
            lua += lua_function(i, k, deps)
        lua.append("return M")
        spx_text = "\n".join(spx) + "\n"
        lua_text = "\n".join(lua) + "\n"
        with open(os.path.join(spx_dir, "src", "m%d.spx" % i), "w", newline="\n") as f:
            f.write(spx_text)
        if lua_all is None:
            with open(os.path.join(lua_dir, "m%d.lua" % i), "w", newline="\n") as f:
                f.write(lua_text)
        else:
            lua_text = "do\n" + lua_text + "end\n"
            lua_all.write(lua_text)
        spx_lines += spx_text.count("\n")
        lua_lines += lua_text.count("\n")
        spx_bytes += len(spx_text.encode())
        lua_bytes += len(lua_text.encode())
        manifest += ["[[source]]", 'module = "m%d"' % i, 'path = "src/m%d.spx"' % i, ""]
    if lua_all is not None:
        lua_all.close()
    with open(os.path.join(spx_dir, "semaprax.toml"), "w", newline="\n") as f:
        f.write("\n".join(manifest))
    # One summary line for the runner: modules functions spx_lines spx_bytes lua_lines lua_bytes
    print(modules, funcs, spx_lines, spx_bytes, lua_lines, lua_bytes)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out", help="folder to write spx/ and lua/ into")
    ap.add_argument("--size", choices=sorted(SIZES), help="target total lines: 10k, 100k or 1m")
    ap.add_argument("--lines", type=int, help="target total lines (overrides --size)")
    ap.add_argument("--modules", type=int, help="number of modules (default: lines/1000)")
    ap.add_argument("--functions", type=int, help="functions per module (default: from lines)")
    ap.add_argument("--lua-per-module", action="store_true",
                    help="one .lua file per module instead of lua/all.lua")
    a = ap.parse_args()
    lines = a.lines or SIZES.get(a.size or "10k")
    generate(a.out, lines, a.modules, a.functions, a.lua_per_module)


if __name__ == "__main__":
    main()
