'use strict';
(function () {
const D = JSON.parse(document.getElementById('trace-data').textContent);
const WS = D.ws;
const NS = D.states.length;
const SPACE = ['none', 'global', 'shared', 'const', 'local', 'param'];
/* state colours and meanings (docs/architecture.md) */
const SC = {
  selected: ['#2ca02c', 'issued an instruction this cycle'],
  not_selected: ['#a6dba0', 'ready, but its scheduler issued another warp'],
  wait: ['#ffd92f', 'waiting on a fixed-latency unit (ALU, FMA, DP, constant/param loads)'],
  long_scoreboard: ['#d62728', 'a register it needs waits on a global or local memory load'],
  short_scoreboard: ['#ff7f0e', 'a register it needs waits on shared memory, a shuffle or the SFU'],
  barrier: ['#9467bd', 'waiting at bar.sync for the rest of its block'],
  membar: ['#e377c2', 'a membar/fence waiting for its earlier memory accesses'],
  math_pipe_throttle: ['#1f77b4', 'the SP, DP or SFU pipe it needs is busy'],
  mio_throttle: ['#17becf', 'the shared-memory pipe is busy (bank-conflict replays)'],
  lg_throttle: ['#8c564b', 'the global/local memory pipe is busy'],
  no_instruction: ['#b0b0b0', 'its first instruction is not fetched yet'],
  branch_resolving: ['#9ecae1', 'after a control transfer, waiting for the target instruction'],
  dispatch_stall: ['#636363', 'dispatch stall'],
  imc_miss: ['#bcbd22', 'immediate-constant cache miss'],
  drain: ['#dddddd', 'exited, waiting for its memory accesses to finish']
};
const COL = D.states.map(function (n) { return (SC[n] || ['#888', n])[0]; });
const $ = function (id) { return document.getElementById(id); };
function fmt(n) { return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
function hex(n) { return '0x' + n.toString(16); }
function esc(s) { return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'); }
function pop(m) { m = m >>> 0; let c = 0; while (m) { m &= m - 1; c++; } return c; }
const srcText = {};
D.source.forEach(function (p) { srcText[p[0]] = p[1]; });
/* memory accesses worth a badge in the timeline: a bank conflict ("32-way")
 * or more sectors than its lanes need ("32 sectors") */
const memBad = D.M.map(function (m) {
  const det = m[5] || [];
  if (m[0] === 2 && det.length && det[2] > 0) return { conflict: true, label: det[3] + '-way' };
  if ((m[0] === 1 || m[0] === 4) && det.length) {
    const ideal = Math.max(1, Math.ceil(pop(m[3]) * m[1] / D.sector));
    if (det[1] > ideal) return { conflict: false, label: det[1] + ' sectors' };
  }
  return null;
});

/* ---- rows ---- */
const rows = D.rows.map(function (a, k) {
  const L = D.launches[a[0]] || [0, 1, 1, 1, 1, 1, 1];
  const threads = L[1] * L[2] * L[3];
  let valid = 0;
  for (let l = 0; l < WS; l++) if (a[5] * WS + l < threads) valid |= (1 << l);
  const S = D.S[k], I = D.I[k];
  const ns = S.length / 4, ni = I.length / 5;
  const sFrom = new Float64Array(ns), sTo = new Float64Array(ns), sState = new Uint8Array(ns), sLine = new Uint32Array(ns);
  let t = 0;
  for (let i = 0; i < ns; i++) {
    t += S[4 * i]; sFrom[i] = t; t += S[4 * i + 1]; sTo[i] = t; sState[i] = S[4 * i + 2]; sLine[i] = S[4 * i + 3];
  }
  const iCyc = new Float64Array(ni), iPc = new Uint32Array(ni), iAct = new Uint32Array(ni), iExec = new Uint32Array(ni), iMem = new Int32Array(ni);
  t = 0;
  for (let i = 0; i < ni; i++) {
    t += I[5 * i]; iCyc[i] = t; iPc[i] = I[5 * i + 1]; iAct[i] = I[5 * i + 2] >>> 0;
    iExec[i] = (I[5 * i + 2] ^ I[5 * i + 3]) >>> 0; iMem[i] = I[5 * i + 4] - 1;
  }
  /* uniform: every issue had all the warp's threads active (never diverged) */
  let uniform = true;
  const bad = [];
  for (let i = 0; i < ni; i++) {
    if (iAct[i] !== valid >>> 0) uniform = false;
    if (iMem[i] >= 0 && memBad[iMem[i]]) bad.push(i);
  }
  let start = ns ? sFrom[0] : (ni ? iCyc[0] : 0), end = ns ? sTo[ns - 1] : (ni ? iCyc[ni - 1] + 1 : 0);
  if (ni && iCyc[0] < start) start = iCyc[0];
  if (ni && iCyc[ni - 1] + 1 > end) end = iCyc[ni - 1] + 1;
  return { k: k, launch: a[0], cta: a[1], cid: [a[2], a[3], a[4]], warp: a[5], sm: a[6], slot: a[7],
           entry: L[0], valid: valid >>> 0, sFrom: sFrom, sTo: sTo, sState: sState, sLine: sLine,
           iCyc: iCyc, iPc: iPc, iAct: iAct, iExec: iExec, iMem: iMem, start: start, end: end,
           uniform: uniform, bad: bad, hi: [] };
});
function blockName(r) {
  const L = D.launches[r.launch];
  const c = r.cid;
  const xyz = L && L[6] > 1 ? c.join(',') : L && L[5] > 1 ? c[0] + ',' + c[1] : '' + c[0];
  return (D.launches.length > 1 ? 'L' + (r.launch + 1) + ' ' : '') + 'block (' + xyz + ')';
}
function warpName(r) { return 'SM ' + r.sm + ' \u00b7 ' + blockName(r) + ' \u00b7 warp ' + r.warp; }
function instrOf(r, pc) { const e = D.entries[r.entry]; return e && e.code[pc] ? e.code[pc] : [0, 'pc ' + pc]; }

/* ---- window and summary ---- */
const W0 = D.win[0], W1 = Math.max(D.win[1], D.win[0] + 1), RUN_END = D.win[2];
let v0 = W0, v1 = W1;
(function header() {
  const e = D.entries[(D.launches[0] || [0])[0]];
  document.title = 'gpusim trace: ' + D.kernel;
  $('meta').textContent = D.kernel + (e ? ' (' + D.entries.filter(function (x) { return x.code.length; }).map(function (x) { return x.name; }).join(', ') + ')' : '') +
    ' on ' + D.gpu + ' \u00b7 ' + D.sms + ' SMs \u00b7 warp size ' + WS + ' \u00b7 ' + rows.length + ' warps traced';
  let n = 'Window: cycles ' + fmt(W0) + ' to ' + fmt(W1) + ' of a run of ' + fmt(RUN_END) + ' cycles';
  n += D.smSel >= 0 ? ', SM ' + D.smSel + ' only' : ', all SMs';
  n += D.warpSel.length ? ', warps ' + D.warpSel.join(',') + ' of each block' : ', all warps';
  if (D.win[4]) n += '. This is the default window: it ends where the trace reached its size budget (about ' + fmt(D.win[5] / 1e6) + ' MB), so the file stays small. Choose another window with --trace-cycles A:B, --trace-sm N and --trace-warps LIST.';
  else if (D.win[0] === 0 && D.win[1] >= RUN_END) n += ' (the whole run).';
  else n += '.';
  $('note').textContent = n;
})();

/* legend: swatches with each state's share of the traced warp-cycles */
(function legend() {
  const tot = new Float64Array(NS);
  let all = 0;
  rows.forEach(function (r) { for (let i = 0; i < r.sFrom.length; i++) { const d = r.sTo[i] - r.sFrom[i]; tot[r.sState[i]] += d; all += d; } });
  let out = '';
  const order = [];
  for (let s = 0; s < NS; s++) if (tot[s] > 0 || D.states[s] === 'selected') order.push(s);
  order.forEach(function (s) {
    const name = D.states[s], pct = all ? (100 * tot[s] / all) : 0;
    const label = name + ' ' + (pct >= 10 ? pct.toFixed(0) : pct.toFixed(1)) + '%';
    out += '<span class="lg" data-s="' + s + '"><svg width="12" height="12"><rect x=".5" y=".5" width="11" height="11" rx="2" fill="' + COL[s] + '" stroke="#555" stroke-width=".5"></rect></svg>' + esc(label) + '</span>';
  });
  $('legend').innerHTML = out + '<span class="lg hint">(share of the traced warp-cycles; hover for the meaning)</span>';
  $('legend').querySelectorAll('span.lg[data-s]').forEach(function (g) {
    const s = +g.getAttribute('data-s');
    g.addEventListener('mousemove', function (ev) { showTip(ev, D.states[s] + ': ' + SC[D.states[s]][1] + '\n' + fmt(tot[s]) + ' warp-cycles in the window'); });
    g.addEventListener('mouseleave', hideTip);
  });
})();

/* ---- panels ---- */
const GUT = 150, RULER = 22;
let laneMode = 'rows';
let sel = null;            /* {r, i} */
let laneScale = 1;
let collapseUniform = true;   /* lane view: a warp that never diverges gets one strip */
const allUniform = rows.every(function (r) { return r.uniform; });
function laneH() { return (WS <= 8 ? 6 : WS <= 16 ? 4 : 2) * laneScale; }
function buildItems(kind) {
  const items = [];
  let y = 0, lastSm = -1, lastBlock = null;
  rows.forEach(function (r) {
    if (r.sm !== lastSm) { items.push({ t: 'sm', sm: r.sm, y: y, h: 18 }); y += 18; lastSm = r.sm; lastBlock = null; }
    const b = r.launch + ':' + r.cta;
    const strip = kind !== 'tl' && (laneMode === 'heat' || (collapseUniform && r.uniform));
    const h = kind === 'tl' || strip ? 14 : laneH() * WS + 18;
    items.push({ t: 'w', r: r, y: y, h: h, first: b !== lastBlock, strip: strip });
    lastBlock = b;
    y += h;
  });
  return { items: items, h: y };
}
function Panel(kind, canvasId, scrollId) {
  this.kind = kind; this.cv = $(canvasId); this.sc = $(scrollId);
  this.ctx = this.cv.getContext('2d'); this.sp = this.sc.querySelector('.spacer');
  this.relayout();
}
Panel.prototype.relayout = function () {
  const L = buildItems(this.kind);
  this.items = L.items; this.contentH = L.h;
  this.resize();
};
Panel.prototype.resize = function () {
  const w = this.sc.clientWidth, h = this.sc.clientHeight, dpr = window.devicePixelRatio || 1;
  this.w = w; this.h = h;
  this.cv.width = Math.max(1, Math.round(w * dpr)); this.cv.height = Math.max(1, Math.round(h * dpr));
  this.cv.style.width = w + 'px'; this.cv.style.height = h + 'px';
  this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  this.sp.style.height = Math.max(0, this.contentH + RULER + 4 - h) + 'px';
};
Panel.prototype.itemAt = function (y) {
  const yy = y - RULER + this.sc.scrollTop;
  let lo = 0, hi = this.items.length - 1;
  while (lo < hi) { const m = (lo + hi + 1) >> 1; if (this.items[m].y <= yy) lo = m; else hi = m - 1; }
  const it = this.items[lo];
  return it && yy >= it.y && yy < it.y + it.h ? { it: it, dy: yy - it.y } : null;
};
Panel.prototype.scrollToRow = function (r) {
  for (const it of this.items) if (it.t === 'w' && it.r === r) {
    const vis = this.h - RULER;
    if (it.y < this.sc.scrollTop || it.y + it.h > this.sc.scrollTop + vis) this.sc.scrollTop = Math.max(0, it.y - vis / 2 + it.h / 2);
    return;
  }
};
const tl = new Panel('tl', 'timeline', 'tlscroll');
const ln = new Panel('ln', 'lanes', 'lnscroll');
const panels = [tl, ln];

function plotW(p) { return Math.max(10, p.w - GUT); }
function xOf(p, c) { return GUT + (c - v0) * plotW(p) / (v1 - v0); }
function cycOf(p, x) { return v0 + (x - GUT) * (v1 - v0) / plotW(p); }
function lowerBound(a, v) { let lo = 0, hi = a.length; while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] < v) lo = m + 1; else hi = m; } return lo; }

function drawRuler(p) {
  const c = p.ctx, W = plotW(p);
  c.fillStyle = '#f4f6f9'; c.fillRect(0, 0, p.w, RULER);
  c.strokeStyle = '#bbb'; c.beginPath(); c.moveTo(0, RULER - .5); c.lineTo(p.w, RULER - .5); c.stroke();
  const span = v1 - v0, target = span / (W / 90);
  const mag = Math.pow(10, Math.floor(Math.log10(Math.max(target, 1e-9))));
  let step = mag;
  [1, 2, 5, 10].some(function (m) { step = m * mag; return step >= target; });
  step = Math.max(1, step);
  c.fillStyle = '#333'; c.font = '11px system-ui,sans-serif'; c.textBaseline = 'middle';
  c.strokeStyle = '#888';
  const minor = step / 5 >= 1 ? step / 5 : step;
  for (let t = Math.ceil(v0 / minor) * minor; t <= v1; t += minor) {
    const x = Math.round(xOf(p, t)) + .5, major = Math.abs(t / step - Math.round(t / step)) < 1e-9;
    c.beginPath(); c.moveTo(x, major ? RULER - 9 : RULER - 4); c.lineTo(x, RULER); c.stroke();
    if (major && x + 3 + c.measureText(fmt(t)).width < p.w) c.fillText(fmt(t), x + 3, 8);
  }
  c.fillStyle = '#555'; c.fillText('cycle', 8, 8);
  c.fillStyle = '#f4f6f9'; c.fillRect(0, 0, 4, RULER);
}

function drawGutter(p, it, y) {
  const c = p.ctx;
  c.font = '11px system-ui,sans-serif'; c.textBaseline = 'middle';
  if (it.t === 'sm') {
    c.fillStyle = '#e4e8ee'; c.fillRect(0, y, p.w, it.h);
    c.fillStyle = '#223'; c.font = 'bold 11px system-ui,sans-serif';
    c.fillText('SM ' + it.sm, 6, y + it.h / 2);
    return;
  }
  const r = it.r;
  if (it.first) {
    c.strokeStyle = '#5b6b82'; c.lineWidth = 1; c.beginPath(); c.moveTo(0, y + .5); c.lineTo(p.w, y + .5); c.stroke();
  }
  c.fillStyle = '#333';
  const yy = p.kind === 'tl' || it.strip ? y + it.h / 2 : y + 8;
  if (it.first) { c.fillText(blockName(r), 6, yy); }
  c.textAlign = 'right'; c.fillText('w' + r.warp, GUT - 8, yy); c.textAlign = 'left';
  if (p.kind === 'ln' && !it.strip) {
    c.fillStyle = '#999'; c.font = '9px system-ui,sans-serif'; c.textAlign = 'right';
    const lh = laneH();
    c.fillText('lane 0', GUT - 8, y + 16 + lh / 2);
    c.fillText('lane ' + (WS - 1), GUT - 8, y + 16 + lh * WS - lh / 2);
    c.textAlign = 'left';
  }
}

/* per-pixel dominant state at low zoom; rectangles at high zoom */
const acc = { w: new Float32Array(0) };
function drawStates(p, r, y, h) {
  const c = p.ctx, W = plotW(p), sc = W / (v1 - v0);
  const n = r.sFrom.length;
  let i = lowerBound(r.sTo, v0 + 1e-9);
  if (sc >= 1) {
    for (; i < n && r.sFrom[i] < v1; i++) {
      const x0 = xOf(p, Math.max(r.sFrom[i], v0)), x1 = xOf(p, Math.min(r.sTo[i], v1));
      c.fillStyle = COL[r.sState[i]];
      const wd = x1 - x0;
      c.fillRect(x0, y, wd >= 4 ? wd - 1 : Math.max(wd, 1), h);
    }
  } else {
    if (acc.w.length < W * NS) acc.w = new Float32Array(W * NS);
    const a = acc.w;
    a.fill(0, 0, W * NS);
    let xmin = W, xmax = -1;
    for (; i < n && r.sFrom[i] < v1; i++) {
      const f = (Math.max(r.sFrom[i], v0) - v0) * sc, t = (Math.min(r.sTo[i], v1) - v0) * sc;
      const s = r.sState[i];
      let x = Math.floor(f);
      const xe = Math.min(W - 1, Math.ceil(t) - 1);
      if (x < xmin) xmin = x;
      if (xe > xmax) xmax = xe;
      for (; x <= xe; x++) a[x * NS + s] += Math.min(t, x + 1) - Math.max(f, x);
    }
    let runS = -1, runX = 0;
    for (let x = Math.max(0, xmin); x <= xmax + 1; x++) {
      let best = -1, bw = 0;
      if (x <= xmax) for (let s = 0; s < NS; s++) { const v = a[x * NS + s]; if (v > bw) { bw = v; best = s; } }
      if (best !== runS) {
        if (runS >= 0) { c.fillStyle = COL[runS]; c.fillRect(GUT + runX, y, x - runX, h); }
        runS = best; runX = x;
      }
    }
  }
  /* issue ticks and opcodes when zoomed in */
  if (sc >= 3) {
    let k = lowerBound(r.iCyc, v0 - 1);
    c.fillStyle = 'rgba(0,60,0,.55)';
    c.font = '10px ui-monospace,Menlo,Consolas,monospace'; c.textBaseline = 'middle';
    for (; k < r.iCyc.length && r.iCyc[k] < v1; k++) {
      const x = xOf(p, r.iCyc[k]);
      c.fillRect(x, y, 1, h);
      if (sc >= 40) {
        const op = instrOf(r, r.iPc[k])[1].replace(/^@!?%\w+\s+/, '').split(/\s/)[0];
        c.save(); c.beginPath(); c.rect(x + 1, y, sc - 2, h); c.clip();
        c.fillStyle = '#fff'; c.fillText(op, x + 3, y + h / 2 + .5); c.restore();
        c.fillStyle = 'rgba(0,60,0,.55)';
      }
    }
  }
  drawMarks(p, r, y, h, sc);
}

/* Issues of the line picked in the source-lines panel (blue), and bank
 * conflicts (red) and uncoalesced accesses (purple), outlined at any zoom
 * and labelled just after the cell (where the replays and the wait happen)
 * unless that would cover the previous label. */
function drawMarks(p, r, y, h, sc) {
  const c = p.ctx, w = Math.max(3, sc);
  drawBad(p, r, y, h, sc, w);
  c.fillStyle = '#1565c0';
  for (const k of r.hi) {
    const cyc = r.iCyc[k];
    if (cyc + 1 >= v0 && cyc <= v1) c.fillRect(xOf(p, cyc) - (sc < 3 ? 1 : 0), y - 2, w, h + 3);
  }
}
function drawBad(p, r, y, h, sc, w) {
  const c = p.ctx;
  if (!r.bad.length) return;
  c.font = 'bold 10px system-ui,sans-serif'; c.textBaseline = 'middle';
  const from = lowerBound(r.iCyc, v0 - 1);
  let free = -Infinity;
  for (const k of r.bad) {
    const cyc = r.iCyc[k];
    if (k < from - 1 || cyc > v1) continue;
    const b = memBad[r.iMem[k]], x = xOf(p, cyc), col = b.conflict ? '#b00020' : '#6a1b9a';
    c.strokeStyle = col; c.lineWidth = 2; c.strokeRect(x, y + 1, Math.max(2, w - 1), h - 2); c.lineWidth = 1;
    const tw = c.measureText(b.label).width + 6, lx = x + w + 1;
    if (lx < free || h < 9) continue;
    c.fillStyle = col; c.fillRect(lx, y + 1, tw, h - 2);
    c.fillStyle = '#fff'; c.fillText(b.label, lx + 3, y + h / 2 + .5);
    free = lx + tw + 2;
  }
}

function drawTimeline() {
  const p = tl, c = p.ctx;
  c.clearRect(0, 0, p.w, p.h);
  const top = p.sc.scrollTop;
  c.save(); c.beginPath(); c.rect(0, RULER, p.w, p.h - RULER); c.clip();
  for (const it of p.items) {
    const y = RULER + it.y - top;
    if (y + it.h < RULER || y > p.h) continue;
    drawGutter(p, it, y);
    if (it.t !== 'w') continue;
    c.save(); c.beginPath(); c.rect(GUT, y, p.w - GUT, it.h); c.clip();
    drawStates(p, it.r, y + 2, it.h - 3);
    c.restore();
    if (sel && sel.r === it.r) {
      c.fillStyle = 'rgba(255,200,0,.18)'; c.fillRect(0, y, GUT, it.h);
      const x0 = xOf(p, sel.r.iCyc[sel.i]), x1 = Math.max(x0 + 3, xOf(p, sel.r.iCyc[sel.i] + 1));
      c.strokeStyle = '#000'; c.lineWidth = 2; c.strokeRect(x0 - 1, y + 1, x1 - x0 + 2, it.h - 1); c.lineWidth = 1;
    }
  }
  drawSelLine(p);
  c.restore();
  c.strokeStyle = '#ccc'; c.beginPath(); c.moveTo(GUT - .5, RULER); c.lineTo(GUT - .5, p.h); c.stroke();
  drawRuler(p);
}
function drawSelLine(p) {
  if (!sel) return;
  const c = p.ctx, x = xOf(p, sel.r.iCyc[sel.i] + .5);
  if (x < GUT || x > p.w) return;
  c.strokeStyle = 'rgba(0,0,0,.45)'; c.setLineDash([4, 3]); c.beginPath(); c.moveTo(x, RULER); c.lineTo(x, p.h); c.stroke(); c.setLineDash([]);
}

/* lane view: per pixel column, per lane, the share of cycles the lane executed / was guarded off */
const EX = [33, 102, 172], PR = [146, 197, 222], OFF = [226, 226, 226];
let img = null, oc = null;
function drawLaneRow(p, r, y, h, heat) {
  const c = p.ctx, W = Math.max(1, Math.floor(plotW(p))), sc = W / (v1 - v0);
  const lh = heat ? h : laneH(), H = heat ? h : lh * WS;
  const E = new Float32Array(W * WS), A = new Float32Array(W * WS), C = new Float32Array(W);
  /* While a warp waits to issue instruction k its active mask is k's
   * (the SIMT stack changed right after the previous issue); in the issue
   * cycle itself its lanes split into guard true and guard false. */
  const n = r.iCyc.length;
  const add = function (a, b, act, ex) {
    const f = (Math.max(a, v0) - v0) * sc, t = (Math.min(b, v1) - v0) * sc;
    if (t <= f) return;
    const xs = Math.max(0, Math.floor(f)), xe = Math.min(W - 1, Math.ceil(t) - 1);
    for (let x = xs; x <= xe; x++) {
      const wgt = Math.min(t, x + 1) - Math.max(f, x);
      C[x] += wgt;
      for (let m = act; m; m &= m - 1) {
        const l = 31 - Math.clz32(m & -m);
        if ((ex >>> l) & 1) E[x * WS + l] += wgt; else A[x * WS + l] += wgt;
      }
    }
  };
  let k = Math.max(0, lowerBound(r.iCyc, v0) - 1);
  let sa = 0, sb = 0, sAct = 0, sEx = 0, open = false;
  const seg = function (a, b, act, ex) {
    if (b <= a) return;
    if (open && sb === a && sAct === act && sEx === ex) { sb = b; return; }
    if (open) add(sa, sb, sAct, sEx);
    sa = a; sb = b; sAct = act; sEx = ex; open = true;
  };
  for (; k < n; k++) {
    const c = r.iCyc[k], prev = k ? r.iCyc[k - 1] + 1 : Math.min(r.start, c);
    if (prev >= v1) break;
    seg(prev, c, r.iAct[k], r.iAct[k]);
    seg(c, c + 1, r.iAct[k], r.iExec[k]);
  }
  if (k === n && n) seg(r.iCyc[n - 1] + 1, lastEnd(r), r.iAct[n - 1], r.iAct[n - 1]);
  if (open) add(sa, sb, sAct, sEx);
  if (!oc) { oc = document.createElement('canvas'); }
  if (oc.width !== W || oc.height < H) { oc.width = W; oc.height = Math.max(H, oc.height); img = null; }
  const octx = oc.getContext('2d');
  if (!img || img.width !== W || img.height !== H) img = octx.createImageData(W, H);
  const d = img.data;
  const nvalid = pop(r.valid) || 1;
  for (let x = 0; x < W; x++) {
    const cv = C[x];
    if (heat) {
      let fe = 0, fa = 0;
      if (cv > 0) for (let l = 0; l < WS; l++) { fe += E[x * WS + l]; fa += A[x * WS + l]; }
      fe = cv > 0 ? fe / cv / nvalid : 0; fa = cv > 0 ? fa / cv / nvalid : 0;
      const fo = 1 - fe - fa;
      for (let yy = 0; yy < H; yy++) {
        const o = (yy * W + x) * 4;
        if (cv <= 0) { d[o + 3] = 0; continue; }
        d[o] = fe * EX[0] + fa * PR[0] + fo * OFF[0]; d[o + 1] = fe * EX[1] + fa * PR[1] + fo * OFF[1]; d[o + 2] = fe * EX[2] + fa * PR[2] + fo * OFF[2];
        d[o + 3] = 255 * Math.min(1, cv);
      }
      continue;
    }
    for (let l = 0; l < WS; l++) {
      let R, G, B, Al = 255;
      if (cv <= 0) { Al = 0; R = G = B = 255; }
      else if (!((r.valid >>> l) & 1)) { const hatch = ((x + l * lh) % 6) < 2; R = G = B = hatch ? 180 : 236; }
      else {
        const fe = E[x * WS + l] / cv, fa = A[x * WS + l] / cv, fo = Math.max(0, 1 - fe - fa);
        R = fe * EX[0] + fa * PR[0] + fo * OFF[0]; G = fe * EX[1] + fa * PR[1] + fo * OFF[1]; B = fe * EX[2] + fa * PR[2] + fo * OFF[2];
        Al = 255 * Math.min(1, cv);
      }
      for (let yy = 0; yy < lh; yy++) {
        const o = ((l * lh + yy) * W + x) * 4;
        d[o] = R; d[o + 1] = G; d[o + 2] = B; d[o + 3] = Al;
      }
    }
  }
  octx.putImageData(img, 0, 0);
  c.imageSmoothingEnabled = false;
  c.drawImage(oc, 0, 0, W, H, GUT, y, W, H);
}
/* the last issue's mask holds until the warp drains or the window ends */
function lastEnd(r) {
  if (r.lastEnd !== undefined) return r.lastEnd;
  const n = r.iCyc.length, c = n ? r.iCyc[n - 1] : r.start, dr = D.states.indexOf('drain');
  let e = r.end;
  for (let i = lowerBound(r.sTo, c + 1); i < r.sFrom.length; i++) if (r.sState[i] === dr) { e = Math.max(c + 1, r.sFrom[i]); break; }
  if (n && /^(@!?%\w+\s+)?(ret|exit)\b/.test(instrOf(r, r.iPc[n - 1])[1])) e = c + 1;
  r.lastEnd = e;
  return e;
}
function drawLanes() {
  const p = ln, c = p.ctx;
  c.clearRect(0, 0, p.w, p.h);
  const top = p.sc.scrollTop;
  c.save(); c.beginPath(); c.rect(0, RULER, p.w, p.h - RULER); c.clip();
  for (const it of p.items) {
    const y = RULER + it.y - top;
    if (y + it.h < RULER || y > p.h) continue;
    drawGutter(p, it, y);
    if (it.t !== 'w') continue;
    if (it.strip) drawLaneRow(p, it.r, y + 2, it.h - 3, true);
    else drawLaneRow(p, it.r, y + 16, 0, false);
    if (sel && sel.r === it.r) {
      c.fillStyle = 'rgba(255,200,0,.18)'; c.fillRect(0, y, GUT, it.h);
      const x0 = xOf(p, sel.r.iCyc[sel.i]);
      const x1 = Math.max(x0 + 3, xOf(p, sel.r.iCyc[sel.i] + 1));
      c.strokeStyle = '#000'; c.lineWidth = 2; c.strokeRect(x0 - 1, y + 1, x1 - x0 + 2, it.h - 2); c.lineWidth = 1;
    }
  }
  drawSelLine(p);
  c.restore();
  c.strokeStyle = '#ccc'; c.beginPath(); c.moveTo(GUT - .5, RULER); c.lineTo(GUT - .5, p.h); c.stroke();
  drawRuler(p);
}

let pending = false;
function redraw() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(function () { pending = false; drawNow(); });
}
function drawNow() {
  drawTimeline(); drawMem(); drawLanes();
  $('range').textContent = 'cycles ' + fmt(v0) + ' \u2013 ' + fmt(v1) + ' (' + fmt(v1 - v0) + ')';
}

