/**
 * The tape-graph page. Data arrives as one `graph` message; clicks leave as
 * `navigate` messages; the extension host opens the files. The page draws
 * the tape's nodes and edges after the toggles (`shownGraph.ts`) with
 * Graphviz (WebAssembly, bundled), badges and wires the nodes (`svg.ts`),
 * fits and zooms (`viewport.ts`), and beside it lists the findings (a click
 * filters the graph) and pictures of the FD results (`fdCharts.ts`: error
 * bars per harness verdict, Jacobian grids per launch check).
 *
 * Readable where it opens: the layout (left to right or top to bottom) is
 * the one that fits the panel at the larger scale unless the user chose one,
 * a fit never goes below the readable scale (the rest is scrolled to), and
 * each script keeps its layout, zoom and position across re-runs. A launch
 * node leads to the line that made it (the call of the helper that launched);
 * the bar under the graph links the other places one step away.
 *
 * Every string from the server is user data: it reaches the DOM through
 * `textContent` (or Graphviz's own SVG text), never as markup.
 */

import './main.css';
import { instance, type Viz } from '@viz-js/viz';
import { parseHostMessage, type WebviewToHost } from '../shared/messages';
import type { Finding, Location, TapeGraph, TapeGraphResult } from '../shared/protocol';
import { harnessChart, jacobianFigure, launchPanel } from './fdCharts';
import { fdEvidence, type ErrorScale } from './fdModel';
import { ARROWS, nearestInDirection } from './nav';
import { edgeText, findingHighlight, parseOptions, shownGraph, vizGraph, type GraphOptions, type ShownGraph } from './shownGraph';
import { decorateSvg, sanitizeSvg } from './svg';
import { buildGraphView, findingText, locationText, tapeFindings, tapeOptionText, tapeRepeatsText, type NodeView } from './viewModel';
import { chooseDirection, directionForShape, parseView, type View } from './viewMath';
import { Viewport } from './viewport';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: PersistedState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** Layout of one script's graph: chosen by the panel's shape ('auto') or by the user. */
type Layout = 'auto' | 'LR' | 'TB';

/** What the panel keeps per script: its layout, and its zoom and position unless it is fitted. */
interface ScriptView {
  layout: Layout;
  view?: View;
}

/** Below this width the findings go under the graph (main.css has the same number). */
const NARROW = 900;

/** Drawn with both layouts up to this many nodes to compare their fit; above it, by the panel's shape. */
const AUTO_COMPARE_LIMIT = 150;

/** What survives the panel being hidden or VS Code reloading (`setState`). */
interface PersistedState {
  uri: string;
  title: string;
  result: TapeGraphResult | null;
  tapeId?: string;
  /** The toggles: they outlive a script change (a preference, not data). */
  options: GraphOptions;
  /** The finding that filters the graph. */
  finding?: string;
  fdScale: ErrorScale;
  /** Per script (uri): layout, zoom and position, kept across re-runs. */
  views?: Record<string, ScriptView>;
  /** The panel keeps this script while other files are active. */
  pinned?: boolean;
}

const vscode = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;
const saved = vscode.getState();
let state: PersistedState | undefined = restore(saved);
/** The toggles before any graph arrived (kept from the saved state). */
let options: GraphOptions = state?.options ?? parseOptions((saved as { options?: unknown } | null)?.options);
let notice: string | undefined;
let vizPromise: Promise<Viz> | undefined;
let renderSeq = 0;
let viewport: Viewport | undefined;
let drawn: { svg: SVGSVGElement; shown: ShownGraph } | undefined;
/** Per script: layout, zoom and position (kept in the state once a graph arrived). */
const views: Record<string, ScriptView> = parseViews((saved as { views?: unknown } | null)?.views);
let pinned = (saved as { pinned?: unknown } | null)?.pinned === true;

