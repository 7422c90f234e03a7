// The tape-graph fixture shared by the unit and webview tests.
// TAPEWATCH_GRAPH_FIXTURE points at another `tapewatch/tapeGraph` result (a real capture).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

export const FIXTURE_PATH = process.env.TAPEWATCH_GRAPH_FIXTURE || path.join(__dirname, '..', '..', 'tests', 'webview', 'fixtures', 'graph.json');

export function loadFixture(): unknown {
  return JSON.parse(readFileSync(FIXTURE_PATH, 'utf8'));
}

/**
 * A simulation loop as the probe records it: `states = [alloc() for ...]`
 * (one allocation line), `STEPS` launches of `step` from one line reading
 * states[i] and writing states[i+1], a constant read by every step, then a
 * loss. With `findingOn`, that state carries a finding.
 */
export function loopGraph(steps: number, findingOn?: number): unknown {
  const at = (line: number) => ({ path: '/workspace/sim.py', line, column: 5 });
  const nodes: unknown[] = [];
  const edges: unknown[] = [];
  for (let i = 0; i <= steps; i++) {
    const finding_ids = i === findingOn ? ['f-loop'] : [];
    nodes.push({ id: `s${i}`, kind: 'array', label: `states[${i}]`, location: at(10), requires_grad: true, names: [`states[${i}]`], shape: [16], dtype: 'float32', finding_ids });
  }
  nodes.push({ id: 'c', kind: 'array', label: 'gravity', location: at(11), requires_grad: false, names: ['gravity'], shape: [1], dtype: 'float32', finding_ids: [] });
  nodes.push({ id: 'loss', kind: 'array', label: 'loss', location: at(12), requires_grad: true, names: ['loss'], shape: [1], dtype: 'float32', finding_ids: [] });
  for (let i = 0; i < steps; i++) {
    nodes.push({ id: `l${i}`, kind: 'launch', label: 'step', location: at(20), requires_grad: null, names: [], shape: null, dtype: '', finding_ids: [] });
    edges.push({ source: `s${i}`, target: `l${i}`, kind: 'read', arg: 'x' });
    edges.push({ source: 'c', target: `l${i}`, kind: 'read', arg: 'g' });
    edges.push({ source: `l${i}`, target: `s${i + 1}`, kind: 'write', arg: 'x_out' });
  }
  nodes.push({ id: 'lz', kind: 'launch', label: 'loss_kernel', location: at(22), requires_grad: null, names: [], shape: null, dtype: '', finding_ids: [] });
  edges.push({ source: `s${steps}`, target: 'lz', kind: 'read', arg: 'x' });
  edges.push({ source: 'lz', target: 'loss', kind: 'write', arg: 'loss' });
  const findings =
    findingOn === undefined
      ? []
      : [{ id: 'f-loop', code: 'TW101', severity: 'warning', message: `states[${findingOn}] is overwritten`, path: '/workspace/sim.py', line: 20, column: 5, related: [], count: 1 }];
  return { uri: 'file:///workspace/sim.py', tapes: [{ id: 't-loop', label: 'tape at sim.py:18', captured_at: 'backward', location: at(18), nodes, edges }], findings };
}
