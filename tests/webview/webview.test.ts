/**
 * The tape-graph page in headless Chromium, under the CSP the extension uses,
 * with a stubbed `acquireVsCodeApi`: it draws the fixture's graph with the
 * bundled Graphviz, badges the nodes with findings, posts `navigate` when a
 * launch is clicked, shows hostile labels as text, and draws the FD pictures
 * (error bars per harness verdict, Jacobian grids per launch check).
 *
 * Needs `npm run build` (client-vscode/out/webview) and Debian's chromium
 * (CHROMIUM_PATH, default /usr/bin/chromium); skips with a message without it (fails under CI).
 * TAPEWATCH_GRAPH_FIXTURE: another `tapewatch/tapeGraph` result to draw.
 * TAPEWATCH_SCREENSHOT: where to save the screenshot (default client-vscode/out/test).
 */

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { graphPageHtml, makeNonce } from '../../client-vscode/src/graph/html';
import type { GraphMessage, WebviewToHost } from '../../client-vscode/shared/messages';
import { parseFinding, parseTapeGraphResult, type Finding, type TapeGraph, type TapeGraphResult } from '../../client-vscode/shared/protocol';
import { FIXTURE_PATH, loadFixture, loopGraph } from '../../client-vscode/test/fixture';
import { DEFAULT_OPTIONS, shownGraph } from '../../client-vscode/webview/shownGraph';
import { READABLE_SCALE } from '../../client-vscode/webview/viewMath';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium';

const ROOT = path.join(__dirname, '..', '..');
const WEBVIEW_OUT = path.join(ROOT, 'client-vscode', 'out', 'webview');
const SCREENSHOT = path.resolve(ROOT, process.env.TAPEWATCH_SCREENSHOT || 'client-vscode/out/test/webview-graph.png');

const EVIL = '<img src=x onerror=alert(1)>';

/** A second tape whose kernel, array, tape label and finding are hostile strings. */
function evilTape(path: string): { tape: TapeGraph; finding: TapeGraphResult['findings'][number] } {
  return {
    tape: {
      id: 't-evil',
      label: EVIL,
      captured_at: 'exit',
      location: null,
      nodes: [
        { id: 'l9', kind: 'launch', label: EVIL, location: { path, line: 7, column: 5 }, requires_grad: null, names: [], shape: null, dtype: '', finding_ids: [], calls: [] },
        { id: 'a9', kind: 'array', label: EVIL, location: null, requires_grad: true, names: [EVIL], shape: [4], dtype: 'float32', finding_ids: ['f-evil'], calls: [] },
      ],
      edges: [{ source: 'a9', target: 'l9', kind: 'read', arg: EVIL }],
    },
    finding: { id: 'f-evil', code: 'TW101', severity: 'error', message: `${EVIL} is overwritten`, path, line: 7, column: 5, related: [], count: 1, data: {} },
  };
}

/** An FD harness verdict and a per-launch check, in the server's shapes (docs/protocol.md). */
function fdFindings(path: string): Finding[] {
  const samples = Array.from({ length: 12 }, (_, i) => {
    const fd = 0.1 * (i + 1);
    const bad = i === 3 || i === 8;
    return { element: i * 5, ad: bad ? fd * 2 : fd + 1e-7 * i, fd, ok: !bad };
  });
  const harness = parseFinding({
    id: 'tw401-velocity',
    code: 'TW401',
    severity: 'error',
    message: 'FD check of `velocity` FAIL (max abs error 0.9).',
    path,
    line: 48,
    column: 1,
    data: { parameter: 'velocity', max_abs_error: 0.9, max_rel_error: 1, ratio: 1, samples },
  });
  const launch = parseFinding({
    id: 'tw404-k',
    code: 'TW404',
    severity: 'error',
    message: 'The adjoint of `integrate` disagrees with finite differences at its launch.',
    path,
    line: 22,
    column: 1,
    data: { kernel: 'integrate', input: 'v', output: 'x_out', element: 5, ad: 0.75, fd: 0.25, max_abs_error: 0.5, checked: 48, failed: 3 },
  });
  // A newer server's launch check: every compared derivative, over three (output, input) pairs; the last wraps.
  const sample = (input: string, output: string, element: number, ad: number, fd: number, ok = true) => ({ input, output, element, ad, fd, ok });
  const compared = [
    sample('t', 'loss', 0, 1.5, 1.5000002),
    sample('t', 'loss', 2, 0.75, 0.25, false),
    sample('t', 'loss', 1, -0.5, -0.5),
    sample('t', 'x_out', 7, 0.1, 0.1),
    ...Array.from({ length: 20 }, (_, i) => sample('q', 'x_out', i * 3, Math.sin(i), Math.sin(i))),
  ];
  const jacobian = parseFinding({
    id: 'tw404-samples',
    code: 'TW404',
    severity: 'error',
    message: 'The adjoint of `advect` disagrees with finite differences at its launch.',
    path,
    line: 30,
    column: 1,
    data: { kernel: 'advect', input: 't', output: 'loss', element: 2, ad: 0.75, fd: 0.25, max_abs_error: 0.5, checked: compared.length, failed: 1, cotangent: 'random', samples: compared },
  });
  assert.ok(harness && launch && jacobian);
  return [harness, launch, jacobian];
}