function parseViews(value: unknown): Record<string, ScriptView> {
  const out: Record<string, ScriptView> = {};
  if (typeof value !== 'object' || value === null) {
    return out;
  }
  for (const [uri, v] of Object.entries(value as Record<string, unknown>).slice(-50)) {
    const raw = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
    const layout: Layout = raw.layout === 'LR' || raw.layout === 'TB' ? raw.layout : 'auto';
    out[uri] = { layout, view: parseView(raw.view) };
  }
  return out;
}

function scriptView(): ScriptView {
  const uri = state?.uri ?? '';
  views[uri] ??= { layout: 'auto' };
  return views[uri];
}

function restore(value: unknown): PersistedState | undefined {
  const msg = parseHostMessage({ type: 'graph', ...(value as object) });
  if (!msg || msg.type !== 'graph') {
    return undefined;
  }
  const v = value as { tapeId?: unknown; options?: unknown; finding?: unknown; fdScale?: unknown };
  return {
    uri: msg.uri,
    title: msg.title,
    result: msg.result,
    tapeId: typeof v.tapeId === 'string' ? v.tapeId : undefined,
    options: parseOptions(v.options),
    finding: typeof v.finding === 'string' ? v.finding : undefined,
    fdScale: v.fdScale === 'rel' ? 'rel' : 'abs',
  };
}

function save(): void {
  if (state) {
    // At most 50 scripts' views: the oldest go first.
    const keys = Object.keys(views);
    if (keys.length > 50) {
      for (const k of keys.slice(0, keys.length - 50)) {
        delete views[k];
      }
    }
    state.views = views;
    state.pinned = pinned;
    vscode.setState(state);
  }
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}

function button(label: string, className: string, onClick: () => void, title?: string): HTMLButtonElement {
  const b = el('button', className, label);
  b.type = 'button';
  if (title) {
    b.title = title;
    b.setAttribute('aria-label', title);
  }
  b.addEventListener('click', onClick);
  return b;
}

function navigate(target: Location): void {
  vscode.postMessage({ type: 'navigate', path: target.path, line: target.line, column: target.column });
}

function runButton(label: string): HTMLButtonElement {
  const b = button(label, 'tw-run', () => vscode.postMessage({ type: 'run' }), `Run verification of ${state?.title || 'the script'}`);
  b.id = 'run';
  return b;
}

function pinButton(): HTMLButtonElement {
  const b = button(pinned ? 'Pinned' : 'Pin', 'tw-pin', () => {
    pinned = !pinned;
    vscode.postMessage({ type: 'pin', pinned });
    save();
    b.textContent = pinned ? 'Pinned' : 'Pin';
    b.setAttribute('aria-pressed', String(pinned));
    b.title = pinTitle();
  });
  b.id = 'pin';
  b.title = pinTitle();
  b.setAttribute('aria-pressed', String(pinned));
  return b;
}

function pinTitle(): string {
  return pinned ? 'Pinned: this graph stays while you switch files. Click to follow the active editor again.' : 'Follows the active editor. Click to keep this script\'s graph here.';
}

/** Header actions: always there, graph or not. */
function actions(): HTMLElement {
  const box = el('div', 'tw-actions');
  box.append(runButton('Run verification'), pinButton());
  return box;
}

function currentTape(result: TapeGraphResult): TapeGraph {
  return result.tapes.find((t) => t.id === state?.tapeId) ?? result.tapes[0];
}

function setPhase(phase: 'empty' | 'rendering' | 'rendered' | 'error'): void {
  document.body.dataset.phase = phase;
}

