#!/usr/bin/env python3
"""compare_ptx_runs.py DIR [DIR...] - where a GPU and gpusim differ on the
random programs of tests/test_exec_diff.c (run_ptx.cu says how they are made
and run).  For each program: the registers (thread, register) whose bits
differ; by opcode, how many programs that use it differ (with one
instruction a program, BODY = 1, that names the instruction)."""
import collections
import glob
import os
import re
import sys

NREG, NPRED = 6, 4
SLOTS = 4 * NREG + NPRED
PREFIX = ["%r", "%rd", "%f", "%fd"]


def slot_name(i):
    return "%s%d" % (PREFIX[i // NREG], i % NREG) if i < 4 * NREG else "%%p%d" % (i - 4 * NREG)


def width(i):   # bytes a slot's register holds
    return 8 if i < 4 * NREG and i // NREG in (1, 3) else 4 if i < 4 * NREG else 1


def body(ptx):
    """The program's own lines: after the last setup load, before the stores."""
    lines = ptx.split("\n")
    last = "ld.global.f64 %%fd%d, [%%ta+%d];" % (NREG - 1, (4 * NREG - 1) * 8)   # the setup's last load
    start = next(i for i, l in enumerate(lines) if l.strip() == last)
    end = next(i for i, l in enumerate(lines) if "ld.param.u64 %ta, [pout]" in l)
    return [l.strip() for l in lines[start + 1:end]]


def opcode(line):
    line = re.sub(r"^@!?%\w+ ", "", line)
    return line.split(" ")[0].rstrip(";")


def main():
    by_op = collections.defaultdict(lambda: [0, 0])
    examples = collections.defaultdict(list)
    total = differ = 0
    for d in sys.argv[1:]:
        for gpu in sorted(glob.glob(os.path.join(d, "p*.gpu")), key=lambda p: int(re.findall(r"p(\d+)\.gpu", p)[0])):
            base = gpu[:-4]
            a = [int(x, 16) for x in open(gpu).read().split()]
            b = [int(x, 16) for x in open(base + ".gpusim").read().split()]
            lines = body(open(base + ".ptx").read())
            # the program's instructions, not the loops' and branches' scaffolding
            ops = {opcode(l) for l in lines if not l.startswith("$") and "bra " not in l and "%lc" not in l and "%lp" not in l}
            total += 1
            diffs = []
            for i, (x, y) in enumerate(zip(a, b)):
                s = i % SLOTS
                m = (1 << (8 * width(s))) - 1
                if (x & m) != (y & m):
                    diffs.append((i // SLOTS, slot_name(s), x & m, y & m))
            for op in ops:
                by_op[op][1] += 1
                if diffs:
                    by_op[op][0] += 1
            if diffs:
                differ += 1
                key = " / ".join(sorted(ops))
                if len(examples[key]) < 3:
                    examples[key].append((base, lines, diffs[:3], len(diffs)))
    print("%d programs, %d differ" % (total, differ))
    for op, (nd, n) in sorted(by_op.items(), key=lambda kv: (-kv[1][0], kv[0])):
        if nd:
            print("  %-28s %4d of %4d programs differ" % (op, nd, n))
    for key, exs in sorted(examples.items()):
        for base, lines, diffs, n in exs:
            print("\n%s (%d registers differ): %s" % (os.path.basename(base), n, " | ".join(l for l in lines if not l.startswith("ld.global"))[:300]))
            for t, reg, x, y in diffs:
                print("    thread %d %s: GPU %x, gpusim %x" % (t, reg, x, y))


if __name__ == "__main__":
    main()
