#!/usr/bin/env python3
"""blocktime_table.py - blocks per SM and cycles per tile from block records.

  blocktime_table.py H100.csv [REP]        the H100's records (blocktime.cu's CSV)
  blocktime_table.py --gpusim KERNEL N DUMP  gpusim's: DUMP is `gpusim --dump rec_naive`
                                           or `rec_tiled` of tests/validation/micro/blocktime.s
                                           run with -D N=N (KERNEL naive_mm or tiled_mm)

For each launch: the SMs used, how many blocks each SM got, the SM-active
average over 132 SMs (last warp end - first block start per SM), and for
tiled_mm the median cycles of a block's first tile and of its later tiles,
by the number of blocks on its SM.
"""
import collections
import csv
import statistics as st
import sys


def gpusim_rows(kernel, n, path):
    v = [int(float(x)) for x in open(path) if x.strip()]
    for b in range((n // 16) ** 2):
        q = v[b * 64:(b + 1) * 64]
        tiles = ';'.join(str(q[16 + t]) for t in range(min(n // 16, 48))) if kernel == 'tiled_mm' else ''
        yield {'kernel': kernel, 'n': str(n), 'rep': '1', 'block': str(b), 'smid': str(q[0]),
               'clock_start': str(q[2]), 'warp_end_max': str(max(q[3:11])), 'tile_ends': tiles}


def table(rows, rep=None):
    groups = collections.defaultdict(list)
    for r in rows:
        if rep is None or int(r['rep']) == rep:
            groups[(r['kernel'], int(r['n']), int(r['rep']))].append(r)
    for key, rs in sorted(groups.items()):
        per = collections.defaultdict(list)
        for r in rs:
            per[int(r['smid'])].append(r)
        shape = dict(sorted(collections.Counter(len(v) for v in per.values()).items()))
        active = sum(max(int(r['warp_end_max']) for r in v) - min(int(r['clock_start']) for r in v) for v in per.values())
        print('%s %d^3 (rep %d): %d SMs used, blocks per SM %s, SM-active average over 132 SMs %.0f'
              % (key[0], key[1], key[2], len(per), shape, active / 132))
        tiles = collections.defaultdict(list)
        for v in per.values():
            for r in v:
                if r['tile_ends']:
                    te = [int(x) for x in r['tile_ends'].split(';')]
                    d = [te[0] - int(r['clock_start'])] + [te[i] - te[i - 1] for i in range(1, len(te))]
                    tiles[len(v)].append((d[0], st.median(d[1:]) if len(d) > 1 else 0))
        for k, v in sorted(tiles.items()):
            print('  %d block(s) on the SM: first tile %.0f cycles, later tiles %.0f (medians)'
                  % (k, st.median(x[0] for x in v), st.median(x[1] for x in v)))


if __name__ == '__main__':
    if len(sys.argv) >= 5 and sys.argv[1] == '--gpusim':
        table(gpusim_rows(sys.argv[2], int(sys.argv[3]), sys.argv[4]))
    elif len(sys.argv) >= 2:
        table(csv.DictReader(open(sys.argv[1])), int(sys.argv[2]) if len(sys.argv) > 2 else None)
    else:
        sys.exit(__doc__)
