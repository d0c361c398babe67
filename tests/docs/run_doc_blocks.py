#!/usr/bin/python3
"""Runs every ```sh, ```bash and ```python block of one Markdown file and fails on an error.

    run_doc_blocks.py DOC.md --source-dir REPO --build-dir BUILD [--work-dir DIR]

The conventions (docs/ARCHITECTURE.md, "Tested documentation"):

* Blocks run in a fresh work folder that looks like the repository root: every top-level entry
  of the repository is a symbolic link into it, except `build/`, `docs/` and `results/`, which
  are real folders (docs/ holds links to the documents and an empty img/), so a block writes
  its files there and never into the source tree. `build/release/clearsim` and `clearsim` (on
  PATH) are a wrapper around the build's command line; `build/release/python` and PYTHONPATH
  are the build's Python module. MPLBACKEND=Agg.
* Shell blocks run with `bash -e -o pipefail`, each in its own shell. Every Python block of a
  document runs in one interpreter, in order, sharing its variables like notebook cells.
* ```text, ```yaml, ```cmake and untagged blocks are output or file excerpts: not run.
* An HTML comment right before a block's opening fence (blank lines allowed) changes how it runs:
    <!-- docs-test: skip — REASON -->        not run; the reason is printed (it is required)
    <!-- docs-test: set PATH=VALUE — NOTE -->
                                             every `clearsim run|check|sweep` of the block gets
                                             `--set PATH=VALUE` appended (shortens long runs;
                                             the value has no spaces; a note may follow)
    <!-- docs-test: before COMMAND -->       a shell command run first (e.g. making the file a
                                             block reads); its failure fails the block
  Several directives go in one comment separated by `;` (a skip takes the rest of its
  comment as its reason) or in several comments.
* A block fails on a non-zero exit status or a Python exception; the failure names the file,
  the block's line and prints its output.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

RUN_LANGS = {"sh": "sh", "bash": "sh", "shell": "sh", "python": "python", "py": "python"}
FENCE = re.compile(r"^(```+|~~~+)\s*([\w+-]*)")
DIRECTIVE = re.compile(r"<!--\s*docs-test:(.*?)-->", re.S)


class Block:
    def __init__(self, line, lang, code, directives):
        self.line, self.lang, self.code, self.directives = line, lang, code, directives

    def sets(self):
        return [arg for kind, arg in self.directives if kind == "set"]

    def befores(self):
        return [arg for kind, arg in self.directives if kind == "before"]

    def skip_reason(self):
        for kind, arg in self.directives:
            if kind == "skip":
                return arg
        return None


def parse_directives(text, doc, line):
    out = []
    for body in DIRECTIVE.findall(text):
        # A skip's reason is the rest of the comment, `;` included.
        parts = [body] if body.strip().startswith("skip") else body.split(";")
        for part in parts:
            part = part.strip()
            if not part:
                continue
            kind, _, arg = part.partition(" ")
            arg = arg.strip()
            if kind == "skip":
                arg = arg.lstrip("—–-: ").strip()
                if not arg:
                    raise SystemExit(f"{doc}:{line}: docs-test: skip needs a reason")
            elif kind == "set" and "=" in arg:
                arg = arg.split()[0]  # what follows PATH=VALUE is a note
            elif kind not in ("set", "before") or not arg:
                raise SystemExit(f"{doc}:{line}: unknown docs-test directive '{part}' "
                                 "(skip REASON, set PATH=VALUE, before COMMAND)")
            out.append((kind, arg))
    return out


def parse_blocks(path, name):
    """Every fenced block to run, with its 1-based opening line and the directives before it."""
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks, pending, k = [], [], 0
    while k < len(lines):
        m = FENCE.match(lines[k])
        if not m:
            if "docs-test:" in lines[k]:
                start = k
                while "-->" not in lines[k] and k + 1 < len(lines):
                    k += 1
                pending += parse_directives("\n".join(lines[start:k + 1]), name, start + 1)
            elif lines[k].strip():
                pending = []  # a directive applies to the block right after it only
            k += 1
            continue
        fence, lang, opening = m.group(1), m.group(2).lower(), k
        k += 1
        body = []
        while k < len(lines) and not lines[k].startswith(fence):
            body.append(lines[k])
            k += 1
        k += 1
        if lang in RUN_LANGS:
            blocks.append(Block(opening + 1, RUN_LANGS[lang], "\n".join(body) + "\n", pending))
        elif pending:
            raise SystemExit(f"{name}:{opening + 1}: docs-test directive before a block that "
                             f"is not run (```{lang})")
        pending = []
    return blocks


WRAPPER = """#!/bin/sh
# The build's clearsim with the block's `docs-test: set` overrides appended to run/check/sweep.
case "$1" in
  run|check|sweep) exec {cli} "$@" $CLEARSIM_DOCS_TEST_SET ;;
  *) exec {cli} "$@" ;;
