/**
 * The client's side of docs/protocol.md against the real Python server,
 * without VS Code: the server is started exactly as the extension starts it
 * (serverLaunch: `<python> -m tapewatch lsp`, PYTHONPATH, cwd), fed the
 * settings the client sends, and its answers go through the client's parsers.
 * With Warp in the interpreter it also runs the ping-pong example: progress on
 * our token, `tapewatch/runFinished`, a run summary, a tape graph whose edges
 * join its listed nodes, and cancellation.
 *
 * Python: TAPEWATCH_TEST_PYTHON, else .venv/bin/python (scripts/setup.sh),
 * needing pygls unless `npm run bundle:python` made client-vscode/bundled/libs.
 * The captured graph is written to client-vscode/out/test/captured-graph.json
 * (TAPEWATCH_GRAPH_FIXTURE=... npm test draws it in the webview test).
 */

import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  CancellationTokenSource,
  createProtocolConnection,
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  InitializeRequest,
  InitializedNotification,
  ShowMessageNotification,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgress,
  type ProtocolConnection,
  type ShowMessageParams,
} from 'vscode-languageserver-protocol/node';
import { ServerCommands, Methods } from '../../client-vscode/src/common/constants';
import { didChangeConfigurationParams, initializationOptions, resolveSettings } from '../../client-vscode/src/common/settings';
import { locateServerCode, serverLaunch } from '../../client-vscode/src/common/serverLaunch';
import { parseRunSummary, parseTapeGraphResult, type RunSummary } from '../../client-vscode/shared/protocol';
import { runToast } from '../../client-vscode/src/runToast';

const ROOT = path.join(__dirname, '..', '..');
const PYTHON = process.env.TAPEWATCH_TEST_PYTHON || path.join(ROOT, '.venv', 'bin', 'python');
const CAPTURED = path.join(ROOT, 'client-vscode', 'out', 'test', 'captured-graph.json');

const code = locateServerCode({ extensionRoot: ROOT, development: true, exists: existsSync, join: path.join, delimiter: path.delimiter });

function pythonHas(module: string): boolean {
  if (!existsSync(PYTHON) || !code) {
    return false;
  }
  const env = serverLaunch(PYTHON, code, process.env, path.delimiter).env;
  return spawnSync(PYTHON, ['-c', `import ${module}`], { env, stdio: 'ignore' }).status === 0;
}

const canServe = pythonHas('pygls');
const hasWarp = canServe && pythonHas('warp');
if (process.env.CI && !hasWarp) {
  // The full suite (scripts/test, CI) installs both: a missing one is a failure there, not a skip.
  it('has a Python with pygls and Warp (CI)', () => {
    assert.fail(`${PYTHON} cannot import ${canServe ? 'warp' : 'pygls'}: run scripts/setup.sh --all`);
  });
}
if (!canServe) {
  console.log(`# SKIP server contract test: ${PYTHON} cannot import pygls (run scripts/setup.sh or set TAPEWATCH_TEST_PYTHON)`);
} else if (!hasWarp) {
  console.log(`# SKIP server run tests: ${PYTHON} has no Warp`);
}

