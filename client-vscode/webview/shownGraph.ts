/**
 * Which nodes and edges of a tape the panel draws, after the toggles (the
 * options of Warp's `tape.visualize`), and the Graphviz graph object that
 * draws them. Pure (no DOM), so the unit tests cover each toggle.
 *
 * The toggles, and why each is defined so:
 * - collapse: launches of one kernel from one call site (same kernel, same
 *   launch line, same chain of callers) become one node "×N". A 60-step loop
 *   is one node, not 60 columns; launches of the same line reached through
 *   different callers stay apart, since that difference is often the bug
 *   (ping-pong buffers swapped by the caller). Then arrays allocated at one
 *   place, of one shape and dtype, that connect to the same drawn launches
 *   in the same way (a loop's `states[1..59]`) become one node "×N" too:
 *   otherwise one step node would fan out to 60 ellipses.
 * - simplify: hides *trivial* arrays: no requires_grad, touched by a single
 *   launch (a constant input read once, a scratch output never read).
 *   Gradients cannot flow through them, so they add nothing to the picture.
 * - hide read-only arrays: hides arrays that no launch on the tape writes
 *   (Warp's `hide_readonly_arrays`): inputs and parameters.
 * - direction: left to right (Warp's default) or top to bottom.
 * - labels: an array by its variable names, or by where it was allocated
 *   (tells apart arrays that share a name, as a loop's states do).
 * No toggle hides a node that carries a finding.
 */

import type { Attributes, Graph } from '@viz-js/viz';
import type { GraphEdge, GraphNode, TapeGraph } from '../shared/protocol';
import { baseName } from './viewModel';

export interface GraphOptions {
  collapse: boolean;
  simplify: boolean;
  hideReadOnly: boolean;
  direction: 'LR' | 'TB';
  labels: 'name' | 'allocation';
}

export const DEFAULT_OPTIONS: GraphOptions = { collapse: true, simplify: false, hideReadOnly: false, direction: 'LR', labels: 'name' };

/** Options from saved webview state: anything unknown or malformed falls back to the default. */
export function parseOptions(value: unknown): GraphOptions {
  const v = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const bool = (x: unknown, d: boolean) => (typeof x === 'boolean' ? x : d);
  return {
    collapse: bool(v.collapse, DEFAULT_OPTIONS.collapse),
    simplify: bool(v.simplify, DEFAULT_OPTIONS.simplify),
    hideReadOnly: bool(v.hideReadOnly, DEFAULT_OPTIONS.hideReadOnly),
    direction: v.direction === 'TB' ? 'TB' : 'LR',
    labels: v.labels === 'allocation' ? 'allocation' : 'name',
  };
}

/** A drawn node: a tape node, or several collapsed launches (`members`, in tape order). */
export interface ShownNode extends GraphNode {
  members: string[];
}

/** A drawn edge; `id` names it in the SVG (`g.edge#id`). */
export interface ShownEdge extends GraphEdge {
  id: string;
  /** How many tape edges it stands for (collapsed launches). */
  count: number;
}

export interface ShownGraph {
  nodes: ShownNode[];
  edges: ShownEdge[];
  /** Tape node id → the id of the node drawn for it (absent: hidden). */
  drawnAs: Map<string, string>;
  hidden: number;
}

function launchKey(n: GraphNode): string {
  const at = n.location ? `${n.location.path}:${n.location.line}:${n.location.column}` : n.id;
  return JSON.stringify([n.label, at, n.names]);
}