esac
"""


def make_work_dir(work, source, build):
    """A folder that looks like the repository root (see the module's docstring)."""
    for entry in os.listdir(source):
        if entry in ("build", "docs", "results") or entry.startswith(".git"):
            continue
        os.symlink(os.path.join(source, entry), os.path.join(work, entry))
    os.makedirs(os.path.join(work, "docs", "img"))
    for entry in os.listdir(os.path.join(source, "docs")):
        if entry != "img":
            os.symlink(os.path.join(source, "docs", entry), os.path.join(work, "docs", entry))
    release = os.path.join(work, "build", "release")
    os.makedirs(release)
    os.symlink(os.path.join(build, "python"), os.path.join(release, "python"))
    wrapper = os.path.join(release, "clearsim")
    with open(wrapper, "w") as f:
        f.write(WRAPPER.format(cli=os.path.join(build, "clearsim")))
    os.chmod(wrapper, 0o755)
    return release


# The interpreter that runs a document's Python blocks: it reads one request per line on stdin
# ({"code", "line", "log"}), runs the code in one shared namespace with fds 1 and 2 (the C++
# progress bar included) sent to the log, and answers "ok" or "error" on the pipe DOCS_TEST_STATUS_FD.
KERNEL = r"""
import json, os, sys, traceback
status = os.fdopen(int(os.environ["DOCS_TEST_STATUS_FD"]), "w")
namespace = {"__name__": "__main__"}
for request in sys.stdin:
    r = json.loads(request)
    sys.stdout.flush(); sys.stderr.flush()
    log = os.open(r["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    saved = os.dup(1), os.dup(2)
    os.dup2(log, 1); os.dup2(log, 2)
    ok = True
    try:
        exec(compile(r["code"], r["name"], "exec"), namespace)
    except BaseException:
        ok = False
        traceback.print_exc()
    sys.stdout.flush(); sys.stderr.flush()
    os.dup2(saved[0], 1); os.dup2(saved[1], 2)
    for fd in (log, *saved):
        os.close(fd)
    status.write("ok\n" if ok else "error\n"); status.flush()
"""


class PythonKernel:
    def __init__(self, cwd, env):
        read, write = os.pipe()
        self.proc = subprocess.Popen([sys.executable, "-c", KERNEL], cwd=cwd,
                                     env=dict(env, DOCS_TEST_STATUS_FD=str(write)),
                                     stdin=subprocess.PIPE, text=True, pass_fds=(write,))
        os.close(write)
        self.status = os.fdopen(read)

    def run(self, code, name, log):
        self.proc.stdin.write(json.dumps({"code": code, "name": name, "log": log}) + "\n")
        self.proc.stdin.flush()
        answer = self.status.readline().strip()
        if not answer:
            return False, f"(the Python interpreter died, exit status {self.proc.wait()})\n"
        return answer == "ok", None

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def run_doc(doc, source, build, work):
    rel = os.path.relpath(doc, source)
    blocks = parse_blocks(doc, rel)
    release = make_work_dir(work, source, build)
    env = dict(os.environ, PATH=release + os.pathsep + os.environ.get("PATH", ""),
               PYTHONPATH=os.path.join(build, "python"), MPLBACKEND="Agg",
               PYTHONDONTWRITEBYTECODE="1")
    kernel = None
    failures = 0
    for k, b in enumerate(blocks):
        where = f"{rel}:{b.line}"
        reason = b.skip_reason()
        if reason:
            print(f"{where}: skipped ({b.lang}): {reason}")
            continue
        log = os.path.join(work, f".block_{k}.log")
        block_env = dict(env, CLEARSIM_DOCS_TEST_SET=" ".join("--set " + s for s in b.sets()))
        start = time.monotonic()
        ok, note = True, None
        for command in b.befores():
            r = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", command], cwd=work,
                               env=block_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if r.returncode != 0:
                ok = False
                note = f"(before: `{command}` exited with {r.returncode})\n" + r.stdout.decode()
                break
        if ok and b.lang == "sh":
            with open(log, "wb") as out:
                r = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", b.code], cwd=work,
                                   env=block_env, stdout=out, stderr=subprocess.STDOUT)
            ok = r.returncode == 0
            note = None if ok else f"(exit status {r.returncode})\n"
        elif ok:
            if kernel is None:
                kernel = PythonKernel(work, env)
            # Line numbers of a traceback are the document's: the code is padded to its line.
            ok, note = kernel.run("\n" * b.line + b.code, rel, log)
        output = open(log, errors="replace").read() if os.path.exists(log) else ""
        seconds = time.monotonic() - start
        if ok:
            print(f"{where}: ok ({b.lang}, {seconds:.1f} s)")
        else:
            failures += 1
            print(f"{where}: FAILED ({b.lang}, {seconds:.1f} s)\n--- block ---\n{b.code}"
                  f"--- output ---\n{output}{note or ''}--- end of {where} ---")
        sys.stdout.flush()
    if kernel:
        kernel.close()
    print(f"{rel}: {len(blocks)} blocks, {failures} failed")
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("doc")
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--work-dir", help="where the blocks run (default: a temporary folder, "
                    "removed afterwards unless a block failed)")
    a = ap.parse_args()
    source, build = os.path.abspath(a.source_dir), os.path.abspath(a.build_dir)
    doc = os.path.abspath(a.doc)
    if a.work_dir:
        shutil.rmtree(a.work_dir, ignore_errors=True)
        os.makedirs(a.work_dir)
        return 1 if run_doc(doc, source, build, os.path.abspath(a.work_dir)) else 0
    work = tempfile.mkdtemp(prefix="clearsim_docs_")
    failures = run_doc(doc, source, build, work)
    if failures:
        print(f"(the blocks' files are kept in {work})")
    else:
        shutil.rmtree(work)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
