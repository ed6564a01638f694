#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Instructions Linux executes from reset to its first user-mode instruction.

QEMU runs with -icount shift=0,sleep=off: its instruction counter (icount)
is then the number of guest instructions all harts together executed since
reset, in every privilege mode (firmware, kernel). Idle time (every hart in
wfi) makes the virtual clock jump ahead but executes nothing, and is not in it.

The count is taken at an exact point, not sampled: QEMU starts paused, a
breakpoint is set through its gdbstub (spoken to directly, no gdb needed) on
the entry point of the initramfs' /init, and when it hits, before the first
instruction of PID 1, QMP query-replay returns QEMU's raw icount.

With one hart the count is the same in every run. With several, QEMU's
round-robin scheduling of the harts is not exactly reproducible and the count
varies by a few hundredths of a percent; bench/run.sh takes the median of
several boots. A fixed devicetree (--dtb, dumped once with --dump-dtb, so the
rng-seed is always the same) and a virtual-clock RTC keep the rest fixed.

Usage: linux_boot.py [--smp N] [--timeout S] [--dtb F] <fw.bin> <Image> <init> <workdir>
       linux_boot.py [--smp N] --dump-dtb F <fw.bin> <Image>
Prints "LINUX-BOOT <instructions> <seconds>" or "LINUX-BOOT-FAIL <reason>".
"""
import argparse
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time


def elf_entry(path):
    with open(path, "rb") as f:
        hdr = f.read(64)
    if hdr[:4] != b"\x7fELF" or hdr[4] != 2:
        raise ValueError(f"{path}: not a 64-bit ELF")
    etype = struct.unpack_from("<H", hdr, 16)[0]
    if etype != 2:
        raise ValueError(f"{path}: not ET_EXEC (position-dependent)")
    return struct.unpack_from("<Q", hdr, 24)[0]


def connect_unix(path, deadline):
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            s.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


class Qmp:
    def __init__(self, path, deadline):
        self.sock = connect_unix(path, deadline)
        self.file = self.sock.makefile("rwb")
        self._read()  # greeting
        self.cmd("qmp_capabilities")

    def _read(self):
        line = self.file.readline()
        if not line:
            raise EOFError("QMP connection closed")
        return json.loads(line)

    def cmd(self, name, **args):
        msg = {"execute": name}
        if args:
            msg["arguments"] = args
        self.file.write(json.dumps(msg).encode() + b"\n")
        self.file.flush()
        while True:
            reply = self._read()
            if "event" in reply:
                continue
            if "error" in reply:
                raise RuntimeError(f"QMP {name}: {reply['error']}")
            return reply["return"]


class Gdb:
    """The few packets of the GDB remote protocol this needs."""

    def __init__(self, path, deadline):
        self.sock = connect_unix(path, deadline)
        self.buf = b""

    def send(self, data):
        csum = sum(data.encode()) & 0xFF
        self.sock.sendall(f"${data}#{csum:02x}".encode())

    def recv(self, timeout):
        self.sock.settimeout(timeout)
        while True:
            start = self.buf.find(b"$")
            if start >= 0:
                end = self.buf.find(b"#", start)
                if end >= 0 and len(self.buf) >= end + 3:
                    pkt = self.buf[start + 1:end].decode(errors="replace")
                    self.buf = self.buf[end + 3:]
                    self.sock.sendall(b"+")
                    return pkt
            chunk = self.sock.recv(4096)
            if not chunk:
                raise EOFError("gdbstub connection closed")
            self.buf += chunk

    def request(self, data, timeout=10):
        self.send(data)
        return self.recv(timeout)


def qemu_args(args):
    """The machine: the same for the devicetree dump and for every boot."""
    return ["qemu-system-riscv64", "-M", "virt", "-cpu", "rv64,sscofpmf=true",
            "-smp", str(args.smp), "-m", "512M", "-icount", "shift=0,sleep=off",
            "-rtc", "base=2024-01-01T00:00:00,clock=vm", "-display", "none",
            "-bios", args.firmware, "-kernel", args.image,
            "-append", "console=ttyS0 quiet"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smp", type=int, default=4)
    ap.add_argument("--timeout", type=float, default=60, help="seconds to reach init")
    ap.add_argument("--dtb", help="boot with this devicetree (-dtb)")
    ap.add_argument("--dump-dtb", metavar="PATH",
                    help="only write QEMU's devicetree for this machine to PATH")
    ap.add_argument("firmware")
    ap.add_argument("image")
    ap.add_argument("init", nargs="?", help="the initramfs' /init (its ELF entry is the stop)")
    ap.add_argument("workdir", nargs="?")
    args = ap.parse_args()
    if args.dump_dtb:
        cmd = qemu_args(args)
        cmd[2] = f"virt,dumpdtb={args.dump_dtb}"
        return subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode
    if not args.init or not args.workdir:
        ap.error("init and workdir are needed to boot")
    work, limit = args.workdir, args.timeout
    os.makedirs(work, exist_ok=True)
    try:
        entry = elf_entry(args.init)
    except (OSError, ValueError) as e:
        print(f"LINUX-BOOT-FAIL {e}")
        return 1
    # sockets in a short private directory: a socket path has ~100 bytes at most
    sockdir = tempfile.mkdtemp(prefix="tally-bench-")
    qmp_path = os.path.join(sockdir, "qmp")
    gdb_path = os.path.join(sockdir, "gdb")
    log = os.path.join(work, "console.log")
    cmd = qemu_args(args) + [
        "-monitor", "none", "-serial", f"file:{log}", "-S", "-no-shutdown",
        "-qmp", f"unix:{qmp_path},server=on,wait=off",
        "-chardev", f"socket,id=gdb0,path={gdb_path},server=on,wait=off",
        "-gdb", "chardev:gdb0"]
    if args.dtb:
        cmd += ["-dtb", args.dtb]
    qemu = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    start = time.monotonic()
    deadline = start + limit
    try:
        qmp = Qmp(qmp_path, time.monotonic() + 10)
        gdb = Gdb(gdb_path, time.monotonic() + 10)
        gdb.request("?")
        if gdb.request(f"Z0,{entry:x},4") != "OK":
            print("LINUX-BOOT-FAIL gdbstub refused the breakpoint")
            return 1
        gdb.send("c")
        try:
            gdb.recv(max(1, deadline - time.monotonic()))
        except socket.timeout:
            print(f"LINUX-BOOT-FAIL init not reached in {limit:.0f} s (see {log})")
            return 1
        if qmp.cmd("query-status")["status"] == "shutdown":
            print(f"LINUX-BOOT-FAIL the machine shut down before init (see {log})")
            return 1
        to_init = qmp.cmd("query-replay")["icount"]
        print(f"LINUX-BOOT {to_init} {time.monotonic() - start:.1f}")
        try:
            qmp.cmd("quit")
        except (EOFError, OSError):
            pass
        return 0
    except (OSError, EOFError, RuntimeError, ValueError) as e:
        err = qemu.stderr.read().decode(errors="replace").strip() if qemu.poll() is not None else ""
        print(f"LINUX-BOOT-FAIL {e} {err}".strip())
        return 1
    finally:
        if qemu.poll() is None:
            qemu.terminate()
            try:
                qemu.wait(5)
            except subprocess.TimeoutExpired:
                qemu.kill()
                qemu.wait()
        shutil.rmtree(sockdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
