import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { routeClientLine, startFailureText, traceFor } from '../src/common/logging';
import { progressConverter } from '../src/common/progress';
import { contentSecurityPolicy, escapeAttribute, graphPageHtml } from '../src/graph/html';
import type { RunSummary } from '../shared/protocol';
import { describeSummary, problemCount, statusView, whenText } from '../src/statusModel';
import { serverStatusView } from '../src/serverStatusModel';

const summary: RunSummary = {
  uri: 'file:///p/train.py',
  status: 'findings',
  warp_version: '1.19.0',
  device: 'cuda:0',
  seconds: 3.25,
  exit_code: 0,
  counts: { error: 1, warning: 2, information: 0, hint: 0 },
  findings: 3,
  lints: 0,
  tapes: 1,
  failure: null,
  launch_checks: null,
};

const NOW = new Date(2026, 4, 1, 15, 0, 0).getTime();
const AT = new Date(2026, 4, 1, 14, 2, 31).getTime();
const counts = (error: number, warning: number, information = 0) => ({ error, warning, information });

describe('status bar: the file in front of you', () => {
  it('shows the device, then the active file\'s problems, its last run and when in the tooltip', () => {
    assert.equal(statusView({ device: 'cuda:0', trusted: true }).text, '$(beaker) cuda:0');
    const v = statusView({ device: 'cuda:0', trusted: true, now: NOW, active: { file: 'train.py', counts: counts(1, 2), last: { file: 'train.py', summary, when: AT } } });
    assert.equal(v.text, '$(beaker) cuda:0 $(error) 3');
    assert.equal(v.tone, 'error');
    assert.match(v.tooltip, /train\.py: 3 problems \(1 error, 2 warnings\) from Tapewatch in the Problems panel/);
    assert.match(v.tooltip, /last run: train\.py, 14:02:31 on cuda:0 with Warp 1\.19\.0: 3 findings \(1 error, 2 warnings\) in 3\.3 s/);
    assert.match(v.tooltip, /Click to run verification/);
  });

  it('counts the Problems panel\'s rows of the active file, not the last run of another file', () => {
    // The last run (another file) had 1 error; this file shows 5 warnings and has never run.
    const v = statusView({ device: 'cpu', trusted: true, active: { file: 'b.py', counts: counts(0, 5) } });
    assert.equal(v.text, '$(beaker) cpu $(warning) 5');
    assert.match(v.tooltip, /No run of b\.py yet/);
    // A file whose only finding is a lint information.
    assert.equal(statusView({ device: 'cpu', trusted: true, active: { file: 'c.py', counts: counts(0, 0, 1) } }).text, '$(beaker) cpu $(info) 1');
    // Clean after a run: a check; clean and never run: nothing but the device.
    const ok = { ...summary, status: 'ok' as const, findings: 0, counts: { error: 0, warning: 0, information: 0, hint: 0 } };
    assert.equal(statusView({ device: 'cpu', trusted: true, active: { file: 'a.py', counts: counts(0, 0), last: { file: 'a.py', summary: ok, when: AT } } }).text, '$(beaker) cpu $(check)');
    assert.equal(statusView({ device: 'cpu', trusted: true, active: { file: 'a.py', counts: counts(0, 0) } }).text, '$(beaker) cpu');
  });

  it('follows a newly selected device at once, not the last run\'s', () => {
    const v = statusView({ device: 'cpu', trusted: true, now: NOW, active: { file: 'train.py', counts: counts(1, 2), last: { file: 'train.py', summary, when: AT } } });
    assert.equal(v.text, '$(beaker) cpu $(error) 3');
    assert.match(v.tooltip, /Tapewatch: device cpu/);
    assert.match(v.tooltip, /on cuda:0/);
  });

  it('marks a run restored from a kept run after a reload', () => {
    const restored = { ...summary, restored: { time: '2026-05-01T12:02:31+00:00', readable_time: '2026-05-01 14:02:31', path: '/p/.tapewatch/runs/x.json' } };
    const v = statusView({ device: 'cpu', trusted: true, now: NOW, active: { file: 'train.py', counts: counts(1, 2), last: { file: 'train.py', summary: restored, when: AT } } });
    assert.equal(v.text, '$(beaker) cpu $(history) $(error) 3');
    assert.match(v.tooltip, /last run: train\.py, 2026-05-01 14:02:31 — restored from the kept run \(the script is unchanged since\)/);
  });

  it('keeps the findings of a cancelled run', () => {
    const cancelled = { ...summary, status: 'cancelled' as const, counts: { error: 0, warning: 2, information: 0, hint: 0 }, findings: 2 };
    const v = statusView({ device: 'cpu', trusted: true, active: { file: 'a.py', counts: counts(0, 2), last: { file: 'a.py', summary: cancelled, when: AT } } });
    assert.equal(v.text, '$(beaker) cpu $(circle-slash) 2');
    assert.match(v.tooltip, /cancelled, 2 findings so far/);
    const none = { ...cancelled, counts: { error: 0, warning: 0, information: 0, hint: 0 }, findings: 0 };
    assert.equal(describeSummary(none), 'cancelled');
  });

  it('counts what the Problems panel lists in a summary: the static lints too, hints not', () => {
    const withLints = { ...summary, counts: { error: 0, warning: 2, information: 1, hint: 1 }, findings: 1, lints: 2 };
    assert.equal(problemCount(withLints), 3);
    assert.equal(describeSummary(withLints), '3 findings (2 warnings, 1 info) in 3.3 s');
  });

  it('shows running, failed, server down and untrusted states', () => {
    assert.equal(statusView({ device: 'cpu', trusted: true, running: 'a.py' }).text, '$(sync~spin) cpu');
    assert.equal(describeSummary({ ...summary, status: 'failed', exit_code: 1, seconds: null }), 'failed (exit code 1)');
    const failed = { ...summary, status: 'failed' as const, failure: { code: 'TW903', message: "No module named 'warp'" } };
    const f = statusView({ device: 'cpu', trusted: true, active: { file: 'a.py', counts: counts(1, 0), last: { file: 'a.py', summary: failed, when: AT } } });
    assert.equal(f.text, '$(beaker) cpu $(error) failed');
    assert.match(f.tooltip, /TW903 No module named 'warp'/);
    assert.match(statusView({ device: 'cpu', trusted: false }).tooltip, /Untrusted workspace/);
    assert.equal(statusView({ device: 'cpu', trusted: true, serverDown: 'no python' }).tone, 'error');
  });

  it('writes times as read: the time today, the date before', () => {
    assert.equal(whenText(AT, NOW), '14:02:31');
    assert.equal(whenText(new Date(2026, 3, 30, 9, 5).getTime(), NOW), '2026-04-30 09:05');
  });
});