export function shownGraph(tape: TapeGraph, options: GraphOptions): ShownGraph {
  // 1. Collapse launches of one call site.
  const drawnAs = new Map<string, string>();
  const groups = new Map<string, ShownNode>();
  const nodes: ShownNode[] = [];
  for (const n of tape.nodes) {
    const key = options.collapse && n.kind === 'launch' ? launchKey(n) : `node:${n.id}`;
    const group = groups.get(key);
    if (group) {
      group.members.push(n.id);
      group.finding_ids = [...new Set([...group.finding_ids, ...n.finding_ids])];
    } else {
      const shown: ShownNode = { ...n, finding_ids: [...n.finding_ids], members: [n.id] };
      groups.set(key, shown);
      nodes.push(shown);
    }
    drawnAs.set(n.id, groups.get(key)!.id);
  }

  if (options.collapse) {
    collapseArrays(tape, nodes, drawnAs);
  }

  // 2. Edges between drawn nodes, one per (source, target, kind, argument).
  const edgeMap = new Map<string, ShownEdge>();
  for (const e of tape.edges) {
    const source = drawnAs.get(e.source);
    const target = drawnAs.get(e.target);
    if (source === undefined || target === undefined) {
      continue;
    }
    const key = JSON.stringify([source, target, e.kind, e.arg]);
    const seen = edgeMap.get(key);
    if (seen) {
      seen.count++;
    } else {
      edgeMap.set(key, { ...e, source, target, id: '', count: 1 });
    }
  }
  let edges = [...edgeMap.values()];

  // 3. Hide arrays; never one with a finding.
  const hide = new Set<string>();
  for (const n of nodes) {
    if (n.kind !== 'array' || n.finding_ids.length) {
      continue;
    }
    const touching = edges.filter((e) => e.source === n.id || e.target === n.id);
    const written = touching.some((e) => e.target === n.id && e.kind === 'write');
    const launches = new Set(touching.map((e) => (e.source === n.id ? e.target : e.source)));
    if (options.hideReadOnly && !written) {
      hide.add(n.id);
    } else if (options.simplify && n.requires_grad !== true && launches.size <= 1) {
      hide.add(n.id);
    }
  }
  const kept = nodes.filter((n) => !hide.has(n.id));
  edges = edges.filter((e) => !hide.has(e.source) && !hide.has(e.target));
  edges.forEach((e, i) => (e.id = `tw-e${i}`));
  for (const [tapeId, drawn] of drawnAs) {
    if (hide.has(drawn)) {
      drawnAs.delete(tapeId);
    }
  }
  return { nodes: kept, edges, drawnAs, hidden: hide.size };
}

/** Merge arrays of one allocation site with the same connections (after the launches collapsed). In place. */
function collapseArrays(tape: TapeGraph, nodes: ShownNode[], drawnAs: Map<string, string>): void {
  const links = new Map<string, string[]>();
  for (const e of tape.edges) {
    const src = drawnAs.get(e.source) ?? e.source;
    const dst = drawnAs.get(e.target) ?? e.target;
    (links.get(e.source) ?? links.set(e.source, []).get(e.source)!).push(`out ${dst} ${e.kind} ${e.arg}`);
    (links.get(e.target) ?? links.set(e.target, []).get(e.target)!).push(`in ${src} ${e.kind} ${e.arg}`);
  }
  const groups = new Map<string, ShownNode>();
  const merged = new Set<ShownNode>();
  for (const n of nodes) {
    if (n.kind !== 'array' || !n.location) {
      continue; // without an allocation site nothing says two arrays are "the same"
    }
    const at = `${n.location.path}:${n.location.line}:${n.location.column}`;
    const key = JSON.stringify([at, n.shape, n.dtype, n.requires_grad, [...new Set(links.get(n.id) ?? [])].sort()]);
    const group = groups.get(key);
    if (!group) {
      groups.set(key, n);
      continue;
    }
    group.members.push(n.id);
    group.names = [...new Set([...group.names, ...n.names])];
    group.finding_ids = [...new Set([...group.finding_ids, ...n.finding_ids])];
    drawnAs.set(n.id, group.id);
    merged.add(n);
  }
  for (let i = nodes.length - 1; i >= 0; i--) {
    if (merged.has(nodes[i])) {
      nodes.splice(i, 1);
    }
  }
}

function shapeText(n: GraphNode): string {
  const shape = n.shape ? `(${n.shape.join(', ')}${n.shape.length === 1 ? ',' : ''})` : '';
  return [shape, n.dtype].filter(Boolean).join(' ');
}

