import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDeviceList, parseFinding, parseKeptRuns, parseRunSummary, parseTapeGraphResult } from '../shared/protocol';
import { loadFixture } from './fixture';

describe('server JSON', () => {
  it('parses the tapewatch/tapeGraph fixture', () => {
    const result = parseTapeGraphResult(loadFixture());
    assert.ok(result);
    const tape = result.tapes[0];
    // data only: every edge joins two listed nodes (the webview draws them itself)
    assert.ok(!('dot' in tape));
    const nodeIds = new Set(tape.nodes.map((n) => n.id));
    assert.ok(tape.edges.length && tape.edges.every((e) => nodeIds.has(e.source) && nodeIds.has(e.target)));
    assert.ok(tape.nodes.some((n) => n.kind === 'launch' && n.location));
    assert.ok(result.findings.length >= 1);
    // every finding id a node refers to is in the findings list
    const ids = new Set(result.findings.map((f) => f.id));
    for (const n of tape.nodes) {
      for (const id of n.finding_ids) {
        assert.ok(ids.has(id), `${n.id} refers to unknown finding ${id}`);
      }
    }
  });

  it('keeps null (no run yet) apart from malformed', () => {
    assert.equal(parseTapeGraphResult(null), null);
    assert.equal(parseTapeGraphResult({}), undefined);
    assert.equal(parseTapeGraphResult('x'), undefined);
  });

  it('drops malformed nodes and fills defaults', () => {
    const r = parseTapeGraphResult({
      uri: 'u',
      tapes: [{ id: 't', nodes: [{ id: 'n', kind: 'weird', label: 3 }, { kind: 'launch' }, null], edges: [{ source: 'a' }] }],
    });
    assert.deepEqual(r?.tapes[0].nodes, [
      { id: 'n', kind: 'func', label: '', location: null, requires_grad: null, names: [], shape: null, dtype: '', finding_ids: [], calls: [] },
    ]);
    assert.deepEqual(r?.tapes[0].edges, []);
    assert.equal(r?.tapes[0].repeats, 1);
    const repeated = parseTapeGraphResult({ uri: 'u', tapes: [{ id: 't', repeats: 3 }, { id: 'v', repeats: 'x' }, { id: 'w', repeats: 2.5 }] });
    assert.deepEqual(repeated?.tapes.map((t) => t.repeats), [3, 1, 1]);
    assert.equal(r?.tapes[0].label, 't');
  });

  it('reads launch calls, a restored run and kept runs; drops what does not fit', () => {
    const r = parseTapeGraphResult({
      uri: 'u',
      restored: { time: '2026-05-01T12:00:00+00:00', readable_time: '2026-05-01 14:00:00', path: '/p/k.json' },
      tapes: [{ id: 't', nodes: [{ id: 'l1', kind: 'launch', calls: [{ path: '/p/s.py', line: 54, column: 9, function: 'step' }, { path: '', line: 1 }, 'x'] }] }],
    });
    assert.deepEqual(r?.tapes[0].nodes[0].calls, [{ path: '/p/s.py', line: 54, column: 9, function: 'step' }]);
    assert.equal(r?.restored?.readable_time, '2026-05-01 14:00:00');
    assert.equal(parseTapeGraphResult({ uri: 'u', tapes: [], restored: { time: 5 } })?.restored, undefined);
    const runs = parseKeptRuns({
      runs: [
        { path: '/p/a.json', time: 't', readable_time: 'T', status: 'findings', counts: { error: 1, warning: 'x' }, has_findings: true, current: true },
        { path: '' },
        'junk',
      ],
    });
    assert.deepEqual(runs, [
      { path: '/p/a.json', time: 't', readable_time: 'T', status: 'findings', counts: { error: 1, warning: 0, information: 0, hint: 0 }, has_findings: true, warp_version: '', device: '', current: true },
    ]);
    assert.equal(parseKeptRuns({}), undefined);
  });

  it('parses findings in the model.py JSON shape', () => {
    const f = parseFinding({ id: 'f', code: 'TW101', severity: 'bogus', message: 'm', path: null, line: null, related: [{ path: '/a.py', line: 2 }] });
    assert.deepEqual(f, { id: 'f', code: 'TW101', severity: 'warning', message: 'm', path: null, line: null, column: null, related: [{ path: '/a.py', line: 2, column: 1, message: '', role: '' }], count: 1, data: {} });
  });

  it('parses run summaries and device lists', () => {
    const s = parseRunSummary({
      uri: 'file:///a.py',
      status: 'findings',
      warp_version: '1.19.0',
      device: 'cpu',
      seconds: 3.2,
      exit_code: 0,
      counts: { error: 0, warning: 2, information: 0, hint: 0 },
      findings: 2,
      tapes: 1,
    });
    assert.equal(s?.counts.warning, 2);
    assert.equal(parseRunSummary({ status: 'exploded' }), undefined);
    assert.deepEqual(parseRunSummary({ status: 'cancelled' })?.counts, { error: 0, warning: 0, information: 0, hint: 0 });
    assert.deepEqual(parseDeviceList({ devices: ['cpu', 'cuda:0', 3, ''], warp_version: '1.19.0' }), { devices: ['cpu', 'cuda:0'], warp_version: '1.19.0' });
    assert.equal(parseDeviceList({}), undefined);
    assert.deepEqual(parseDeviceList({ devices: [], warp_version: null, error: "No module named 'warp'" }), {
      devices: [],
      warp_version: '',
      error: "No module named 'warp'",
    });
  });

  it('reads the failure of a run, tolerant of its absence', () => {
    assert.equal(parseRunSummary({ status: 'ok' })?.failure, null);
    assert.equal(parseRunSummary({ status: 'failed', failure: { code: 'boom' } })?.failure, null);
    assert.deepEqual(parseRunSummary({ status: 'failed', failure: { code: 'TW904', message: 'no cuda:3\nmore', line: 4 } })?.failure, {
      code: 'TW904',
      message: 'no cuda:3',
    });
    assert.deepEqual(parseRunSummary({ status: 'failed', failure: { code: 'TW902', message: 'x', path: '/a.py', line: 3 }, lints: 2 }), {
      ...parseRunSummary({ status: 'failed', lints: 2 }),
      failure: { code: 'TW902', message: 'x', path: '/a.py', line: 3 },
    });
  });
});