function render(): void {
  const seq = ++renderSeq;
  viewport?.dispose();
  viewport = undefined;
  drawn = undefined;
  app.replaceChildren();
  const header = el('header');
  header.appendChild(el('h1', undefined, state?.title ? `Tape graph — ${state.title}` : 'Tape graph'));
  header.appendChild(actions());
  app.appendChild(header);
  if (state?.result?.restored) {
    const r = state.result.restored;
    const p = el('p', 'tw-restored', `Restored: the run kept at ${r.readable_time}, shown again because the script is unchanged since. A kept run holds no tape graph: run verification to draw it.`);
    p.id = 'restored';
    app.appendChild(p);
  }
  if (notice) {
    app.appendChild(el('p', 'tw-notice', notice));
  }
  if (!state) {
    app.appendChild(el('p', 'tw-empty', 'Waiting for the language server…'));
    setPhase('empty');
    return;
  }
  const result = state.result;
  const fd = result ? fdSection(result.findings) : undefined;
  if (!result || result.tapes.length === 0) {
    const p = el('p', 'tw-empty', result?.restored ? 'No tape graph in a kept run.' : result ? 'The last run recorded no tape.' : `No run of ${state.title || 'this script'} yet: Run verification draws its tape.`);
    app.append(p);
    if (fd) {
      app.appendChild(fd);
    }
    setPhase('empty');
    return;
  }

  const tape = currentTape(result);
  if (result.tapes.length > 1) {
    header.appendChild(tapeSelect(result, tape));
  } else if (tapeRepeatsText(tape)) {
    // One structure recorded by several tapes (a tape per window): say the graph stands for all of them.
    header.appendChild(el('span', 'tw-repeats', `This graph is ${tapeRepeatsText(tape)}.`));
  }
  header.appendChild(legend());
  app.appendChild(toolbar());

  const main = el('div', 'tw-main');
  const graph = el('div', 'tw-graph');
  graph.id = 'graph';
  graph.tabIndex = 0;
  graph.setAttribute('aria-label', 'Tape graph. Plus and minus zoom, arrows pan, 0 fits; Tab moves to the nodes, arrows between them, Enter opens one.');
  graph.appendChild(el('p', 'tw-empty', 'Drawing…'));
  graph.addEventListener('keydown', onNodeKey);
  graph.addEventListener('focusin', (e) => {
    if (e.target instanceof SVGGElement) {
      viewport?.reveal(e.target);
    }
  });
  const side = el('aside', 'tw-side');
  const findings = tapeFindings(tape, result.findings);
  if (state.finding && !findings.some((f) => f.id === state!.finding)) {
    state.finding = undefined;
  }
  if (findings.length) {
    side.appendChild(findingsList(findings));
  }
  if (fd) {
    side.appendChild(fd);
  }
  const column = el('div', 'tw-graph-column');
  const info = el('div', 'tw-node-info');
  info.id = 'node-info';
  info.setAttribute('aria-live', 'polite');
  info.appendChild(el('span', 'tw-hint', 'Click a launch to go to the line that made it; its other places show here.'));
  column.append(graph, info);
  main.append(column);
  if (side.childElementCount) {
    main.appendChild(side); // no empty column beside the graph
  }
  app.appendChild(main);
  sizeGraphColumn();
  void drawGraph(graph, tape, result, seq);
}

function tapeSelect(result: TapeGraphResult, tape: TapeGraph): HTMLElement {
  const label = el('label', 'tw-select', 'Tape ');
  const select = el('select');
  select.id = 'tape-select';
  result.tapes.forEach((t, i) => {
    const option = el('option', undefined, tapeOptionText(t, i));
    option.value = String(i);
    option.selected = t === tape;
    select.appendChild(option);
  });
  select.addEventListener('change', () => {
    if (state) {
      state.tapeId = result.tapes[Number(select.value)]?.id;
      state.finding = undefined;
      save();
      render();
    }
  });
  label.appendChild(select);
  return label;
}

function legend(): HTMLElement {
  const box = el('div', 'tw-legend');
  for (const [cls, text] of [
    ['tw-tone-grad', 'requires_grad'],
    ['tw-tone-nograd', 'no grad'],
    ['tw-tone-launch', 'launch (click: go to the line that made it)'],
    ['tw-badge-sample', 'finding'],
  ]) {
    const item = el('span', 'tw-legend-item');
    item.append(el('span', `tw-swatch ${cls}`), text);
    box.appendChild(item);
  }
  return box;
}

