#!/usr/bin/env python3
"""tests/cli/terminal.py: the terminal view of `semaprax check` and
`semaprax test` (transport/cli_view.c), run under a pseudo-terminal, and the
plain output everywhere else.

    terminal.py SEMAPRAX EXAMPLES

On a terminal: diagnostics in colour with the source line and a caret under
the span, control bytes of the source shown as '?'; a progress line per test
and a summary table, a failing test's whole output line by line with its
control characters escaped, only the selected tests of `test NAME...`. With
NO_COLOR set and not empty: the same without any escape sequence. A CR LF
source with a byte order mark shows its line without
either. Through a pipe: exactly the plain lines (no escape, no source
line), and the exit statuses and the envelope file are the same on a
terminal and off it.
"""
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

FAILURES = []


def expect(condition, what, output=b""):
    if not condition:
        FAILURES.append(what)
        print("FAILED: %s\n%s" % (what, output.decode("utf-8", "replace")))


# Written by the shell after the command has exited, on the same terminal:
# everything the command wrote comes before it.
END_MARK = b"\n--- run_tty: the command has exited ---\n"


def run_tty(argv, cwd, env):
    """Exit status and output of argv with stdin, stdout and stderr on a
    pseudo-terminal (its CR LF line ends made LF).

    The output is read up to END_MARK rather than until the master reads EIO:
    once the last slave descriptor is closed, a Linux master may answer EIO
    while output is still buffered and lose it (seen in CI). This process
    keeps its slave descriptor open until the mark has been read."""
    master, slave = os.openpty()
    wrapped = ["sh", "-c", '"$@"; status=$?; printf "%s" "$0"; exit $status',
               END_MARK.decode()] + list(argv)
    process = subprocess.Popen(wrapped, cwd=cwd, env=env, stdin=slave, stdout=slave, stderr=slave)
    output = b""
    deadline = time.monotonic() + 120
    while END_MARK.replace(b"\n", b"\r\n") not in output and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 1.0)
        if ready:
            output += os.read(master, 65536)
    os.close(slave)
    os.close(master)
    output = output.replace(b"\r\n", b"\n")
    if not output.endswith(END_MARK):
        process.kill()
        return None, output
    return process.wait(), output[: -len(END_MARK)]


def run_pipe(argv, cwd, env):
    run = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return run.returncode, run.stdout


