/**
 * What the two investigation commands tell the user: the bisection's toast
 * (its finding's first sentence, and the button that goes to the step) and
 * where the comparison report lives. Pure, so it is unit-tested; commands.ts
 * shows them.
 */

import type { BisectResult, CompareResult, KeptRun } from '../shared/protocol';
import type { Toast } from './runToast';
import { plural } from './statusModel';

/**
 * The first sentence of a finding's message. The server's messages hold
 * numbers (`0.5`), code in backticks (`x.grad`) and parentheses, so a
 * sentence ends only at a period outside those, followed by the end of the
 * text or by a space and a capital letter.
 */
export function firstSentence(text: string): string {
  let code = false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '`') {
      code = !code;
    } else if (!code && c === '(') {
      depth++;
    } else if (!code && c === ')') {
      depth = Math.max(0, depth - 1);
    } else if (!code && depth === 0 && c === '.' && (i === text.length - 1 || /^\s+[A-Z]/.test(text.slice(i + 1, i + 3)))) {
      return text.slice(0, i + 1);
    }
  }
  return text;
}

/** The toast at the end of a bisection of `file` the user asked for. */
export function bisectToast(file: string, result: BisectResult): Toast {
  const finding = result.findings[0];
  if (!finding) {
    return { level: 'warning', message: `Tapewatch: bisecting ${file} gave no result.`, actions: [{ title: 'Show Output', kind: 'showOutput' }] };
  }
  const message = `Tapewatch: ${file}: ${firstSentence(finding.message)}`;
  switch (finding.code) {
    case 'TW410': // diverges at a step: its launch is where to look
      return {
        level: 'warning',
        message,
        actions: finding.path && finding.line ? [{ title: 'Go to Step', kind: 'goTo', path: finding.path, line: finding.line }] : [],
      };
    case 'TW400': // AD and FD agree over the whole horizon
      return { level: 'information', message, actions: [] };
    default: // TW406: nothing to bisect (no horizon constant found, or no FD verdict)
      return { level: 'warning', message, actions: needsKnob(finding.message) ? [{ title: 'Name the Constant…', kind: 'askKnob' }] : [{ title: 'Show Output', kind: 'showOutput' }] };
  }
}

/** TW406 because no module-level loop bound was found: the user can name the constant. */
function needsKnob(message: string): boolean {
  return /needs the horizon as a module-level integer constant/.test(message);
}

/** A valid Python identifier (the constant `tapewatch.bisect` should vary). */
export function knobProblem(value: string): string | undefined {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(value.trim()) ? undefined : 'A module-level constant name, such as STEPS';
}

/** The virtual document's path for a script's comparison report (`tapewatch-report:` scheme). */
export function reportPath(scriptPath: string): string {
  const name = scriptPath.split(/[\\/]/).pop() || 'script';
  return `/${name} — compared with the previous run.md`;
}

/** The status bar line after a comparison. */
export function compareStatus(file: string, result: CompareResult): string {
  if (!result.compared) {
    return `Tapewatch: ${file} has ${plural(result.runs ?? 0, 'kept run')}; two are needed to compare`;
  }
  const c = result.counts;
  const against = result.before ? `the run of ${result.before.readable_time}` : 'its previous run';
  return `Tapewatch: ${file} against ${against}: ${c.new} new, ${c.fixed} fixed, ${c.unchanged} unchanged`;
}

export interface RunItem {
  label: string;
  description: string;
  detail: string;
  run: KeptRun;
}

/** "2 warnings" / "no findings" / "failed" of a kept run. */
function keptCounts(run: KeptRun): string {
  if (run.status === 'failed') {
    return 'failed';
  }
  const parts = (['error', 'warning', 'information'] as const).filter((k) => run.counts[k] > 0).map((k) => plural(run.counts[k], k === 'information' ? 'info' : k));
  return parts.length ? parts.join(', ') : 'no findings';
}

/**
 * The picker of Compare with Previous Run: the kept runs before the newest (`runs`, newest first),
 * each by its readable time and counts; active at first the last one that had findings (an error
 * or a warning), else the one before the newest.
 */
export function compareChoices(runs: KeptRun[]): { items: RunItem[]; defaultIndex: number; newest: string } {
  const items = runs.slice(1).map((run) => ({
    label: run.readable_time,
    description: keptCounts(run),
    detail: [run.device && `on ${run.device}`, run.warp_version && `Warp ${run.warp_version}`, run.current ? '' : 'the script has changed since'].filter(Boolean).join(' · '),
    run,
  }));
  const found = items.findIndex((item) => item.run.has_findings);
  if (found >= 0) {
    items[found].description += ' — the last run with findings';
  }
  return { items, defaultIndex: Math.max(0, found), newest: runs[0] ? `${runs[0].readable_time}, ${keptCounts(runs[0])}` : '' };
}