/** Zoom buttons and the toggles (Warp's `tape.visualize` options). */
function toolbar(): HTMLElement {
  const bar = el('div', 'tw-toolbar');
  const zoom = el('div', 'tw-zoom');
  zoom.setAttribute('role', 'group');
  zoom.setAttribute('aria-label', 'Zoom');
  const level = el('span', 'tw-zoom-level', '100%');
  level.id = 'zoom-level';
  zoom.append(
    button('−', 'tw-zoom-out', () => viewport?.zoomOut(), 'Zoom out (-)'),
    level,
    button('+', 'tw-zoom-in', () => viewport?.zoomIn(), 'Zoom in (+)'),
    button('100%', 'tw-zoom-100', () => viewport?.actualSize(), 'Actual size: 100 % (1)'),
    button('Fit', 'tw-fit', () => viewport?.fit(), 'Reset the view: fit the graph to the panel, never below a readable size (0)'),
  );
  bar.appendChild(zoom);

  const toggles = el('div', 'tw-toggles');
  const check = (key: 'collapse' | 'simplify' | 'hideReadOnly', text: string, title: string) => {
    const label = el('label', 'tw-toggle');
    label.title = title;
    const box = el('input');
    box.type = 'checkbox';
    box.id = `opt-${key}`;
    box.checked = options[key];
    box.addEventListener('change', () => setOptions({ ...options, [key]: box.checked }));
    label.append(box, ` ${text}`);
    return label;
  };
  const layout = el('label', 'tw-toggle', 'Layout ');
  const layoutSelect = el('select');
  layoutSelect.id = 'opt-layout';
  for (const [value, name] of [
    ['auto', 'fit the panel'],
    ['LR', 'left to right'],
    ['TB', 'top to bottom'],
  ] as const) {
    const option = el('option', undefined, name);
    option.value = value;
    option.selected = scriptView().layout === value;
    layoutSelect.appendChild(option);
  }
  layoutSelect.title = "This script's layout: \"fit the panel\" takes the one that shows the graph larger";
  layoutSelect.addEventListener('change', () => {
    const v = scriptView();
    v.layout = layoutSelect.value === 'LR' || layoutSelect.value === 'TB' ? layoutSelect.value : 'auto';
    v.view = undefined; // another drawing: fit it
    save();
    render();
    document.getElementById('opt-layout')?.focus();
  });
  layout.appendChild(layoutSelect);
  const choose = <K extends 'direction' | 'labels'>(key: K, text: string, choices: [GraphOptions[K], string][]) => {
    const label = el('label', 'tw-toggle', `${text} `);
    const select = el('select');
    select.id = `opt-${key}`;
    for (const [value, name] of choices) {
      const option = el('option', undefined, name);
      option.value = value;
      option.selected = options[key] === value;
      select.appendChild(option);
    }
    select.addEventListener('change', () => setOptions({ ...options, [key]: select.value as GraphOptions[K] }));
    label.appendChild(select);
    return label;
  };
  toggles.append(
    check('collapse', 'Collapse repeated launches', 'Launches of one kernel from one call site (and callers) as one node ×N'),
    check('simplify', 'Simplify', 'Hide trivial arrays: no requires_grad, touched by a single launch'),
    check('hideReadOnly', 'Hide read-only arrays', 'Hide arrays no launch on this tape writes'),
    layout,
    choose('labels', 'Arrays by', [
      ['name', 'variable name'],
      ['allocation', 'allocation'],
    ]),
  );
  bar.appendChild(toggles);
  const count = el('span', 'tw-count');
  count.id = 'graph-count';
  bar.appendChild(count);
  return bar;
}

function setOptions(next: GraphOptions): void {
  options = next;
  if (state) {
    state.options = next;
    save();
  }
  // The toolbar is drawn again: keep the keyboard where it was.
  const focused = document.activeElement?.id;
  render();
  if (focused) {
    document.getElementById(focused)?.focus();
  }
}

