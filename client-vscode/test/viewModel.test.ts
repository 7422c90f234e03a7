import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTapeGraphResult, type Finding, type GraphNode, type TapeGraph } from '../shared/protocol';
import { DEFAULT_OPTIONS, graphvizLabel, shownGraph, vizGraph } from '../webview/shownGraph';
import { buildGraphView, nodePlaces, nodeTone, nodeTooltip, tapeFindings, tapeOptionText, tapeRepeatsText, worstSeverity } from '../webview/viewModel';
import { loadFixture } from './fixture';

const result = parseTapeGraphResult(loadFixture())!;
const tape = result.tapes[0];

function node(partial: Partial<GraphNode>): GraphNode {
  return { id: 'n', kind: 'array', label: 'x', location: null, requires_grad: null, names: [], shape: null, dtype: '', finding_ids: [], calls: [], ...partial };
}

function finding(partial: Partial<Finding>): Finding {
  return { id: 'f', code: 'TW101', severity: 'warning', message: 'm', path: null, line: null, column: null, related: [], count: 1, data: {}, ...partial };
}

describe('graph view model', () => {
  it('badges exactly the nodes with finding ids', () => {
    const view = buildGraphView(tape, result.findings);
    const expected = tape.nodes.filter((n) => n.finding_ids.length).map((n) => n.id);
    assert.ok(expected.length > 0, 'the fixture has a finding on the graph');
    assert.deepEqual(view.badged, expected);
    for (const id of expected) {
      const v = view.nodes.get(id)!;
      assert.equal(v.badge, String(tape.nodes.find((n) => n.id === id)!.finding_ids.length));
      for (const f of v.findings) {
        assert.ok(v.tooltip.includes(f.message), 'tooltip carries the finding message');
        assert.ok(v.tooltip.includes(f.code));
      }
    }
    for (const n of tape.nodes.filter((n) => !n.finding_ids.length)) {
      assert.equal(view.nodes.get(n.id)!.badge, null);
    }
  });

  it('looks nodes up by the ids Graphviz writes in <title>', () => {
    const view = buildGraphView(tape, result.findings);
    for (const n of tape.nodes) {
      assert.equal(view.nodes.get(n.id)?.label, n.label);
    }
    // every drawn node is named by its JSON id in the graph the webview gives Graphviz
    const shown = shownGraph(tape, DEFAULT_OPTIONS);
    assert.deepEqual(
      vizGraph(shown, DEFAULT_OPTIONS).nodes!.map((n) => n.name),
      shown.nodes.map((n) => n.id),
    );
  });

  it('colours requires_grad arrays green and other arrays grey', () => {
    assert.equal(nodeTone(node({ requires_grad: true })), 'grad');
    assert.equal(nodeTone(node({ requires_grad: false })), 'nograd');
    assert.equal(nodeTone(node({ requires_grad: null })), 'nograd');
    assert.equal(nodeTone(node({ kind: 'launch' })), 'launch');
    assert.equal(nodeTone(node({ kind: 'func' })), 'func');
  });

  it('makes launch nodes navigate to the line that made them (the fixture: the calls of simulate_step)', () => {
    const view = buildGraphView(tape, result.findings);
    const launches = tape.nodes.filter((n) => n.kind === 'launch' && n.location);
    const viaHelper = launches.find((n) => n.calls.length)!;
    const { path, line, column } = viaHelper.calls[0];
    assert.deepEqual(view.nodes.get(viaHelper.id)!.target, { path, line, column });
    const direct = launches.find((n) => !n.calls.length)!; // height_loss, launched by the script itself
    assert.deepEqual(view.nodes.get(direct.id)!.target, direct.location);
  });

  it('writes tooltips as plain text with the user data verbatim', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const text = nodeTooltip(
      node({ label: evil, requires_grad: true, names: [evil, 'state.q'], shape: [16], dtype: 'float32', location: { path: '/p/train.py', line: 41, column: 5 } }),
      [finding({ code: 'TW101', message: 'overwritten <b>here</b>' })],
      ['f9'],
    );
    assert.equal(
      text,
      [
        `${evil} (array, requires_grad)`,
        'names: state.q',
        'shape (16,) float32',
        'allocated at train.py:41:5',
        '⚠ TW101: overwritten <b>here</b>',
        '⚠ finding f9',
      ].join('\n'),
    );
  });

  it('counts unknown finding ids in the badge', () => {
    const t: TapeGraph = { ...tape, nodes: [node({ id: 'a', finding_ids: ['f1', 'nope'] })] };
    const view = buildGraphView(t, [finding({ id: 'f1', severity: 'error' })]);
    assert.equal(view.nodes.get('a')!.badge, '2');
    assert.equal(view.nodes.get('a')!.severity, 'error');
  });

  it('picks the worst severity', () => {
    assert.equal(worstSeverity([finding({ severity: 'hint' }), finding({ severity: 'warning' })]), 'warning');
    assert.equal(worstSeverity([]), null);
  });

  it('lists the findings of a tape and names tapes for the selector', () => {
    assert.deepEqual(
      tapeFindings(tape, result.findings).map((f) => f.id),
      result.findings.filter((f) => tape.nodes.some((n) => n.finding_ids.includes(f.id))).map((f) => f.id),
    );
    assert.equal(
      tapeOptionText({ ...tape, label: 'tape at train.py:40', captured_at: 'backward', nodes: [node({ kind: 'launch' }), node({})] }, 0),
      '1. tape at train.py:40 — at backward() (1 launch)',
    );
    assert.equal(
      tapeOptionText({ ...tape, label: 'tape at train.py:40', captured_at: 'backward', nodes: [node({ kind: 'launch' })], repeats: 3 }, 1),
      '2. tape at train.py:40 — at backward() (1 launch), drawn once for 3 tapes that recorded the same launches',
    );
    assert.equal(tapeRepeatsText({ ...tape, repeats: 1 }), '');
  });

  it('carries labels as plain attribute values, which Graphviz draws as text', async () => {
    // Graphviz reads `\N`, `\G`, `\n`, `\l` in any label, even in a graph object; a doubled backslash is drawn as one.
    assert.equal(graphvizLabel(['a\\b \\N', 'line 2']), 'a\\\\b \\\\N\nline 2');
    const hostile = {
      ...tape,
      nodes: [node({ id: 'a1', label: 'a', names: ['"]; evil [label="x\\N {}'] }), node({ id: 'l1\\', kind: 'launch', label: '<img src=x>' })],
      edges: [{ source: 'a1', target: 'l1\\', kind: 'read' as const, arg: '"x\\G}\nnext' }],
    };
    const drawn = vizGraph(shownGraph(hostile, DEFAULT_OPTIONS), DEFAULT_OPTIONS);
    // no DOT text: one node per tape node, named by its id as it is, each label a plain string
    assert.deepEqual(
      drawn.nodes!.map((n) => [n.name, n.attributes?.label]),
      [
        ['a1', '"]; evil [label="x\\\\N {}'],
        ['l1\\', '<img src=x>'],
      ],
    );
    assert.deepEqual(drawn.edges!.map((e) => [e.tail, e.head, e.attributes?.label]), [['a1', 'l1\\', '"x\\\\G}\nnext']]);
    // and Graphviz draws exactly the user's text: backslashes as backslashes, a newline as a line break
    const { instance } = await import('@viz-js/viz');
    const svg = (await instance()).renderString(drawn, { format: 'svg' });
    const xml = (t: string) => t.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))).replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => xml(m[1]));
    const titles = [...svg.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => xml(m[1]));
    assert.deepEqual(texts, ['"]; evil [label="x\\N {}', '<img src=x>', '"x\\G}', 'next']);
    assert.deepEqual(titles, ['tape', 'a1', 'l1\\', 'a1->l1\\']);
  });
});

describe('a launch node leads to the line that made it', () => {
  it('goes to the calling line; the launch line is one step away in its places', () => {
    const launch = node({
      id: 'l1',
      kind: 'launch',
      label: 'integrate',
      location: { path: '/p/s.py', line: 41, column: 5 },
      calls: [{ path: '/p/s.py', line: 54, column: 9, function: 'simulate_step' }],
    });
    const view = buildGraphView({ id: 't', label: 't', captured_at: 'backward', location: null, nodes: [launch], edges: [] }, []).nodes.get('l1')!;
    assert.deepEqual(view.target, { path: '/p/s.py', line: 54, column: 9 });
    assert.deepEqual(
      view.places.map((p) => `${p.role} ${p.line}`),
      ['called at 54', 'launched at 41'],
    );
    assert.match(view.tooltip, /called at s\.py:54:9 \(simulate_step\(\)\)\nlaunched at s\.py:41:5\nclick: go to the calling line/);
    // A launch the script makes itself: its own line.
    const own = node({ id: 'l2', kind: 'launch', location: { path: '/p/s.py', line: 58, column: 5 } });
    assert.deepEqual(nodePlaces(own), [{ path: '/p/s.py', line: 58, column: 5, role: 'launched at' }]);
  });
});
