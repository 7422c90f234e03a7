/**
 * The notification at the end of a run the user asked for: what it says and
 * which buttons it offers. A failed run names its TW9xx cause in one line and
 * offers the button that fixes it. Pure, so the choice is unit-tested;
 * commands.ts shows it and fixes.ts carries out the buttons.
 */

import type { RunSummary } from '../shared/protocol';
import { describeSummary } from './statusModel';

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

/** The toast for a finished run of `file`; undefined when there is nothing to say (clean, cancelled). */
export function runToast(file: string, summary: RunSummary): Toast | undefined {
  if (summary.status === 'cancelled') {
    return undefined; // the user cancelled it; the status bar keeps what it found
  }
  const failure = summary.failure;
  if (failure) {
    // Also a script that raised after reporting findings: the exception is what to fix first.
    const text = failure.message ? `${failure.code} ${failure.message}` : failure.code;
    return { level: 'error', message: `Tapewatch: ${file}: ${text}`, actions: fixesFor(failure.code, failure) };
  }
  if (summary.status === 'failed') {
    return { level: 'error', message: `Tapewatch: the run of ${file} ${describeSummary(summary)}.`, actions: [SHOW_OUTPUT] };
  }
  if (summary.status === 'findings') {
    return { level: 'information', message: `Tapewatch: ${file}: ${describeSummary(summary)}.`, actions: [{ title: 'Show Tape Graph', kind: 'showGraph' }] };
  }
  return undefined;
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
