#!/usr/bin/env python3
"""Per-kernel register / shared-memory / SASS-instruction summary from
`cuobjdump -res-usage` and `cuobjdump -sass` output (standard library only).
usage: sass_summary.py OUT.csv NAME1.res-usage.txt NAME1.sass [NAME2.res-usage.txt NAME2.sass ...]
Columns: file,kernel,registers,shared_bytes,local_bytes,sass_instructions,opcodes
(sass_instructions counts every instruction up to the function's EXIT-padding:
trailing NOPs and the final self-branch are left out; opcodes lists
opcode:count, most frequent first, opcode = mnemonic before the first '.')."""
import re, sys, csv, os
from collections import Counter

def res_usage(path):
    out, name = {}, None
    for line in open(path):
        m = re.match(r"\s*Function (\S+):", line)
        if m: name = m.group(1); continue
        if name and "REG:" in line:
            f = dict(re.findall(r"(\w+(?:\[\d+\])?):(\d+)", line))
            out[name] = (int(f.get("REG", 0)), int(f.get("SHARED", 0)), int(f.get("LOCAL", 0)))
            name = None
    return out

def sass(path):
    out = {}
    for part in re.split(r"\n\s*Function : ", open(path).read())[1:]:
        name = part.split("\n", 1)[0].strip()
        ops = re.findall(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)[^;]*;", part)
        while ops and ops[-1] == "NOP": ops.pop()
        if ops and ops[-1] == "BRA": ops.pop()
        out[name] = ops
    return out

def main(argv):
    w = csv.writer(open(argv[0], "w", newline=""), lineterminator="\n")
    w.writerow(["file", "kernel", "registers", "shared_bytes", "local_bytes", "sass_instructions", "opcodes"])
    for ru, sa in zip(argv[1::2], argv[2::2]):
        base = os.path.basename(sa).rsplit(".", 1)[0]
        r, s = res_usage(ru), sass(sa)
        for k in sorted(s):
            reg, sh, lo = r.get(k, ("", "", ""))
            c = Counter(s[k])
            w.writerow([base, k, reg, sh, lo, len(s[k]), " ".join("%s:%d" % kv for kv in c.most_common())])

if __name__ == "__main__":
    main(sys.argv[1:])