function findingsList(findings: Finding[]): HTMLElement {
  const box = el('section', 'tw-findings-box');
  const head = el('h2', undefined, `Findings on this tape (${findings.length})`);
  box.appendChild(head);
  if (state?.finding) {
    box.appendChild(button('Show all', 'tw-show-all', () => selectFinding(undefined), 'Stop filtering the graph'));
  }
  const list = el('ul', 'tw-findings');
  for (const f of findings) {
    const item = el('li', `tw-sev-${f.severity}`);
    item.dataset.findingId = f.id;
    const selected = state?.finding === f.id;
    item.classList.toggle('tw-selected', selected);
    if (f.path && f.line) {
      const target = { path: f.path, line: f.line, column: f.column ?? 1 };
      item.append(button(locationText(target), 'tw-link', () => navigate(target)), ' ');
    }
    const filter = button(findingText(f), 'tw-filter', () => selectFinding(selected ? undefined : f.id));
    filter.setAttribute('aria-pressed', String(selected));
    filter.title = selected ? 'Show the whole graph again' : 'Highlight its nodes and edges in the graph';
    item.appendChild(filter);
    list.appendChild(item);
  }
  box.appendChild(list);
  return box;
}

function selectFinding(id: string | undefined): void {
  if (!state) {
    return;
  }
  state.finding = id;
  save();
  // Only the list and the highlight change: keep the drawing and its zoom.
  const box = document.querySelector('.tw-findings-box');
  const tape = state.result && state.result.tapes.length ? currentTape(state.result) : undefined;
  if (box && tape && state.result) {
    box.replaceWith(findingsList(tapeFindings(tape, state.result.findings)));
  }
  applyHighlight();
  document.querySelector<HTMLButtonElement>(`.tw-findings li.tw-selected .tw-filter`)?.focus();
}

/** Dim everything but the selected finding's nodes and edges. */
function applyHighlight(): void {
  if (!drawn) {
    return;
  }
  const { svg, shown } = drawn;
  const id = state?.finding;
  const lit = id ? findingHighlight(shown, id) : undefined;
  svg.classList.toggle('tw-filtered', lit !== undefined);
  svg.querySelectorAll<SVGGElement>('g.node').forEach((g) => g.classList.toggle('tw-lit', !!lit && lit.nodes.has(g.dataset.nodeId ?? '')));
  svg.querySelectorAll<SVGGElement>('g.edge').forEach((g) => g.classList.toggle('tw-lit', !!lit && lit.edges.has(g.id)));
  const first = lit ? svg.querySelector('g.node.tw-lit') : null;
  if (first) {
    viewport?.reveal(first);
  }
}

/** Arrow keys on a focused node move to the nearest node that way. */
function onNodeKey(e: KeyboardEvent): void {
  const dir = ARROWS[e.key];
  const from = e.target instanceof SVGGElement ? e.target : undefined;
  if (!dir || !from?.dataset.nodeId || !drawn) {
    return;
  }
  const nodes = Array.from(drawn.svg.querySelectorAll<SVGGElement>('g.tw-node'));
  const box = (g: SVGGElement) => {
    const r = g.getBoundingClientRect();
    return { id: g.dataset.nodeId ?? '', x: r.x, y: r.y, width: r.width, height: r.height };
  };
  const next = nearestInDirection(box(from), nodes.map(box), dir);
  e.preventDefault();
  e.stopPropagation();
  nodes.find((g) => g.dataset.nodeId === next)?.focus();
}

/** Pictures of the FD results among all of the run's findings (harness verdicts are on no tape node). */
function fdSection(findings: Finding[]): HTMLElement | undefined {
  const evidence = findings.map(fdEvidence).filter((e) => e !== undefined);
  if (!evidence.length) {
    return undefined;
  }
  const scale = state?.fdScale ?? 'abs';
  const box = el('section', 'tw-fd-box');
  const head = el('h2', undefined, 'Finite-difference checks');
  box.appendChild(head);
  if (evidence.some((e) => e.kind === 'harness')) {
    const label = el('label', 'tw-toggle', 'Error ');
    const select = el('select');
    select.id = 'fd-scale';
    for (const [value, name] of [
      ['abs', '|AD − FD|'],
      ['rel', 'relative'],
    ]) {
      const option = el('option', undefined, name);
      option.value = value;
      option.selected = scale === value;
      select.appendChild(option);
    }
    select.addEventListener('change', () => {
      if (state) {
        state.fdScale = select.value === 'rel' ? 'rel' : 'abs';
        save();
        box.replaceWith(fdSection(findings) ?? el('span'));
      }
    });
    label.appendChild(select);
    box.appendChild(label);
  }
  for (const ev of evidence) {
    // A launch check: its compared derivatives as Jacobian grids; only the worst one from an older server.
    box.appendChild(ev.kind === 'harness' ? harnessChart(ev, scale) : ev.samples.length ? jacobianFigure(ev) : launchPanel(ev));
  }
  return box;
}

