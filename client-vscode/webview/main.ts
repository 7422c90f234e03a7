/**
 * The tape-graph page. Data arrives as one `graph` message; clicks leave as
 * `navigate` messages; the extension host opens the files. Graphviz
 * (WebAssembly, bundled) draws the DOT; `svg.ts` badges and wires the nodes.
 *
 * Every string from the server is user data: it reaches the DOM through
 * `textContent` (or Graphviz's own SVG text), never as markup.
 */

import './main.css';
import { instance, type Viz } from '@viz-js/viz';
import { parseHostMessage, type WebviewToHost } from '../shared/messages';
import type { Location, TapeGraph, TapeGraphResult } from '../shared/protocol';
import { decorateSvg, sanitizeSvg } from './svg';
import { buildGraphView, dotFromGraph, findingText, locationText, tapeFindings, tapeOptionText } from './viewModel';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: PersistedState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** What survives the panel being hidden or VS Code reloading (`setState`). */
interface PersistedState {
  uri: string;
  title: string;
  result: TapeGraphResult | null;
  tapeId?: string;
}

const vscode = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;
let state: PersistedState | undefined = restore(vscode.getState());
let notice: string | undefined;
let vizPromise: Promise<Viz> | undefined;
let renderSeq = 0;

function restore(saved: unknown): PersistedState | undefined {
  const msg = parseHostMessage({ type: 'graph', ...(saved as object) });
  if (!msg || msg.type !== 'graph') {
    return undefined;
  }
  const tapeId = (saved as { tapeId?: unknown }).tapeId;
  return { uri: msg.uri, title: msg.title, result: msg.result, tapeId: typeof tapeId === 'string' ? tapeId : undefined };
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

function navigate(target: Location): void {
  vscode.postMessage({ type: 'navigate', path: target.path, line: target.line, column: target.column });
}

function runButton(label: string): HTMLButtonElement {
  const button = el('button', 'tw-run', label);
  button.type = 'button';
  button.addEventListener('click', () => vscode.postMessage({ type: 'run' }));
  return button;
}

function currentTape(result: TapeGraphResult): TapeGraph {
  return result.tapes.find((t) => t.id === state?.tapeId) ?? result.tapes[0];
}

function setPhase(phase: 'empty' | 'rendering' | 'rendered' | 'error'): void {
  document.body.dataset.phase = phase;
}

function render(): void {
  const seq = ++renderSeq;
  app.replaceChildren();
  const header = el('header');
  header.appendChild(el('h1', undefined, state?.title ? `Tape graph — ${state.title}` : 'Tape graph'));
  app.appendChild(header);
  if (notice) {
    app.appendChild(el('p', 'tw-notice', notice));
  }
  if (!state) {
    app.appendChild(el('p', 'tw-empty', 'Waiting for the language server…'));
    setPhase('empty');
    return;
  }
  const result = state.result;
  if (!result || result.tapes.length === 0) {
    const p = el('p', 'tw-empty', result ? 'The last run recorded no tape.' : `No run of ${state.title || 'this script'} yet.`);
    app.append(p, runButton('Run verification'));
    setPhase('empty');
    return;
  }

  const tape = currentTape(result);
  if (result.tapes.length > 1) {
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
        vscode.setState(state);
        render();
      }
    });
    label.appendChild(select);
    header.appendChild(label);
  }
  header.appendChild(legend());

  const graph = el('div', 'tw-graph');
  graph.id = 'graph';
  graph.appendChild(el('p', 'tw-empty', 'Drawing…'));
  app.appendChild(graph);

  const findings = tapeFindings(tape, result.findings);
  if (findings.length) {
    app.appendChild(el('h2', undefined, `Findings on this tape (${findings.length})`));
    const list = el('ul', 'tw-findings');
    for (const f of findings) {
      const item = el('li', `tw-sev-${f.severity}`);
      if (f.path && f.line) {
        const target = { path: f.path, line: f.line, column: f.column ?? 1 };
        const link = el('button', 'tw-link', locationText(target));
        link.type = 'button';
        link.addEventListener('click', () => navigate(target));
        item.append(link, ' ');
      }
      item.appendChild(el('span', undefined, findingText(f)));
      list.appendChild(item);
    }
    app.appendChild(list);
  }
  void drawGraph(graph, tape, result, seq);
}

function legend(): HTMLElement {
  const box = el('div', 'tw-legend');
  for (const [cls, text] of [
    ['tw-tone-grad', 'requires_grad'],
    ['tw-tone-nograd', 'no grad'],
    ['tw-tone-launch', 'launch (click: go to call site)'],
    ['tw-badge-sample', 'finding'],
  ]) {
    const item = el('span', 'tw-legend-item');
    item.append(el('span', `tw-swatch ${cls}`), text);
    box.appendChild(item);
  }
  return box;
}

async function drawGraph(container: HTMLElement, tape: TapeGraph, result: TapeGraphResult, seq: number): Promise<void> {
  setPhase('rendering');
  try {
    vizPromise ??= instance();
    const viz = await vizPromise;
    const svg = viz.renderSVGElement(tape.dot.trim() ? tape.dot : dotFromGraph(tape));
    if (seq !== renderSeq) {
      return; // a newer render replaced this one
    }
    sanitizeSvg(svg);
    svg.classList.add('tw-svg');
    container.replaceChildren(svg);
    const view = buildGraphView(tape, result.findings);
    const matched = decorateSvg(svg, view, navigate);
    container.dataset.matched = String(matched);
    setPhase('rendered');
  } catch (err) {
    if (seq !== renderSeq) {
      return;
    }
    container.replaceChildren(el('p', 'tw-error', `Graphviz could not draw this tape: ${err instanceof Error ? err.message : String(err)}`));
    setPhase('error');
  }
}

window.addEventListener('message', (event: MessageEvent) => {
  const message = parseHostMessage(event.data);
  if (!message) {
    return;
  }
  if (message.type === 'notice') {
    notice = message.text;
  } else {
    const tapeId = state?.uri === message.uri ? state.tapeId : undefined;
    state = { uri: message.uri, title: message.title, result: message.result, tapeId };
    notice = undefined;
    vscode.setState(state);
  }
  render();
});

render();
vscode.postMessage({ type: 'ready' });
