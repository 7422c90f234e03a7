import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { parseBisectResult, parseCompareResult, type BisectResult, type KeptRun } from '../shared/protocol';
import { Commands } from '../src/common/constants';
import { bisectToast, compareChoices, compareStatus, firstSentence, knobProblem, reportPath } from '../src/investigate';

/** The server's TW410 message (server/tapewatch/bisect.py), numbers and all. */
const TW410 =
  'AD and finite differences agree up to 3 steps and diverge at 4 (`STEPS`): the launch of step 4 is where to look ' +
  '(an overwrite, a carried state, a loop-carried value). Tried: STEPS=1: agree (q err 1.2e-07); STEPS=4: diverge (q err 0.5).';

function bisected(findings: unknown[]): BisectResult {
  const r = parseBisectResult({ uri: 'file:///p/sim.py', findings });
  assert.ok(r);
  return r;
}

describe('Bisect Horizon', () => {
  it('says the first sentence of the finding, numbers and code spans intact', () => {
    assert.equal(
      firstSentence(TW410),
      'AD and finite differences agree up to 3 steps and diverge at 4 (`STEPS`): the launch of step 4 is where to look (an overwrite, a carried state, a loop-carried value).',
    );
    assert.equal(firstSentence('Error 0.5 vs 1.5 in `a.b. C`. Next.'), 'Error 0.5 vs 1.5 in `a.b. C`.');
    assert.equal(firstSentence('no period at all'), 'no period at all');
  });

  it('offers Go to Step at the launch of the first diverging step', () => {
    const t = bisectToast('sim.py', bisected([{ id: 'tw410', code: 'TW410', severity: 'warning', message: TW410, path: '/p/sim.py', line: 41, column: 1 }]));
    assert.equal(t.level, 'warning');
    assert.match(t.message, /^Tapewatch: sim\.py: AD and finite differences agree up to 3 steps and diverge at 4 .*\)\.$/);
    assert.deepEqual(t.actions, [{ title: 'Go to Step', kind: 'goTo', path: '/p/sim.py', line: 41 }]);
  });

  it('reports agreement over the whole horizon as information, without buttons', () => {
    const msg = 'AD and finite differences agree over the whole horizon (`STEPS` = 60): nothing to bisect. Tried: STEPS=60: agree.';
    const t = bisectToast('sim.py', bisected([{ code: 'TW400', severity: 'information', message: msg, path: '/p/sim.py', line: 9 }]));
    assert.equal(t.level, 'information');
    assert.equal(t.message, 'Tapewatch: sim.py: AD and finite differences agree over the whole horizon (`STEPS` = 60): nothing to bisect.');
    assert.deepEqual(t.actions, []);
  });

  it('asks for the constant when the server found no horizon to vary', () => {
    const msg = 'bisect needs the horizon as a module-level integer constant that a `for ... in range(...)` loop uses (e.g. `STEPS = 60`); none was found.';
    const t = bisectToast('sim.py', bisected([{ code: 'TW406', severity: 'warning', message: msg, path: '/p/sim.py', line: 1 }]));
    assert.deepEqual(t.actions.map((a) => a.kind), ['askKnob']);
    assert.equal(knobProblem('STEPS'), undefined);
    assert.ok(knobProblem('60 steps'));
    const other = bisectToast('sim.py', bisected([{ code: 'TW406', message: 'bisect could not get an FD verdict at the full horizon: x' }]));
    assert.deepEqual(other.actions.map((a) => a.kind), ['showOutput']);
    assert.equal(bisectToast('sim.py', bisected([])).level, 'warning');
  });

  it('rejects a result that is not a bisection', () => {
    assert.equal(parseBisectResult({ uri: 'x' }), undefined);
    assert.equal(parseBisectResult(null), undefined);
  });
});

describe('Compare with Previous Run', () => {
  it('counts new, fixed and unchanged and keeps the report', () => {
    const r = parseCompareResult({ compared: true, new: [{}], fixed: [{}, {}], unchanged: [], fd: [], report: '# sim.py\n' });
    assert.ok(r);
    assert.deepEqual(r.counts, { new: 1, fixed: 2, unchanged: 0 });
    assert.equal(r.report, '# sim.py\n');
    assert.equal(compareStatus('sim.py', r), 'Tapewatch: sim.py against its previous run: 1 new, 2 fixed, 0 unchanged');
  });

  it('says why it cannot compare fewer than two runs', () => {
    const r = parseCompareResult({ compared: false, runs: 1, report: 'Fewer than two kept runs' });
    assert.ok(r);
    assert.equal(compareStatus('sim.py', r), 'Tapewatch: sim.py has 1 kept run; two are needed to compare');
    assert.equal(parseCompareResult({ compared: true }), undefined);
  });

  it('names the report after the script, as a Markdown document', () => {
    assert.equal(reportPath('/p/sim.py'), '/sim.py — compared with the previous run.md');
    assert.equal(reportPath('C:\\p\\sim.py'), '/sim.py — compared with the previous run.md');
  });
});

describe('package.json for the investigation commands', () => {
  const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  it('lists both in the palette for Python files only', () => {
    for (const id of [Commands.bisect, Commands.compareWithPrevious]) {
      const entry = manifest.contributes.menus.commandPalette.find((m: { command: string }) => m.command === id);
      assert.equal(entry?.when, 'editorLangId == python', id);
    }
    const titles = Object.fromEntries(manifest.contributes.commands.map((c: { command: string; title: string }) => [c.command, c.title]));
    assert.equal(titles[Commands.bisect], 'Bisect Horizon');
    assert.equal(titles[Commands.compareWithPrevious], 'Compare with Previous Run');
  });
});

describe('Compare with Previous Run: the picker of kept runs', () => {
  const run = (path: string, readable: string, counts: Partial<Record<'error' | 'warning' | 'information', number>>, current = true): KeptRun => ({
    path,
    time: readable,
    readable_time: readable,
    status: counts.error || counts.warning ? 'findings' : 'ok',
    counts: { error: 0, warning: 0, information: 0, hint: 0, ...counts },
    has_findings: Boolean(counts.error || counts.warning),
    warp_version: '1.19.0',
    device: 'cpu',
    current,
  });

  it('lists the runs before the newest, the last one with findings active', () => {
    const runs = [run('/c', '2026-05-01 14:03:00', {}), run('/b', '2026-05-01 14:02:00', { information: 1 }), run('/a', '2026-05-01 14:01:00', { warning: 2 }, false)];
    const choice = compareChoices(runs);
    assert.equal(choice.newest, '2026-05-01 14:03:00, no findings');
    assert.deepEqual(
      choice.items.map((i) => [i.label, i.description, i.detail]),
      [
        ['2026-05-01 14:02:00', '1 info', 'on cpu · Warp 1.19.0'],
        ['2026-05-01 14:01:00', '2 warnings — the last run with findings', 'on cpu · Warp 1.19.0 · the script has changed since'],
      ],
    );
    assert.equal(choice.defaultIndex, 1);
    // None with findings: the one before the newest.
    assert.equal(compareChoices([run('/b', 'b', {}), run('/a', 'a', {})]).defaultIndex, 0);
  });
});
