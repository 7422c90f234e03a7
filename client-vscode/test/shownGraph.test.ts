import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFinding, parseTapeGraphResult, type Finding } from '../shared/protocol';
import { errorBars, fdEvidence, logAxis, relativeError } from '../webview/fdModel';
import { nearestInDirection } from '../webview/nav';
import { DEFAULT_OPTIONS, EDGE_LABEL_LIMIT, findingHighlight, nodeLabel, parseOptions, shownGraph, vizGraph } from '../webview/shownGraph';
import { chooseDirection, directionForShape, fitView, parseView, READABLE_SCALE, showsAll, zoomAt } from '../webview/viewMath';
import { loadFixture, loopGraph } from './fixture';

const loop = parseTapeGraphResult(loopGraph(60, 30))!.tapes[0];
const pingpong = parseTapeGraphResult(loadFixture())!.tapes[0];

describe('graph toggles', () => {
  it('draws a 60-step loop as one step node ×60, its states in three nodes', () => {
    const g = shownGraph(loop, DEFAULT_OPTIONS);
    const step = g.nodes.find((n) => n.label === 'step')!;
    assert.equal(step.members.length, 60);
    assert.deepEqual(nodeLabel(step, DEFAULT_OPTIONS), ['step ×60', 'sim.py:20']);
    assert.equal(g.nodes.filter((n) => n.kind === 'launch').length, 2);
    // states[0] (only read), states[1..59] (written and read), states[60] (read by the loss)
    const states = g.nodes.filter((n) => n.label.startsWith('states'));
    assert.deepEqual(states.map((n) => n.members.length), [1, 59, 1]);
    assert.equal(nodeLabel(states[1], DEFAULT_OPTIONS)[0], 'states[1] … states[59] ×59');
    assert.equal(g.nodes.length, 7);
    // the finding on states[30] is on the collapsed node; every tape node maps to a drawn one
    assert.deepEqual(states[1].finding_ids, ['f-loop']);
    assert.equal(g.drawnAs.get('s30'), states[1].id);
    assert.equal(g.drawnAs.size, loop.nodes.length);
    const write = g.edges.find((e) => e.source === step.id && e.target === states[1].id)!;
    assert.equal(write.count, 59);
    const drawn = vizGraph(g, DEFAULT_OPTIONS);
    assert.deepEqual(drawn.edges!.find((e) => e.attributes?.id === write.id), { tail: step.id, head: states[1].id, attributes: { id: write.id, label: 'x_out ×59' } });
    assert.deepEqual(drawn.nodes!.find((n) => n.name === step.id)!.attributes, { shape: 'box', style: 'rounded,filled', fillcolor: '#dde6f7', label: 'step ×60\nsim.py:20' });
    assert.deepEqual(drawn.nodes!.find((n) => n.name === states[1].id)!.attributes, { shape: 'ellipse', style: 'filled', fillcolor: '#dddddd', label: 'states[1] … states[59] ×59\n(16,) float32' });
  });

  it('drops edge labels and bounds the layout above the edge limit', () => {
    const small = vizGraph(shownGraph(loop, DEFAULT_OPTIONS), DEFAULT_OPTIONS);
    assert.deepEqual(small.graphAttributes, { rankdir: 'LR' });
    const all = shownGraph(loop, { ...DEFAULT_OPTIONS, collapse: false });
    assert.ok(all.edges.length > EDGE_LABEL_LIMIT);
    const large = vizGraph(all, DEFAULT_OPTIONS);
    assert.deepEqual(large.graphAttributes, { rankdir: 'LR', mclimit: 0.3, nslimit: 2, nslimit1: 2 });
    assert.ok(large.edges!.every((e) => e.attributes?.label === undefined && /^tw-e\d+$/.test(String(e.attributes?.id))));
    assert.deepEqual(large.nodeAttributes, { fontname: 'Helvetica', fontsize: 10 });
    assert.deepEqual(large.edgeAttributes, { fontname: 'Helvetica', fontsize: 9 });
  });

  it('keeps every launch when collapse is off', () => {
    const g = shownGraph(loop, { ...DEFAULT_OPTIONS, collapse: false });
    assert.equal(g.nodes.length, loop.nodes.length);
    assert.equal(g.edges.length, loop.edges.length);
  });

  it('keeps launches of one line reached through different callers apart (ping-pong)', () => {
    const g = shownGraph(pingpong, DEFAULT_OPTIONS);
    const launches = g.nodes.filter((n) => n.kind === 'launch' && n.label === 'integrate');
    assert.deepEqual(launches.map((n) => n.members.length), [3, 3]);
    assert.notEqual(launches[0].names[0], launches[1].names[0]);
    // a.q and b.q share an allocation line but not their connections: two nodes
    assert.equal(g.nodes.filter((n) => n.kind === 'array' && n.members.length > 1).length, 0);
  });

  it('hides read-only arrays, and simplify hides no-grad arrays one launch touches', () => {
    const readOnly = shownGraph(loop, { ...DEFAULT_OPTIONS, hideReadOnly: true });
    assert.deepEqual(readOnly.nodes.filter((n) => n.kind === 'array').map((n) => n.label).sort(), ['loss', 'states[1]', 'states[60]']);
    assert.equal(readOnly.hidden, 2);
    assert.ok(readOnly.edges.every((e) => e.source !== 'c' && e.target !== 'c'));
    // the constant is read by the one collapsed step node: trivial; states require grad: kept
    const simple = shownGraph(loop, { ...DEFAULT_OPTIONS, simplify: true });
    assert.deepEqual(simple.nodes.filter((n) => n.kind === 'array').map((n) => n.label).sort(), ['loss', 'states[0]', 'states[1]', 'states[60]']);
    // without collapse the constant touches 60 launches: not trivial
    assert.ok(shownGraph(loop, { ...DEFAULT_OPTIONS, collapse: false, simplify: true }).nodes.some((n) => n.id === 'c'));
  });

  it('never hides a node with a finding', () => {
    const g = shownGraph(parseTapeGraphResult(loopGraph(3, 0))!.tapes[0], { ...DEFAULT_OPTIONS, hideReadOnly: true });
    assert.ok(g.nodes.some((n) => n.id === 's0'));
  });

  it('lays out left to right or top to bottom, arrays by name or by allocation', () => {
    const g = shownGraph(loop, DEFAULT_OPTIONS);
    assert.equal(vizGraph(g, DEFAULT_OPTIONS).graphAttributes?.rankdir, 'LR');
    const tb = { ...DEFAULT_OPTIONS, direction: 'TB' as const, labels: 'allocation' as const };
    assert.equal(vizGraph(g, tb).graphAttributes?.rankdir, 'TB');
    const loss = g.nodes.find((n) => n.id === 'loss')!;
    assert.deepEqual(nodeLabel(loss, tb), ['allocated at sim.py:12', '(1,) float32']);
    assert.deepEqual(nodeLabel(loss, DEFAULT_OPTIONS), ['loss', '(1,) float32']);
  });

  it('reads saved options, defaulting what is missing or malformed', () => {
    assert.deepEqual(parseOptions(undefined), DEFAULT_OPTIONS);
    assert.deepEqual(parseOptions({ collapse: false, direction: 'TB', labels: 'x', simplify: 'yes' }), { ...DEFAULT_OPTIONS, collapse: false, direction: 'TB' });
  });

  it('lights a finding\'s nodes and the edges between them', () => {
    const g = shownGraph(pingpong, DEFAULT_OPTIONS);
    const lit = findingHighlight(g, 'f1');
    const carriers = g.nodes.filter((n) => n.finding_ids.includes('f1')).map((n) => n.id);
    assert.deepEqual([...lit.nodes].sort(), carriers.sort());
    assert.ok(lit.edges.size > 0);
    for (const id of lit.edges) {
      const e = g.edges.find((x) => x.id === id)!;
      assert.ok(lit.nodes.has(e.source) || lit.nodes.has(e.target));
    }
    assert.equal(findingHighlight(g, 'nope').nodes.size, 0);
  });
});

