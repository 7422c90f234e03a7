/**
 * The built extension in a real VS Code: dist/tapewatch.vsix installed into
 * code-server (VS Code 1.100 in the browser), driven by headless Chromium.
 * The user starts as a new one: no `tapewatch.interpreter`, no Python
 * extension, and `python3` on PATH without Warp. Checks that
 *   1. opening a Python script (the extension activates) opens the Get
 *      Started walkthrough beside it, its first page rendered, and warns that
 *      no interpreter is set and python3 from PATH cannot import Warp, with
 *      "Select Interpreter"; that button opens the setting, where the test
 *      types the Python with Warp: the walkthrough's first step is checked
 *      and the server restarts on it;
 * then, on a copy of examples/pingpong_helper.py, "Tapewatch: Run
 * Verification" from the command palette:
 *   2. the Problems panel lists TW101 on the launch line (`# expect: TW101`),
 *   3. the editor draws a warning squiggle on that line,
 *   4. "Tapewatch: Show Tape Graph" opens the webview with the drawn graph,
 *      and its "Collapse repeated launches" toggle draws every launch,
 *   5. the "Show documentation for TW101" quick fix opens the page as a
 *      rendered Markdown preview,
 *   6. a second run replaces the first run's diagnostics (one TW101), and the
 *      status bar's number equals VS Code's own Problems count,
 *   7. "Tapewatch: Clear Diagnostics" withdraws them and resets the status bar,
 *   8. the extension page shows its icon and its readme's pictures, and
 *      "Welcome: Open Walkthrough" opens the walkthrough with the steps done
 *      so far checked, on the one left (the harness),
 *   9. a run cancelled from its progress notification's Cancel button (the
 *      script sleeps after its TW102 finding) keeps that finding in the
 *      Problems panel, and the status bar says cancelled,
 *  10. Bisect Horizon names the first diverging step and goes to it; Compare
 *      with Previous Run renders its report,
 *  11. a run of examples/wrong_custom_adjoint.py reports TW404 (the per-launch
 *      check), and the run toast's "Show Tape Graph" opens the view with the
 *      launch check's Jacobian picture: AD, FD and |AD − FD| cells, the
 *      disagreeing elements marked, the numbers in each cell's hover text,
 *  12. an interpreter without Warp is named at server start and in the failed
 *      run's toast (TW903), both with "Select Interpreter".
 *
 * Needs: scripts/setup-code-server.sh (code-server under .cache/code-server),
 * `npm run package` (dist/tapewatch.vsix), a Python with Warp (.venv from
 * scripts/setup.sh), Debian's chromium. `npm run test:e2e` builds the .vsix
 * and runs this file. The Python extension is not installed (code-server has
 * no gallery here): the interpreter comes from `tapewatch.interpreter` in the
 * user settings, set by the first test through the Settings editor. Before
 * that the extension finds `python3` on PATH: code-server's PATH starts with a
 * folder whose `python3` is TAPEWATCH_E2E_NO_WARP_PYTHON.
 *
 * Environment:
 *   CODE_SERVER              code-server's entry.js (default: the one in .cache/code-server)
 *   TAPEWATCH_VSIX           the extension (default dist/tapewatch.vsix)
 *   TAPEWATCH_TEST_PYTHON    the interpreter with Warp (default .venv/bin/python)
 *   TAPEWATCH_E2E_NO_WARP_PYTHON  a Python 3.9+ without Warp (default /usr/bin/python3)
 *   CHROMIUM_PATH            default /usr/bin/chromium
 *   TAPEWATCH_E2E_SCREENSHOTS  folder for vscode-{first-run,squiggle,problems,graph,jacobian}.png
 *                            (default .cache/e2e-artifacts; docs/images for the README)
 * On failure: a screenshot, code-server's log, VS Code's logs (the extension's
 * "Tapewatch" output channel among them) and the browser console are saved in
 * .cache/e2e-artifacts/ and their paths printed.
 */

import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, type WriteStream } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../webview/chromium';

const ROOT = path.join(__dirname, '..', '..');
const CODE_SERVER = process.env.CODE_SERVER || path.join(ROOT, '.cache', 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const VSIX = path.resolve(ROOT, process.env.TAPEWATCH_VSIX || 'dist/tapewatch.vsix');
const PYTHON = path.resolve(ROOT, process.env.TAPEWATCH_TEST_PYTHON || '.venv/bin/python');
const ARTIFACTS = path.join(ROOT, '.cache', 'e2e-artifacts');
const SHOTS = path.resolve(ROOT, process.env.TAPEWATCH_E2E_SCREENSHOTS || ARTIFACTS);
const EXAMPLE = path.join(ROOT, 'examples', 'pingpong_helper.py');
/** TW102 early, a printed line, then time.sleep(600): the run the cancel test stops. */
const SLEEPER = path.join(__dirname, 'fixtures', 'cancel_after_finding.py');
/** AD and FD agree for 4 steps of its horizon (STEPS = 8) and diverge at 5: what Bisect Horizon finds. */
const LATE_BUG = path.join(ROOT, 'tests', 'harness', 'programs', 'late_bug.py');
/** A custom adjoint with wrong math: the per-launch check's TW404, with its compared derivatives. */
const WRONG_ADJOINT = path.join(ROOT, 'examples', 'wrong_custom_adjoint.py');
/** A correct program (one state per step): a clean run. */
const CLEAN = path.join(ROOT, 'examples', 'correct_fresh_arrays.py');
/** A Python 3.9+ without Warp: `python3` on code-server's PATH, later a workspace's interpreter. */
const NO_WARP_PYTHON = process.env.TAPEWATCH_E2E_NO_WARP_PYTHON || '/usr/bin/python3';

/** Timeouts (ms). The Warp run itself takes 3-10 s on a CPU; the first one also compiles kernels. */
const T = {
  install: 90_000,
  start: 60_000,
  workbench: 90_000,
  ui: 20_000,
  run: 180_000,
  graph: 60_000,
  stop: 5_000,
};

/** 1-based line of the launch Tapewatch must flag: the one marked `# expect: TW101`. */
function expectedLine(file: string): number {
  const index = readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes('# expect: TW101'));
  assert.ok(index >= 0, `${file} has a line marked "# expect: TW101"`);
  return index + 1;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeout: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, timeout, killSignal: 'SIGKILL', encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) {
        reject(new Error(`${path.basename(cmd)} ${args.join(' ')}: ${err.message}\n${stdout}\n${stderr}`));
      } else {
        resolve(stdout + stderr);
      }
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Chromium's console and page errors, and what the test did, for the failure artifacts. */
const browserLog: string[] = [];

const missing = [
  [CODE_SERVER, 'code-server: run scripts/setup-code-server.sh (or set CODE_SERVER)'],
  [VSIX, 'the extension: run npm run package (npm run test:e2e does)'],
  [PYTHON, 'a Python with Warp: run scripts/setup.sh (or set TAPEWATCH_TEST_PYTHON)'],
  [CHROMIUM, 'chromium: apt-get install chromium (or set CHROMIUM_PATH)'],
  [NO_WARP_PYTHON, 'a Python 3.9+ without Warp (or set TAPEWATCH_E2E_NO_WARP_PYTHON)'],
].filter(([p]) => !existsSync(p));