describe('language status item for the server', () => {
  it('says the state, the interpreter and its Warp, and warns without Warp', () => {
    assert.deepEqual(serverStatusView({ phase: 'starting', interpreter: '/v/bin/python', trusted: true }), {
      text: 'Tapewatch: starting',
      detail: '/v/bin/python',
      severity: 'information',
      busy: true,
    });
    const running = serverStatusView({ phase: 'running', interpreter: '/v/bin/python', warp: { version: '1.19.0', devices: ['cpu', 'cuda:0'] }, trusted: true });
    assert.equal(running.text, 'Tapewatch: running');
    assert.equal(running.detail, '/v/bin/python · Warp 1.19.0 (cpu, cuda:0)');
    const noWarp = serverStatusView({ phase: 'running', interpreter: '/usr/bin/python3', warp: { error: "No module named 'warp'" }, trusted: true });
    assert.equal(noWarp.severity, 'warning');
    assert.equal(noWarp.detail, "/usr/bin/python3: No module named 'warp'");
    assert.equal(serverStatusView({ phase: 'failed', error: 'spawn nope ENOENT', trusted: true }).severity, 'error');
    assert.match(serverStatusView({ phase: 'running', trusted: false }).detail, /untrusted workspace/);
  });
});

describe('progress', () => {
  it('turns absolute percentages into increments', () => {
    const convert = progressConverter();
    assert.deepEqual(convert({ kind: 'begin', title: 'Run', percentage: 0 }), undefined);
    assert.deepEqual(convert({ kind: 'report', message: 'compiling', percentage: 10 }), { message: 'compiling', increment: 10 });
    assert.deepEqual(convert({ kind: 'report', percentage: 45 }), { increment: 35 });
    assert.deepEqual(convert({ kind: 'report', percentage: 30, message: 'x' }), { message: 'x' });
    assert.deepEqual(convert({ kind: 'end', message: 'done' }), { message: 'done' });
  });
});