describe('zoom, fit and arrow keys (pure parts)', () => {
  it('fits a graph to the frame, centred, never magnified past 2x', () => {
    const v = fitView({ width: 500, height: 200 }, { width: 524, height: 400 }, 12);
    assert.equal(v.scale, 1);
    assert.equal(v.x, 12);
    assert.equal(v.y, (400 - 200) / 2);
    assert.equal(fitView({ width: 10, height: 10 }, { width: 800, height: 800 }).scale, 2);
  });

  it('never fits below the readable scale: a large graph opens readable at its top left corner', () => {
    const v = fitView({ width: 2000, height: 200 }, { width: 524, height: 400 }, 12);
    assert.equal(v.scale, READABLE_SCALE);
    assert.equal(v.x, 12, 'the left edge, to scroll right from');
    assert.equal(v.y, (400 - 200 * READABLE_SCALE) / 2, 'centred where it fits');
    assert.equal(showsAll({ width: 2000, height: 200 }, { width: 524, height: 400 }), false);
    assert.equal(showsAll({ width: 400, height: 200 }, { width: 524, height: 400 }), true);
  });

  it('picks the layout that fits the panel at the larger scale', () => {
    const frame = { width: 510, height: 700 }; // beside the editor: tall and narrow
    // pingpong_helper.py's graph: wide left to right, tall top to bottom.
    assert.equal(chooseDirection({ LR: { width: 1160, height: 260 }, TB: { width: 340, height: 600 } }, frame), 'TB');
    assert.equal(chooseDirection({ LR: { width: 1160, height: 260 }, TB: { width: 340, height: 600 } }, { width: 1400, height: 400 }), 'LR');
    // Both past the 2x cap: the panel's shape decides.
    assert.equal(chooseDirection({ LR: { width: 10, height: 10 }, TB: { width: 10, height: 10 } }, frame), 'TB');
    assert.equal(directionForShape({ width: 900, height: 300 }), 'LR');
  });

  it('reads a saved view back, or nothing', () => {
    assert.deepEqual(parseView({ scale: 1.5, x: 3, y: -4 }), { scale: 1.5, x: 3, y: -4 });
    assert.equal(parseView({ scale: 'big', x: 0, y: 0 }), undefined);
    assert.equal(parseView(null), undefined);
    assert.equal(parseView({ scale: 1e9, x: 0, y: 0 })?.scale, 8);
  });

  it('zooms around the pointer', () => {
    const v = zoomAt({ scale: 1, x: 0, y: 0 }, 2, 100, 50);
    assert.deepEqual(v, { scale: 2, x: -100, y: -50 });
  });

  it('moves to the nearest node in the arrow\'s direction', () => {
    const b = (id: string, x: number, y: number) => ({ id, x, y, width: 10, height: 10 });
    const boxes = [b('a', 0, 0), b('right-near', 50, 40), b('right-row', 80, 0), b('below', 0, 60)];
    assert.equal(nearestInDirection(boxes[0], boxes, 'right'), 'right-row');
    assert.equal(nearestInDirection(boxes[0], boxes, 'down'), 'below');
    assert.equal(nearestInDirection(boxes[0], boxes, 'left'), undefined);
  });
});