/* ---- the memory system over time (D.X: whole-GPU samples) ---- */
const MX = (function () {
  const X = D.X || { every: 0, clock: 1000, mem: 0, from: W0, d: [] }, n = X.d.length / 7;
  const a = new Float64Array(n), b = new Float64Array(n);
  const ipc = new Float64Array(n), l1 = new Float64Array(n), l2 = new Float64Array(n), gbs = new Float64Array(n), wait = new Float64Array(n);
  let t = X.from;
  for (let i = 0; i < n; i++) {
    const d = X.d.slice(7 * i, 7 * i + 7);
    a[i] = t; t += d[0]; b[i] = t;
    ipc[i] = d[1] / d[0];
    l1[i] = d[2] + d[3] ? 100 * d[2] / (d[2] + d[3]) : NaN;
    l2[i] = d[4] + d[5] ? 100 * d[4] / (d[4] + d[5]) : NaN;
    gbs[i] = d[6] / d[0] * X.clock / 1000;   /* bytes per cycle x MHz = MB/s */
  }
  /* traced warps in long_scoreboard, on average over each sample */
  const ls = D.states.indexOf('long_scoreboard');
  rows.forEach(function (r) {
    for (let k = 0; k < r.sFrom.length; k++) {
      if (r.sState[k] !== ls) continue;
      for (let i = Math.max(0, lowerBound(b, r.sFrom[k] + 1e-9)); i < n && a[i] < r.sTo[k]; i++)
        wait[i] += Math.min(b[i], r.sTo[k]) - Math.max(a[i], r.sFrom[k]);
    }
  });
  for (let i = 0; i < n; i++) wait[i] /= (b[i] - a[i]) || 1;
  const max = function (v) { let m = 0; for (let i = 0; i < n; i++) if (v[i] > m) m = v[i]; return m; };
  return { n: n, a: a, b: b, mem: X.mem, lanes: [
    { name: 'IPC', v: ipc, max: max(ipc), col: '#2ca02c', fmt: function (x) { return x.toFixed(2); } },
    { name: 'hit %', v: l1, v2: l2, max: 100, col: '#1f77b4', col2: '#ff7f0e', mem: 1, fmt: function (x) { return isNaN(x) ? '\u2013' : x.toFixed(0) + '%'; } },
    { name: 'DRAM GB/s', v: gbs, max: max(gbs), col: '#8c564b', mem: 1, fmt: function (x) { return x.toFixed(1); } },
    { name: 'waiting', v: wait, max: max(wait), col: '#d62728', fmt: function (x) { return x.toFixed(1) + ' warps'; } }] };
})();
const MS_LANE = 30;
const msp = Object.create(Panel.prototype);
msp.kind = 'ms'; msp.cv = $('memsys'); msp.sc = $('msscroll'); msp.ctx = msp.cv.getContext('2d');
msp.sp = msp.sc.querySelector('.spacer'); msp.items = []; msp.contentH = MX.lanes.length * MS_LANE;
msp.resize();
if (!MX.n) $('mshint').textContent = 'no samples in this window';
else if (!MX.mem) $('mshint').textContent = 'whole GPU: IPC and traced warps waiting on memory (mem.model=fixed has no caches or DRAM to sample)';
function drawMem() {
  const p = msp, c = p.ctx, top = RULER;
  c.clearRect(0, 0, p.w, p.h);
  c.font = '11px system-ui,sans-serif'; c.textBaseline = 'middle';
  const i0 = Math.max(0, lowerBound(MX.b, v0) - 1);
  MX.lanes.forEach(function (L, li) {
    const y = top + li * MS_LANE, h = MS_LANE - 6, y1 = y + MS_LANE - 3;
    c.fillStyle = li % 2 ? '#fafbfc' : '#fff'; c.fillRect(0, y, p.w, MS_LANE);
    c.fillStyle = '#333'; c.fillText(L.name, 6, y + 9);
    c.fillStyle = '#888'; c.fillText(L.mem && !MX.mem ? 'n/a' : 'max ' + L.fmt(L.max), 6, y + 21);
    if (L.mem && !MX.mem) return;
    const sy = function (x) { return y1 - (L.max > 0 ? h * Math.min(1, x / L.max) : 0); };
    c.save(); c.beginPath(); c.rect(GUT, y, p.w - GUT, MS_LANE); c.clip();
    for (let i = i0; i < MX.n && MX.a[i] < v1; i++) {
      const x0 = xOf(p, MX.a[i]), x1 = Math.max(x0 + 1, xOf(p, MX.b[i]));
      if (L.v2) {
        if (!isNaN(L.v[i])) { c.fillStyle = L.col; c.fillRect(x0, sy(L.v[i]) - 1, x1 - x0, 2.5); }
        if (!isNaN(L.v2[i])) { c.fillStyle = L.col2; c.fillRect(x0, sy(L.v2[i]) - 1, x1 - x0, 2.5); }
      } else if (L.v[i] > 0) {
        c.fillStyle = L.col; c.fillRect(x0, sy(L.v[i]), x1 - x0, y1 - sy(L.v[i]));
      }
    }
    c.restore();
    if (L.v2) { c.fillStyle = L.col; c.fillText('L1', GUT - 34, y + 9); c.fillStyle = L.col2; c.fillText('L2', GUT - 18, y + 9); }
  });
  drawSelLine(p);
  c.strokeStyle = '#ccc'; c.beginPath(); c.moveTo(GUT - .5, RULER); c.lineTo(GUT - .5, p.h); c.stroke();
  drawRuler(p);
}
msp.cv.addEventListener('mousemove', function (ev) {
  const rc = msp.cv.getBoundingClientRect(), x = ev.clientX - rc.left;
  if (x < GUT || !MX.n) { hideTip(); return; }
  const cyc = cycOf(msp, x), i = Math.min(MX.n - 1, lowerBound(MX.b, cyc));
  if (i < 0 || MX.a[i] > cyc) { hideTip(); return; }
  const L = MX.lanes;
  showTip(ev, 'cycles ' + fmt(MX.a[i]) + ' to ' + fmt(MX.b[i]) + '\nIPC ' + L[0].fmt(L[0].v[i]) +
    (MX.mem ? '\nL1 hit ' + L[1].fmt(L[1].v[i]) + ' \u00b7 L2 hit ' + L[1].fmt(L[1].v2[i]) + '\nDRAM ' + L[2].fmt(L[2].v[i]) + ' GB/s' : '') +
    '\nwaiting on global memory: ' + L[3].fmt(L[3].v[i]));
});
msp.cv.addEventListener('mouseleave', hideTip);

