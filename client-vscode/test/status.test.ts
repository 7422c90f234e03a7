import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { traceFor } from '../src/common/logging';
import { progressConverter } from '../src/common/progress';
import { contentSecurityPolicy, escapeAttribute, graphPageHtml } from '../src/graph/html';
import type { RunSummary } from '../shared/protocol';
import { describeSummary, problemCount, statusView } from '../src/statusModel';

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
};

describe('status bar', () => {
  it('shows the device, then the last result', () => {
    assert.equal(statusView({ device: 'cuda:0', trusted: true }).text, '$(beaker) cuda:0');
    const v = statusView({ device: 'cuda:0', trusted: true, last: { file: 'train.py', summary } });
    assert.equal(v.text, '$(beaker) cuda:0 $(error) 3');
    assert.equal(v.tone, 'error');
    assert.match(v.tooltip, /Last run of train\.py on cuda:0 with Warp 1\.19\.0: 3 findings \(1 error, 2 warnings\) in 3\.3 s/);
    assert.match(v.tooltip, /Click to run verification/);
  });

  it('follows a newly selected device at once, not the last run\'s', () => {
    const v = statusView({ device: 'cpu', trusted: true, last: { file: 'train.py', summary } });
    assert.equal(v.text, '$(beaker) cpu $(error) 3');
    assert.match(v.tooltip, /Tapewatch: device cpu/);
    assert.match(v.tooltip, /Last run of train\.py on cuda:0/);
  });

  it('counts what the Problems panel lists: the static lints too, hints not', () => {
    const withLints = { ...summary, counts: { error: 0, warning: 2, information: 1, hint: 1 }, findings: 1, lints: 2 };
    assert.equal(problemCount(withLints), 3);
    const v = statusView({ device: 'cpu', trusted: true, last: { file: 'a.py', summary: withLints } });
    assert.equal(v.text, '$(beaker) cpu $(warning) 3');
    assert.equal(v.tone, 'warning');
    assert.equal(describeSummary(withLints), '3 findings (2 warnings, 1 info) in 3.3 s');
    const infoOnly = { ...summary, status: 'ok' as const, counts: { error: 0, warning: 0, information: 1, hint: 0 }, findings: 1 };
    assert.equal(statusView({ device: 'cpu', trusted: true, last: { file: 'a.py', summary: infoOnly } }).text, '$(beaker) cpu $(info) 1');
  });

  it('keeps the findings of a cancelled run', () => {
    const cancelled = { ...summary, status: 'cancelled' as const, counts: { error: 0, warning: 2, information: 0, hint: 0 }, findings: 2 };
    const v = statusView({ device: 'cpu', trusted: true, last: { file: 'a.py', summary: cancelled } });
    assert.equal(v.text, '$(beaker) cpu $(circle-slash) 2');
    assert.match(v.tooltip, /cancelled, 2 findings so far/);
    const none = { ...cancelled, counts: { error: 0, warning: 0, information: 0, hint: 0 }, findings: 0 };
    assert.equal(describeSummary(none), 'cancelled');
  });

  it('shows running, ok, failed, and untrusted states', () => {
    assert.equal(statusView({ device: 'cpu', trusted: true, running: 'a.py' }).text, '$(sync~spin) cpu');
    const ok = { ...summary, status: 'ok' as const, findings: 0, counts: { error: 0, warning: 0, information: 0, hint: 0 } };
    assert.equal(statusView({ device: 'cpu', trusted: true, last: { file: 'a.py', summary: ok } }).text, '$(beaker) cpu $(check)');
    assert.equal(describeSummary({ ...summary, status: 'failed', exit_code: 1, seconds: null }), 'failed (exit code 1)');
    const failed = { ...summary, status: 'failed' as const, failure: { code: 'TW903', message: "No module named 'warp'" } };
    const f = statusView({ device: 'cpu', trusted: true, last: { file: 'a.py', summary: failed } });
    assert.equal(f.text, '$(beaker) cpu $(error) failed');
    assert.match(f.tooltip, /TW903 No module named 'warp'/);
    assert.match(statusView({ device: 'cpu', trusted: false }).tooltip, /Untrusted workspace/);
    assert.equal(statusView({ device: 'cpu', trusted: true, serverDown: 'no python' }).tone, 'error');
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
