import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRunSummary, type RunSummary } from '../shared/protocol';
import { diagnosticMessage, plainMessage } from '../src/diagnosticText';
import { interpreterToast, parseNotifyLevel, runToast } from '../src/runToast';

/** A summary as the server sends it (docs/protocol.md), through the real parser. */
function summary(fields: Record<string, unknown>): RunSummary {
  const s = parseRunSummary({
    uri: 'file:///p/train.py',
    warp_version: '1.19.0',
    device: 'cpu',
    seconds: 2.5,
    exit_code: 2,
    counts: { error: 1, warning: 0, information: 0, hint: 0 },
    findings: 1,
    lints: 0,
    tapes: 0,
    ...fields,
  });
  assert.ok(s);
  return s;
}

const titles = (s: RunSummary) => runToast('train.py', s)?.actions.map((a) => a.title);

describe('the toast at the end of a run', () => {
  it('names the cause of a failed run in one line', () => {
    const s = summary({ status: 'failed', failure: { code: 'TW903', message: "No module named 'warp' in /usr/bin/python3" } });
    const t = runToast('train.py', s);
    assert.equal(t?.level, 'error');
    assert.equal(t?.message, "Tapewatch: train.py: TW903 No module named 'warp' in /usr/bin/python3");
  });

  it('offers the button that fixes each cause', () => {
    const failed = (code: string, extra: Record<string, unknown> = {}) => summary({ status: 'failed', failure: { code, message: 'm', ...extra } });
    assert.deepEqual(titles(failed('TW903')), ['Select Interpreter', 'Open Settings']);
    assert.deepEqual(titles(failed('TW908')), ['Select Interpreter', 'Open Settings']);
    assert.deepEqual(titles(failed('TW904')), ['Select Device', 'Show Output']);
    assert.deepEqual(titles(failed('TW905')), ['Open Settings', 'Show Output']);
    assert.deepEqual(titles(failed('TW906')), ['Show Output']);
    assert.deepEqual(titles(failed('TW909')), ['Show Output']);
    assert.deepEqual(titles(failed('TW902', { path: '/p/train.py', line: 7 })), ['Go to Error', 'Show Output']);
    // No place on disk: nowhere to go.
    assert.deepEqual(titles(failed('TW902')), ['Show Output']);
    const open = runToast('train.py', failed('TW902', { path: '/p/train.py', line: 7 }))?.actions[0];
    assert.deepEqual(open, { title: 'Go to Error', kind: 'goTo', path: '/p/train.py', line: 7 });
    const timeout = runToast('train.py', failed('TW905'))?.actions[0];
    assert.deepEqual(timeout, { title: 'Open Settings', kind: 'openSettings', setting: 'tapewatch.timeout' });
  });

  it('puts a script that raised after its findings first, with Go to Error', () => {
    const s = summary({ status: 'findings', exit_code: 1, failure: { code: 'TW901', message: 'ZeroDivisionError: division by zero', path: '/p/train.py', line: 12 } });
    const t = runToast('train.py', s);
    assert.equal(t?.level, 'error');
    assert.equal(t?.message, 'Tapewatch: train.py: TW901 ZeroDivisionError: division by zero');
    assert.deepEqual(titles(s), ['Go to Error', 'Show Output']);
  });

  it('falls back to the exit code when an older server names no cause', () => {
    const s = summary({ status: 'failed', failure: undefined });
    assert.equal(s.failure, null);
    assert.equal(runToast('train.py', s)?.message, 'Tapewatch: the run of train.py failed (exit code 2) in 2.5 s.');
    assert.deepEqual(titles(s), ['Show Output']);
  });

  it('reports findings at their level, with the graph button and the launch checks', () => {
    const found = summary({
      status: 'findings',
      exit_code: 0,
      counts: { error: 0, warning: 2, information: 0, hint: 0 },
      findings: 2,
      tapes: 1,
      launch_checks: { checked: 3, passed: 3, failed: 0, inconclusive: 0, skipped: 1 },
    });
    assert.deepEqual(runToast('train.py', found), {
      level: 'warning',
      message: 'Tapewatch: train.py: 2 findings (2 warnings) in 2.5 s; 3 launches checked, 1 skipped.',
      actions: [{ title: 'Show Tape Graph', kind: 'showGraph' }],
    });
    assert.equal(runToast('train.py', summary({ status: 'findings' }))?.level, 'error');
  });

  it('ends a clean run with a notification too, counts and time; an info-only run says there are infos', () => {
    const clean = summary({ status: 'ok', counts: {}, findings: 0, tapes: 1, seconds: 0.62, launch_checks: { checked: 3, skipped: 0 } });
    assert.deepEqual(runToast('train.py', clean), {
      level: 'information',
      message: 'Tapewatch: no gradient bugs found in train.py: 3 launches checked, 0 skipped, 0.6 s.',
      actions: [{ title: 'Show Tape Graph', kind: 'showGraph' }],
    });
    const info = summary({ status: 'ok', counts: { information: 1 }, findings: 1, tapes: 0, seconds: 1, launch_checks: null });
    assert.equal(runToast('train.py', info)?.message, 'Tapewatch: no gradient bugs found in train.py: 1 info (see the Problems panel), 1.0 s.');
    assert.deepEqual(runToast('train.py', info)?.actions, []);
    // A run that could not be kept says why.
    const unkept = summary({ status: 'ok', counts: {}, findings: 0, seconds: 1, evidence_error: 'Read-only file system: /p/.tapewatch' });
    assert.match(runToast('train.py', unkept)?.message ?? '', /could not be kept \(\.tapewatch\/runs\): Read-only file system: \/p\/\.tapewatch\.$/);
  });

  it('follows tapewatch.showNotifications; a failure is always said; a run on save keeps a clean result quiet', () => {
    const clean = summary({ status: 'ok', counts: {}, findings: 0 });
    const warn = summary({ status: 'findings', counts: { error: 0, warning: 1 } });
    const err = summary({ status: 'findings', counts: { error: 1 } });
    const failed = summary({ status: 'failed', failure: { code: 'TW903', message: 'no warp' } });
    const levels = (s: RunSummary, origin: 'command' | 'save' = 'command') =>
      (['off', 'onError', 'onWarning', 'always'] as const).map((level) => runToast('train.py', s, level, origin)?.level ?? '-');
    assert.deepEqual(levels(clean), ['-', '-', '-', 'information']);
    assert.deepEqual(levels(warn), ['-', '-', 'warning', 'warning']);
    assert.deepEqual(levels(err), ['-', 'error', 'error', 'error']);
    assert.deepEqual(levels(failed), ['error', 'error', 'error', 'error']);
    assert.deepEqual(levels(clean, 'save'), ['-', '-', '-', '-']);
    assert.deepEqual(levels(warn, 'save'), ['-', '-', 'warning', 'warning']);
    assert.equal(parseNotifyLevel('loud'), 'always');
    assert.equal(parseNotifyLevel('onError'), 'onError');
  });

  it('says nothing for a cancelled run or a restored one', () => {
    assert.equal(runToast('train.py', summary({ status: 'cancelled' })), undefined);
    assert.equal(runToast('train.py', summary({ status: 'findings', restored: { time: '2024-05-01T12:00:00+00:00', readable_time: '2024-05-01 14:00:00', path: '/p/k.json' } })), undefined);
  });
});