/* ---- zoom and pan ---- */
function setView(a, b) {
  const minSpan = 8;
  let span = Math.max(minSpan, Math.min(b - a, (W1 - W0) * 1.0));
  if (W1 - W0 < minSpan) span = W1 - W0;
  a = Math.max(W0, Math.min(a, W1 - span));
  v0 = a; v1 = a + span;
  redraw();
}
function zoomAt(f, cx) { const c0 = cx === undefined ? (v0 + v1) / 2 : cx; setView(c0 - (c0 - v0) * f, c0 + (v1 - c0) * f); }
$('zin').onclick = function () { zoomAt(0.5); };
$('zout').onclick = function () { zoomAt(2); };
$('zfit').onclick = function () { setView(W0, W1); };
$('pl').onclick = function () { const s = v1 - v0; setView(v0 - s / 3, v1 - s / 3); };
$('pr').onclick = function () { const s = v1 - v0; setView(v0 + s / 3, v1 + s / 3); };
function setLanes(m) {
  laneMode = m; $('lrows').classList.toggle('on', m === 'rows'); $('lheat').classList.toggle('on', m === 'heat');
  ln.relayout(); if (sel) ln.scrollToRow(sel.r); redraw();
}
$('lrows').onclick = function () { setLanes('rows'); };
$('lheat').onclick = function () { setLanes('heat'); };
$('luni').onclick = function () {
  collapseUniform = !collapseUniform;
  $('luni').classList.toggle('on', collapseUniform);
  $('luni').textContent = 'uniform warps: ' + (collapseUniform ? 'strip' : 'rows');
  ln.relayout(); drawNow();
};
/* nothing diverges: the lane panel is all strips, so give the timeline the room */
if (allUniform && rows.length) {
  $('tlpanel').style.flex = '78'; $('lnpanel').style.flex = '22';
  $('lnpanel').querySelector('.ptitle .hint').textContent = 'no warp diverges in this window: one strip per warp (darker = more lanes active)';
  tl.resize(); ln.resize();
}
function setLaneScale(k) { laneScale = k; $('ltall').textContent = 'lane height ' + k + 'x'; setLanes('rows'); }
$('ltall').onclick = function () { setLaneScale(laneScale % 3 + 1); };
window.addEventListener('keydown', function (ev) {
  if (ev.key === '+' || ev.key === '=') zoomAt(0.5);
  else if (ev.key === '-') zoomAt(2);
  else if (ev.key === '0') setView(W0, W1);
  else if (ev.key === 'ArrowLeft') { const s = v1 - v0; setView(v0 - s / 4, v1 - s / 4); }
  else if (ev.key === 'ArrowRight') { const s = v1 - v0; setView(v0 + s / 4, v1 + s / 4); }
  else return;
  ev.preventDefault();
});
panels.forEach(function (p) {
  p.sc.addEventListener('scroll', redraw);
  p.cv.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    if (ev.shiftKey) { p.sc.scrollTop += ev.deltaY || ev.deltaX; return; }
    const rect = p.cv.getBoundingClientRect(), x = ev.clientX - rect.left;
    const f = Math.pow(1.0015, ev.deltaY * (ev.deltaMode === 1 ? 30 : 1));
    zoomAt(f, x > GUT ? cycOf(p, x) : undefined);
  }, { passive: false });
  let drag = null;
  p.cv.addEventListener('mousedown', function (ev) {
    drag = { x: ev.clientX, y: ev.clientY, v0: v0, v1: v1, top: p.sc.scrollTop, moved: false };
  });
  window.addEventListener('mousemove', function (ev) {
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) { drag.moved = true; p.cv.classList.add('drag'); }
    if (!drag.moved) return;
    const dc = dx * (drag.v1 - drag.v0) / plotW(p);
    setView(drag.v0 - dc, drag.v1 - dc);
    p.sc.scrollTop = drag.top - dy;
  });
  window.addEventListener('mouseup', function (ev) {
    if (!drag) return;
    const moved = drag.moved;
    drag = null; p.cv.classList.remove('drag');
    if (!moved && ev.target === p.cv) clickAt(p, ev);
  });
  p.cv.addEventListener('mousemove', function (ev) { if (!drag) hover(p, ev); });
  p.cv.addEventListener('mouseleave', hideTip);
});
window.addEventListener('resize', function () { panels.forEach(function (p) { p.resize(); }); msp.resize(); drawNow(); });

