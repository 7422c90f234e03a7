/**
 * The tape graph's view model: per node, its colour, badge, tooltip and
 * where a click leads. Pure (no DOM), so the unit tests cover it; `svg.ts`
 * applies it to the SVG Graphviz drew.
 */

import type { Finding, GraphNode, Location, Severity, TapeGraph } from '../shared/protocol';

/** Fill class: arrays that require grad are green, other arrays grey. */
export type NodeTone = 'grad' | 'nograd' | 'launch' | 'func';

export interface NodeView {
  id: string;
  kind: GraphNode['kind'];
  label: string;
  tone: NodeTone;
  findings: Finding[];
  /** Worst severity among the node's findings; null when it has none. */
  severity: Severity | null;
  /** Text of the badge (number of findings), null when there is no badge. */
  badge: string | null;
  /** Plain text (never HTML). */
  tooltip: string;
  /**
   * Where a click leads: for a launch, the line in the user's code that made it (the call of the
   * helper that launched, `calls[0]`), else its `wp.launch` line; for an array, its allocation.
   */
  target: Location | null;
  /** The places one step away, in order: each caller outward, then the launch line itself. */
  places: Place[];
}

/** A place the node info bar links to. */
export interface Place extends Location {
  /** "called at", "launched at", "allocated at". */
  role: string;
  /** The function called there, for a call. */
  function?: string;
}

/** The places of a node: for a launch its calls innermost first, then the `wp.launch` line. */
export function nodePlaces(node: GraphNode): Place[] {
  const out: Place[] = node.calls.map((c) => ({ path: c.path, line: c.line, column: c.column, role: 'called at', function: c.function }));
  if (node.location) {
    out.push({ ...node.location, role: node.kind === 'array' ? 'allocated at' : node.kind === 'launch' ? 'launched at' : 'at' });
  }
  return out;
}

export interface GraphView {
  nodes: Map<string, NodeView>;
  /** Ids of the nodes that carry a badge, in the order of the tape. */
  badged: string[];
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

export function nodeTone(node: GraphNode): NodeTone {
  if (node.kind === 'array') {
    return node.requires_grad ? 'grad' : 'nograd';
  }
  return node.kind;
}

export function worstSeverity(findings: Finding[]): Severity | null {
  let worst: Severity | null = null;
  for (const f of findings) {
    if (worst === null || SEVERITY_RANK[f.severity] < SEVERITY_RANK[worst]) {
      worst = f.severity;
    }
  }
  return worst;
}

export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

export function locationText(loc: { path: string; line: number; column?: number | null }): string {
  return `${baseName(loc.path)}:${loc.line}${loc.column ? `:${loc.column}` : ''}`;
}

export function findingText(f: Finding): string {
  return `${f.code}: ${f.message}${f.count > 1 ? ` (×${f.count})` : ''}`;
}

function describeKind(node: GraphNode): string {
  if (node.kind === 'array') {
    return node.requires_grad ? 'array, requires_grad' : node.requires_grad === false ? 'array, no grad' : 'array';
  }
  return node.kind === 'launch' ? 'launch' : 'recorded function';
}

/** The node's tooltip: what it is, where, and its findings' messages. Plain text. */
export function nodeTooltip(node: GraphNode, findings: Finding[], missing: string[] = [], repeats = 1): string {
  const lines = [`${node.label || node.id} (${describeKind(node)})`];
  if (repeats > 1) {
    lines.push(node.kind === 'launch' ? `${repeats} launches from this call site, drawn as one` : `${repeats} arrays allocated here, drawn as one`);
  }
  const extra = node.names.filter((n) => n !== node.label);
  if (extra.length) {
    lines.push(`names: ${extra.join(', ')}`);
  }
  if (node.shape || node.dtype) {
    lines.push([node.shape ? `shape (${node.shape.join(', ')}${node.shape.length === 1 ? ',' : ''})` : '', node.dtype].filter(Boolean).join(' '));
  }
  for (const c of node.calls) {
    lines.push(`called at ${locationText(c)} (${c.function}())`);
  }
  if (node.location) {
    lines.push(`${node.kind === 'array' ? 'allocated at' : node.kind === 'launch' ? 'launched at' : 'at'} ${locationText(node.location)}`);
  }
  if (node.kind === 'launch' && node.calls.length) {
    lines.push('click: go to the calling line');
  }
  for (const f of findings) {
    lines.push(`${f.severity === 'error' ? '✖' : '⚠'} ${findingText(f)}`);
  }
  for (const id of missing) {
    lines.push(`⚠ finding ${id}`);
  }
  return lines.join('\n');
}

/** `repeats`: per drawn node id, how many tape launches it stands for (collapsed). */
export function buildGraphView(tape: TapeGraph, findings: Finding[], repeats?: Map<string, number>): GraphView {
  const byId = new Map(findings.filter((f) => f.id !== '').map((f) => [f.id, f] as const));
  const nodes = new Map<string, NodeView>();
  const badged: string[] = [];
  for (const node of tape.nodes) {
    const own = node.finding_ids.map((id) => byId.get(id)).filter((f): f is Finding => f !== undefined);
    const missing = node.finding_ids.filter((id) => !byId.has(id));
    const count = own.length + missing.length;
    const view: NodeView = {
      id: node.id,
      kind: node.kind,
      label: node.label,
      tone: nodeTone(node),
      findings: own,
      severity: count ? (worstSeverity(own) ?? 'warning') : null,
      badge: count ? String(count) : null,
      tooltip: nodeTooltip(node, own, missing, repeats?.get(node.id)),
      target: node.calls[0] ? { path: node.calls[0].path, line: node.calls[0].line, column: node.calls[0].column } : node.location,
      places: nodePlaces(node),
    };
    nodes.set(node.id, view);
    if (view.badge) {
      badged.push(node.id);
    }
  }
  return { nodes, badged };
}

/** Text of the tape selector's option for `tape`. */
export function tapeOptionText(tape: TapeGraph, index: number): string {
  const launches = tape.nodes.filter((n) => n.kind === 'launch').length;
  const when = tape.captured_at === 'backward' ? 'at backward()' : tape.captured_at === 'exit' ? 'at exit' : tape.captured_at;
  const repeats = tapeRepeatsText(tape);
  return `${index + 1}. ${tape.label || tape.id}${when ? ` — ${when}` : ''} (${launches} launch${launches === 1 ? '' : 'es'})${repeats ? `, ${repeats}` : ''}`;
}

/** "drawn once for 3 tapes that recorded the same launches", or '' for a tape of its own. */
export function tapeRepeatsText(tape: TapeGraph): string {
  const n = tape.repeats ?? 1;
  return n > 1 ? `drawn once for ${n} tapes that recorded the same launches` : '';
}

/** Findings that touch `tape` (through its nodes), for the list under the graph. */
export function tapeFindings(tape: TapeGraph, findings: Finding[]): Finding[] {
  const ids = new Set(tape.nodes.flatMap((n) => n.finding_ids));
  return findings.filter((f) => ids.has(f.id));
}