describe('FD pictures (numbers)', () => {
  const harness = parseFinding({
    id: 'tw401-q',
    code: 'TW401',
    severity: 'error',
    message: 'FD check of `q` FAIL',
    data: {
      parameter: 'q',
      max_abs_error: 0.5,
      max_rel_error: 1,
      ratio: 2,
      samples: [
        { element: 7, ad: 1, fd: 0.5, ok: false },
        { element: 2, ad: 0.25, fd: 0.25000001, ok: true },
        { element: 4, ad: null, fd: 0.1, ok: false },
        { element: 'x', ad: 1, fd: 1, ok: true },
      ],
    },
  }) as Finding;

  it('reads the samples of a harness verdict, dropping malformed ones', () => {
    const ev = fdEvidence(harness);
    assert.equal(ev?.kind, 'harness');
    assert.equal(ev.kind === 'harness' && ev.samples.length, 3);
    assert.equal(fdEvidence({ ...harness, data: {} }), undefined);
  });

  it('one bar per element, in element order, the not-finite one worst', () => {
    const ev = fdEvidence(harness)!;
    const bars = errorBars(ev.kind === 'harness' ? ev.samples : [], 'abs');
    assert.deepEqual(bars.map((b) => b.element), [2, 4, 7]);
    assert.deepEqual(bars.map((b) => b.worst), [false, true, false]);
    assert.equal(bars[2].value, 0.5);
    assert.match(bars[2].title, /element 7: AD 1, FD 0\.5, \|AD−FD\| 0\.5, relative 1 — outside tolerance/);
    const rel = errorBars(ev.kind === 'harness' ? ev.samples.filter((s) => s.ad !== null) : [], 'rel');
    assert.equal(rel.find((b) => b.worst)?.element, 7);
    assert.equal(relativeError(1, 0), 1e8);
  });

  it('spans whole decades on a log axis', () => {
    const axis = logAxis([1e-7, 0.5, 0, null]);
    assert.deepEqual([axis.lo, axis.hi], [-7, 0]);
    assert.equal(axis.y(1e-7), 0);
    assert.equal(axis.y(1), 1);
    assert.equal(axis.y(null), 1);
    assert.equal(axis.y(0), 0);
  });

  it('reads the worst derivative of a launch check', () => {
    const f = parseFinding({ id: 'l', code: 'TW404', message: 'm', data: { kernel: 'k', input: 'x', output: 'y', element: 3, ad: 2, fd: 1, checked: 12, failed: 2 } })!;
    const ev = fdEvidence(f);
    assert.deepEqual(ev?.kind === 'launch' && [ev.input, ev.output, ev.element, ev.ad, ev.fd, ev.checked, ev.failed], ['x', 'y', 3, 2, 1, 12, 2]);
  });
});