/* ---- hit testing ---- */
function issueNear(r, cyc, tolCycles) {
  const a = r.iCyc;
  if (!a.length) return -1;
  let i = lowerBound(a, cyc - tolCycles - 1);
  let best = -1, bd = Infinity;
  for (; i < a.length && a[i] <= cyc + tolCycles; i++) {
    const d = cyc >= a[i] && cyc < a[i] + 1 ? 0 : Math.min(Math.abs(cyc - a[i]), Math.abs(cyc - a[i] - 1));
    if (d < bd) { bd = d; best = i; }
  }
  return bd <= tolCycles ? best : -1;
}
function issueSpanAt(r, cyc) {
  const a = r.iCyc, n = a.length;
  if (!n || cyc < Math.min(r.start, a[0])) return -1;
  const i = lowerBound(a, cyc);
  if (i < n) return i;
  return cyc < lastEnd(r) ? n - 1 : -1;
}
function clickAt(p, ev) {
  const rect = p.cv.getBoundingClientRect(), x = ev.clientX - rect.left, y = ev.clientY - rect.top;
  if (x < GUT || y < RULER) return;
  const h = p.itemAt(y);
  if (!h || h.it.t !== 'w') return;
  const r = h.it.r, cyc = cycOf(p, x);
  const i = p.kind === 'tl' ? issueNear(r, cyc, Math.max(0.5, 5 * (v1 - v0) / plotW(p))) : issueSpanAt(r, Math.floor(cyc));
  if (i >= 0) select(r, i, false);
}
function stateAt(r, cyc) {
  const i = lowerBound(r.sTo, cyc + 1e-9);
  return i < r.sFrom.length && r.sFrom[i] <= cyc ? i : -1;
}
function hover(p, ev) {
  const rect = p.cv.getBoundingClientRect(), x = ev.clientX - rect.left, y = ev.clientY - rect.top;
  if (x < GUT || y < RULER) { hideTip(); return; }
  const h = p.itemAt(y);
  if (!h || h.it.t !== 'w') { hideTip(); return; }
  const r = h.it.r, cyc = Math.floor(cycOf(p, x));
  let s = warpName(r) + '\ncycle ' + fmt(cyc);
  if (p.kind === 'tl') {
    const i = stateAt(r, cyc);
    if (i >= 0) {
      const nm = D.states[r.sState[i]];
      s += '\n' + nm + ': cycles ' + fmt(r.sFrom[i]) + '\u2013' + fmt(r.sTo[i]) + ' (' + fmt(r.sTo[i] - r.sFrom[i]) + ')\n' + (SC[nm] || ['', ''])[1];
      s += '\nline ' + r.sLine[i] + ': ' + (srcText[r.sLine[i]] || '').trim();
    }
    const k = issueNear(r, cyc + .5, Math.max(0.5, 3 * (v1 - v0) / plotW(p)));
    if (k >= 0) s += '\nissued at ' + fmt(r.iCyc[k]) + ': ' + instrOf(r, r.iPc[k])[1] + '  (click for details)';
  } else {
    const k = issueSpanAt(r, cyc);
    if (k >= 0) {
      s += '\n' + (r.iCyc[k] === cyc ? 'issues ' : r.iCyc[k] > cyc ? 'waits to issue (at ' + fmt(r.iCyc[k]) + ') ' : 'issued at ' + fmt(r.iCyc[k]) + ' ') + instrOf(r, r.iPc[k])[1] + '\nactive lanes ' + pop(r.iAct[k]) + ' of ' + pop(r.valid) + (r.iExec[k] !== r.iAct[k] ? ' (' + pop(r.iExec[k]) + ' with a true guard)' : '');
      if (laneMode === 'rows') {
        const l = Math.floor((h.dy - 16) / laneH());
        if (l >= 0 && l < WS) s += '\nlane ' + l + ': ' + (!((r.valid >>> l) & 1) ? 'not a thread' : (r.iAct[k] >>> l) & 1 ? (r.iCyc[k] !== cyc || (r.iExec[k] >>> l) & 1 ? 'active' : 'active, guard false') : 'off');
      }
    }
  }
  showTip(ev, s);
}
function showTip(ev, s) {
  const t = $('tip');
  t.textContent = s; t.style.display = 'block';
  const w = t.offsetWidth, h = t.offsetHeight;
  let x = ev.clientX + 14, y = ev.clientY + 14;
  if (x + w > window.innerWidth - 4) x = ev.clientX - w - 10;
  if (y + h > window.innerHeight - 4) y = ev.clientY - h - 10;
  t.style.left = x + 'px'; t.style.top = y + 'px';
}
function hideTip() { $('tip').style.display = 'none'; }