/** The text Graphviz draws in a node (lines). */
export function nodeLabel(n: ShownNode, options: GraphOptions): string[] {
  if (n.kind === 'launch') {
    const lines = [n.members.length > 1 ? `${n.label || n.id} ×${n.members.length}` : n.label || n.id];
    if (n.location) {
      lines.push(`${baseName(n.location.path)}:${n.location.line}`);
    }
    if (n.names.length) {
      lines.push(`via ${n.names[0]}`);
    }
    return lines;
  }
  if (n.kind === 'array') {
    const count = n.members.length > 1 ? ` ×${n.members.length}` : '';
    const name =
      n.members.length > 1 && n.names.length > 1
        ? `${n.names[0]} … ${n.names[n.names.length - 1]}${count}`
        : `${n.names.length ? n.names.join(' / ') : n.label || n.id}${count}`;
    const first =
      options.labels === 'allocation' ? (n.location ? `allocated at ${baseName(n.location.path)}:${n.location.line}${count}` : `${name} (allocation unknown)`) : name;
    return [first, shapeText(n)].filter(Boolean);
  }
  return [n.label || n.id];
}

/**
 * Above this many edges the graph leaves out edge labels and bounds Graphviz's
 * crossing minimisation: labels become extra nodes in dot's layout, and an
 * uncollapsed 60-step loop took 40 s with them, under 1 s without. The
 * argument names stay on each edge's hover text (main.ts).
 */
export const EDGE_LABEL_LIMIT = 60;

/**
 * A label as Graphviz should draw it. Graphviz reads a backslash in a label
 * as an escape (`\n`, `\l`, `\N`, `\G`...) even when the label comes in a
 * graph object, so each one is doubled: a user's `a\b` is drawn `a\b`, and
 * no name can pull in the node's or the graph's name. Lines are joined with
 * real newlines, which Graphviz breaks (centred); nothing else in the text
 * is special, since the graph object is never parsed as DOT.
 */
export function graphvizLabel(lines: string[]): string {
  return lines.join('\n').replace(/\\/g, '\\\\');
}

const NODE_STYLE: Record<GraphNode['kind'], Attributes> = {
  launch: { shape: 'box', style: 'rounded,filled', fillcolor: '#dde6f7' },
  array: { shape: 'ellipse', style: 'filled', fillcolor: '#dddddd' },
  func: { shape: 'box' },
};

/**
 * The drawn graph as a @viz-js/viz graph object (no DOT text). Node names
 * are the tape ids (`g.node > title` in the SVG), edge ids name `g.edge`.
 */
export function vizGraph(graph: ShownGraph, options: GraphOptions): Graph {
  const large = graph.edges.length > EDGE_LABEL_LIMIT;
  return {
    name: 'tape',
    directed: true,
    graphAttributes: { rankdir: options.direction, ...(large ? { mclimit: 0.3, nslimit: 2, nslimit1: 2 } : {}) },
    nodeAttributes: { fontname: 'Helvetica', fontsize: 10 },
    edgeAttributes: { fontname: 'Helvetica', fontsize: 9 },
    nodes: graph.nodes.map((n) => ({
      name: n.id,
      attributes: { ...NODE_STYLE[n.kind], label: graphvizLabel(nodeLabel(n, options)) },
    })),
    edges: graph.edges.map((e) => {
      const arg = large ? '' : edgeText(e);
      return { tail: e.source, head: e.target, attributes: { id: e.id, ...(arg ? { label: graphvizLabel([arg]) } : {}) } };
    }),
  };
}

/** An edge's label: the kernel argument, and how many tape edges it stands for. */
export function edgeText(e: ShownEdge): string {
  return e.count > 1 && e.arg ? `${e.arg} ×${e.count}` : e.arg;
}

/**
 * What a finding lights up: the drawn nodes that carry it, and the edges
 * between two of them; when none join two of them (a finding on one node),
 * the edges that touch its nodes.
 */
export function findingHighlight(graph: ShownGraph, findingId: string): { nodes: Set<string>; edges: Set<string> } {
  const nodes = new Set(graph.nodes.filter((n) => n.finding_ids.includes(findingId)).map((n) => n.id));
  let edges = graph.edges.filter((e) => nodes.has(e.source) && nodes.has(e.target));
  if (!edges.length) {
    edges = graph.edges.filter((e) => nodes.has(e.source) || nodes.has(e.target));
  }
  return { nodes, edges: new Set(edges.map((e) => e.id)) };
}
