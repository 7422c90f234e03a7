import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTapeGraphResult, type Finding, type GraphNode, type TapeGraph } from '../shared/protocol';
import { DEFAULT_OPTIONS, shownDot, shownGraph } from '../webview/shownGraph';
import { buildGraphView, dotQuote, nodeTone, nodeTooltip, tapeFindings, tapeOptionText, worstSeverity } from '../webview/viewModel';
import { loadFixture } from './fixture';

const result = parseTapeGraphResult(loadFixture())!;
const tape = result.tapes[0];

function node(partial: Partial<GraphNode>): GraphNode {
  return { id: 'n', kind: 'array', label: 'x', location: null, requires_grad: null, names: [], shape: null, dtype: '', finding_ids: [], ...partial };
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
    // every drawn node is named by its JSON id in the DOT the webview builds
    const shown = shownGraph(tape, DEFAULT_OPTIONS);
    const dot = shownDot(shown, DEFAULT_OPTIONS);
    for (const n of shown.nodes) {
      assert.ok(dot.includes(`  ${dotQuote(n.id)} [`), `${n.id} is a DOT node`);
    }
  });

  it('colours requires_grad arrays green and other arrays grey', () => {
    assert.equal(nodeTone(node({ requires_grad: true })), 'grad');
    assert.equal(nodeTone(node({ requires_grad: false })), 'nograd');
    assert.equal(nodeTone(node({ requires_grad: null })), 'nograd');
    assert.equal(nodeTone(node({ kind: 'launch' })), 'launch');
    assert.equal(nodeTone(node({ kind: 'func' })), 'func');
  });

  it('makes launch nodes navigate to their call site', () => {
    const view = buildGraphView(tape, result.findings);
    const launch = tape.nodes.find((n) => n.kind === 'launch' && n.location)!;
    assert.deepEqual(view.nodes.get(launch.id)!.target, launch.location);
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
  });

  it('quotes DOT labels in the drawn graph', () => {
    assert.equal(dotQuote('a "b" \\ c\nd'), '"a \\"b\\" \\\\ c\\nd"');
    const hostile = {
      ...tape,
      nodes: [node({ id: 'a1', label: '"]; evil [label="x' }), node({ id: 'l1', kind: 'launch', label: 'k' })],
      edges: [{ source: 'a1', target: 'l1', kind: 'read' as const, arg: '"x\n' }],
    };
    const dot = shownDot(shownGraph(hostile, DEFAULT_OPTIONS), DEFAULT_OPTIONS);
    assert.match(dot, /"a1" \[[^\n]*label="\\"\]; evil \[label=\\"x"\];/);
    assert.match(dot, /"a1" -> "l1" \[[^\n]*label="\\"x\\n"\];/);
    assert.doesNotMatch(dot, /^\s*evil/m);
  });
});