/* ---- memory records ---- */
const memCache = {};
function memOf(i) {
  if (i < 0) return null;
  if (memCache[i]) return memCache[i];
  const m = D.M[i];
  const mask = m[3] >>> 0, enc = m[4], addr = new Array(WS).fill(null);
  let prev = null, j = 2;
  for (let l = 0; l < WS; l++) {
    if (!((mask >>> l) & 1)) continue;
    if (enc[0] === 0) addr[l] = enc[1] + enc[2] * l;
    else if (prev === null) addr[l] = enc[1];
    else addr[l] = prev + enc[j++];
    prev = addr[l];
  }
  const o = { space: m[0], bytes: m[1], store: m[2] & 1, atomic: (m[2] >> 1) & 1, mask: mask, addr: addr, det: m[5] };
  memCache[i] = o;
  return o;
}

/* ---- details ---- */
const PAL = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
function maskSvg(r, act, ex) {
  const bw = Math.min(13, Math.floor(420 / WS)), h = 16;
  let s = '<svg width="' + (WS * bw + 2) + '" height="' + (h + 14) + '">';
  for (let l = 0; l < WS; l++) {
    const x = 1 + l * bw;
    const valid = (r.valid >>> l) & 1, a = (act >>> l) & 1, e = (ex >>> l) & 1;
    const fill = !valid ? '#eee' : a ? (e ? 'rgb(33,102,172)' : 'rgb(146,197,222)') : '#fff';
    s += '<rect x="' + x + '" y="1" width="' + (bw - 2) + '" height="' + h + '" fill="' + fill + '" stroke="#777" stroke-width=".6"><title>lane ' + l + ': ' +
      (!valid ? 'not a thread' : a ? (e ? 'active, executes' : 'active, guard false') : 'inactive') + '</title></rect>';
    if (!valid) s += '<line x1="' + x + '" y1="1" x2="' + (x + bw - 2) + '" y2="' + (h + 1) + '" stroke="#bbb"></line>';
    if (l % 8 === 0 || l === WS - 1) s += '<text x="' + (x + (bw - 2) / 2) + '" y="' + (h + 12) + '" font-size="9" text-anchor="middle" fill="#666">' + l + '</text>';
  }
  return s + '</svg>';
}
function lanesStrip(mask, colourOf, bw) {
  bw = bw || 7;
  let s = '<svg width="' + (WS * bw + 1) + '" height="11">';
  for (let l = 0; l < WS; l++) {
    const on = (mask >>> l) & 1;
    s += '<rect x="' + (l * bw + .5) + '" y=".5" width="' + (bw - 1) + '" height="10" fill="' + (on ? colourOf(l) : '#f2f2f2') + '" stroke="' + (on ? '#555' : '#ddd') + '" stroke-width=".5"><title>lane ' + l + '</title></rect>';
  }
  return s + '</svg>';
}
function coalesceView(m) {
  const S = D.sector, LB = D.line, det = m.det || [];
  const secs = new Map();
  for (let l = 0; l < WS; l++) {
    const a = m.addr[l];
    if (a === null) continue;
    const b = Math.max(1, Math.min(32, m.bytes));
    for (let s = Math.floor(a / S) * S; s < a + b; s += S) {
      if (!secs.has(s)) secs.set(s, 0);
      secs.set(s, (secs.get(s) | (1 << l)) >>> 0);
    }
  }
  const keys = Array.from(secs.keys()).sort(function (x, y) { return x - y; });
  const lines = new Set(keys.map(function (k) { return Math.floor(k / LB) * LB; }));
  const secIdx = {};
  keys.forEach(function (k, i) { secIdx[k] = i; });
  const laneSec = function (l) { const a = m.addr[l]; return a === null ? -1 : secIdx[Math.floor(a / S) * S]; };
  const nsec = det.length ? det[1] : keys.length, nlines = det.length ? det[2] : lines.size;
  const nact = pop(m.mask), ideal = Math.max(1, Math.ceil(nact * m.bytes / S));
  let h = '<h3>Coalescing map</h3>';
  h += '<div class="sum">1 request \u2192 <b class="' + (nsec > ideal ? 'bad' : 'good') + '">' + nsec + ' sector' + (nsec === 1 ? '' : 's') + '</b> of ' + S + ' B in ' + nlines + ' line' + (nlines === 1 ? '' : 's') + ' of ' + LB + ' B';
  if (det.length) h += '<br>' + det[3] + ' B requested, ' + det[5] + ' B moved: ' + (det[5] ? (100 * det[3] / det[5]).toFixed(0) : 0) + '% efficiency (ideal ' + ideal + ' sector' + (ideal === 1 ? '' : 's') + ')';
  if (m.space === 4) h += '<br><span class="hint">local memory: per-thread offsets interleaved word by word across the warp, as the memory system places them</span>';
  h += '</div>';
  h += '<div>lane \u2192 sector (colour = sector)</div>' + lanesStrip(m.mask, function (l) { return PAL[laneSec(l) % PAL.length]; }, 13);
  h += '<table class="sec"><tr><th>sector</th><th>line</th><th>lanes</th><th>#</th></tr>';
  keys.slice(0, 64).forEach(function (k, i) {
    const lm = secs.get(k);
    h += '<tr><td class="mono">' + hex(k) + '</td><td class="mono">' + hex(Math.floor(k / LB) * LB) + '</td><td>' + lanesStrip(lm, function () { return PAL[i % PAL.length]; }) + '</td><td>' + pop(lm) + '</td></tr>';
  });
  if (keys.length > 64) h += '<tr><td colspan="4">\u2026 ' + (keys.length - 64) + ' more</td></tr>';
  return h + '</table>';
}
function bankView(m) {
  const B = D.banks, BB = D.bankBytes, det = m.det || [];
  const wf = det[0] || 1, ideal = det[1] || 1, conf = det[2] || 0, ways = det[3] || 1;
  let h = '<h3>Bank map</h3><div class="sum">' + B + ' banks of ' + BB + ' B: <b class="' + (conf ? 'bad' : 'good') + '">' + wf + ' wavefront' + (wf === 1 ? '' : 's') + '</b> (ideal ' + ideal + ')' +
    (conf ? ', ' + conf + ' bank conflict' + (conf === 1 ? '' : 's') + ': <b class="bad">' + ways + '-way</b>' : ': no bank conflict') + '</div>';
  h += bankSvg(m, window.innerHeight - 300);
  h += '<div class="hint">one column per bank, the lanes that hit it stacked; red columns need more than one distinct word' + (det[6] ? ' (alternating shades: successive wavefronts)' : '') + '; lanes on the same word share it</div>';
  return h;
}
/* the bank map as an SVG at most about ah pixels tall */
function bankSvg(m, ah) {
  const B = D.banks, BB = D.bankBytes, det = m.det || [];
  const lw = det[6] || null;
  /* lanes per bank; distinct words per bank */
  const col = [];
  for (let b = 0; b < B; b++) col.push([]);
  const words = [];
  for (let b = 0; b < B; b++) words.push(new Set());
  for (let l = 0; l < WS; l++) {
    const a = m.addr[l];
    if (a === null) continue;
    const w = Math.floor(a / BB), b = w % B;
    col[b].push(l); words[b].add(w);
  }
  /* as wide as the panel and as tall as the room left, so the whole map
   * stays above the fold and its numbers read from the back of a room: a
   * bank with more lanes than fit in a column at a readable height wraps
   * them into several sub-columns */
  const aw = Math.max(300, $('detail').clientWidth - 24), lx = 42;
  ah = Math.max(120, ah);
  const want = document.body.classList.contains('big') ? 24 : 18;
  const rowsFit = Math.max(1, Math.floor((ah - 38) / want));
  const g = col.map(function (c) { return Math.max(1, Math.ceil(c.length / rowsFit)); });
  /* wrapped banks get sub-columns wide enough for two-digit lane numbers */
  const units = g.reduce(function (x, y) { return x + y; }, 0), nwrap = g.filter(function (k) { return k > 1; }).length;
  const cw0 = Math.max(9, Math.min(48, Math.floor((aw - lx) / units)));
  const cwL = nwrap ? Math.max(cw0, want) : cw0;
  const cw = nwrap ? Math.max(9, Math.floor((aw - lx - (units - B + nwrap) * cwL) / (B - nwrap))) : cw0;
  const colW = function (b) { return g[b] > 1 ? g[b] * cwL : cw; };
  const fs = Math.max(8, Math.min(18, Math.floor((cw - 1) / 1.2))), top = 2 * fs + 10;
  let stack = 1, width = lx + 2;
  col.forEach(function (c, b) { stack = Math.max(stack, Math.ceil(c.length / g[b])); width += colW(b); });
  const bh = Math.max(6, Math.min(32, Math.floor((ah - top) / stack)));
  const H = top + stack * bh + 4;
  let s = '<svg class="bankmap" width="' + width + '" height="' + H + '">';
  s += '<text x="0" y="' + fs + '" font-size="' + Math.min(fs, 12) + '" fill="#666">bank</text><text x="0" y="' + (2 * fs + 5) + '" font-size="' + Math.min(fs, 12) + '" fill="#666">words</text>';
  let x = lx;
  for (let b = 0; b < B; b++) {
    const bw = colW(b), sw = g[b] > 1 ? cwL : cw, nw = words[b].size, hot = nw > 1, per = Math.ceil(col[b].length / g[b]);
    const ls = Math.min(18, bh - 3, Math.floor((sw - 2) / 1.2));
    if (hot) s += '<rect x="' + x + '" y="' + (fs + 4) + '" width="' + bw + '" height="' + (H - fs - 4) + '" fill="#f9caca"></rect>';
    s += '<text x="' + (x + bw / 2) + '" y="' + fs + '" font-size="' + fs + '" text-anchor="middle" fill="#444">' + b + '</text>';
    if (nw) s += '<text x="' + (x + bw / 2) + '" y="' + (2 * fs + 5) + '" font-size="' + fs + '" text-anchor="middle" fill="' + (hot ? '#b00020' : '#333') + '" font-weight="' + (hot ? 'bold' : 'normal') + '">' + nw + '</text>';
    col[b].forEach(function (l, k) {
      const wv = lw ? lw[l] : 0, cx = x + Math.floor(k / per) * sw, cy = top + (k % per) * bh;
      const fill = hot ? (wv % 2 ? '#e8807c' : '#c9302c') : '#5e9e5e';
      s += '<rect x="' + (cx + .5) + '" y="' + cy + '" width="' + (sw - 1) + '" height="' + (bh - 1) + '" fill="' + fill + '" stroke="' + (hot ? '#8b0000' : '#4a7a4a') + '" stroke-width=".5"><title>lane ' + l + ': ' + hex(m.addr[l]) + ', word ' + Math.floor(m.addr[l] / BB) + ', bank ' + b + (lw ? ', wavefront ' + (wv + 1) : '') + '</title></rect>';
      if (ls >= 7) s += '<text x="' + (cx + sw / 2) + '" y="' + (cy + bh / 2 + ls * 0.35) + '" font-size="' + ls + '" text-anchor="middle" fill="#fff">' + l + '</text>';
    });
    x += bw;
  }
  return s + '</svg>';
}
function addrTable(m) {
  const per = Math.ceil(WS / 4);
  let h = '<h3>Lane addresses (' + SPACE[m.space] + ')</h3><table class="addr">';
  for (let i = 0; i < per; i++) {
    h += '<tr>';
    for (let c = 0; c < 4; c++) {
      const l = c * per + i;
      if (l >= WS) continue;
      h += '<td class="l">' + l + '</td><td>' + (m.addr[l] === null ? '\u2013' : hex(m.addr[l])) + '</td>';
    }
    h += '</tr>';
  }
  return h + '</table>';
}
function select(r, i, fromHash) {
  sel = { r: r, i: i };
  const pc = r.iPc[i], ins = instrOf(r, pc), act = r.iAct[i], ex = r.iExec[i];
  const m = memOf(r.iMem[i]);
  let h = '<div class="instr">' + esc(ins[1]) + '</div>';
  h += '<div class="nav"><button id="dprev">\u25c0 previous</button><button id="dnext">next \u25b6</button><button id="dmem">next memory op</button><button id="dzoom">zoom here</button></div>';
  /* a memory access's map comes first, so it stays above the fold */
  let where = '<table class="kv">';
  where += '<tr><td>warp</td><td>' + esc(warpName(r)) + ' (block #' + r.cta + ', slot ' + r.slot + ')</td></tr>';
  where += '<tr><td>cycle</td><td>' + fmt(r.iCyc[i]) + '</td></tr>';
  where += '<tr><td>pc</td><td>' + pc + ' in ' + esc((D.entries[r.entry] || { name: '' }).name) + '</td></tr>';
  where += '<tr><td>line ' + ins[0] + '</td><td class="src">' + esc((srcText[ins[0]] || '').trim()) + '</td></tr>';
  where += '</table>';
  const mask = '<h3>Active mask: ' + pop(act) + ' of ' + pop(r.valid) + ' lanes' + (ex !== act ? ', ' + pop(ex) + ' with a true guard' : '') + '</h3>' +
    maskSvg(r, act, ex) + '<div class="hint mono">active ' + hex(act) + ' \u00b7 executed ' + hex(ex) + ' \u00b7 threads ' + hex(r.valid) + '</div>';
  if (!m) h += where + mask;
  if (m) {
    const kind = m.atomic ? 'atomic' : m.store ? 'store' : 'load';
    h += '<h3>Memory</h3><div class="sum">' + SPACE[m.space] + ' ' + kind + ', ' + m.bytes + ' B per lane, ' + pop(m.mask) + ' lanes</div>';
    if (m.space === 1 || m.space === 4) h += coalesceView(m);
    else if (m.space === 2) h += bankView(m);
    else {
      const u = new Set(m.addr.filter(function (a) { return a !== null; }));
      h += '<div class="sum">' + u.size + ' distinct address' + (u.size === 1 ? '' : 'es') + (m.space === 3 ? (u.size > 1 ? ': the constant cache serves them one after another' : ': one broadcast') : '') + '</div>';
    }
    h += where + mask + addrTable(m);
  }
  /* the warp's instruction stream around this one: divergence and
   * reconvergence read top to bottom */
  const h0 = Math.max(0, i - 6), h1 = Math.min(r.iCyc.length, i + 9);
  h += '<h3>This warp, instruction by instruction</h3><table class="hist">';
  for (let k = h0; k < h1; k++) {
    const a = r.iAct[k], e = r.iExec[k];
    h += '<tr data-k="' + k + '"' + (k === i ? ' class="cur"' : '') + '><td>' + fmt(r.iCyc[k]) + '</td><td>' + r.iPc[k] + '</td><td class="t">' + esc(instrOf(r, r.iPc[k])[1]) + '</td><td>' +
      lanesStrip(a, function (l) { return (e >>> l) & 1 ? 'rgb(33,102,172)' : 'rgb(146,197,222)'; }, 4) + '</td><td>' + pop(a) + '</td></tr>';
  }
  h += '</table>';
  showPane('detail');
  $('detailbody').innerHTML = h;
  $('detail').scrollTop = 0;
  /* keep the whole bank map above the fold: shrink it to the room left */
  const bm = $('detailbody').querySelector('svg.bankmap');
  if (bm) {
    const room = $('detail').getBoundingClientRect().bottom - bm.getBoundingClientRect().top - 8;
    if (bm.getBoundingClientRect().height > room) bm.outerHTML = bankSvg(m, room);
  }
  $('detailbody').querySelectorAll('table.hist tr').forEach(function (tr) {
    tr.onclick = function () { select(r, +tr.getAttribute('data-k'), false); };
  });
  $('dprev').onclick = function () { if (i > 0) select(r, i - 1, false); };
  $('dnext').onclick = function () { if (i + 1 < r.iCyc.length) select(r, i + 1, false); };
  $('dmem').onclick = function () { for (let k = i + 1; k < r.iCyc.length; k++) if (r.iMem[k] >= 0) { select(r, k, false); return; } };
  $('dzoom').onclick = function () { const c = r.iCyc[i]; setView(c - 40, c + 40); };
  const c = r.iCyc[i];
  if (!fromHash && (c < v0 || c >= v1)) { const s = v1 - v0; setView(c - s / 2, c + s / 2); }
  tl.scrollToRow(r); ln.scrollToRow(r);
  if (!fromHash) {
    try { history.replaceState(null, '', '#sm=' + r.sm + '&block=' + r.cta + '&warp=' + r.warp + '&launch=' + (r.launch + 1) + '&cycle=' + c); } catch (e) { /* file: URLs may refuse */ }
  }
  redraw();
}

