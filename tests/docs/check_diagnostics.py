#!/usr/bin/env python3
"""tests/docs/check_diagnostics.py: every program of docs/diagnostics.md
gives its code.

    check_diagnostics.py DIAGNOSTICS_MD SEMAPRAX SEMAPRAXD

Each example in the page is a fenced block whose info string is
`example CODE [MODE]`, holding one or more files, each introduced by a line
`== PATH` (or `== PATH printf`: C escapes \\xHH \\r \\t \\0 \\\\ are decoded;
or `== PATH python`: a Python expression giving the bytes of a file too
large to print). Without a `semaprax.toml`, the manifest declares each
`.spx` file as a module named after its stem (and, in MODE test, one test
`t` = `app.t`, also in MODE unrun; options after MODE test, such as `--max-steps N`, are given
to `semaprax test`). MODE check (the default): `semaprax check --format json`
must report exactly the code, and nothing else. MODE test: `semaprax test
--envelope` must record the code as a test's failure. MODE daemon:
`semapraxd` must answer `workspace/open` with -32011 and the code in
`data.diagnostics`. MODE among: the code must be among those `check`
reports (limits on counts of diagnostics give others first). MODE refused:
`semaprax check` must refuse the input before parsing it (exit 2, "over the
limit"): the code is the parser's, which the programs never reach with such
a file. MODE unrun: a run-time failure too costly to reach on every check
of the page (R0525: 5 x 10^7 steps); the program must check without any
diagnostic, and the engine's own suite reaches the code through a lowered
limit. Every code
the page's tables list must have an example.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"^```example (\S+)(?: (\w+))?((?: --[a-z-]+ \S+)*)\n(.*?)^```$", re.M | re.S)


def decode(text, how):
    if how == "python":
        value = eval(text, {"__builtins__": {"range": range}}, {})  # the page's own expressions
        return value if isinstance(value, bytes) else value.encode("utf-8")
    if how == "printf":
        out = bytearray()
        i = 0
        raw = text.encode("utf-8")
        while i < len(raw):
            if raw[i:i + 1] == b"\\" and i + 1 < len(raw):
                c = raw[i + 1:i + 2]
                if c == b"x":
                    out.append(int(raw[i + 2:i + 4], 16))
                    i += 4
                    continue
                out += {b"r": b"\r", b"t": b"\t", b"0": b"\0", b"n": b"\n", b"\\": b"\\"}[c]
                i += 2
                continue
            out.append(raw[i])
            i += 1
        return bytes(out)
    return text.encode("utf-8")


def files_of(body):
    files = []
    for part in re.split(r"^== ", body, flags=re.M)[1:]:
        header, _, content = part.partition("\n")
        words = header.split()
        how = words[1] if len(words) > 1 else "text"
        if how == "python":
            content = content.strip()
        files.append((words[0], decode(content, how)))
    return files


def manifest_for(files, mode):
    lines = ['manifest = "semaprax.project-manifest.v1"', "[project]", 'name = "example"',
             'version = "0.1.0"']
    for path, _bytes in files:
        if path.endswith(".spx"):
            module = os.path.splitext(os.path.basename(path))[0]
            lines += ["[[source]]", 'module = "%s"' % module, 'path = "%s"' % path]
    if mode in ("test", "unrun"):
        lines += ["[[test]]", 'name = "t"', 'function = "app.t"']
    return ("\n".join(lines) + "\n").encode()


def codes_of_check(semaprax, root):
    run = subprocess.run([semaprax, "check", "--format", "json"], cwd=root,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if run.returncode not in (0, 1):
        return None, run.stderr.decode("utf-8", "replace")
    return [d["code"] for d in json.loads(run.stdout)["diagnostics"]], ""


def codes_of_test(semaprax, root, options):
    envelope = os.path.join(root, "envelope.json")
    run = subprocess.run([semaprax, "test", "--envelope", envelope] + options, cwd=root,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if not os.path.exists(envelope):
        return None, (run.stdout + run.stderr).decode("utf-8", "replace")
    with open(envelope) as f:
        tests = json.load(f)["tests"]
    return [t["failure"]["code"] for t in tests if "failure" in t], ""


def codes_of_daemon(semapraxd, root):
    request = b'{"jsonrpc":"2.0","id":1,"method":"workspace/open"}\n'
    run = subprocess.run([semapraxd, "--stdio"], cwd=root, input=request,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    response = json.loads(run.stdout.splitlines()[0])
    error = response.get("error", {})
    if error.get("code") != -32011:
        return None, "workspace/open answered %r" % response
    return [d["code"] for d in error["data"]["diagnostics"]], ""


def main():
    page, semaprax, semapraxd = sys.argv[1:4]
    with open(page, encoding="utf-8") as f:
        text = f.read()
    listed = set(re.findall(r"^\| `?([ERW][0-9]{4})`? \|", text, re.M))
    failures = []
    seen = set()
    for match in BLOCK.finditer(text):
        code, mode, body = match.group(1), match.group(2) or "check", match.group(4)
        options = match.group(3).split()
        seen.add(code)
        files = files_of(body)
        with tempfile.TemporaryDirectory() as root:
            for path, content in files:
                os.makedirs(os.path.dirname(os.path.join(root, path)) or root, exist_ok=True)
                with open(os.path.join(root, path), "wb") as f:
                    f.write(content)
            if mode != "daemon" and not any(p == "semaprax.toml" for p, _c in files):
                with open(os.path.join(root, "semaprax.toml"), "wb") as f:
                    f.write(manifest_for(files, mode))
            if mode in ("check", "among"):
                codes, why = codes_of_check(semaprax, root)
            elif mode == "refused":
                run = subprocess.run([semaprax, "check"], cwd=root, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
                refused = run.returncode == 2 and b"over the limit" in run.stderr
                codes, why = ([code] if refused else None), run.stderr.decode("utf-8", "replace")
            elif mode == "test":
                codes, why = codes_of_test(semaprax, root, options)
            elif mode == "unrun":
                codes, why = codes_of_check(semaprax, root)
                codes = [code] if codes == [] else codes
            else:
                codes, why = codes_of_daemon(semapraxd, root)
        if mode == "among":
            good = codes is not None and code in codes
        else:
            good = codes is not None and set(codes) == {code}
        if not good:
            counts = {c: codes.count(c) for c in sorted(set(codes))} if codes else codes
            failures.append("%s (%s): expected %s, got %s %s" % (code, mode, code, counts, why[:300]))
    for code in sorted(listed - seen):
        failures.append("%s is listed but has no example" % code)
    for code in sorted(seen - listed):
        failures.append("%s has an example but is not in a table" % code)
    for failure in failures:
        print(failure)
    if failures:
        print("%d failed" % len(failures))
        return 1
    print("%d examples each give exactly their code (%d codes listed)" % (len(seen), len(listed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
