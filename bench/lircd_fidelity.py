#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""lircd.conf fidelity on Debian's lirc-compat-remotes: for every file,
irsimsend (LIRC's transmit code) writes every button of every remote, each
sent COUNT times (-c 1: one press; -c 3: a button held for three frames),
then irsimreceive (lircd's decoder) and irjack (tests/tools/lirc_decode_tool)
read the same timings.  Prints, per COUNT, the frames LIRC names and how many
of them irjack names the same (code, button, remote, in order), and the files
where the two part ways (-v: every one).

Usage: bench/lircd_fidelity.py LIRC_DECODE_TOOL [-v] [REMOTES_DIR]
  (LIRC_DECODE_TOOL is build/tests/lirc_decode_tool; REMOTES_DIR defaults
  to /usr/share/lirc/remotes, from Debian's lirc-compat-remotes)
"""
import difflib
import glob
import os
import shutil
import subprocess
import sys
import tempfile


def run(cmd, cwd, stdin=None):
    return subprocess.run(cmd, cwd=cwd, stdin=stdin, capture_output=True, text=True,
                          timeout=120)


def lines3(text):
    """(code, key, remote) of lircd-style output lines."""
    out = []
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 4 and len(f[0]) == 16:
            out.append((f[0].lower(), f[2], " ".join(f[3:])))
    return out


def one_file(tool, conf, count, tmp):
    """(frames LIRC names, frames irjack names the same) for one file."""
    local = os.path.join(tmp, "remote.conf")
    out = os.path.join(tmp, "simsend.out")
    shutil.copy(conf, local)
    if os.path.exists(out):
        os.remove(out)
    sent = run(["irsimsend", "-s", "1000000", "-c", str(count), local], tmp)
    if sent.returncode != 0 or not os.path.exists(out):
        return 0, 0
    lirc = lines3(run(["irsimreceive", local, out], tmp).stdout)
    timings = os.path.join(tmp, "timings.mode2")
    with open(out) as f, open(timings, "w") as t:
        t.writelines(l for l in f if l.startswith(("pulse", "space")))
    with open(timings) as f:
        ours = lines3(run([tool, "decode", local], tmp, stdin=f).stdout)
    sm = difflib.SequenceMatcher(a=lirc, b=ours, autojunk=False)
    return len(lirc), sum(b.size for b in sm.get_matching_blocks())


def main():
    args = [a for a in sys.argv[1:] if a != "-v"]
    verbose = "-v" in sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    tool = os.path.abspath(args[0])
    remotes = args[1] if len(args) > 1 else "/usr/share/lirc/remotes"
    confs = sorted(glob.glob(remotes + "/**/lircd.conf*", recursive=True))
    if not confs or not shutil.which("irsimsend"):
        print("needs irsimsend (lirc) and lircd.conf files under " + remotes)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        for count in (1, 3):
            total = same = 0
            misses = []
            for conf in confs:
                t, s = one_file(tool, conf, count, tmp)
                total += t
                same += s
                if s < t:
                    misses.append("  %s: %d / %d" % (os.path.relpath(conf, remotes), s, t))
            print("irsimsend -c %d, %d files: frames irjack names as LIRC does: %d / %d" %
                  (count, len(confs), same, total), flush=True)
            for m in misses if verbose else misses[:10]:
                print(m)
            if not verbose and len(misses) > 10:
                print("  ... and %d more files (-v)" % (len(misses) - 10))
    return 0


if __name__ == "__main__":
    sys.exit(main())