describe('client ↔ Python server contract', { skip: canServe ? false : `no Python with pygls at ${PYTHON}`, timeout: 240_000 }, () => {
  let proc: ChildProcess;
  let conn: ProtocolConnection;
  let work: string;
  const messages: ShowMessageParams[] = [];
  const finished: { uri: string; summary: unknown }[] = [];
  let capabilities: { executeCommandProvider?: { commands?: string[] } };

  before(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'tapewatch-contract-'));
    const launch = serverLaunch(PYTHON, code!, { ...process.env, WARP_CACHE_PATH: path.join(work, 'warp-cache') }, path.delimiter);
    proc = spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, stdio: ['pipe', 'pipe', 'pipe'] });
    proc.stderr!.on('data', () => undefined);
    conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    conn.onNotification(ShowMessageNotification.type, (m) => messages.push(m));
    conn.onNotification(Methods.runFinished, (p: { uri: string; summary: unknown }) => finished.push(p));
    conn.listen();
    const { settings, problems } = resolveSettings({ device: 'cpu', timeout: 120, runOnSave: false, lint: true, args: [], env: {} }, {
      userHome: os.homedir(),
      env: process.env,
      trusted: true,
    });
    assert.deepEqual(problems, []);
    const init = await conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(work).toString(),
      workspaceFolders: [{ uri: pathToFileURL(work).toString(), name: 'work' }],
      capabilities: { window: { workDoneProgress: true, showDocument: { support: true } }, workspace: { executeCommand: { dynamicRegistration: true } } },
      initializationOptions: initializationOptions({ ...settings, interpreter: PYTHON }),
    });
    capabilities = init.capabilities as typeof capabilities;
    await conn.sendNotification(InitializedNotification.type, {});
    await conn.sendNotification(DidChangeConfigurationNotification.type, didChangeConfigurationParams({ ...settings, interpreter: PYTHON }));
  });

  after(async () => {
    try {
      await conn?.sendRequest('shutdown');
      await conn?.sendNotification('exit');
    } catch {
      // the process may be gone already
    }
    conn?.dispose();
    proc?.kill();
    rmSync(work, { recursive: true, force: true });
  });

  it('advertises the commands the client sends', () => {
    const commands = capabilities.executeCommandProvider?.commands ?? [];
    for (const c of Object.values(ServerCommands)) {
      assert.ok(commands.includes(c), `${c} in ${commands.join(', ')}`);
    }
  });

  it('takes the settings the client sends without complaint', async () => {
    await conn.sendRequest(Methods.tapeGraph, { uri: pathToFileURL(path.join(work, 'none.py')).toString() });
    assert.deepEqual(messages.filter((m) => /tapewatch\./.test(m.message)), []);
  });

  it('has the server report the invalid values the client passes through', async () => {
    const ctx = { userHome: os.homedir(), env: process.env, trusted: true };
    const bad = resolveSettings({ device: 'cpu', timeout: -1, lint: 'yes' }, ctx).settings;
    await conn.sendNotification(DidChangeConfigurationNotification.type, didChangeConfigurationParams({ ...bad, interpreter: PYTHON }));
    const deadline = Date.now() + 10_000;
    while (!messages.some((m) => /tapewatch\.lint/.test(m.message)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const shown = messages.map((m) => m.message).join('\n');
    assert.match(shown, /tapewatch\.timeout: expected a number of seconds greater than 0, got -1; using the default/);
    assert.match(shown, /tapewatch\.lint: expected true or false; using the default/);
    // Back to the settings of the tests below.
    const good = resolveSettings({ device: 'cpu', timeout: 120, runOnSave: false, lint: true, args: [], env: {} }, ctx).settings;
    await conn.sendNotification(DidChangeConfigurationNotification.type, didChangeConfigurationParams({ ...good, interpreter: PYTHON }));
  });

  it('answers tapewatch/tapeGraph with null before any run', async () => {
    const result = await conn.sendRequest(Methods.tapeGraph, { uri: pathToFileURL(path.join(work, 'none.py')).toString() });
    assert.equal(parseTapeGraphResult(result), null);
  });

  it('lists devices in the documented shape', { skip: !hasWarp }, async () => {
    const result = (await conn.sendRequest(ExecuteCommandRequest.type, { command: ServerCommands.listDevices, arguments: [] })) as { devices?: string[] };
    assert.ok(result.devices?.includes('cpu'), JSON.stringify(result));
  });

  it('runs verification with progress on our token, then serves the tape graph', { skip: !hasWarp }, async () => {
    const script = path.join(work, 'pingpong_helper.py');
    copyFileSync(path.join(ROOT, 'examples', 'pingpong_helper.py'), script);
    const uri = pathToFileURL(script).toString();
    const token = 'tapewatch-test-run';
    const kinds: string[] = [];
    const sub = conn.onProgress(WorkDoneProgress.type, token, (v) => kinds.push(v.kind));
    const raw = await conn.sendRequest(ExecuteCommandRequest.type, { command: ServerCommands.runVerification, arguments: [uri], workDoneToken: token });
    sub.dispose();
    const summary = parseRunSummary(raw) as RunSummary;
    assert.ok(summary, `a run summary: ${JSON.stringify(raw)}`);
    assert.equal(summary.status, 'findings', JSON.stringify(raw));
    assert.ok(summary.findings >= 1 && summary.tapes >= 1);
    assert.equal(kinds[0], 'begin');
    assert.equal(kinds[kinds.length - 1], 'end');
    assert.ok(finished.some((f) => parseRunSummary(f.summary)?.status === 'findings'), 'tapewatch/runFinished arrived');

    const graph = parseTapeGraphResult(await conn.sendRequest(Methods.tapeGraph, { uri }));
    assert.ok(graph, 'a tape graph after the run');
    assert.ok(graph.tapes.length >= 1);
    const ids = new Set(graph.findings.map((f) => f.id));
    for (const tape of graph.tapes) {
      const nodeIds = new Set(tape.nodes.map((n) => n.id));
      for (const e of tape.edges) {
        assert.ok(nodeIds.has(e.source) && nodeIds.has(e.target), `edge ${e.source} -> ${e.target} joins listed nodes`);
      }
      for (const n of tape.nodes) {
        n.finding_ids.forEach((id) => assert.ok(ids.has(id), `finding ${id} of node ${n.id} is listed`));
      }
    }
    assert.ok(graph.tapes.some((t) => t.nodes.some((n) => n.kind === 'launch' && n.location)), 'a launch node with its call site');
    assert.ok(graph.tapes.some((t) => t.nodes.some((n) => n.finding_ids.length > 0)), 'a node carries the finding');
    mkdirSync(path.dirname(CAPTURED), { recursive: true });
    writeFileSync(CAPTURED, JSON.stringify(graph, null, 2) + '\n');
  });

  it('withdraws the run\'s diagnostics and graph with tapewatch.clearDiagnostics', { skip: !hasWarp }, async () => {
    const uri = pathToFileURL(path.join(work, 'pingpong_helper.py')).toString();
    const result = (await conn.sendRequest(ExecuteCommandRequest.type, { command: ServerCommands.clearDiagnostics, arguments: [uri] })) as { cleared?: number };
    assert.ok((result.cleared ?? 0) >= 1, JSON.stringify(result));
    assert.equal(parseTapeGraphResult(await conn.sendRequest(Methods.tapeGraph, { uri })), null);
  });

  it('names the cause and place of a failed run (the client\'s toast)', { skip: !hasWarp }, async () => {
    const script = path.join(work, 'broken.py');
    writeFileSync(script, 'import warp as wp\n\ndef f(:\n    pass\n');
    const summary = parseRunSummary(
      await conn.sendRequest(ExecuteCommandRequest.type, { command: ServerCommands.runVerification, arguments: [pathToFileURL(script).toString()] }),
    );
    assert.equal(summary?.status, 'failed', JSON.stringify(summary));
    assert.equal(summary?.failure?.code, 'TW902', JSON.stringify(summary?.failure));
    assert.equal(summary?.failure?.path, script);
    assert.equal(summary?.failure?.line, 3);
    assert.deepEqual(runToast('broken.py', summary!)?.actions.map((a) => a.title), ['Go to Error', 'Show Output']);
  });

  it('cancels a run through the request token', { skip: !hasWarp }, async () => {
    const script = path.join(work, 'slow.py');
    writeFileSync(script, 'import time\nimport warp as wp\nwp.init()\ntime.sleep(60)\n');
    const source = new CancellationTokenSource();
    const started = Date.now();
    const pending = conn.sendRequest(
      ExecuteCommandRequest.type,
      { command: ServerCommands.runVerification, arguments: [pathToFileURL(script).toString()], workDoneToken: 'tapewatch-test-cancel' },
      source.token,
    );
    setTimeout(() => source.cancel(), 1500);
    let status: string | undefined;
    try {
      status = parseRunSummary(await pending)?.status;
    } catch (err) {
      status = (err as { code?: number }).code === -32800 ? 'cancelled' : String(err);
    }
    assert.equal(status, 'cancelled');
    assert.ok(Date.now() - started < 15_000, 'the run ended soon after the cancel');
  });
});