describe('Tapewatch in VS Code (code-server + headless Chromium)', { timeout: 600_000 }, () => {
  let tmp = '';
  let workspace = '';
  let userData = '';
  let child: ChildProcess | undefined;
  let childExit: Promise<void> = Promise.resolve();
  let serverLog: WriteStream | undefined;
  let serverLogPath = '';
  let browser: Browser | undefined;
  let page: Page | undefined;
  let launchLine = 0;
  let failures = 0;

  /** Kill code-server's whole process group (extension host, language server, runs). */
  function killServer(signal: NodeJS.Signals): void {
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    }
  }
  const killOnExit = (): void => killServer('SIGKILL');
  // code-server has its own process group: a Ctrl+C or a runner's SIGTERM would not reach it.
  const killOnSignal = (signal: NodeJS.Signals): void => {
    killServer('SIGKILL');
    if (tmp) {
      rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    }
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };

  /** On failure: screenshot, code-server log, VS Code logs, browser console, visible notifications. */
  async function saveArtifacts(stepName: string, err: unknown): Promise<void> {
    failures++;
    const saved: { file: string; what: string }[] = [];
    try {
      mkdirSync(ARTIFACTS, { recursive: true });
      const slug = stepName.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      if (page && !page.isClosed()) {
        const shot = path.join(ARTIFACTS, `failure-${slug}.png`);
        await page.screenshot({ path: shot, timeout: 10_000 }).then(
          () => saved.push({ file: shot, what: 'the page when it failed' }),
          (e: unknown) => browserLog.push(`(no screenshot: ${String(e)})`),
        );
        const notes = await page
          .locator('.notification-list-item-message')
          .allTextContents()
          .catch(() => [] as string[]);
        const status = await page
          .locator('.statusbar-item')
          .allTextContents()
          .catch(() => [] as string[]);
        browserLog.push(
          `--- notifications at "${stepName}":`,
          ...notes.map((n) => `  ${n}`),
          `--- status bar: ${status.map((t) => t.trim()).filter(Boolean).join(' | ')}`,
        );
      }
      browserLog.push(`--- failed: ${stepName}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      const consoleLog = path.join(ARTIFACTS, 'browser-console.log');
      writeFileSync(consoleLog, browserLog.join('\n') + '\n');
      saved.push({ file: consoleLog, what: 'steps, notifications, status bar, browser console' });
      if (serverLogPath && existsSync(serverLogPath)) {
        const copy = path.join(ARTIFACTS, 'code-server.log');
        cpSync(serverLogPath, copy);
        saved.push({ file: copy, what: "code-server's output" });
      }
      const logs = path.join(userData, 'logs');
      if (userData && existsSync(logs)) {
        const copy = path.join(ARTIFACTS, 'vscode-logs');
        rmSync(copy, { recursive: true, force: true });
        cpSync(logs, copy, { recursive: true });
        saved.push({ file: copy, what: 'VS Code logs; the "Tapewatch" output channel is */exthost*/tapewatch.tapewatch/Tapewatch.log' });
      }
    } catch (e) {
      console.error(`could not save all artifacts: ${String(e)}`);
    }
    for (const { file, what } of saved) {
      console.error(`e2e artifact: ${file} (${what})`);
    }
  }

  /** Runs one step; on failure saves the artifacts and rethrows. */
  async function step<R>(name: string, fn: () => Promise<R>): Promise<R> {
    browserLog.push(`--- step: ${name}`);
    try {
      return await fn();
    } catch (err) {
      await saveArtifacts(name, err);
      throw err;
    }
  }

  function requirePage(): Page {
    assert.ok(page, 'the workbench page is open');
    return page;
  }

  /** The user settings.json of a new user: no `tapewatch.interpreter` (the first test sets it). */
  function writeSettings(): void {
    const settings = {
      'tapewatch.device': 'cpu',
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'workbench.enableExperiments': false,
      'telemetry.telemetryLevel': 'off',
      'extensions.ignoreRecommendations': true,
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'update.mode': 'none',
      'git.enabled': false,
      'files.autoSave': 'off',
    };
    writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  }

  /** A notification toast whose text matches. */
  function toast(text: RegExp) {
    return requirePage().locator('.notifications-toasts .notification-list-item').filter({ hasText: text }).first();
  }

  /** The number the Tapewatch status bar item shows after the device ("cpu 3"; none: undefined). */
  async function statusNumber(): Promise<number | undefined> {
    const text = await requirePage().locator('.statusbar-item[id$="tapewatch.status"]').first().innerText({ timeout: T.ui });
    const m = /\bcpu\s+(\d+)\s*$/.exec(text.trim());
    return m ? Number(m[1]) : undefined;
  }

  /** Errors + warnings + infos of VS Code's own Problems item in the status bar (all markers). */
  async function problemsTotal(): Promise<number> {
    const text = await requirePage().locator('#status\\.problems').first().innerText({ timeout: T.ui });
    return (text.match(/\d+/g) ?? []).map(Number).reduce((a, b) => a + b, 0);
  }

  /** The Problems panel's rows for `code` (the panel is opened). */
  async function problemRows(code: string): Promise<string[]> {
    const p = requirePage();
    const panel = p.locator('.markers-panel');
    if (!(await panel.isVisible())) {
      await p.keyboard.press('Control+Shift+M');
    }
    await panel.waitFor({ state: 'visible', timeout: T.ui });
    return (await panel.locator('.monaco-list-row').filter({ hasText: code }).allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
  }

  /**
   * F1, the command's title, a click on its row. The palette lists a command by the `when` of the
   * element that had focus when it opened: Tapewatch's script commands need a Python editor's
   * (`editorLangId == python`), so for them the active editor gets the focus first; a panel opened
   * earlier (Problems) can keep it after a quick open.
   */
  async function runCommand(title: string): Promise<void> {
    const p = requirePage();
    if (title.startsWith('Tapewatch: ')) {
      await focusActiveEditor();
    }
    await p.keyboard.press('F1');
    const input = p.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: T.ui });
    await input.fill(`>${title}`, { timeout: T.ui });
    const row = p.locator('.quick-input-widget .monaco-list-row').filter({ hasText: title }).first();
    await row.waitFor({ state: 'visible', timeout: T.ui });
    await row.click({ timeout: T.ui });
    await p.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: T.ui });
  }

  /** Moves the keyboard focus into the active editor group's editor, where there is one. */
  async function focusActiveEditor(): Promise<void> {
    const p = requirePage();
    const editor = p.locator('.editor-group-container.active .monaco-editor').first();
    if ((await editor.count()) === 0) {
      return;
    }
    if ((await p.locator('.editor-group-container.active .monaco-editor.focused').count()) === 0) {
      browserLog.push('(focus moved to the active editor before a Tapewatch command)');
      await runCommand('View: Focus Active Editor Group');
    }
    await p.locator('.editor-group-container.active .monaco-editor.focused').first().waitFor({ state: 'visible', timeout: T.ui });
  }

  /** Quick open (Ctrl+P) with `text`, then Enter on the first match labelled `expect`. */
  async function quickOpen(text: string, expect: string): Promise<void> {
    const p = requirePage();
    await p.keyboard.press('Control+P');
    const input = p.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: T.ui });
    await input.fill(text, { timeout: T.ui });
    // Click the matching row: Enter would open the selected one, which can still be a recently opened
    // file while the list refilters.
    const row = p.locator('.quick-input-widget .monaco-list-row').filter({ hasText: expect }).first();
    await row.waitFor({ state: 'visible', timeout: T.ui });
    await row.click({ timeout: T.ui });
    await p.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: T.ui });
    await p.locator('.tab.active').filter({ hasText: expect }).first().waitFor({ state: 'visible', timeout: T.ui });
  }

  /** Quick open `:N` (go to line N) in the active editor; the status bar then shows the cursor there. */
  async function goToLine(line: number): Promise<void> {
    const p = requirePage();
    await p.keyboard.press('Control+P');
    const input = p.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: T.ui });
    await input.fill(`:${line}`, { timeout: T.ui });
    await p.keyboard.press('Enter');
    await p.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: T.ui });
    await p.locator('.statusbar-item').filter({ hasText: `Ln ${line}, Col` }).first().waitFor({ state: 'visible', timeout: T.ui });
  }

  /** The mouse out of the way and its tooltips gone (for the pictures). */
  async function parkMouse(): Promise<void> {
    const p = requirePage();
    await p.mouse.move(5, 5);
    await p
      .locator('.workbench-hover, .workbench-hover-container, .monaco-hover:not(.hidden)')
      .first()
      .waitFor({ state: 'hidden', timeout: 5_000 })
      .catch(() => browserLog.push('(a hover still showed after 5 s)'));
  }

  /** A screenshot of one part of the workbench (the webview overlays are included: it is a clip of the page). */
  async function shoot(selector: string, file: string): Promise<void> {
    const p = requirePage();
    const box = await p.locator(selector).first().boundingBox({ timeout: T.ui });
    assert.ok(box, `${selector} is visible`);
    mkdirSync(SHOTS, { recursive: true });
    await p.screenshot({ path: path.join(SHOTS, file), clip: box, timeout: T.ui });
  }

  /** The text of the first <h1> in any frame (webviews are frames) that matches, or '' after `timeout`. */
  async function frameHeading(match: RegExp, timeout: number): Promise<string> {
    const p = requirePage();
    const deadline = Date.now() + timeout;
    do {
      for (const frame of p.frames()) {
        const h1 = (await frame.locator('h1').first().textContent({ timeout: 500 }).catch(() => null)) ?? '';
        if (match.test(h1)) {
          return h1;
        }
      }
      await sleep(250);
    } while (Date.now() < deadline);
    return '';
  }

  /** The extension's "Tapewatch" output channel as VS Code logged it (all windows and restarts). */
  function extensionLog(): string {
    const logs = path.join(userData, 'logs');
    if (!existsSync(logs)) {
      return '';
    }
    return (readdirSync(logs, { recursive: true, encoding: 'utf8' }) as string[])
      .filter((f) => f.endsWith(path.join('tapewatch.tapewatch', 'Tapewatch.log')))
      .map((f) => readFileSync(path.join(logs, f), 'utf8'))
      .join('\n');
  }

  before(async () => {
    if (missing.length) {
      assert.fail(`the VS Code e2e test needs:\n${missing.map(([p, why]) => `  ${p} — ${why}`).join('\n')}`);
    }
    launchLine = expectedLine(EXAMPLE);
    rmSync(ARTIFACTS, { recursive: true, force: true });
    tmp = mkdtempSync(path.join(os.tmpdir(), 'tapewatch-e2e-'));
    workspace = path.join(tmp, 'examples');
    userData = path.join(tmp, 'user-data');
    const extensions = path.join(tmp, 'extensions');
    mkdirSync(workspace, { recursive: true });
    mkdirSync(path.join(userData, 'User'), { recursive: true });
    cpSync(EXAMPLE, path.join(workspace, path.basename(EXAMPLE)));
    cpSync(SLEEPER, path.join(workspace, path.basename(SLEEPER)));
    cpSync(LATE_BUG, path.join(workspace, path.basename(LATE_BUG)));
    cpSync(WRONG_ADJOINT, path.join(workspace, path.basename(WRONG_ADJOINT)));
    cpSync(CLEAN, path.join(workspace, path.basename(CLEAN)));
    writeSettings();
    // What a new user's extension finds with nothing set: `python3` on PATH, here one without Warp.
    const bin = path.join(tmp, 'bin');
    mkdirSync(bin);
    symlinkSync(NO_WARP_PYTHON, path.join(bin, 'python3'));
    // code-server writes a default config.yaml and data under XDG folders: keep them in tmp.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      // The extension host gets this environment as it is: without it the server merges the login
      // shell's (resolveShellEnv), whose PATH may put another python3 (one with Warp) first.
      VSCODE_CLI: '1',
      XDG_CONFIG_HOME: path.join(tmp, 'xdg-config'),
      XDG_DATA_HOME: path.join(tmp, 'xdg-data'),
      WARP_CACHE_PATH: path.join(tmp, 'warp-cache'),
    };
    delete env.PASSWORD;
    delete env.HASHED_PASSWORD;
    delete env.VSCODE_IPC_HOOK_CLI;
    const common = ['--config', path.join(tmp, 'config.yaml'), '--user-data-dir', userData, '--extensions-dir', extensions];

    await step('install the .vsix', async () => {
      const out = await run(process.execPath, [CODE_SERVER, ...common, '--install-extension', VSIX], env, T.install);
      assert.match(out, /successfully installed/i, out);
    });

    await step('start code-server', async () => {
      const port = await freePort();
      serverLogPath = path.join(tmp, 'code-server.log');
      serverLog = createWriteStream(serverLogPath);
      const args = [
        CODE_SERVER,
        ...common,
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--auth',
        'none',
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        workspace,
      ];
      // Its own process group, so that the whole tree can be killed at the end.
      const proc = spawn(process.execPath, args, { env, cwd: tmp, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      child = proc;
      process.on('exit', killOnExit);
      process.once('SIGINT', killOnSignal);
      process.once('SIGTERM', killOnSignal);
      childExit = new Promise((resolve) => proc.once('exit', () => resolve()));
      let output = '';
      const listening = new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer): void => {
          serverLog?.write(chunk);
          output += chunk.toString();
          if (/HTTP server listening/.test(output)) {
            resolve();
          }
        };
        proc.stdout?.on('data', onData);
        proc.stderr?.on('data', onData);
        proc.once('exit', (code, signal) => reject(new Error(`code-server exited (${code ?? signal}) before listening:\n${output}`)));
        proc.once('error', reject);
      });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`code-server did not listen within ${T.start} ms:\n${output}`)), T.start);
      });
      try {
        await Promise.race([listening, timeout]);
      } finally {
        clearTimeout(timer);
      }
      browserLog.push(`code-server on 127.0.0.1:${port}, workspace ${workspace}`);

      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: T.start });
      page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
      page.setDefaultTimeout(T.ui);
      page.setDefaultNavigationTimeout(T.workbench);
      // tsx keeps function names with a `__name` helper that the page does not have.
      await page.addInitScript('globalThis.__name ??= (fn) => fn;');
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') {
          browserLog.push(`[console.${m.type()}] ${m.text()}`);
        }
      });
      page.on('pageerror', (e) => browserLog.push(`[pageerror] ${e.message}`));
      await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded' });
      await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: T.workbench });
      // The explorer shows the folder once the remote file system is up.
      await page.locator('.explorer-folders-view .monaco-list-row').filter({ hasText: path.basename(EXAMPLE) }).first().waitFor({ state: 'visible', timeout: T.workbench });
    });
  });

  after(async () => {
    process.removeListener('exit', killOnExit);
    process.removeListener('SIGINT', killOnSignal);
    process.removeListener('SIGTERM', killOnSignal);
    await browser?.close().catch(() => undefined);
    killServer('SIGTERM');
    const stopped = await Promise.race([childExit.then(() => true), sleep(T.stop).then(() => false)]);
    // Children of the group (extension host, language server) may outlive the leader.
    killServer('SIGKILL');
    if (child?.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone
      }
    }
    if (!stopped) {
      await Promise.race([childExit, sleep(T.stop)]);
    }
    serverLog?.end();
    // Everything worth keeping from a failure is in .cache/e2e-artifacts already.
    if (tmp) {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('greets a new user with no interpreter set: the walkthrough, and the interpreter prompt that sets it', async (t) => {
    const p = requirePage();
    const walkthrough = p.locator('.gettingStartedContainer').filter({ hasText: 'Find gradient bugs with Tapewatch' }).first();
    const prompt = toast(/no interpreter is set \(tapewatch\.interpreter\), so Tapewatch uses python3 from PATH/);
    await step('open a Python script: the extension activates', async () => {
      await quickOpen(path.basename(EXAMPLE), path.basename(EXAMPLE));
      await p.locator('.monaco-editor .view-lines').filter({ hasText: 'import warp as wp' }).first().waitFor({ state: 'visible', timeout: T.ui });
    });
    await step('the walkthrough opens beside the script, on its first page', async () => {
      await walkthrough.waitFor({ state: 'visible', timeout: T.start });
      await walkthrough.locator('button.getting-started-step').filter({ hasText: 'Pick the Python that has Warp' }).first().waitFor({ state: 'visible', timeout: T.ui });
      assert.ok(await frameHeading(/The Python that has Warp/, T.ui), "the first step's page (interpreter.md) renders");
      // Beside, not instead: the script stays open in its own group.
      assert.equal(await p.locator('.part.editor .editor-group-container').count(), 2, 'two editor groups: the script and the walkthrough');
      await p.locator('.tabs-container .tab').filter({ hasText: path.basename(EXAMPLE) }).first().waitFor({ state: 'visible', timeout: T.ui });
    });
    await step('the interpreter prompt names the problem, with Select Interpreter', async () => {
      await prompt.waitFor({ state: 'visible', timeout: T.start });
      const text = (await prompt.innerText()).replace(/\s+/g, ' ');
      t.diagnostic(`prompt: ${text}`);
      assert.match(text, /Warp cannot be imported/, text);
      await prompt.locator('.monaco-button', { hasText: 'Open Settings' }).first().waitFor({ state: 'visible', timeout: T.ui });
      await parkMouse();
      // The editors and the notification over them (a clip of the page).
      await shoot('.part.editor', 'vscode-first-run.png');
    });
    await step('Select Interpreter (no Python extension) opens a file picker; the Python with Warp picked there is used and confirmed', async () => {
      await prompt.locator('.monaco-button', { hasText: 'Select Interpreter' }).first().click({ timeout: T.ui });
      // VS Code's own file dialog in the browser: a path field in a quick input.
      const dialog = p.locator('.quick-input-widget').filter({ hasText: 'the Python interpreter that has Warp' });
      await dialog.waitFor({ state: 'visible', timeout: T.ui });
      const input = dialog.locator('input').first();
      // The dialog follows the typed path as it changes (it lists the folder): let it settle, then OK.
      for (let attempt = 0; attempt < 3 && (await dialog.isVisible()); attempt++) {
        await input.fill(PYTHON, { timeout: T.ui });
        await sleep(1000);
        await dialog.locator('.monaco-button', { hasText: 'Use this interpreter' }).first().click({ timeout: T.ui });
        await dialog.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => browserLog.push(`(the file dialog stayed open, attempt ${attempt + 1})`));
      }
      await dialog.waitFor({ state: 'hidden', timeout: T.ui });
      // Written to the workspace's settings; the server restarts on the new interpreter and its check
      // finds Warp (the extension's log says so), and a notification confirms it.
      const settingsFile = path.join(workspace, '.vscode', 'settings.json');
      const deadline = Date.now() + T.start;
      while (!extensionLog().includes(`Interpreter check: ${PYTHON} has Warp`) && Date.now() < deadline) {
        await sleep(250);
      }
      assert.ok(existsSync(settingsFile) && readFileSync(settingsFile, 'utf8').includes(JSON.stringify(PYTHON)), 'the workspace settings have the interpreter');
      assert.ok(extensionLog().includes(`Interpreter check: ${PYTHON} has Warp`), `the server restarted on ${PYTHON} and found Warp`);
      const ready = toast(/has Warp \S+ \(cpu[^)]*\): ready to run verification/);
      await ready.waitFor({ state: 'visible', timeout: T.ui });
      t.diagnostic(`confirmed: ${(await ready.innerText()).replace(/\s+/g, ' ')}`);
      // The language status item: the server running on that interpreter, with its Warp.
      const language = p.locator('.statusbar-item').filter({ has: p.locator('.codicon-bracket, .codicon-json') }).first();
      if ((await language.count()) > 0) {
        await language.click();
        const hover = p.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'Tapewatch: running' }).first();
        await hover.waitFor({ state: 'visible', timeout: T.ui }).then(
          async () => t.diagnostic(`language status: ${(await hover.innerText()).replace(/\s+/g, ' ')}`),
          () => browserLog.push('(the language status hover did not show "Tapewatch: running")'),
        );
        await parkMouse();
        await p.keyboard.press('Escape');
      }
    });
    await step("the walkthrough's first step is checked", async () => {
      await p.locator('.tabs-container .tab').filter({ hasText: 'Walkthrough: Tapewatch' }).first().click({ timeout: T.ui });
      await walkthrough
        .locator('button.getting-started-step[aria-checked="true"]')
        .filter({ hasText: 'Pick the Python that has Warp' })
        .first()
        .waitFor({ state: 'attached', timeout: T.ui });
      await runCommand('Notifications: Clear All Notifications');
      await runCommand('View: Close All Editor Groups');
    });
  });

  it('lists TW101 on the launch line in the Problems panel after "Tapewatch: Run Verification"', async (t) => {
    if (failures) {
      t.skip('an earlier step failed');
      return;
    }
    const p = requirePage();
    await step('open the example', async () => {
      await quickOpen(path.basename(EXAMPLE), path.basename(EXAMPLE));
      await p.locator('.tabs-container .tab').filter({ hasText: path.basename(EXAMPLE) }).first().waitFor({ state: 'visible', timeout: T.ui });
      await p.locator('.monaco-editor .view-lines').filter({ hasText: 'import warp as wp' }).first().waitFor({ state: 'visible', timeout: T.ui });
    });
    await step('Tapewatch: Run Verification', async () => {
      await runCommand('Tapewatch: Run Verification');
    });
    await step('the Problems panel lists TW101 on the launch line', async () => {
      await p.keyboard.press('Control+Shift+M');
      const panel = p.locator('.markers-panel');
      await panel.waitFor({ state: 'visible', timeout: T.ui });
      const row = panel.locator('.monaco-list-row').filter({ hasText: 'TW101' }).filter({ hasText: `[Ln ${launchLine}, Col` }).first();
      // The finding, or fail fast on an error toast from the extension (run failed, server down).
      const errorToast = p
        .locator('.notifications-toasts .notification-list-item')
        .filter({ has: p.locator('.codicon-error') })
        .filter({ hasText: 'Tapewatch' })
        .first();
      const outcome = await Promise.race([
        row.waitFor({ state: 'visible', timeout: T.run }).then(() => 'listed'),
        errorToast.waitFor({ state: 'visible', timeout: T.run }).then(
          () => 'error',
          () => new Promise<string>(() => undefined), // no error toast: the row's wait decides
        ),
      ]);
      if (outcome === 'error') {
        const toasts = await p.locator('.notifications-toasts .notification-list-item-message').allTextContents().catch(() => ['?']);
        assert.fail(`the extension reported an error instead of the finding: ${toasts.join(' | ')}`);
      }
      const text = (await row.innerText()).replace(/\s+/g, ' ');
      assert.match(text, /tapewatch\W*TW101\b/, text); // source and code
      assert.ok(text.includes(`[Ln ${launchLine}, Col 5]`), text);
      assert.match(text, /overwritten by this launch/, text);
      // The run's summary toast ("2 findings ..."), then out of the picture.
      await p
        .locator('.notifications-toasts')
        .filter({ hasText: /Tapewatch: .*finding/ })
        .first()
        .waitFor({ state: 'visible', timeout: 10_000 })
        .catch(() => browserLog.push('(no run summary notification within 10 s)'));
      await runCommand('Notifications: Clear All Notifications');
      await parkMouse();
      await shoot('.part.panel', 'vscode-problems.png');
    });
  });

  it('draws a warning squiggle on the launch line', async (t) => {
    if (failures) {
      t.skip('an earlier step failed');
      return;
    }
    const p = requirePage();
    await step('the squiggle is on the launch line', async () => {
      // Reveal the line (quick open `:N` goes to line N) and leave the Problems panel for the editor.
      await goToLine(launchLine);
      const editor = p.locator('.part.editor .monaco-editor').first();
      await editor.locator('.squiggly-warning').first().waitFor({ state: 'attached', timeout: T.ui });
      const geometry = await editor.evaluate((root) => {
        const lines = Array.from(root.querySelectorAll('.view-lines .view-line')).map((el) => {
          const r = el.getBoundingClientRect();
          return { text: (el.textContent ?? '').replace(/\u00a0/g, ' '), top: r.top, bottom: r.bottom };
        });
        const squiggles = Array.from(root.querySelectorAll('.squiggly-warning')).map((el) => {
          const r = el.getBoundingClientRect();
          return { x: r.left + r.width / 2, y: r.top + r.height / 2, width: r.width };
        });
        return { lines, squiggles };
      });
      const launch = geometry.lines.find((l) => l.text.includes('# expect: TW101'));
      assert.ok(launch, `line ${launchLine} ("# expect: TW101") is rendered in the editor`);
      const onLine = geometry.squiggles.filter((s) => s.width > 0 && s.y >= launch.top && s.y <= launch.bottom);
      assert.ok(
        onLine.length > 0,
        `a .squiggly-warning on line ${launchLine} (line box ${launch.top}-${launch.bottom}); squiggles at y=${geometry.squiggles.map((s) => Math.round(s.y)).join(', ')}`,
      );
      // Hover it for the picture: the hover shows the finding (best effort: not part of the check).
      await p.mouse.move(onLine[0].x, onLine[0].y);
      const hover = p.locator('.monaco-hover').filter({ hasText: 'TW101' }).first();
      await hover.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => browserLog.push('(no hover over the squiggle within 10 s)'));
      // The picture once the hover has faded in completely (it animates its opacity): a sharp one.
      await p
        .waitForFunction(
          () => {
            const h = Array.from(document.querySelectorAll('.monaco-hover')).find((e) => (e.textContent ?? '').includes('TW101'));
            let el: Element | null = h ?? null;
            while (el) {
              if (Number(getComputedStyle(el).opacity) < 1) {
                return false;
              }
              el = el.parentElement;
            }
            return h !== undefined;
          },
          undefined,
          { timeout: 5_000 },
        )
        .catch(() => browserLog.push('(the hover did not reach full opacity within 5 s)'));
      // VS Code appends the source and code (tapewatch TW101) to the message's last line: the client ends a message that has a
      // Fix line with a line break, so the code starts a line of its own below the Fix sentence.
      const layout = await p.evaluate(() => {
        const h = Array.from(document.querySelectorAll('.monaco-hover')).find((e) => (e.textContent ?? '').includes('TW101'));
        if (!h) {
          return null;
        }
        // One marker of the hover: its message (with the Fix line) and, after it, "tapewatch" and the code's
        // link (TW101, to its page).
        const isCode = (e: Element) => /^tapewatch\s*\(?TW101\)?$/.test((e.textContent ?? '').trim());
        const marker = Array.from(h.querySelectorAll('div, span'))
          .filter((e) => Array.from(e.children).some(isCode) && Array.from(e.children).some((c) => (c.textContent ?? '').includes('Fix:')))
          .pop();
        const code = marker ? Array.from(marker.children).find(isCode) : undefined;
        const fix = marker ? Array.from(marker.children).find((c) => (c.textContent ?? '').includes('Fix:')) : undefined;
        if (!fix || !code) {
          return { fix: !!fix, code: !!code, text: (h as HTMLElement).innerText.slice(0, 400) };
        }
        const fixRects = Array.from(fix.getClientRects());
        const codeRect = code.getClientRects()[0];
        const lastText = fixRects.filter((r) => r.width > 1).pop();
        return { fix: true, code: true, fixBottom: lastText?.bottom ?? 0, codeTop: codeRect?.top ?? 0 };
      });
      if (layout === null) {
        browserLog.push('(no hover to measure the code line in)');
      } else {
        t.diagnostic(`hover layout: ${JSON.stringify(layout)}`);
        assert.ok(layout.fix && layout.code, `the hover shows the Fix sentence and "tapewatch(TW101)": ${JSON.stringify(layout)}`);
        assert.ok(
          (layout.codeTop ?? 0) >= (layout.fixBottom ?? 0) - 2,
          `"tapewatch(TW101)" starts below the Fix sentence, not on its line: ${JSON.stringify(layout)}`,
        );
      }
      await sleep(300);
      await shoot('.part.editor', 'vscode-squiggle.png');
      await parkMouse();
    });
  });

  it('opens the tape graph webview with the drawn graph ("Tapewatch: Show Tape Graph")', async (t) => {
    if (failures) {
      t.skip('an earlier step failed');
      return;
    }
    const p = requirePage();
    await step('Tapewatch: Show Tape Graph', async () => {
      // The command palette lists it for Python editors: focus the editor first.
      await quickOpen(path.basename(EXAMPLE), path.basename(EXAMPLE));
      // The graph beside the script at 1500x950: no side bar, no panel.
      await runCommand('View: Close Primary Side Bar');
      await runCommand('View: Hide Panel');
      await runCommand('Tapewatch: Show Tape Graph');
    });
    await step('the webview draws the graph', async () => {
      // A webview is an iframe (VS Code's host page) holding another (the extension's page).
      const view: FrameLocator = p.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
      await view.locator('body[data-phase="rendered"]').waitFor({ state: 'attached', timeout: T.graph });
      const nodes = view.locator('svg.tw-svg g.node');
      const count = await nodes.count();
      assert.ok(count >= 3, `the graph has nodes (found ${count})`);
      const launches = await view.locator('svg.tw-svg g.tw-launch').allTextContents();
      assert.ok(
        launches.some((t) => t.includes('integrate')),
        `a launch node of integrate: ${JSON.stringify(launches)}`,
      );
      assert.ok((await view.locator('svg.tw-svg g.tw-has-finding').count()) > 0, 'a node carries the finding badge');
      const findings = await view.locator('.tw-findings').innerText({ timeout: T.ui });
      assert.match(findings, new RegExp(`:${launchLine}:\\d+ TW101`), findings);
      // Readable where it opens: the layout that fits the panel, at 80 % or more.
      const graph = view.locator('#graph');
      const scale = Number(await graph.getAttribute('data-scale'));
      const direction = await graph.getAttribute('data-direction');
      t.diagnostic(`the graph opens at ${Math.round(scale * 100)} %, ${direction}`);
      assert.ok(scale >= 0.8, `the ping-pong graph opens at ${Math.round(scale * 100)} % (>= 80 %)`);
      await parkMouse();
      await shoot('.part.editor', 'vscode-graph.png');
      // One toggle in the real webview: collapse off draws each of the 7 launches, on again draws 3 nodes.
      await view.locator('#opt-collapse').click();
      await view.locator('svg.tw-svg g.tw-launch').nth(6).waitFor({ state: 'attached', timeout: T.graph });
      assert.equal(await view.locator('svg.tw-svg g.tw-launch').count(), 7);
      await view.locator('#opt-collapse').click();
      await view.locator('svg.tw-svg g.tw-launch').nth(3).waitFor({ state: 'detached', timeout: T.graph });
      assert.equal(await view.locator('svg.tw-svg g.tw-launch').count(), 3);
      // The clicks moved the focus into the webview's group: give it back to the script's editor.
      await runCommand('View: Focus First Editor Group');
    });
    await step('a click on a collapsed launch node puts the cursor on the line that called the helper', async () => {
      const view: FrameLocator = p.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
      const callers = readFileSync(EXAMPLE, 'utf8')
        .split('\n')
        .map((l, i) => (/^\s+simulate_step\(/.test(l) ? i + 1 : 0))
        .filter(Boolean);
      assert.equal(callers.length, 2, 'pingpong_helper.py calls simulate_step on two lines');
      await view.locator('svg.tw-svg g.tw-launch').filter({ hasText: /integrate ×3/ }).first().click({ timeout: T.ui });
      const at = p.locator('.statusbar-item').filter({ hasText: new RegExp(`Ln (${callers.join('|')}), Col \\d+`) }).first();
      await at.waitFor({ state: 'visible', timeout: T.ui });
      t.diagnostic(`cursor: ${await at.innerText()}`);
      // The bar under the graph links the launch line, one step away.
      const info = (await view.locator('#node-info').innerText()).replace(/\s+/g, ' ');
      assert.match(info, new RegExp(`called at pingpong_helper\\.py:(${callers.join('|')}):\\d+ \\(simulate_step\\(\\)\\) · launched at pingpong_helper\\.py:${launchLine}:\\d+`), info);
      await parkMouse();
      await shoot('.part.editor', 'vscode-graph-calls.png');
      await runCommand('View: Focus First Editor Group');
    });
  });

  it('opens the rendered documentation page from the "Show documentation" quick fix', async (t) => {
    if (failures) {
      t.skip('an earlier step failed');
      return;
    }
    const p = requirePage();
    await step('Show documentation for TW101', async () => {
      await quickOpen(path.basename(EXAMPLE), path.basename(EXAMPLE));
      await goToLine(launchLine);
      // On the squiggle (the launch starts after the indentation): a Quick Fix at column 1, in the
      // indentation, asks for the actions of an empty range the diagnostic does not touch.
      await p.keyboard.press('End');
      await p.keyboard.press('Home');
      await p.locator('.statusbar-item').filter({ hasText: `Ln ${launchLine}, Col 5` }).first().waitFor({ state: 'visible', timeout: T.ui });
      await runCommand('Quick Fix...');
      const item = p.locator('.action-widget .monaco-list-row').filter({ hasText: 'Show documentation for TW101' });
      await item.first().waitFor({ state: 'visible', timeout: T.ui });
      assert.equal(await item.count(), 1, 'one "Show documentation for TW101" entry');
      // The menu takes keys, not clicks (a pointer block covers it): move the focus there, Enter.
      const rows = await p.locator('.action-widget .monaco-list-row').count();
      for (let i = 0; i <= rows; i++) {
        const focused = await p.locator('.action-widget .monaco-list-row.focused').first().innerText().catch(() => '');
        if (focused.includes('Show documentation for TW101')) {
          break;
        }
        await p.keyboard.press('ArrowDown');
      }
      await p.keyboard.press('Enter');
    });
    await step('the page is a Markdown preview, not the raw file', async () => {
      await p.locator('.tabs-container .tab').filter({ hasText: 'Preview TW101.md' }).first().waitFor({ state: 'visible', timeout: T.ui });
      // The preview is a webview: find the frame whose page rendered the heading.
      const heading = await frameHeading(/TW101/, T.ui);
      assert.match(heading, /TW101/, 'the preview renders the page\'s title as a heading');
      const raw = p.locator('.tabs-container .tab').filter({ hasText: /^TW101\.md/ });
      assert.equal(await raw.count(), 0, 'no editor of the raw TW101.md');
      await runCommand('View: Close All Editors');
    });
  });

  it('replaces the first run\'s diagnostics with the second run\'s, and counts them as the Problems panel does', async (t) => {
    if (failures) {
      t.skip('an earlier step failed');
      return;
    }
    const atLaunch = (rows: string[]) => rows.filter((r) => r.includes(`[Ln ${launchLine}, Col`));
    let first: string[] = [];
    await step('run the same script again', async () => {
      first = atLaunch(await problemRows('TW101'));
      assert.ok(first.length > 0, 'the first run\'s TW101 rows are listed');
      await runCommand('Notifications: Clear All Notifications');
      await quickOpen(path.basename(EXAMPLE), path.basename(EXAMPLE));
      await runCommand('Tapewatch: Run Verification');
      await toast(/Tapewatch: pingpong_helper\.py: \d+ findings?/).waitFor({ state: 'visible', timeout: T.run });
    });
    await step('the same TW101 rows, not twice, and the status bar says what the Problems panel lists', async () => {
      const rows = atLaunch(await problemRows('TW101'));
      assert.equal(rows.length, first.length, `TW101 rows at line ${launchLine} after the second run: ${rows.join(' | ')}`);
      const shown = await statusNumber();
      const total = await problemsTotal();
      t.diagnostic(`status bar ${shown}, Problems ${total}`);
      assert.ok(shown !== undefined && shown > 0, 'the status bar shows the run\'s count');
      assert.equal(shown, total, 'the status bar and the Problems panel agree');
      const summary = await toast(/Tapewatch: pingpong_helper\.py: \d+ findings?/).innerText();
      assert.match(summary, new RegExp(`\\b${total} findings?\\b`), summary);
    });
  });

  it('withdraws the run\'s diagnostics with "Tapewatch: Clear Diagnostics"', async (t) => {
    if (failures) {
      t.skip('an earlier step failed');
      return;
    }
    const p = requirePage();
    await step('Tapewatch: Clear Diagnostics', async () => {
      await quickOpen(path.basename(EXAMPLE), path.basename(EXAMPLE));
      await runCommand('Tapewatch: Clear Diagnostics');
      await p.locator('.markers-panel .monaco-list-row').filter({ hasText: 'TW101' }).first().waitFor({ state: 'detached', timeout: T.ui });
      assert.equal(await statusNumber(), undefined, 'the status bar forgets the run');
    });
  });

  it('shows the extension page with its icon and pictures loaded, and the walkthrough from the command palette', async (t) => {
    if (failures) {
      t.skip('an earlier step failed');
      return;
    }
    const p = requirePage();
    await step('open the installed extension\'s page', async () => {
      await runCommand('Extensions: Show Enabled Extensions');
      const entry = p.locator('.extensions-viewlet .monaco-list-row').filter({ hasText: 'Tapewatch' }).first();
      await entry.waitFor({ state: 'visible', timeout: T.ui });
      await entry.click({ timeout: T.ui });
      await p.locator('.extension-editor .name').filter({ hasText: 'Tapewatch' }).first().waitFor({ state: 'visible', timeout: T.ui });
    });
    await step('the icon and every picture of the readme load', async () => {
      const icon = p.locator('.extension-editor .header img.icon').first();
      await icon.waitFor({ state: 'visible', timeout: T.ui });
      assert.ok(await icon.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 128), 'the 128x128 icon loads');
      // The readme is a webview: find the frame with its title, then its pictures.
      const deadline = Date.now() + T.ui;
      let pictures: { src: string; width: number }[] = [];
      while (Date.now() < deadline) {
        for (const frame of p.frames()) {
          const h1 = (await frame.locator('h1').first().textContent({ timeout: 500 }).catch(() => null)) ?? '';
          if (h1.includes('gradient bugs in NVIDIA Warp')) {
            pictures = await frame.locator('img').evaluateAll((imgs) =>
              imgs.map((img) => ({ src: (img as HTMLImageElement).src.slice(0, 40), width: (img as HTMLImageElement).complete ? (img as HTMLImageElement).naturalWidth : 0 })),
            );
          }
        }
        if (pictures.length && pictures.every((pic) => pic.width > 0)) {
          break;
        }
        await sleep(250);
      }
      t.diagnostic(`readme pictures: ${JSON.stringify(pictures)}`);
      assert.ok(pictures.length >= 3, `the readme has its pictures (${pictures.length})`);
      assert.deepEqual(pictures.filter((pic) => pic.width === 0), [], 'every picture loads');
      await runCommand('View: Close All Editors');
      await runCommand('View: Close Primary Side Bar');
    });
    await step('"Welcome: Open Walkthrough" opens it on the step not done yet, its page rendered', async () => {
      await p.keyboard.press('F1');
      const input = p.locator('.quick-input-widget input');
      await input.fill('>Welcome: Open Walkthrough', { timeout: T.ui });
      await p.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'Open Walkthrough' }).first().click({ timeout: T.ui });
      await p.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'Find gradient bugs with Tapewatch' }).first().click({ timeout: T.ui });
      const walkthrough = p.locator('.gettingStartedContainer').filter({ hasText: 'Find gradient bugs with Tapewatch' }).first();
      await walkthrough.waitFor({ state: 'visible', timeout: T.ui });
      // What the tests did so far completes every step but the harness: the interpreter set, a run, the
      // Problems panel (Ctrl+Shift+M), the tape graph. It opens on the one left.
      const checked = await walkthrough.locator('button.getting-started-step[aria-checked="true"]').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-step-id')));
      assert.deepEqual(
        checked.map((id) => id?.split('#').pop()),
        ['interpreter', 'run', 'finding', 'graph'],
      );
      assert.ok(await frameHeading(/The ground truth: finite differences/, T.ui), "the harness step's page (harness.md) renders");
      await runCommand('View: Close All Editors');
    });
  });

  it('keeps a cancelled run\'s partial findings (Cancel on the progress notification)', async (t) => {
    if (failures) {
      t.skip('an earlier step failed');
      return;
    }
    const p = requirePage();
    const file = path.basename(SLEEPER);
    const tw102Line = readFileSync(SLEEPER, 'utf8').split('\n').findIndex((l) => l.includes('# expect: TW102')) + 1;
    assert.ok(tw102Line > 0, `${file} has a line marked "# expect: TW102"`);
    const progress = p.locator('.notification-list-item').filter({ hasText: `Tapewatch: verifying ${file}` }).first();
    await step('run the script that sleeps after its finding', async () => {
      await runCommand('Notifications: Clear All Notifications');
      await quickOpen(file, file);
      await p.locator('.monaco-editor .view-lines').filter({ hasText: 'time.sleep(600)' }).first().waitFor({ state: 'visible', timeout: T.ui });
      await runCommand('Tapewatch: Run Verification');
      // The progress notification reports the finding while the script sleeps.
      await progress.filter({ hasText: /1 finding so far/ }).waitFor({ state: 'visible', timeout: T.run });
    });
    await step('Cancel on the progress notification', async () => {
      await progress.locator('.monaco-button', { hasText: 'Cancel' }).first().click({ timeout: T.ui });
      await progress.waitFor({ state: 'detached', timeout: T.ui });
    });
    await step('the TW102 row stays in the Problems panel and the status bar says cancelled', async () => {
      const status = p.locator('.statusbar-item[id$="tapewatch.status"]').first();
      await status.locator('.codicon-circle-slash').first().waitFor({ state: 'attached', timeout: T.ui });
      const row = p.locator('.markers-panel .monaco-list-row').filter({ hasText: 'TW102' }).filter({ hasText: `[Ln ${tw102Line}, Col` }).first();
      if (!(await p.locator('.markers-panel').isVisible())) {
        await p.keyboard.press('Control+Shift+M');
      }
      await row.waitFor({ state: 'visible', timeout: T.ui });
      const text = (await row.innerText()).replace(/\s+/g, ' ');
      assert.match(text, /tapewatch\W*TW102\b/, text);
      assert.equal(await statusNumber(), 1, 'the status bar counts the finding the cancelled run kept');
      // Its tooltip: "Last run of cancel_after_finding.py ...: cancelled, 1 finding so far".
      await status.hover();
      const hover = p.locator('.workbench-hover, .monaco-hover').filter({ hasText: /cancelled, 1 finding so far/ }).first();
      await hover.waitFor({ state: 'visible', timeout: T.ui });
      t.diagnostic(`status tooltip: ${(await hover.innerText()).replace(/\s+/g, ' ')}`);
      await parkMouse();
      // No error toast for a cancel.
      const errors = p.locator('.notifications-toasts .notification-list-item').filter({ has: p.locator('.codicon-error') }).filter({ hasText: 'Tapewatch' });
      assert.equal(await errors.count(), 0, 'no error toast');
      await runCommand('Tapewatch: Clear Diagnostics');
      await row.waitFor({ state: 'detached', timeout: T.ui });
      await runCommand('View: Close All Editors');
    });
  });

  it('bisects the horizon to the first diverging step, then compares the last two runs', async (t) => {
    if (failures) {
      t.skip('an earlier step failed');
      return;
    }
    const p = requirePage();
    const file = path.basename(LATE_BUG);
    const launchLine = readFileSync(LATE_BUG, 'utf8').split('\n').findIndex((l) => l.includes('wp.launch(advance')) + 1;
    assert.ok(launchLine > 0, `${file} launches advance`);
    await step('Bisect Horizon: the toast names the step and goes to it', async () => {
      await runCommand('Notifications: Clear All Notifications');
      await quickOpen(file, file);
      await runCommand('Tapewatch: Bisect Horizon');
      // "Tapewatch: late_bug.py: AD and finite differences agree up to 4 steps and diverge at 5 (`STEPS`): ..."
      const done = toast(/Tapewatch: late_bug\.py: AD and finite differences agree up to \d+ steps and diverge at \d+/);
      await done.waitFor({ state: 'visible', timeout: T.run * 2 });
      t.diagnostic(`bisect: ${(await done.innerText()).replace(/\s+/g, ' ').slice(0, 200)}`);
      await done.locator('.monaco-button', { hasText: 'Go to Step' }).first().click({ timeout: T.ui });
      await p.locator('.statusbar-item').filter({ hasText: `Ln ${launchLine}, Col` }).first().waitFor({ state: 'visible', timeout: T.ui });
    });
    await step('two runs, then Compare with Previous Run opens the rendered report', async () => {
      await runCommand('Notifications: Clear All Notifications');
      for (let n = 0; n < 2; n++) {
        await runCommand('Tapewatch: Run Verification');
        await toast(/Tapewatch: late_bug\.py/).waitFor({ state: 'visible', timeout: T.run });
        await runCommand('Notifications: Clear All Notifications');
      }
      await runCommand('Tapewatch: Compare with Previous Run');
      // A picker of the kept runs, the last one with findings active: Enter takes it.
      const picker = p.locator('.quick-input-widget').filter({ hasText: 'compare the last run of late_bug.py' });
      await picker.waitFor({ state: 'visible', timeout: T.ui });
      const rows = await picker.locator('.monaco-list-row').allInnerTexts();
      t.diagnostic(`kept runs offered: ${rows.map((r) => r.replace(/\s+/g, ' ')).join(' | ')}`);
      assert.ok(rows.length >= 1 && rows.every((r) => /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/.test(r)), 'kept runs by readable time');
      await p.keyboard.press('Enter');
      await picker.waitFor({ state: 'hidden', timeout: T.ui });
      // The report is a Markdown preview (a webview): "# late_bug.py: this run against the previous one".
      const wanted = `${file}: this run against the previous one`;
      const deadline = Date.now() + T.graph;
      let heading = '';
      while (!heading.includes(wanted) && Date.now() < deadline) {
        for (const frame of p.frames()) {
          const h1 = (await frame.locator('h1').first().textContent({ timeout: 500 }).catch(() => null)) ?? '';
          if (h1.includes(file)) {
            heading = h1;
          }
        }
        if (!heading.includes(wanted)) {
          await sleep(250);
        }
      }
      t.diagnostic(`compare report heading: ${heading}`);
      assert.ok(heading.includes(wanted), `the comparison report renders: ${heading}`);
      await runCommand('View: Close All Editors');
    });
  });

  it('draws the per-launch check\'s Jacobian (AD, FD, |AD − FD|) in the tape graph view, numbers on hover', async (t) => {
    if (failures) {
      t.skip('an earlier step failed');
      return;
    }
    const p = requirePage();
    const file = path.basename(WRONG_ADJOINT);
    const tw404Line = readFileSync(WRONG_ADJOINT, 'utf8').split('\n').findIndex((l) => l.includes('# expect: TW404')) + 1;
    assert.ok(tw404Line > 0, `${file} has a line marked "# expect: TW404"`);
    const done = toast(/Tapewatch: wrong_custom_adjoint\.py: \d+ findings?/);
    await step('run the script with the wrong custom adjoint', async () => {
      await runCommand('Notifications: Clear All Notifications');
      await quickOpen(file, file);
      await runCommand('Tapewatch: Run Verification');
      await done.waitFor({ state: 'visible', timeout: T.run });
    });
    await step('Show Tape Graph on the run\'s toast draws the launch check\'s Jacobian', async () => {
      // At once: an information toast hides after a while.
      await done.locator('.monaco-button', { hasText: 'Show Tape Graph' }).first().click({ timeout: T.ui });
      // The whole height for the view (the command is offered only while the panel shows).
      if (await p.locator('.part.panel').isVisible()) {
        await runCommand('View: Hide Panel');
      }
      const view: FrameLocator = p.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
      await view.locator('body[data-phase="rendered"]').waitFor({ state: 'attached', timeout: T.graph });
      const figure = view.locator('figure.tw-fd-jacobian').first();
      await figure.waitFor({ state: 'visible', timeout: T.ui });
      const caption = (await figure.locator('figcaption').textContent()) ?? '';
      t.diagnostic(`caption: ${caption.slice(0, 200)}`);
      assert.match(caption, /^actuate — TW404 launch check: \d+ derivatives? compared, \d+ disagrees?\./, caption);
      // One grid: d force/d controls, a column per compared element of three cells (AD, FD, |AD − FD|).
      const grid = figure.locator('svg.tw-jacobian').first();
      assert.match((await grid.getAttribute('aria-label')) ?? '', /^d force\/d controls: \d+ elements? compared, \d+ disagrees?$/);
      const columns = await grid.locator('g.tw-jcol').count();
      assert.ok(columns >= 1, `compared elements drawn (${columns})`);
      assert.equal(await grid.locator('rect.tw-cell').count(), 3 * columns, 'three cells per element');
      for (const row of ['ad', 'fd', 'diff']) {
        assert.equal(await grid.locator(`rect.tw-cell.tw-row-${row}`).count(), columns, `a ${row} cell per element`);
      }
      assert.ok((await grid.locator('g.tw-jcol.tw-fail .tw-mark').count()) >= 1, 'the disagreeing elements are marked');
      // The numbers on hover: each cell's <title>; hovering frames the cell.
      const worst = grid.locator('g.tw-jcol.tw-worst rect.tw-row-ad').first();
      const hover = (await worst.locator('title').textContent()) ?? '';
      t.diagnostic(`worst cell: ${hover}`);
      assert.match(hover, /^d force\/d controls\[\d+\]: AD -?\d[\d.e+-]*, FD -?\d[\d.e+-]*, \|AD − FD\| \d[\d.e+-]* — disagrees \(the worst\)$/, hover);
      await worst.hover();
      assert.equal(await worst.evaluate((r) => getComputedStyle(r).strokeWidth), '2px');
      // The picture: the script at the adjoint's line (its squiggle) beside the view scrolled to the Jacobian.
      await runCommand('View: Focus First Editor Group');
      await goToLine(tw404Line);
      await view.locator('section.tw-fd-box').first().evaluate((box) => box.scrollIntoView({ block: 'start' }));
      await parkMouse();
      await shoot('.part.editor', 'vscode-jacobian.png');
    });
    await step('the Problems panel lists TW404 on the custom adjoint\'s line', async () => {
      const rows = await problemRows('TW404');
      t.diagnostic(`TW404 rows: ${rows.join(' | ').slice(0, 300)}`);
      assert.ok(rows.some((r) => r.includes(`[Ln ${tw404Line}, Col`)), `TW404 on line ${tw404Line}: ${rows.join(' | ')}`);
      await runCommand('View: Close All Editors');
    });
  });

  /** Tapewatch's rows of `file` in the Problems panel: the count badge of its file row, the panel filtered to it. */
  async function problemsOf(file: string): Promise<number> {
    const p = requirePage();
    const panel = p.locator('.markers-panel');
    if (!(await panel.isVisible())) {
      await p.keyboard.press('Control+Shift+M');
    }
    await panel.waitFor({ state: 'visible', timeout: T.ui });
    // The list is virtual (rows out of view are not in the page): filter it to the file.
    const filter = p.locator('.markers-panel-action-filter input, .viewpane-filter input').first();
    await filter.fill(`**/${file}`, { timeout: T.ui });
    const row = panel.locator('.monaco-list-row').filter({ has: p.locator('.label-name', { hasText: new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) }).first();
    await row.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => undefined);
    const n = (await row.count()) ? Number((await row.locator('.monaco-count-badge').first().innerText()).trim()) : 0;
    await filter.fill('', { timeout: T.ui });
    return n;
  }

  /** The tape graph view's heading ("Tape graph — x.py"). */
  function graphView(): FrameLocator {
    return requirePage().frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  }

  it('follows the active file: the graph and the status count switch, the count equals the Problems panel\'s for that file', async (t) => {
    if (failures) {
      t.skip('an earlier step failed');
      return;
    }
    const p = requirePage();
    const other = path.basename(WRONG_ADJOINT);
    const ping = path.basename(EXAMPLE);
    await step('run the ping-pong example; wrong_custom_adjoint.py has its findings from before', async () => {
      await runCommand('Notifications: Clear All Notifications');
      await runCommand('View: Close All Editor Groups');
      await quickOpen(ping, ping);
      await runCommand('Tapewatch: Run Verification');
      await toast(/Tapewatch: pingpong_helper\.py: \d+ findings?/).waitFor({ state: 'visible', timeout: T.run });
      await runCommand('Notifications: Clear All Notifications');
      await runCommand('Tapewatch: Show Tape Graph');
      await graphView().locator('h1', { hasText: `Tape graph — ${ping}` }).waitFor({ timeout: T.graph });
      await runCommand('View: Focus First Editor Group');
    });
    const counts: Record<string, number> = {};
    for (const file of [ping, other, ping]) {
      await step(`${file} in front: its graph, and the status count of its problems`, async () => {
        await quickOpen(file, file);
        await graphView().locator('h1', { hasText: `Tape graph — ${file}` }).waitFor({ timeout: T.graph });
        await graphView().locator('body[data-phase="rendered"]').waitFor({ state: 'attached', timeout: T.graph });
        const problems = await problemsOf(file);
        const shown = await statusNumber();
        t.diagnostic(`${file}: status ${shown}, Problems ${problems}`);
        assert.ok(problems > 0, `${file} has problems listed`);
        assert.equal(shown, problems, `the status count of ${file} equals its Problems count`);
        counts[file] = problems;
        const tooltip = await p.locator('.statusbar-item[id$="tapewatch.status"]').first().getAttribute('aria-label');
        t.diagnostic(`status item: ${tooltip}`);
      });
    }
    await step('the two files have different counts (the switch is visible), the picture', async () => {
      assert.notEqual(counts[ping], counts[other], `the test's files differ: ${JSON.stringify(counts)}`);
      const status = p.locator('.statusbar-item[id$="tapewatch.status"]').first();
      await status.hover();
      const hover = p.locator('.workbench-hover, .monaco-hover').filter({ hasText: /last run: pingpong_helper\.py, \d\d:\d\d:\d\d/ }).first();
      await hover.waitFor({ state: 'visible', timeout: T.ui });
      await sleep(300);
      await p.screenshot({ path: path.join(SHOTS, 'vscode-active-file.png'), timeout: T.ui });
      await parkMouse();
    });
  });

  it('ends a clean run with a notification that stays in the notification centre', async (t) => {
    if (failures) {
      t.skip('an earlier step failed');
      return;
    }
    const p = requirePage();
    const file = path.basename(CLEAN);
    await step('run a correct program', async () => {
      await runCommand('Notifications: Clear All Notifications');
      await quickOpen(file, file);
      await runCommand('Tapewatch: Run Verification');
      const done = toast(new RegExp(`Tapewatch: no gradient bugs found in ${file.replace('.', '\\.')}: \\d+ launch(es)? checked, \\d+ skipped(, .*)?, \\d+\\.\\d s`));
      await done.waitFor({ state: 'visible', timeout: T.run });
      t.diagnostic(`toast: ${(await done.innerText()).replace(/\s+/g, ' ')}`);
    });
    await step('the notification centre lists it', async () => {
      await runCommand('Notifications: Show Notifications');
      const kept = p.locator('.notifications-center .notification-list-item').filter({ hasText: `no gradient bugs found in ${file}` }).first();
      await kept.waitFor({ state: 'visible', timeout: T.ui });
      await parkMouse();
      await p.screenshot({ path: path.join(SHOTS, 'vscode-notifications.png'), timeout: T.ui });
      await runCommand('Notifications: Hide Notifications');
    });
  });

  it('restores the last run after a reload: the findings of the unchanged script, marked restored', async (t) => {
    if (failures) {
      t.skip('an earlier step failed');
      return;
    }
    const p = requirePage();
    const ping = path.basename(EXAMPLE);
    await step('reload the window (the graph panel open on another script)', async () => {
      await p.reload({ waitUntil: 'domcontentloaded' });
      await p.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: T.workbench });
      await quickOpen(ping, ping);
    });
    await step('the graph panel, restored too, follows the file in front and says its run is a kept one', async () => {
      await graphView().locator('h1', { hasText: `Tape graph — ${ping}` }).waitFor({ timeout: T.graph });
      const note = await graphView().locator('#restored').innerText({ timeout: T.graph });
      assert.match(note, /^Restored: the run kept at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/, note);
    });
    await step('the TW101 rows are back without a run, and the status item says restored', async () => {
      const row = p.locator('.markers-panel .monaco-list-row').filter({ hasText: 'TW101' }).filter({ hasText: `[Ln ${launchLine}, Col` }).first();
      if (!(await p.locator('.markers-panel').isVisible())) {
        await p.keyboard.press('Control+Shift+M');
      }
      await row.waitFor({ state: 'visible', timeout: T.start });
      const status = p.locator('.statusbar-item[id$="tapewatch.status"]').first();
      await status.locator('.codicon-history').first().waitFor({ state: 'attached', timeout: T.ui });
      assert.equal(await statusNumber(), await problemsOf(ping), 'the restored count is the Problems count');
      await status.hover();
      const hover = p.locator('.workbench-hover, .monaco-hover').filter({ hasText: /restored from the kept run \(the script is unchanged since\)/ }).first();
      await hover.waitFor({ state: 'visible', timeout: T.ui });
      t.diagnostic(`status tooltip: ${(await hover.innerText()).replace(/\s+/g, ' ')}`);
      await sleep(300);
      await p.screenshot({ path: path.join(SHOTS, 'vscode-restored.png'), timeout: T.ui });
      await parkMouse();
      await runCommand('View: Close All Editor Groups');
    });
  });

  it('names a missing Warp at server start and in the failed run\'s toast, with Select Interpreter', async (t) => {
    if (failures) {
      t.skip('an earlier step failed');
      return;
    }
    const p = requirePage();
    const noWarp = NO_WARP_PYTHON;
    await step('switch to an interpreter without Warp', async () => {
      await runCommand('Notifications: Clear All Notifications');
      // The workspace's settings (watched like any file of the folder; the user settings.json is not
      // reloaded from disk here): the server restarts on that interpreter and asks it for its devices.
      mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
      writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'tapewatch.interpreter': noWarp }));
      const warning = toast(/cannot import Warp|Warp cannot be imported/);
      await warning.waitFor({ state: 'visible', timeout: T.start });
      const text = await warning.innerText();
      t.diagnostic(`server start: ${text.replace(/\s+/g, ' ')}`);
      assert.ok(text.includes(noWarp), `the warning names ${noWarp}: ${text}`);
      await warning.locator('.monaco-button', { hasText: 'Select Interpreter' }).first().waitFor({ state: 'visible', timeout: T.ui });
      await runCommand('Notifications: Clear All Notifications');
    });
    await step('the run fails with a toast that names the cause', async () => {
      await quickOpen(path.basename(EXAMPLE), path.basename(EXAMPLE));
      await runCommand('Tapewatch: Run Verification');
      const failed = toast(/Tapewatch: pingpong_helper\.py: TW903/);
      await failed.waitFor({ state: 'visible', timeout: T.run });
      const text = await failed.innerText();
      t.diagnostic(`run: ${text.replace(/\s+/g, ' ')}`);
      assert.match(text, /warp/i, text);
      await failed.locator('.monaco-button', { hasText: 'Select Interpreter' }).first().waitFor({ state: 'visible', timeout: T.ui });
      assert.match(await p.locator('.statusbar-item[id$="tapewatch.status"]').first().innerText(), /failed/);
    });
  });
  it('a typo in the interpreter gives one notification that says so, and fixing it is confirmed', async (t) => {
    if (failures) {
      t.skip('an earlier step failed');
      return;
    }
    const p = requirePage();
    const typo = '/usr/bin/pyhton3';
    await step('a typo in tapewatch.interpreter: one error notification, in words', async () => {
      await runCommand('Notifications: Clear All Notifications');
      writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'tapewatch.interpreter': typo }));
      const failed = toast(/could not start its server/);
      await failed.waitFor({ state: 'visible', timeout: T.start });
      const text = (await failed.innerText()).replace(/\s+/g, ' ');
      t.diagnostic(`start failure: ${text}`);
      assert.match(text, new RegExp(`${typo.replace(/\//g, '\\/')} does not exist \\(check tapewatch\\.interpreter for a typo\\)`), text);
      await sleep(2000); // the language client's own notification would have come by now
      const all = await p.locator('.notifications-toasts .notification-list-item').allInnerTexts();
      assert.equal(all.filter((n) => /Tapewatch|tapewatch/.test(n)).length, 1, `one notification: ${all.join(' | ')}`);
      assert.equal(all.filter((n) => /couldn't create connection/i.test(n)).length, 0);
    });
    await step('fixed: the server starts on the interpreter with Warp, and a notification confirms it', async () => {
      await runCommand('Notifications: Clear All Notifications');
      writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'tapewatch.interpreter': PYTHON }));
      const ready = toast(/has Warp \S+ \(cpu[^)]*\): ready to run verification/);
      await ready.waitFor({ state: 'visible', timeout: T.start });
      t.diagnostic(`confirmed: ${(await ready.innerText()).replace(/\s+/g, ' ')}`);
    });
  });
});