describe('the interpreter check at server start', () => {
  it('names the interpreter once, with Select Interpreter and Open Settings', () => {
    const t = interpreterToast('/usr/bin/python3', "ModuleNotFoundError: No module named 'warp'");
    assert.equal(t.level, 'warning');
    assert.equal(t.message, "Tapewatch: /usr/bin/python3 cannot import Warp (ModuleNotFoundError: No module named 'warp')");
    assert.deepEqual(
      t.actions.map((a) => a.title),
      ['Select Interpreter', 'Open Settings'],
    );
    // The server's own message already names it.
    const own = "Warp cannot be imported in /usr/bin/python3 (ModuleNotFoundError: No module named 'warp').";
    assert.equal(interpreterToast('/usr/bin/python3', own).message, `Tapewatch: ${own}`);
  });

  it('tells a user who set nothing that python3 from PATH was used', () => {
    const own = "Warp cannot be imported in /usr/bin/python3 (ModuleNotFoundError: No module named 'warp').";
    const t = interpreterToast('python3', own, true);
    assert.equal(t.message, `Tapewatch: no interpreter is set (tapewatch.interpreter), so Tapewatch uses python3 from PATH: ${own}`);
    assert.deepEqual(
      t.actions.map((a) => a.title),
      ['Select Interpreter', 'Open Settings'],
    );
    // An error that does not name it: named once, after PATH.
    assert.equal(
      interpreterToast('python3', 'timed out', true).message,
      'Tapewatch: no interpreter is set (tapewatch.interpreter), so Tapewatch uses python3 from PATH: python3 cannot import Warp (timed out)',
    );
  });
});

describe('diagnostic messages in VS Code', () => {
  it('shows code spans as quoted text, not backticks', () => {
    assert.equal(plainMessage('`a.q` (argument `x_out` of `integrate`) is overwritten'), '‘a.q’ (argument ‘x_out’ of ‘integrate’) is overwritten');
    assert.equal(plainMessage('a ``x`y`` b'), 'a ‘x`y’ b');
    assert.equal(plainMessage('no code, 3 < 4'), 'no code, 3 < 4');
    assert.equal(plainMessage('an unmatched ` tick'), 'an unmatched ` tick');
  });

  it('ends a message with a Fix line with a line break, so the hover puts the code on a line of its own', () => {
    assert.equal(diagnosticMessage('`x` is overwritten.\nFix: Give each step its own array.'),
      '‘x’ is overwritten.\nFix: Give each step its own array.\n');
    assert.equal(diagnosticMessage('one line'), 'one line');
    assert.equal(diagnosticMessage('two\nlines\n'), 'two\nlines\n');
  });
});