def main():
    semaprax, examples = sys.argv[1], sys.argv[2]
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["TERM"] = "xterm"
    no_colour = dict(env, NO_COLOR="1")
    work = tempfile.mkdtemp()
    try:
        # A project with a checker diagnostic, a source line with a control
        # byte and one with a UTF-8-encoded surrogate (ED A0 80, invalid).
        broken = os.path.join(work, "broken")
        shutil.copytree(os.path.join(examples, "hello"), broken)
        with open(os.path.join(broken, "src/text.spx"), "ab") as f:
            f.write(b"fn oops() -> int { return \"a\" + 1; }\n// bell \x07 here\n"
                    b"// surrogate \xed\xa0\x80 here\n")
        check = [semaprax, "check"]

        status, plain = run_pipe(check, broken, env)
        expect(status == 1, "check through a pipe exits 1", plain)
        expect(b"\x1b" not in plain and b" | " not in plain,
               "check through a pipe prints no escape and no source line", plain)
        lines = plain.decode().splitlines()
        expect(lines[0].startswith("src/text.spx:20:31: error[E0405]: ")
               and lines[1] == "src/text.spx:20:33: note: use itos(1) to make a str of an int"
               and lines[2].startswith("src/text.spx:21:9: error[E0205]: ")
               and lines[3].startswith("src/text.spx:22:14: error[E0203]: ")
               and lines[4] == "semaprax: 3 diagnostics" and len(lines) == 5,
               "check through a pipe prints exactly the plain lines", plain)

        status, coloured = run_tty(check, broken, env)
        expect(status == 1, "check on a terminal exits 1 too", coloured)
        expect(b"\x1b[1;31merror\x1b[0m" in coloured, "check on a terminal colours 'error'", coloured)
        expect(b'fn oops() -> int { return "a" + 1; }\n' in coloured,
               "check on a terminal shows the source line", coloured)
        expect(b"// bell ? here\n" in coloured and b"\x07" not in coloured,
               "a control byte of the source is shown as '?'", coloured)
        expect(b"// surrogate ??? here\n" in coloured and b"\xed" not in coloured,
               "each byte of an encoded surrogate is shown as '?'", coloured)

        # no-color.org: NO_COLOR present but empty does not turn colour off.
        status, empty = run_tty(check, broken, dict(env, NO_COLOR=""))
        expect(status == 1, "check with an empty NO_COLOR exits 1", empty)
        expect(b"\x1b[1;31merror\x1b[0m" in empty,
               "check with an empty NO_COLOR still colours 'error'", empty)

        status, bare = run_tty(check, broken, no_colour)
        expect(status == 1, "check with NO_COLOR exits 1", bare)
        expect(b"\x1b" not in bare, "check with NO_COLOR prints no escape sequence", bare)
        text = bare.decode()
        expect(" 20 | fn oops() -> int { return \"a\" + 1; }\n    |                               ^\n" in text,
               "check with NO_COLOR shows the line and a caret under the span", bare)
        expect(" 22 | // surrogate ??? here\n    |              ^^^\n" in text,
               "an encoded surrogate is three columns, each under a caret", bare)
        expect("src/text.spx:20:31: error[E0405]: " in text and "semaprax: 3 diagnostics" in text,
               "check on a terminal keeps the plain first line and the summary", bare)

        # CR LF line ends and a leading byte order mark: the source line is
        # shown without its CR and without the mark, the caret under the span.
        crlf = os.path.join(work, "crlf")
        shutil.copytree(os.path.join(examples, "hello"), crlf)
        for name in ("semaprax.toml", "src/app.spx", "src/math.spx", "src/text.spx",
                     "src/words.spx"):
            path = os.path.join(crlf, name)
            with open(path, "rb") as f:
                data = f.read()
            if name == "src/math.spx":
                data = b"fn oops() -> int { return \"a\" + 1; }\n" + data
            with open(path, "wb") as f:
                f.write(b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n"))
        status, plain = run_pipe(check, crlf, env)
        expect(status == 1 and plain.decode().splitlines()[0].startswith("src/math.spx:1:34: error[E0405]: "),
               "check through a pipe: the mark's bytes count in the column", plain)
        status, bare = run_tty(check, crlf, no_colour)
        text = bare.decode("utf-8", "replace")
        expect(" 1 | fn oops() -> int { return \"a\" + 1; }\n   |                               ^\n" in text,
               "a CR LF line with a mark is shown without either, the caret under the span", bare)

        # Suggestions and notes: a "= help:" line under the caret, the
        # message without its "did you mean" end, a "note:" line with its
        # own source line; a warning is yellow.
        hinted = os.path.join(work, "hinted")
        shutil.copytree(os.path.join(examples, "hello"), hinted)
        with open(os.path.join(hinted, "src/text.spx"), "ab") as f:
            f.write(b"fn dup() { }\nfn dup() { let count = 1; print(itos(cont)); }\n")
        status, bare = run_tty(check, hinted, no_colour)
        text = bare.decode("utf-8", "replace")
        expect(status == 1, "check with a suggestion exits 1", bare)
        expect("src/text.spx:21:38: error[E0308]: unknown name 'cont'\n"
               " 21 | fn dup() { let count = 1; print(itos(cont)); }\n"
               "    |                                      ^^^^\n"
               "   = help: did you mean 'count'?\n" in text,
               "a suggestion is a help line under the caret", bare)
        expect("src/text.spx:21:4: error[E0305]: function 'dup' is already defined in module 'text'\n"
               " 21 | fn dup() { let count = 1; print(itos(cont)); }\n"
               "    |    ^^^\n"
               "src/text.spx:20:4: note: first declared here\n"
               " 20 | fn dup() { }\n"
               "    |    ^^^\n" in text,
               "a note follows its diagnostic with its own source line", bare)
        _status, plain = run_pipe(check, hinted, env)
        expect("src/text.spx:20:4: note: first declared here\n" in plain.decode()
               and "unknown name 'cont'; did you mean 'count'?\n" in plain.decode(),
               "through a pipe the note is a plain line and the suggestion ends the message", plain)
        warned = os.path.join(work, "warned")
        shutil.copytree(os.path.join(examples, "hello"), warned)
        with open(os.path.join(warned, "src/text.spx"), "ab") as f:
            f.write(b"fn unused() { }\n")
        status, coloured = run_tty(check, warned, env)
        expect(status == 0 and b"\x1b[1;33mwarning\x1b[0m" in coloured,
               "a warning is yellow and does not fail the check", coloured)

        # The example's tests, one made to fail.
        tests = os.path.join(work, "tests")
        shutil.copytree(os.path.join(examples, "hello"), tests)
        math = os.path.join(tests, "src/math.spx")
        with open(math) as f:
            source = f.read()
        with open(math, "w") as f:
            f.write(source.replace("return fib(1) - 1;", "return fib(1);"))
        envelope_pipe = os.path.join(work, "pipe.json")
        envelope_tty = os.path.join(work, "tty.json")
        status, plain = run_pipe([semaprax, "test", "--envelope", envelope_pipe], tests, env)
        expect(status == 1 and b"\x1b" not in plain and b"running" not in plain,
               "test through a pipe: exit 1, plain lines", plain)
        expect(plain.decode().splitlines()[1] == "test fib (math.test_fib) ... failed, 95 steps, returned 1",
               "test through a pipe prints the plain line per test", plain)

        status, shown = run_tty([semaprax, "test", "--envelope", envelope_tty], tests, env)
        expect(status == 1, "test on a terminal exits 1 too", shown)
        expect(b"[1/4] fact ... running" in shown and b"[4/4] words" in shown,
               "test on a terminal shows a progress line per test", shown)
        expect(b"fib (math.test_fib) ... \x1b[1;31mfailed\x1b[0m, 95 steps" in shown,
               "test on a terminal colours the outcome", shown)
        expect(b"outcome" in shown and b"passed                  3" in shown
               and b"failed                  1" in shown and b"total                   4" in shown,
               "test on a terminal prints the summary table", shown)
        with open(envelope_pipe, "rb") as a, open(envelope_tty, "rb") as b:
            expect(a.read() == b.read(), "the envelope is the same on a terminal and off it")

        status, bare = run_tty([semaprax, "test"], tests, no_colour)
        expect(status == 1 and b"\x1b" not in bare and b"failed                  1" in bare,
               "test with NO_COLOR: the table, no escape sequence", bare)

        # A failing test's output in full: its newlines are lines, each after
        # "    | ", its control characters escaped; the same through a pipe.
        # Only the selected tests run, counted in the progress line.
        noisy = os.path.join(work, "noisy")
        os.makedirs(os.path.join(noisy, "src"))
        with open(os.path.join(noisy, "semaprax.toml"), "w") as f:
            f.write('manifest = "semaprax.project-manifest.v1"\n\n[project]\nname = "noisy"\n'
                    'version = "1.0.0"\n\n[[source]]\nmodule = "app"\npath = "src/app.spx"\n\n'
                    '[[test]]\nname = "quiet"\nfunction = "app.test_quiet"\n\n'
                    '[[test]]\nname = "loud"\nfunction = "app.test_loud"\n\n'
                    '[[test]]\nname = "deep"\nfunction = "app.test_deep"\n')
        with open(os.path.join(noisy, "src/app.spx"), "w") as f:
            f.write('fn down(n: int) -> int { if n == 0 { return 0; } return down(n - 1); }\n'
                    'fn test_quiet() -> int { return 0; }\n'
                    'fn test_loud() -> int {\n'
                    '    var i = 0;\n'
                    '    while i < 300 { print("line " + itos(i) + "\\n"); i = i + 1; }\n'
                    '    print("bell" + chr(7) + " esc" + chr(27) + "[31m red" + chr(13) + "\\tend");\n'
                    '    return 1;\n'
                    '}\n'
                    'fn test_deep() -> int { return down(300); }\n')
        loud = [semaprax, "test", "loud", "deep", "--max-bytes", "65536"]
        expected_lines = b"".join(b"    | line %d\n" % i for i in range(300))
        expected_last = b"    | bell\\x07 esc\\x1b[31m red\\r\tend\n"
        status, plain = run_pipe(loud, noisy, env)
        expect(status == 1 and b"    output (" in plain and expected_lines + expected_last in plain,
               "test through a pipe: a failing test's output in full, line by line", plain)
        expect(b"\x1b" not in plain and b"\x07" not in plain and b"\r" not in plain,
               "test through a pipe: the output's control characters escaped", plain)
        expect(b"error[R0510]: call depth exhausted: calling 'app.down' would exceed the call-depth "
               b"limit of 256; raise --max-call-depth (now 256)\n" in plain,
               "test through a pipe: out of depth says --max-call-depth", plain)
        status, shown = run_tty(loud, noisy, env)
        expect(status == 1 and b"[1/2] loud ... running" in shown and b"[2/2] deep" in shown
               and b"quiet" not in shown,
               "test NAME... on a terminal: only the selected tests, counted", shown)
        expect(expected_lines + expected_last in shown,
               "test on a terminal: a failing test's output in full, newlines as newlines", shown)
        expect(b"\x07" not in shown and b"\x1b[31m" not in shown and b"red\r" not in shown,
               "test on a terminal: the output's control characters escaped", shown)
        expect(b"; raise --max-call-depth (now 256)" in shown,
               "test on a terminal: out of depth says --max-call-depth", shown)
        status, bare = run_tty(loud, noisy, no_colour)
        expect(status == 1 and b"\x1b" not in bare and expected_lines + expected_last in bare,
               "test with NO_COLOR: the output in full, no escape sequence", bare)
        status, _ = run_tty([semaprax, "test", "deep", "--max-call-depth", "400"], noisy, env)
        expect(status == 0, "--max-call-depth 400 lets down(300) pass on a terminal too")

        # graph and context: the outline on a terminal (what --format text
        # prints anywhere), their JSON through a pipe (what --format json
        # prints anywhere); a project that is not admitted shows check's
        # view of its diagnostics.
        hello = os.path.join(examples, "hello")
        for query in (["graph"], ["context", "--target", "function:math.fib"]):
            status, outline = run_tty([semaprax] + query, hello, env)
            _status, forced = run_pipe([semaprax] + query + ["--format", "text"], hello, env)
            expect(status == 0 and outline == forced and outline.startswith(
                b"project hello\n" if query == ["graph"] else b"context of function:math.fib: "),
                "%s on a terminal prints the outline, as --format text does" % query[0], outline)
            expect(b"\x1b" not in outline, "%s's outline has no escape sequence" % query[0], outline)
            status, piped = run_pipe([semaprax] + query, hello, env)
            status_json, tty_json = run_tty([semaprax] + query + ["--format", "json"], hello, env)
            expect(status == 0 and status_json == 0 and piped.startswith(b"{") and tty_json == piped,
                   "%s through a pipe prints its JSON, as --format json does on a terminal"
                   % query[0], piped)
        status, shown = run_tty([semaprax, "graph"], broken, no_colour)
        text = shown.decode("utf-8", "replace")
        expect(status == 1 and " 20 | fn oops() -> int { return \"a\" + 1; }\n" in text
               and "semaprax: the project is not admitted (3 diagnostics)\n" in text
               and "module app (" not in text,
               "graph on a terminal of a project not admitted shows check's view, no outline", shown)
        status, plain = run_pipe([semaprax, "graph", "--format", "text"], broken, env)
        expect(status == 1 and plain == b"", "graph --format text of it prints nothing on stdout",
               plain)

        # JSON documents are never decorated.
        status, tty_json = run_tty(check + ["--format", "json"], broken, env)
        _status, pipe_json = run_pipe(check + ["--format", "json"], broken, env)
        expect(tty_json == pipe_json, "check --format json is the same on a terminal", tty_json)
    finally:
        shutil.rmtree(work)
    if FAILURES:
        print("%d failed" % len(FAILURES))
        return 1
    print("the terminal view, NO_COLOR and the plain output behave as documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
