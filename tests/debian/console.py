#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""
A small expect for a QEMU console on stdio (tests/debian/uboot.sh): runs a
command, writes everything it prints to a log, and plays a dialogue of
steps on it, in order, each step once (no retry):

  expect:<seconds>:<regex>   wait until <regex> (Python re, MULTILINE)
                             matches the output after the previous match
  send:<text>                write <text> to the command's stdin (the
                             escapes \\r, \\n and \\\\ are decoded)
  eof:<seconds>              wait until the command exits
  abort:<regex>              from here on, an expect step that sees <regex>
                             (after the previous match) fails at once

For every expect and eof step one line on stdout:
  STEP <n> ok <seconds since start> <the matched text, first 200 chars>
  STEP <n> timeout <seconds since start>
  STEP <n> eof <seconds since start>      (the command ended first)
  STEP <n> abort <seconds> <the abort regex's match, first 200 chars>
  EXIT <status>                           (after eof, or after a failed step,
                                           when the command has been stopped)
A failed step ends the dialogue: the command is then stopped (SIGTERM, then
SIGKILL 5 s later) and the exit status is 1; else 0.

Usage: console.py --log FILE [--step STEP]... -- command [args...]
"""
import argparse
import os
import re
import select
import signal
import subprocess
import sys
import time


def decode(text):
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == '\\' and i + 1 < len(text):
            out.append({'r': '\r', 'n': '\n', '\\': '\\'}.get(text[i + 1], '\\' + text[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--log', required=True)
    ap.add_argument('--step', action='append', default=[])
    ap.add_argument('command', nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.command[1:] if args.command[:1] == ['--'] else args.command
    if not cmd:
        ap.error('no command')

    start = time.monotonic()
    log = open(args.log, 'wb')
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    fd = proc.stdout.fileno()
    os.set_blocking(fd, False)
    text = ''      # all output so far, decoded (for matching)
    mark = 0       # where the next expect starts looking
    eof = False
    abort = None   # the abort step's pattern

    def pump(deadline):
        """Read what is there (up to the deadline); False at end of output."""
        nonlocal text, eof
        wait = max(0.0, deadline - time.monotonic())
        ready, _, _ = select.select([fd], [], [], min(wait, 0.5))
        if not ready:
            return True
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return True
        if not data:
            eof = True
            return False
        log.write(data)
        log.flush()
        text += data.decode('utf-8', 'replace').replace('\r', '')
        return True

    def say(line):
        print(line, flush=True)

    def stop():
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()

    status = 0
    for n, step in enumerate(args.step, 1):
        kind, _, rest = step.partition(':')
        if kind == 'send':
            try:
                proc.stdin.write(decode(rest).encode())
                proc.stdin.flush()
            except BrokenPipeError:
                pass
            continue
        if kind == 'abort':
            abort = re.compile(rest, re.MULTILINE)
            continue
        if kind == 'expect':
            secs, _, regex = rest.partition(':')
            pattern = re.compile(regex, re.MULTILINE)
            deadline = time.monotonic() + float(secs)
            while True:
                m = pattern.search(text, mark)
                if m:
                    mark = m.end()
                    say('STEP %d ok %.1f %s' % (n, time.monotonic() - start,
                                                m.group(0)[:200].replace('\n', ' ')))
                    break
                a = abort.search(text, mark) if abort else None
                if a:
                    mark = a.end()
                    say('STEP %d abort %.1f %s' % (n, time.monotonic() - start,
                                                   a.group(0)[:200].replace('\n', ' ')))
                    status = 1
                    break
                if eof:
                    say('STEP %d eof %.1f' % (n, time.monotonic() - start))
                    status = 1
                    break
                if time.monotonic() >= deadline:
                    say('STEP %d timeout %.1f' % (n, time.monotonic() - start))
                    status = 1
                    break
                pump(deadline)
        elif kind == 'eof':
            deadline = time.monotonic() + float(rest)
            while not eof and time.monotonic() < deadline:
                pump(deadline)
            if eof:
                proc.wait()
                say('STEP %d ok %.1f end of output' % (n, time.monotonic() - start))
            else:
                say('STEP %d timeout %.1f' % (n, time.monotonic() - start))
                status = 1
        else:
            sys.exit('console.py: unknown step %r' % step)
        if status:
            break
    stop()
    # what is left of the output after the command ended
    while not eof and pump(time.monotonic() + 1):
        pass
    log.close()
    say('EXIT %d' % proc.returncode)
    return status


if __name__ == '__main__':
    sys.exit(main())