/** Each edge's hover text: which launch read or wrote which array, through which argument. */
function titleEdges(svg: SVGSVGElement, shown: ShownGraph): void {
  const byId = new Map(shown.edges.map((e) => [e.id, e]));
  const name = new Map(shown.nodes.map((n) => [n.id, n.label || n.id]));
  svg.querySelectorAll<SVGGElement>('g.edge').forEach((g) => {
    const e = byId.get(g.id);
    const title = g.querySelector(':scope > title');
    if (e && title) {
      const [launch, array] = e.kind === 'write' ? [e.source, e.target] : [e.target, e.source];
      title.textContent = `${name.get(launch)} ${e.kind === 'write' ? 'writes' : 'reads'} ${name.get(array)}${e.arg ? ` (argument ${edgeText(e)})` : ''}`;
    }
  });
}

/** Graphviz's size of a drawing, in points (its viewBox). */
function drawingSize(svg: SVGSVGElement): { width: number; height: number } {
  const box = svg.viewBox.baseVal;
  return box && box.width > 0 ? { width: box.width, height: box.height } : { width: 100, height: 100 };
}

async function drawGraph(container: HTMLElement, tape: TapeGraph, result: TapeGraphResult, seq: number): Promise<void> {
  setPhase('rendering');
  try {
    vizPromise ??= instance();
    const viz = await vizPromise;
    // The JSON nodes and edges after the toggles: the server sends data, the drawing is ours.
    const shown = shownGraph(tape, options);
    const sv = scriptView();
    const frame = { width: container.clientWidth, height: container.clientHeight };
    let direction: 'LR' | 'TB';
    let svg: SVGSVGElement;
    drawnSizes = undefined;
    if (sv.layout !== 'auto') {
      direction = sv.layout;
      svg = viz.renderSVGElement(vizGraph(shown, { ...options, direction }));
    } else if (shown.nodes.length <= AUTO_COMPARE_LIMIT) {
      const lr = viz.renderSVGElement(vizGraph(shown, { ...options, direction: 'LR' }));
      const tb = viz.renderSVGElement(vizGraph(shown, { ...options, direction: 'TB' }));
      drawnSizes = { LR: drawingSize(lr), TB: drawingSize(tb) };
      direction = chooseDirection(drawnSizes, frame);
      svg = direction === 'LR' ? lr : tb;
    } else {
      direction = directionForShape(frame);
      svg = viz.renderSVGElement(vizGraph(shown, { ...options, direction }));
    }
    if (seq !== renderSeq) {
      return; // a newer render replaced this one
    }
    sanitizeSvg(svg);
    svg.classList.add('tw-svg');
    container.replaceChildren(svg);
    container.dataset.direction = direction;
    const layoutSelect = document.getElementById('opt-layout') as HTMLSelectElement | null;
    const autoOption = layoutSelect?.querySelector<HTMLOptionElement>('option[value="auto"]');
    if (autoOption) {
      autoOption.textContent = `fit the panel (${direction === 'LR' ? 'left to right' : 'top to bottom'})`;
    }
    const repeats = new Map(shown.nodes.map((n) => [n.id, n.members.length]));
    const view = buildGraphView({ ...tape, nodes: shown.nodes, edges: shown.edges }, result.findings, repeats);
    const matched = decorateSvg(svg, view, (target, node) => {
      navigate(target);
      showNodeInfo(node);
    });
    titleEdges(svg, shown);
    container.dataset.matched = String(matched);
    container.dataset.shown = String(shown.nodes.length);
    const count = document.getElementById('graph-count');
    if (count) {
      const launches = tape.nodes.filter((n) => n.kind === 'launch').length;
      count.textContent = `${shown.nodes.length} of ${tape.nodes.length} nodes (${launches} launches)${shown.hidden ? `, ${shown.hidden} hidden` : ''}`;
    }
    drawn = { svg, shown };
    const level = document.getElementById('zoom-level');
    // The script's own zoom and position from before (a re-run draws the same script again), else a fit.
    viewport = new Viewport(
      container,
      svg,
      (v, fitted) => {
        if (level) {
          level.textContent = `${Math.round(v.scale * 100)}%`;
        }
        sv.view = fitted ? undefined : v;
        scheduleSave();
      },
      sv.view,
    );
    applyHighlight();
    setPhase('rendered');
  } catch (err) {
    if (seq !== renderSeq) {
      return;
    }
    container.replaceChildren(el('p', 'tw-error', `Graphviz could not draw this tape: ${err instanceof Error ? err.message : String(err)}`));
    setPhase('error');
  }
}