function serve(): Promise<http.Server> {
  const types: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };
  const server = http.createServer((req, res) => {
    const origin = `http://${req.headers.host}`;
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(graphPageHtml({ cspSource: origin, nonce: makeNonce(), scriptUri: `${origin}/out/main.js`, styleUri: `${origin}/out/main.css` }));
      return;
    }
    const file = path.join(WEBVIEW_OUT, path.basename(url.pathname));
    if (url.pathname.startsWith('/out/') && existsSync(file)) {
      res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
      res.end(readFileSync(file));
      return;
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

declare global {
  interface Window {
    __posted: WebviewToHost[];
    __state: unknown;
    __violations: string[];
    __dialogs: number;
  }
}

/**
 * The VS Code side of the page: postMessage/getState/setState, recorded.
 * Plain JavaScript: functions that tsx compiled would carry its `__name`
 * helper into the page (the shim covers the callbacks given to `evaluate`).
 */
const STUB_SCRIPT = `
window.__name = (fn) => fn;
window.__posted = [];
window.__state = null;
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
window.acquireVsCodeApi = () => ({
  postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
  getState: () => window.__state,
  setState: (s) => { window.__state = JSON.parse(JSON.stringify(s)); },
});
`;

function stubScript(initialState: unknown): string {
  return STUB_SCRIPT + `window.__state = ${JSON.stringify(initialState ?? null)};\n`;
}

const haveChromium = existsSync(CHROMIUM);
if (process.env.CI && !haveChromium) {
  // The full suite (scripts/test, CI) installs Chromium: missing, it is a failure there, not a skip.
  it('has Chromium (CI)', () => {
    assert.fail(`no Chromium at ${CHROMIUM}: run scripts/setup.sh --all`);
  });
}
if (!haveChromium) {
  console.log(`# SKIP webview test: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
}

describe('tape graph webview (headless Chromium)', { skip: haveChromium ? false : `no Chromium at ${CHROMIUM}`, timeout: 120_000 }, () => {
  let server: http.Server;
  let browser: Browser;
  let page: Page;
  let origin: string;
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  const result = parseTapeGraphResult(loadFixture());
  assert.ok(result, `${FIXTURE_PATH} is a tapewatch/tapeGraph result`);
  const tape = result.tapes[0];
  const scriptPath = tape.nodes.find((n) => n.location)?.location?.path ?? '/workspace/train.py';
  const evil = evilTape(scriptPath);
  const message: GraphMessage = {
    type: 'graph',
    uri: result.uri || 'file:///workspace/train.py',
    title: path.basename(scriptPath),
    result: { ...result, tapes: [tape, ...result.tapes.slice(1), evil.tape], findings: [...result.findings, evil.finding, ...fdFindings(scriptPath)] },
  };
  /** What the panel draws of the fixture's tape with the default toggles (launches collapsed). */
  const shown = shownGraph(tape, DEFAULT_OPTIONS);
  const evilIndex = message.result!.tapes.length - 1;

  async function openPage(initialState: unknown): Promise<Page> {
    const p = await browser.newPage({ viewport: { width: 1200, height: 760 } });
    p.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    p.on('pageerror', (e) => pageErrors.push(e.message));
    await p.addInitScript({ content: stubScript(initialState) });
    await p.goto(`${origin}/`);
    return p;
  }

  async function waitRendered(p: Page): Promise<void> {
    await p.waitForFunction(() => document.body.dataset.phase === 'rendered' || document.body.dataset.phase === 'error', undefined, { timeout: 30_000 });
    const phase = await p.evaluate(() => document.body.dataset.phase);
    const text = await p.evaluate(() => document.getElementById('graph')?.textContent ?? '');
    assert.equal(phase, 'rendered', `Graphviz failed: ${text}`);
  }

  before(async () => {
    assert.ok(existsSync(path.join(WEBVIEW_OUT, 'main.js')), 'client-vscode/out/webview/main.js is missing: run `npm run build` first');
    server = await serve();
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await openPage(undefined);
    await page.waitForFunction(() => window.__posted.some((m) => m.type === 'ready'));
    await page.evaluate((m) => window.postMessage(m, '*'), message);
    await waitRendered(page);
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('draws the tape as SVG, repeated launches collapsed, and finds every drawn node in it', async () => {
    assert.equal(await page.locator('#graph svg').count(), 1);
    assert.ok(shown.nodes.length < tape.nodes.length, 'the fixture repeats a launch');
    const matched = await page.evaluate(() => Number(document.getElementById('graph')?.dataset.matched));
    assert.equal(matched, shown.nodes.length);
    const ids = await page.$$eval('#graph g.node', (gs) => gs.map((g) => (g as SVGGElement).dataset.nodeId ?? ''));
    assert.deepEqual(ids.filter(Boolean).sort(), shown.nodes.map((n) => n.id).sort());
    const launches = await page.locator('#graph g.tw-launch text').allTextContents();
    assert.ok(launches.some((t) => /^integrate ×3$/.test(t)), JSON.stringify(launches));
  });

  it('badges the nodes that carry findings, with the messages as tooltip', async () => {
    const expected = shown.nodes.filter((n) => n.finding_ids.length).map((n) => n.id).sort();
    assert.ok(expected.length > 0, 'the fixture has a finding on the graph');
    const badged = await page.$$eval('#graph g.node:has(.tw-badge)', (gs) => gs.map((g) => (g as SVGGElement).dataset.nodeId ?? ''));
    assert.deepEqual(badged.sort(), expected);
    for (const id of expected) {
      const node = shown.nodes.find((n) => n.id === id)!;
      const tooltip = await page.locator(`#graph g.node[data-node-id="${id}"] > title`).textContent();
      for (const fid of node.finding_ids) {
        const finding = result.findings.find((f) => f.id === fid)!;
        assert.ok(tooltip?.includes(finding.message), `tooltip of ${id} has "${finding.message}"`);
      }
      assert.equal(await page.locator(`#graph g.node[data-node-id="${id}"] .tw-badge text`).textContent(), String(node.finding_ids.length));
    }
    // the findings list under the graph names them too
    const list = await page.locator('ul.tw-findings').textContent();
    for (const f of result.findings.filter((f) => expected.some((id) => shown.nodes.find((n) => n.id === id)!.finding_ids.includes(f.id)))) {
      assert.ok(list?.includes(f.code));
    }
  });

  it('colours requires_grad arrays green and other arrays grey', async () => {
    const fill = (id: string) => page.$eval(`#graph g.node[data-node-id="${id}"] .tw-shape`, (el) => getComputedStyle(el).fill);
    const grad = shown.nodes.filter((n) => n.kind === 'array' && n.requires_grad === true);
    const other = shown.nodes.filter((n) => n.kind === 'array' && n.requires_grad !== true);
    assert.ok(grad.length > 0);
    for (const n of grad) {
      assert.equal(await fill(n.id), 'rgb(118, 185, 0)', `${n.id} is green`);
    }
    for (const n of other) {
      assert.equal(await fill(n.id), 'rgb(200, 200, 200)', `${n.id} is grey`);
    }
  });

  it('posts navigate with the line that made the launch when a collapsed launch node is clicked; the launch line is one step away', async () => {
    // integrate ×3, launched in simulate_step() at line 41, called from line 54 (and ×3 from 55).
    const launch = shown.nodes.find((n) => n.kind === 'launch' && n.calls.length && n.members.length > 1);
    assert.ok(launch?.location && launch.calls[0], 'the fixture has a collapsed launch made through a helper');
    const call = launch.calls[0];
    assert.notEqual(call.line, launch.location.line);
    await page.evaluate(() => (window.__posted = []));
    await page.locator(`#graph g.node[data-node-id="${launch.id}"]`).click();
    assert.deepEqual(await page.evaluate(() => window.__posted), [{ type: 'navigate', path: call.path, line: call.line, column: call.column }]);
    // The bar under the graph: the calling line, then the launch line, each a link.
    const info = page.locator('#node-info');
    assert.equal(
      (await info.textContent())?.replace(/\s+/g, ' '),
      `${launch.label}: called at ${path.basename(call.path)}:${call.line}:${call.column} (simulate_step()) · launched at ${path.basename(launch.location.path)}:${launch.location.line}:${launch.location.column}`,
    );
    await page.evaluate(() => (window.__posted = []));
    await info.locator('button[data-role="launched at"]').click();
    assert.deepEqual(await page.evaluate(() => window.__posted), [{ type: 'navigate', path: launch.location.path, line: launch.location.line, column: launch.location.column }]);
  });

  it('opens the ping-pong graph readable beside the editor: the layout that fits the panel, at 80 % or more', async () => {
    const narrow = await browser.newPage({ viewport: { width: 700, height: 860 } });
    await narrow.addInitScript({ content: stubScript(undefined) });
    await narrow.goto(`${origin}/`);
    await narrow.waitForFunction(() => window.__posted.some((m) => m.type === 'ready'));
    await narrow.evaluate((m) => window.postMessage(m, '*'), { type: 'graph', uri: result.uri, title: 'pingpong_helper.py', result });
    await waitRendered(narrow);
    const direction = await narrow.evaluate(() => document.getElementById('graph')?.dataset.direction);
    const s = await scale(narrow);
    assert.equal(direction, 'TB', 'top to bottom in a tall, narrow panel');
    assert.ok(s >= 0.8, `opens at ${Math.round(s * 100)} %`);
    assert.match((await narrow.locator('#opt-layout option[value="auto"]').textContent()) ?? '', /fit the panel \(top to bottom\)/);
    // The user's layout for this script wins, and is kept in the state per script.
    await narrow.selectOption('#opt-layout', 'LR');
    await waitRendered(narrow);
    assert.equal(await narrow.evaluate(() => document.getElementById('graph')?.dataset.direction), 'LR');
    assert.ok((await scale(narrow)) >= READABLE_SCALE, 'never fitted below the readable scale');
    const views = await narrow.evaluate(() => (window.__state as { views: Record<string, { layout: string }> }).views);
    assert.equal(views[result.uri].layout, 'LR');
    await narrow.close();
  });

  it('keeps each script\'s zoom and position across re-runs, and fits another script', async () => {
    await page.locator('#graph').focus();
    await page.keyboard.press('1'); // 100 %
    await page.keyboard.press('+');
    const zoomed = await scale(page);
    await page.waitForFunction(() => (window.__state as { views?: Record<string, { view?: unknown }> }).views?.[Object.keys((window.__state as { views: object }).views)[0]] !== undefined);
    // A re-run: the same script's graph again.
    await page.evaluate((m) => window.postMessage(m, '*'), message);
    await waitRendered(page);
    assert.equal(await scale(page), zoomed, 'the re-run keeps the zoom');
    // Another script opens fitted; back to the first, its zoom is back.
    await page.evaluate((m) => window.postMessage(m, '*'), { ...message, uri: 'file:///workspace/other.py', title: 'other.py' });
    await waitRendered(page);
    assert.equal(await page.evaluate(() => document.getElementById('graph')?.dataset.fitted), 'true');
    await page.evaluate((m) => window.postMessage(m, '*'), message);
    await waitRendered(page);
    assert.equal(await scale(page), zoomed);
    await page.locator('button.tw-fit').click();
  });

  it('always offers Run verification and a pin; the pin is sent to the host and kept', async () => {
    await page.evaluate(() => (window.__posted = []));
    await page.locator('#run').click();
    await page.locator('#pin').click();
    assert.deepEqual(await page.evaluate(() => window.__posted), [{ type: 'run' }, { type: 'pin', pinned: true }]);
    assert.equal(await page.locator('#pin').getAttribute('aria-pressed'), 'true');
    assert.equal(await page.evaluate(() => (window.__state as { pinned: boolean }).pinned), true);
    await page.locator('#pin').click();
    assert.equal(await page.evaluate(() => (window.__state as { pinned: boolean }).pinned), false);
    // The empty state has the same button.
    const empty = await openPage(undefined);
    await empty.waitForFunction(() => window.__posted.some((m) => m.type === 'ready'));
    await empty.evaluate(() => window.postMessage({ type: 'graph', uri: 'file:///w/new.py', title: 'new.py', result: null }, '*'));
    await empty.locator('#run').waitFor();
    assert.match((await empty.locator('.tw-empty').textContent()) ?? '', /No run of new\.py yet/);
    // A restored run says so: a kept run holds no tape graph.
    await empty.evaluate(
      (r) => window.postMessage({ type: 'graph', uri: 'file:///w/new.py', title: 'new.py', result: r }, '*'),
      { uri: 'file:///w/new.py', tapes: [], findings: [], restored: { time: '2026-05-01T12:00:00+00:00', readable_time: '2026-05-01 14:00:00', path: '/w/.tapewatch/runs/new.json' } },
    );
    await empty.locator('#restored').waitFor();
    assert.match((await empty.locator('#restored').textContent()) ?? '', /^Restored: the run kept at 2026-05-01 14:00:00/);
    await empty.close();
  });

  /** Whether every drawn node lies inside the graph's frame (the drawing fits). */
  async function allNodesInside(p: Page): Promise<boolean> {
    return p.evaluate(() => {
      const frame = document.getElementById('graph')!.getBoundingClientRect();
      return Array.from(document.querySelectorAll('#graph g.tw-node')).every((g) => {
        const r = g.getBoundingClientRect();
        return r.left >= frame.left - 1 && r.right <= frame.right + 1 && r.top >= frame.top - 1 && r.bottom <= frame.bottom + 1;
      });
    });
  }

  const scale = (p: Page) => p.evaluate(() => Number(document.getElementById('graph')?.dataset.scale));

  it('fits the graph to the panel, zooms with buttons, keys and Ctrl+wheel, scrolls with the wheel, and resets the view', async () => {
    assert.ok(await allNodesInside(page), 'fitted on open');
    const fitted = await scale(page);
    assert.ok(fitted >= READABLE_SCALE, `opens readable (${fitted})`);
    await page.locator('button.tw-zoom-in').click();
    assert.ok(Math.abs((await scale(page)) - fitted * 1.25) < 1e-3, 'the + button zooms in by a step');
    assert.equal(await page.locator('#zoom-level').textContent(), `${Math.round((await scale(page)) * 100)}%`);
    await page.locator('button.tw-zoom-100').click();
    assert.equal(await scale(page), 1, 'the 100% button');
    assert.equal(await page.locator('#zoom-level').textContent(), '100%');
    await page.locator('#graph').focus();
    await page.keyboard.press('-');
    await page.keyboard.press('-');
    assert.ok((await scale(page)) < 1, 'the - key zooms out');
    const box = (await page.locator('#graph').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const before = await scale(page);
    // The wheel scrolls: the drawing moves, the scale stays.
    const nodeY = () => page.locator('#graph g.tw-node').first().boundingBox().then((b) => b!.y);
    const y0 = await nodeY();
    await page.mouse.wheel(0, 120);
    await page.waitForFunction((y) => Math.abs((document.querySelector('#graph g.tw-node')!.getBoundingClientRect().y) - y) > 50, y0);
    assert.equal(await scale(page), before, 'the wheel alone does not zoom');
    // Ctrl+wheel (a trackpad's pinch) zooms around the pointer.
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -400);
    await page.keyboard.up('Control');
    await page.waitForFunction((s) => Number(document.getElementById('graph')?.dataset.scale) > s, before);
    await page.locator('button.tw-fit').click();
    assert.equal(await scale(page), fitted);
    assert.ok(await allNodesInside(page));
  });

  it('pans with a drag and the arrow keys, without opening a call site', async () => {
    const nodeX = () => page.locator('#graph g.tw-node').first().boundingBox().then((b) => b!.x);
    const box = (await page.locator('#graph').boundingBox())!;
    await page.evaluate(() => (window.__posted = []));
    const x0 = await nodeX();
    // start the drag on a launch: a drag must not count as its click
    const launch = (await page.locator('#graph g.tw-launch').first().boundingBox())!;
    await page.mouse.move(launch.x + launch.width / 2, launch.y + launch.height / 2);
    await page.mouse.down();
    await page.mouse.move(launch.x + launch.width / 2 + 80, launch.y + launch.height / 2 + 10, { steps: 5 });
    await page.mouse.up();
    assert.ok(Math.abs((await nodeX()) - x0 - 80) < 2, 'the drawing follows the drag');
    assert.deepEqual(await page.evaluate(() => window.__posted), []);
    await page.locator('#graph').focus();
    await page.keyboard.press('ArrowLeft');
    assert.ok(Math.abs((await nodeX()) - x0 - 140) < 2, 'ArrowLeft pans');
    await page.keyboard.press('0');
    assert.ok(await allNodesInside(page), '0 fits again');
    assert.ok(box.width > 0);
  });

  it('fits again when the panel is resized, and puts the list below a narrow graph', async () => {
    await page.setViewportSize({ width: 560, height: 700 });
    await page.waitForFunction(() => {
      const g = document.getElementById('graph')!;
      return Number(g.querySelector('svg')?.getAttribute('width')) === g.clientWidth;
    });
    // An automatic layout is chosen again for the new shape (debounced): wait for the drawing to settle,
    // then it fits the narrow panel, or opens at the readable scale where it would not fit (and scrolls).
    await page.waitForTimeout(400);
    await waitRendered(page);
    const narrowScale = await scale(page);
    assert.ok(narrowScale >= READABLE_SCALE, `never below the readable scale (${narrowScale})`);
    assert.ok((await allNodesInside(page)) || narrowScale === READABLE_SCALE, 'fitted to the narrow panel, or readable and scrolled');
    const graph = (await page.locator('#graph').boundingBox())!;
    const side = (await page.locator('.tw-side').boundingBox())!;
    assert.ok(side.y >= graph.y + graph.height - 1, 'the findings go below the graph');
    await page.setViewportSize({ width: 1200, height: 760 });
    await page.waitForFunction(() => {
      const g = document.getElementById('graph')!;
      return Number(g.querySelector('svg')?.getAttribute('width')) === g.clientWidth;
    });
    await waitRendered(page);
    assert.ok(await allNodesInside(page));
  });

  it('moves between nodes with Tab and the arrows, with visible focus; Enter opens the call site', async () => {
    await page.locator('#graph').focus();
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => (document.activeElement as SVGGElement | null)?.dataset.nodeId);
    assert.ok(first, 'Tab reaches a node');
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement!.querySelector('.tw-shape')!).strokeDasharray);
    assert.notEqual(ring, 'none', 'the focused node shows a focus ring');
    const visited = new Set<string | undefined>([first]);
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowLeft']) {
      await page.keyboard.press(key);
      visited.add(await page.evaluate(() => (document.activeElement as SVGGElement | null)?.dataset.nodeId));
    }
    assert.ok(visited.size >= 3, `the arrows move between nodes: ${[...visited].join(', ')}`);
    const launch = shown.nodes.find((n) => n.kind === 'launch' && n.location)!;
    await page.locator(`#graph g.node[data-node-id="${launch.id}"]`).focus();
    await page.evaluate(() => (window.__posted = []));
    await page.keyboard.press('Enter');
    const loc = launch.calls[0] ?? launch.location!; // the line that made the launch, as a click
    assert.deepEqual(await page.evaluate(() => window.__posted), [{ type: 'navigate', path: loc.path, line: loc.line, column: loc.column }]);
  });

  it('filters the graph to a finding clicked in the list, and shows all again', async () => {
    const f = result.findings.find((x) => shown.nodes.some((n) => n.finding_ids.includes(x.id)))!;
    const carriers = shown.nodes.filter((n) => n.finding_ids.includes(f.id)).map((n) => n.id).sort();
    await page.locator(`.tw-findings li[data-finding-id="${f.id}"] .tw-filter`).click();
    assert.equal(await page.locator('#graph svg.tw-filtered').count(), 1);
    const lit = await page.$$eval('#graph g.node.tw-lit', (gs) => gs.map((g) => (g as SVGGElement).dataset.nodeId ?? '').sort());
    assert.deepEqual(lit, carriers);
    assert.ok((await page.locator('#graph g.edge.tw-lit').count()) > 0, 'its edges are lit');
    const dim = await page.$eval('#graph g.node:not(.tw-lit)', (g) => getComputedStyle(g).opacity);
    assert.equal(dim, '0.18');
    assert.equal(await page.locator(`.tw-findings li[data-finding-id="${f.id}"] .tw-filter`).getAttribute('aria-pressed'), 'true');
    assert.equal(await page.evaluate(() => (window.__state as { finding?: string }).finding), f.id);
    await page.locator('button.tw-show-all').click();
    assert.equal(await page.locator('#graph svg.tw-filtered').count(), 0);
  });

  it('draws the FD errors per element, failing ones marked, numbers on hover', async () => {
    const [harness] = fdFindings(scriptPath);
    const samples = harness.data.samples as { element: number; ok: boolean }[];
    const chart = page.locator(`figure.tw-fd-harness[data-finding-id="${harness.id}"]`);
    assert.equal(await chart.locator('g.tw-bar').count(), samples.length);
    assert.equal(await chart.locator('g.tw-bar.tw-fail').count(), samples.filter((x) => !x.ok).length);
    assert.equal(await chart.locator('g.tw-bar.tw-fail .tw-mark').count(), samples.filter((x) => !x.ok).length);
    assert.match((await chart.locator('g.tw-bar[data-element="15"] > title').textContent()) ?? '', /^element 15: AD 0\.8, FD 0\.4, \|AD−FD\| 0\.4, relative 1 — outside tolerance$/);
    assert.match((await chart.locator('figcaption').textContent()) ?? '', /velocity — TW401 FAIL: \|AD − FD\| per sampled element, 2 of 12 outside tolerance/);
    assert.equal(await chart.locator('g.tw-worst').count(), 1);
    await page.selectOption('#fd-scale', 'rel');
    assert.match((await page.locator(`figure.tw-fd-harness figcaption`).textContent()) ?? '', /relative error per sampled element/);
    // an older server's launch check (no samples): its worst derivative only
    const panel = page.locator('figure.tw-fd-launch[data-finding-id="tw404-k"]');
    assert.equal(await panel.locator('svg.tw-jacobian').count(), 0);
    assert.match((await panel.textContent()) ?? '', /integrate: dx_out\/dv\[5\].*the worst of 48 derivatives compared \(3 fail\).*full Jacobian .* is not available/);
    assert.deepEqual(await panel.locator('g.tw-bar > title').allTextContents(), ['AD: 0.75', 'FD: 0.25', 'AD − FD: 0.5 (max abs error 0.5)']);
  });

  it('draws the compared derivatives of a launch check as AD, FD and |AD − FD| grids, failing elements marked, numbers on hover', async () => {
    const figure = page.locator('figure.tw-fd-jacobian[data-finding-id="tw404-samples"]');
    assert.match((await figure.locator('figcaption').textContent()) ?? '', /^advect — TW404 launch check: 24 derivatives compared, 1 disagrees\. Per output and input array, AD, FD and \|AD − FD\| for each compared input element\. Each value is .*projected on a random output direction/);
    const svgs = figure.locator('svg.tw-jacobian');
    // one grid per (output, input) pair, the one that disagrees first; each says what it shows
    assert.deepEqual(await svgs.evaluateAll((ss) => ss.map((s) => [s.getAttribute('role'), s.getAttribute('aria-label')])), [
      ['img', 'd loss/d t: 3 elements compared, 1 disagrees'],
      ['img', 'd x_out/d t: 1 element compared, none disagrees'],
      ['img', 'd x_out/d q: 20 elements compared, none disagrees'],
    ]);
    const loss = svgs.nth(0);
    // a column per element, in element order, labelled with its index; three cells each
    assert.deepEqual(await loss.locator('g.tw-jcol').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-element'))), ['0', '1', '2']);
    assert.deepEqual(await loss.locator('.tw-col-label').allTextContents(), ['0', '1', '2']);
    assert.equal(await loss.locator('rect.tw-cell').count(), 9);
    assert.deepEqual(await loss.locator('.tw-tick:not(.tw-legend-text)').allTextContents(), ['AD', 'FD', '|AD − FD|']);
    // the disagreeing element: outlined and marked; the others not
    assert.equal(await figure.locator('g.tw-jcol.tw-fail').count(), 1);
    const bad = loss.locator('g.tw-jcol[data-element="2"]');
    assert.deepEqual(await bad.getAttribute('class'), 'tw-jcol tw-fail tw-worst');
    assert.equal(await bad.locator('.tw-mark').evaluate((t) => t.firstChild?.textContent), '✖');
    assert.equal(await bad.locator('rect.tw-fail-box').evaluate((r) => getComputedStyle(r).stroke), 'rgb(229, 20, 0)');
    assert.equal(await figure.locator('g.tw-jcol.tw-ok .tw-fail-box, g.tw-jcol.tw-ok .tw-mark').count(), 0);
    // every cell's hover text has the exact numbers
    const titles = await bad.locator('rect.tw-cell > title').allTextContents();
    assert.deepEqual(titles, Array(3).fill('d loss/d t[2]: AD 0.75, FD 0.25, |AD − FD| 0.5 — disagrees (the worst)'));
    assert.equal(await loss.locator('g.tw-jcol[data-element="0"] rect.tw-row-fd > title').textContent(), 'd loss/d t[0]: AD 1.5, FD 1.5, |AD − FD| 2e-7');
    // colours: AD and FD on one diverging scale (orange positive, purple negative), the difference in red, strength by value
    const cell = (el: string, row: string) => loss.locator(`g.tw-jcol[data-element="${el}"] rect.tw-row-${row}`).evaluate((r) => [getComputedStyle(r).fill, r.getAttribute('fill-opacity')]);
    assert.deepEqual(await cell('0', 'ad'), ['rgb(230, 97, 1)', '1']);
    assert.deepEqual(await cell('2', 'fd'), ['rgb(230, 97, 1)', '0.167']);
    assert.deepEqual(await cell('1', 'ad'), ['rgb(94, 60, 153)', '0.333']);
    assert.deepEqual(await cell('2', 'diff'), ['rgb(229, 20, 0)', '0.333']);
    assert.equal((await cell('0', 'diff'))[1], '0');
    assert.match((await loss.locator('.tw-legend-text').allTextContents()).join(' | '), /^AD, FD: -1\.5 … 0 … 1\.5 \| \|AD − FD\|: 0 … 1\.5$/);
    // hovering a cell frames it
    const target = loss.locator('g.tw-jcol[data-element="2"] rect.tw-row-ad');
    await target.hover();
    assert.equal(await target.evaluate((r) => getComputedStyle(r).strokeWidth), '2px');
    // readable at the panel's width: 20 elements wrap into a second band, and no grid is wider than the list beside the graph
    const cols = await svgs.nth(2).locator('g.tw-jcol').evaluateAll((gs) => gs.map((g) => g.getBoundingClientRect().y));
    assert.equal(cols.length, 20);
    assert.ok(cols[19] > cols[0] + 20, 'the last columns wrap below the first');
    const side = (await page.locator('.tw-side').boundingBox())!;
    for (const box of await svgs.evaluateAll((ss) => ss.map((s) => s.getBoundingClientRect().toJSON() as DOMRect))) {
      assert.ok(box.width > 100 && box.x >= side.x - 1 && box.x + box.width <= side.x + side.width + 1, JSON.stringify(box));
    }
    await page.locator('.tw-side').evaluate((el) => el.scrollTo(0, 0)); // the hover scrolled the list: the screenshot shows its top
  });

  it('follows the theme and saves a screenshot', async () => {
    await page.evaluate(() => {
      document.body.classList.add('vscode-dark');
      const vars: Record<string, string> = {
        '--vscode-editor-background': '#1f1f1f',
        '--vscode-editor-foreground': '#cccccc',
        '--vscode-descriptionForeground': '#9d9d9d',
        '--vscode-font-family': 'system-ui, sans-serif',
        '--vscode-dropdown-background': '#313131',
        '--vscode-dropdown-foreground': '#cccccc',
        '--vscode-textLink-foreground': '#4daafc',
      };
      for (const [k, v] of Object.entries(vars)) {
        document.documentElement.style.setProperty(k, v);
      }
    });
    const edge = await page.$eval('#graph g.edge path', (el) => getComputedStyle(el).stroke);
    assert.equal(edge, 'rgb(204, 204, 204)', 'edges use the editor foreground');
    await page.locator('button.tw-fit').click(); // the picture shows the whole graph, whatever the tests before did
    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    assert.ok(existsSync(SCREENSHOT));
  });

  it('offers a tape selector and shows hostile labels as text', async () => {
    const options = await page.$$eval('#tape-select option', (os) => os.map((o) => o.textContent ?? ''));
    assert.equal(options.length, message.result!.tapes.length);
    assert.ok(options[evilIndex].includes(EVIL), 'the option shows the label as text');
    await page.selectOption('#tape-select', String(evilIndex));
    await waitRendered(page);
    const svgText = await page.locator('#graph svg').textContent();
    assert.ok(svgText?.includes(EVIL), 'Graphviz drew the label as text');
    assert.ok((await page.locator('ul.tw-findings').textContent())?.includes(`${EVIL} is overwritten`));
    // nothing became markup, no link survived, nothing ran
    assert.equal(await page.locator('img').count(), 0);
    assert.equal(await page.locator('#graph svg image, #graph svg a, #graph svg script, #graph svg foreignObject').count(), 0);
    await page.locator('#graph g.node[data-node-id="a9"]').click();
    await page.waitForTimeout(200);
    assert.deepEqual(dialogs, []);
    assert.deepEqual(pageErrors, []);
    const state = await page.evaluate(() => window.__state as { tapeId?: string });
    assert.equal(state.tapeId, 't-evil');
  });

  it('runs under the CSP without violations', async () => {
    assert.deepEqual(await page.evaluate(() => window.__violations), []);
  });

  it('restores its last state without the host (hidden and shown again)', async () => {
    const state = await page.evaluate(() => window.__state);
    const again = await openPage(state);
    await waitRendered(again);
    assert.equal(await again.locator('#tape-select').inputValue(), String(evilIndex));
    assert.ok((await again.locator('#graph svg').textContent())?.includes(EVIL));
    assert.ok(await again.evaluate(() => window.__posted.some((m) => m.type === 'ready')), 'it still asks the host for fresh data');
    await again.close();
  });

  it('shows a run button before any run, which posts run', async () => {
    await page.evaluate((m) => window.postMessage({ ...m, result: null }, '*'), message);
    await page.waitForFunction(() => document.body.dataset.phase === 'empty');
    await page.evaluate(() => (window.__posted = []));
    await page.locator('button.tw-run').click();
    assert.deepEqual(await page.evaluate(() => window.__posted), [{ type: 'run' }]);
  });

  it('collapses a 60-step loop into one node ×60, and draws every launch when asked; the toggle persists', async () => {
    const loop = parseTapeGraphResult(loopGraph(60))!;
    await page.evaluate((m) => window.postMessage(m, '*'), { type: 'graph', uri: loop.uri, title: 'sim.py', result: loop });
    await waitRendered(page);
    assert.deepEqual(await page.locator('#graph g.tw-launch text').allTextContents(), ['step ×60', 'sim.py:20', 'loss_kernel', 'sim.py:22']);
    assert.equal(await page.locator('#graph g.tw-node').count(), 7);
    assert.ok(await allNodesInside(page));
    await page.locator('#opt-collapse').click(); // the toolbar is drawn anew: no uncheck(), which re-reads the old box
    await waitRendered(page);
    assert.equal(await page.locator('#graph g.tw-launch').count(), 61);
    assert.equal(await page.evaluate(() => (window.__state as { options: { collapse: boolean } }).options.collapse), false);
    // 61 launches do not fit readable: the view opens at the readable scale, to be scrolled.
    assert.equal(await scale(page), READABLE_SCALE, 'never fitted below the readable scale');
    assert.equal(await allNodesInside(page), false);
    // the choice outlives the panel
    const again = await openPage(await page.evaluate(() => window.__state));
    await waitRendered(again);
    assert.equal(await again.locator('#opt-collapse').isChecked(), false);
    assert.equal(await again.locator('#graph g.tw-launch').count(), 61);
    await again.close();
    await page.locator('#opt-collapse').click();
    await waitRendered(page);
    await page.selectOption('#opt-layout', 'TB');
    await waitRendered(page);
    const [step, loss] = await Promise.all(['step', 'loss_kernel'].map((k) => page.locator(`#graph g.tw-launch:has-text("${k}")`).boundingBox()));
    assert.ok(loss!.y > step!.y + step!.height, 'top to bottom: the loss launch is below the step');
  });

  it('draws names with quotes, braces, backslashes, a newline and markup exactly as written', async () => {
    // Graphviz reads `\N`, `\G`, `\n`, `\l` inside any label: the user's backslashes must come out as backslashes.
    const name = `"]; {evil} [label="x\\N \\G a\\b\n${EVIL}`;
    const hostile = evilTape(scriptPath).tape;
    hostile.nodes = [
      { ...hostile.nodes[0], id: 'l\\"1', label: 'k\\l' },
      { ...hostile.nodes[1], id: 'a\\"1', label: 'a', names: [name], finding_ids: [] },
    ];
    hostile.edges = [{ source: 'a\\"1', target: 'l\\"1', kind: 'read', arg: 'x\\n"}' }];
    await page.evaluate((m) => window.postMessage(m, '*'), { ...message, result: { ...message.result!, tapes: [hostile], findings: [] } });
    await waitRendered(page);
    const nodes = await page.$$eval('#graph g.node', (gs) =>
      gs.map((g) => [(g as SVGGElement).dataset.nodeId, [...g.querySelectorAll('text')].map((t) => t.textContent)]),
    );
    assert.deepEqual(
      nodes.sort(),
      [
        ['a\\"1', [`"]; {evil} [label="x\\N \\G a\\b`, EVIL, '(4,) float32']],
        ['l\\"1', ['k\\l', `${path.basename(scriptPath)}:7`]],
      ].sort(),
      'every node found by its id, each line of its label as written',
    );
    assert.deepEqual(await page.locator('#graph g.edge text').allTextContents(), ['x\\n"}']);
    assert.equal(await page.locator('img').count(), 0);
    assert.deepEqual(dialogs, []);
    assert.deepEqual(pageErrors, []);
  });

  it('says when one graph stands for several tapes that recorded the same launches (a tape per window)', async () => {
    await page.evaluate((m) => window.postMessage(m, '*'), { ...message, result: { ...message.result!, tapes: [{ ...tape, repeats: 3 }] } });
    await waitRendered(page);
    assert.equal(await page.locator('#tape-select').count(), 0, 'one structure: no picker');
    assert.equal(await page.locator('header .tw-repeats').textContent(), 'This graph is drawn once for 3 tapes that recorded the same launches.');
    await page.evaluate((m) => window.postMessage(m, '*'), { ...message, result: { ...message.result!, tapes: [tape] } });
    await waitRendered(page);
    assert.equal(await page.locator('header .tw-repeats').count(), 0, 'a tape of its own says nothing');
  });
});