/* ---- URL hash: preselect an instruction (for labs and screenshots) ----
 *   #pick=KIND   the first issue of a kind: divergent (fewer lanes active than
 *                the warp has threads), conflict (the most bank conflicts),
 *                uncoalesced (the most sectors), global, shared, mem, any
 *   filters      sm=S block=B (linear) warp=W launch=L pc=P cycle=C (at or after)
 *   view         zoom=N (N cycles around it), from=A&to=B, lanes=heat, laneh=1|2|3 */
function pick(kind, q) {
  let best = null, bv = -1;
  const launch = q.launch ? +q.launch - 1 : null, c0 = q.cycle !== undefined ? +q.cycle : -Infinity;
  rows.forEach(function (r) {
    if ((q.sm !== undefined && r.sm !== +q.sm) || (q.block !== undefined && r.cta !== +q.block) ||
        (q.warp !== undefined && r.warp !== +q.warp) || (launch !== null && r.launch !== launch)) return;
    for (let i = lowerBound(r.iCyc, c0); i < r.iCyc.length; i++) {
      if (q.pc !== undefined && r.iPc[i] !== +q.pc) continue;
      let v = -1;
      const m = r.iMem[i] >= 0 ? D.M[r.iMem[i]] : null;
      if (kind === 'divergent') v = r.iAct[i] !== r.valid ? 1 : -1;
      else if (kind === 'conflict') v = m && m[0] === 2 && m[5].length ? m[5][2] : -1;
      else if (kind === 'uncoalesced') v = m && (m[0] === 1 || m[0] === 4) && m[5].length ? m[5][1] : -1;
      else if (kind === 'global') v = m && m[0] === 1 ? 1 : -1;
      else if (kind === 'shared') v = m && m[0] === 2 ? 1 : -1;
      else if (kind === 'mem') v = m ? 1 : -1;
      else v = 1;
      if (v < 0) continue;
      if (v > bv || (v === bv && r.iCyc[i] < best.r.iCyc[best.i])) { bv = v; best = { r: r, i: i }; }
      if (kind !== 'conflict' && kind !== 'uncoalesced') break;
    }
  });
  return best;
}
/* ---- finders: the toolbar jumps to the worst issue of a kind ---- */
[['fconf', 'conflict'], ['funco', 'uncoalesced'], ['fdiv', 'divergent']].forEach(function (f) {
  const s0 = pick(f[1], {});
  if (!s0) { $(f[0]).disabled = true; $(f[0]).title += ': none in this window'; return; }
  $(f[0]).onclick = function () {
    const s = pick(f[1], {}), c = s.r.iCyc[s.i];
    setView(c - 60, c + 140);
    select(s.r, s.i, false);
  };
});