describe('log level → LSP trace', () => {
  it('maps Trace to verbose, Debug to messages, the rest to off', () => {
    const levels = { trace: 1, debug: 2 };
    assert.equal(traceFor(1, levels), 'verbose');
    assert.equal(traceFor(2, levels), 'messages');
    assert.equal(traceFor(3, levels), 'off');
  });
});

describe('webview page', () => {
  it('has a strict CSP that allows only the nonce and WebAssembly', () => {
    assert.equal(
      contentSecurityPolicy('https://x.vscode-cdn.net', 'N0nce'),
      "default-src 'none'; script-src 'nonce-N0nce' 'wasm-unsafe-eval'; style-src https://x.vscode-cdn.net 'nonce-N0nce'; img-src https://x.vscode-cdn.net; font-src https://x.vscode-cdn.net",
    );
    const html = graphPageHtml({ cspSource: 'vscode-resource:', nonce: 'abc', scriptUri: 'vscode-resource:/m.js?a="1"', styleUri: 'vscode-resource:/m.css' });
    assert.match(html, /<script src="vscode-resource:\/m.js\?a=&quot;1&quot;" nonce="abc"><\/script>/);
    assert.doesNotMatch(html, /'unsafe-inline'|'unsafe-eval'/);
    assert.equal(escapeAttribute('<"&>'), '&lt;&quot;&amp;&gt;');
  });
});

describe('the output channel: one timestamp per line', () => {
  it('takes the language client\'s own prefix off and keeps its level', () => {
    assert.deepEqual(routeClientLine('[Info  - 3:04:05 PM] Connection to server got closed.'), { level: 'info', text: 'Connection to server got closed.' });
    assert.deepEqual(routeClientLine('[Error - 15:04:05] Server process exited with code 0.'), { level: 'info', text: 'Server process exited with code 0.' });
    assert.deepEqual(routeClientLine('[Error - 15:04:05] Server process exited with code 1.'), { level: 'error', text: 'Server process exited with code 1.' });
    assert.deepEqual(routeClientLine('{"a": 1}'), { level: undefined, text: '{"a": 1}' });
  });
});

describe('a server that cannot start', () => {
  it('says the interpreter does not exist instead of "spawn … ENOENT"', () => {
    const err = Object.assign(new Error('spawn /usr/bin/pyhton3 ENOENT'), { code: 'ENOENT' });
    assert.equal(
      startFailureText('/usr/bin/pyhton3', err),
      'Tapewatch could not start its server with "/usr/bin/pyhton3": /usr/bin/pyhton3 does not exist (check tapewatch.interpreter for a typo). Set "tapewatch.interpreter" to a Python 3.9+ that has Warp installed.',
    );
    assert.match(startFailureText('/x/py', new Error('spawn /x/py EACCES')), /: \/x\/py is not executable\./);
    assert.match(startFailureText('py', new Error('boom')), /with "py": boom\./);
  });
});
