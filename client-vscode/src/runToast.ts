/**
 * The notification at the end of a run the user asked for: what it says and
 * which buttons it offers. A failed run names its TW9xx cause in one line and
 * offers the button that fixes it. Pure, so the choice is unit-tested;
 * commands.ts shows it and fixes.ts carries out the buttons.
 */

import type { RunSummary } from '../shared/protocol';
import { describeSummary, plural } from './statusModel';

export type ToastAction =
  | { title: 'Select Interpreter'; kind: 'selectInterpreter' }
  | { title: 'Open Settings'; kind: 'openSettings'; setting: string }
  | { title: 'Select Device'; kind: 'selectDevice' }
  | { title: 'Go to Error' | 'Go to Step'; kind: 'goTo'; path: string; line: number }
  | { title: 'Name the Constant…'; kind: 'askKnob' }
  | { title: 'Show Tape Graph'; kind: 'showGraph' }
  | { title: 'Show Output'; kind: 'showOutput' };

export interface Toast {
  level: 'information' | 'warning' | 'error';
  message: string;
  actions: ToastAction[];
}

const SHOW_OUTPUT: ToastAction = { title: 'Show Output', kind: 'showOutput' };

/** The buttons that fix a failure with this code (the script's output is always one click away). */
export function fixesFor(code: string, place?: { path?: string; line?: number }): ToastAction[] {
  switch (code) {
    case 'TW903': // Warp missing in the interpreter
    case 'TW908': // the interpreter cannot be started
      return [{ title: 'Select Interpreter', kind: 'selectInterpreter' }, { title: 'Open Settings', kind: 'openSettings', setting: 'tapewatch.interpreter' }];
    case 'TW904':
      return [{ title: 'Select Device', kind: 'selectDevice' }, SHOW_OUTPUT];
    case 'TW901': // the script raised: the traceback is in the output
    case 'TW902':
      return place?.path ? [{ title: 'Go to Error', kind: 'goTo', path: place.path, line: place.line ?? 1 }, SHOW_OUTPUT] : [SHOW_OUTPUT];
    case 'TW905':
      return [{ title: 'Open Settings', kind: 'openSettings', setting: 'tapewatch.timeout' }, SHOW_OUTPUT];
    default:
      return [SHOW_OUTPUT];
  }
}

/** `tapewatch.showNotifications`: which finished runs end in a notification (as the python-tools extensions have). */
export type NotifyLevel = 'off' | 'onError' | 'onWarning' | 'always';

export const NOTIFY_LEVELS: readonly NotifyLevel[] = ['off', 'onError', 'onWarning', 'always'];

export function parseNotifyLevel(value: unknown): NotifyLevel {
  return NOTIFY_LEVELS.includes(value as NotifyLevel) ? (value as NotifyLevel) : 'always';
}

/** "3 launches checked, 1 skipped" (per-launch checks), or '' when they did not run. */
function launchText(s: RunSummary): string {
  const c = s.launch_checks;
  if (!c || c.checked + c.skipped === 0) {
    return '';
  }
  return `${c.checked} launch${c.checked === 1 ? '' : 'es'} checked, ${c.skipped} skipped`;
}

/**
 * The notification that ends a finished run of `file`; undefined when there is nothing to say
 * (cancelled) or the setting leaves it out. Every run the user asked for says how it ended, a
 * clean one too ("no gradient bugs found"); VS Code keeps each in the notification centre after
 * its toast hides. `origin` 'save': a run on save, whose clean result the status bar shows
 * (a notification at every save would be noise). A failure is always said: it needs a fix.
 */
export function runToast(file: string, summary: RunSummary, level: NotifyLevel = 'always', origin: 'command' | 'save' = 'command'): Toast | undefined {
  if (summary.status === 'cancelled' || summary.restored) {
    return undefined; // the user cancelled it (the status bar keeps what it found); a restore is no new run
  }
  const kept = summary.evidence_error ? ` The run could not be kept (.tapewatch/runs): ${summary.evidence_error}.` : '';
  const failure = summary.failure;
  if (summary.status === 'failed' || failure) {
    if (failure) {
      // Also a script that raised after reporting findings: the exception is what to fix first.
      const text = failure.message ? `${failure.code} ${failure.message}` : failure.code;
      return { level: 'error', message: `Tapewatch: ${file}: ${text}`, actions: fixesFor(failure.code, failure) };
    }
    return { level: 'error', message: `Tapewatch: the run of ${file} ${describeSummary(summary)}.`, actions: [SHOW_OUTPUT] };
  }
  const c = summary.counts;
  const tone: Toast['level'] = c.error > 0 ? 'error' : c.warning > 0 ? 'warning' : 'information';
  const wanted =
    level === 'always' ? (origin === 'save' ? tone !== 'information' : true) : level === 'onWarning' ? tone !== 'information' : level === 'onError' ? tone === 'error' : false;
  if (!wanted) {
    return undefined;
  }
  const graph: ToastAction = { title: 'Show Tape Graph', kind: 'showGraph' };
  if (tone === 'information') {
    const details = [launchText(summary), c.information ? `${plural(c.information, 'info')} (see the Problems panel)` : '', summary.seconds !== null ? `${summary.seconds.toFixed(1)} s` : '']
      .filter(Boolean)
      .join(', ');
    return { level: 'information', message: `Tapewatch: no gradient bugs found in ${file}${details ? `: ${details}` : ''}.${kept}`, actions: summary.tapes ? [graph] : [] };
  }
  const launches = launchText(summary);
  return { level: tone, message: `Tapewatch: ${file}: ${describeSummary(summary)}${launches ? `; ${launches}` : ''}.${kept}`, actions: [graph] };
}

/**
 * The warning when the interpreter cannot import Warp, at server start
 * (before a run fails on it). The server's error usually names the
 * interpreter already; it is not repeated then. `fromPath`: no interpreter
 * is set and none came from the Python extension, so the server runs on
 * `python3` from PATH — say so, since a new user chose nothing.
 */
export function interpreterToast(interpreter: string | undefined, error: string, fromPath = false): Toast {
  const problem = interpreter && !error.includes(interpreter) ? `${interpreter} cannot import Warp (${error})` : error;
  const message = fromPath
    ? `Tapewatch: no interpreter is set (tapewatch.interpreter), so Tapewatch uses ${interpreter ?? 'python3'} from PATH: ${problem}`
    : `Tapewatch: ${problem}`;
  return { level: 'warning', message, actions: fixesFor('TW903') };
}