/* ---- per source line: where the time and the memory trouble are ---- */
let LS = null, lsKey = 'wc', lsDir = -1, hiLine = 0;
function lineStats() {
  if (LS) return LS;
  const by = {};
  const get = function (l) {
    return by[l] || (by[l] = { line: l, inst: 0, div: 0, req: 0, sec: 0, shared: 0, conf: 0, ways: 0, wc: 0, st: new Float64Array(NS) });
  };
  rows.forEach(function (r) {
    const code = (D.entries[r.entry] || { code: [] }).code;
    for (let i = 0; i < r.iCyc.length; i++) {
      const s = get(code[r.iPc[i]] ? code[r.iPc[i]][0] : 0), mi = r.iMem[i];
      s.inst++;
      if (r.iAct[i] !== r.valid) s.div++;
      if (mi < 0) continue;
      const m = D.M[mi], det = m[5] || [];
      if ((m[0] === 1 || m[0] === 4) && det.length) { s.req += det[0]; s.sec += det[1]; }
      else if (m[0] === 2 && det.length) { s.shared++; s.conf += det[2]; if (det[3] > s.ways) s.ways = det[3]; }
    }
    for (let i = 0; i < r.sFrom.length; i++) {
      const s = get(r.sLine[i]), d = r.sTo[i] - r.sFrom[i];
      s.st[r.sState[i]] += d; s.wc += d;
    }
  });
  LS = Object.keys(by).map(function (k) { return by[k]; }).filter(function (s) { return s.line > 0; });
  LS.forEach(function (s) {
    s.divp = s.inst ? 100 * s.div / s.inst : 0;
    s.spr = s.req ? s.sec / s.req : -1;
    s.code = (srcText[s.line] || '').trim();
  });
  return LS;
}
function mixSvg(s) {
  let x = 0, t = '';
  const W = 64, parts = [];
  for (let k = 0; k < NS; k++) if (s.st[k]) parts.push(k);
  parts.sort(function (a, b) { return s.st[b] - s.st[a]; });
  parts.forEach(function (k) {
    const w = W * s.st[k] / (s.wc || 1);
    t += '<rect x="' + x.toFixed(1) + '" y="1" width="' + Math.max(0, w).toFixed(1) + '" height="10" fill="' + COL[k] + '"></rect>';
    x += w;
  });
  const tip = parts.slice(0, 3).map(function (k) { return D.states[k] + ' ' + (100 * s.st[k] / (s.wc || 1)).toFixed(0) + '%'; }).join(', ');
  return '<svg width="' + W + '" height="12"><title>' + esc(tip) + '</title>' + t + '</svg>';
}
const LCOLS = [['line', 'line', 'the kernel source line'], ['code', 'code', 'its text'], ['inst', 'insts', 'warp instructions issued from it in the window'],
  ['divp', 'diverg.', 'share of its issues with fewer lanes active than the warp has threads'],
  ['spr', 'sect/req', 'global/local: 32-byte sectors per request (4 = coalesced 4-byte loads)'],
  ['ways', 'banks', 'shared: the worst n-way bank conflict'], ['wc', 'w-cycles', 'warp-cycles charged to the line (the instruction the warp waits to issue)'],
  ['mix', 'stall mix', 'the states of those warp-cycles, largest first (hover for the top three)']];