let saveTimer: ReturnType<typeof setTimeout> | undefined;
/** Both layouts' sizes of the drawing on screen, when 'auto' compared them. */
let drawnSizes: { LR: { width: number; height: number }; TB: { width: number; height: number } } | undefined;
let resizeTimer: ReturnType<typeof setTimeout> | undefined;

/** Narrow (the list below the graph): the graph's column takes what the panel's height leaves under the toolbar. */
function sizeGraphColumn(): void {
  const column = document.querySelector<HTMLElement>('.tw-graph-column');
  if (!column) {
    return;
  }
  if (window.innerWidth > NARROW) {
    column.style.height = '';
    return;
  }
  const top = column.getBoundingClientRect().top + window.scrollY;
  column.style.height = `${Math.max(260, window.innerHeight - top - 12)}px`;
}

/** The panel changed shape: an automatic layout that the user has not zoomed is chosen again. */
window.addEventListener('resize', () => {
  sizeGraphColumn();
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    const container = document.getElementById('graph');
    if (!container || !drawnSizes || scriptView().layout !== 'auto' || scriptView().view) {
      return;
    }
    const next = chooseDirection(drawnSizes, { width: container.clientWidth, height: container.clientHeight });
    if (next !== container.dataset.direction) {
      render();
    }
  }, 250);
});

/** Zoom and pan change many times a second: their state is saved once they settle. */
function scheduleSave(): void {
  if (saveTimer === undefined) {
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      save();
    }, 200);
  }
}

/** The bar under the graph: the clicked node's places, each a link (the calling lines, the launch line). */
function showNodeInfo(node: NodeView): void {
  const bar = document.getElementById('node-info');
  if (!bar) {
    return;
  }
  bar.replaceChildren(el('strong', undefined, node.label || node.id));
  node.places.forEach((place, i) => {
    bar.append(i === 0 ? ': ' : ' · ', `${place.role} `);
    const link = button(locationText(place), 'tw-link tw-place', () => navigate(place), `Go to ${locationText(place)}`);
    link.dataset.role = place.role;
    bar.appendChild(link);
    if (place.function) {
      bar.append(` (${place.function}())`);
    }
  });
}

window.addEventListener('message', (event: MessageEvent) => {
  const message = parseHostMessage(event.data);
  if (!message) {
    return;
  }
  if (message.type === 'notice') {
    notice = message.text;
  } else {
    const same = state?.uri === message.uri;
    if (typeof message.pinned === 'boolean') {
      pinned = message.pinned;
    }
    state = {
      uri: message.uri,
      title: message.title,
      result: message.result,
      tapeId: same ? state?.tapeId : undefined,
      options,
      finding: same ? state?.finding : undefined,
      fdScale: state?.fdScale ?? 'abs',
    };
    notice = undefined;
    save();
  }
  render();
});

render();
vscode.postMessage({ type: 'ready', pinned });