function showLines() {
  const L = lineStats().slice();
  const num = lsKey !== 'code';
  L.sort(function (a, b) { return num ? (a[lsKey] - b[lsKey]) * lsDir || a.line - b.line : a.code < b.code ? -lsDir : a.code > b.code ? lsDir : 0; });
  let h = '<div class="hint">Per source line, in the traced window. Click a column to sort, a line to mark its issues in the timeline (blue).</div><table><tr>';
  LCOLS.forEach(function (c) {
    h += '<th data-k="' + c[0] + '" title="' + esc(c[2]) + '" class="' + (c[0] === 'code' ? 't' : '') + (c[0] === lsKey ? ' sorted' : '') + '">' + c[1] + (c[0] === lsKey ? (lsDir < 0 ? ' \u25bc' : ' \u25b2') : '') + '</th>';
  });
  h += '</tr>';
  L.forEach(function (s) {
    h += '<tr class="l' + (s.line === hiLine ? ' cur' : '') + '" data-line="' + s.line + '"><td>' + s.line + '</td><td class="t">' + esc(s.code) + '</td><td>' + fmt(s.inst) + '</td>' +
      '<td' + (s.div ? ' class="bad"' : '') + '>' + (s.inst ? s.divp.toFixed(0) + '%' : '') + '</td>' +
      '<td' + (s.spr > 4 ? ' class="bad"' : '') + '>' + (s.spr >= 0 ? +s.spr.toFixed(2) : '') + '</td>' +
      '<td' + (s.ways > 1 ? ' class="bad"' : '') + '>' + (s.shared ? (s.ways > 1 ? s.ways + '-way' : '1') : '') + '</td>' +
      '<td>' + fmt(s.wc) + '</td><td>' + mixSvg(s) + '</td></tr>';
  });
  $('linesbody').innerHTML = h + '</table>';
  $('linesbody').querySelectorAll('th').forEach(function (th) {
    th.onclick = function () {
      const k = th.getAttribute('data-k');
      if (k === 'mix') return;
      if (k === lsKey) lsDir = -lsDir; else { lsKey = k; lsDir = k === 'line' || k === 'code' ? 1 : -1; }
      showLines();
    };
  });
  $('linesbody').querySelectorAll('tr.l').forEach(function (tr) {
    tr.onclick = function () { markLine(+tr.getAttribute('data-line')); showLines(); };
  });
  showPane('lines');
}
/* mark the issues of one source line in the timeline (0: none) */
function markLine(line) {
  hiLine = hiLine === line ? 0 : line;
  rows.forEach(function (r) {
    r.hi = [];
    if (!hiLine) return;
    const code = (D.entries[r.entry] || { code: [] }).code;
    for (let i = 0; i < r.iCyc.length; i++) if (code[r.iPc[i]] && code[r.iPc[i]][0] === hiLine) r.hi.push(i);
  });
  redraw();
}
function showPane(which) {
  $('linesbody').hidden = which !== 'lines';
  $('detailbody').hidden = which === 'lines';
  $('dtitle').textContent = which === 'lines' ? 'Source lines' : 'Instruction details';
  $('srclines').classList.toggle('on', which === 'lines');
}
$('srclines').onclick = function () { if ($('linesbody').hidden) showLines(); else showPane('detail'); };
function setBig(on) {
  document.body.classList.toggle('big', on);
  $('big').classList.toggle('on', on);
  panels.forEach(function (p) { p.resize(); });
  if (sel && !$('detailbody').hidden) select(sel.r, sel.i, true);
  drawNow();
}
$('big').onclick = function () { setBig(!document.body.classList.contains('big')); };

function fromHash() {
  const q = {};
  location.hash.replace(/^#/, '').split('&').forEach(function (kv) { const p = kv.split('='); if (p[0]) q[decodeURIComponent(p[0])] = decodeURIComponent(p[1] || ''); });
  if (q.lanes === 'heat') setLanes('heat');
  if (q.laneh) setLaneScale(Math.max(1, Math.min(3, +q.laneh | 0)));
  if (q.big !== undefined) setBig(true);
  if (q.uniform === 'rows') $('luni').onclick();
  if (q.from !== undefined && q.to !== undefined) setView(+q.from, +q.to);
  const s = q.pick || q.cycle !== undefined || q.pc !== undefined ? pick(q.pick || 'any', q) : null;
  if (s) {
    if (q.zoom) { const c = s.r.iCyc[s.i], z = +q.zoom; setView(c - z / 2, c + z / 2); }
    select(s.r, s.i, true);
  }
  if (q.line !== undefined) { markLine(+q.line); showLines(); }
  else if (q.lines !== undefined) showLines();
}
if (!rows.length) $('detailbody').innerHTML = '<p id="empty">Nothing was traced in this window.</p>';
fromHash();
window.addEventListener('hashchange', fromHash);
drawNow();
/* for tests/browser_check.sh: the page is drawn, this many ms after it started */
document.body.setAttribute('data-drawn-ms', String(Math.round(performance.now())));
})();
