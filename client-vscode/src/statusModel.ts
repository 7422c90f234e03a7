/**
 * What the status bar item says: the device, and the problems of the file in
 * front of you. Pure (text in, text out) so it is unit-tested; `statusBar.ts`
 * shows it.
 *
 * The number is the Problems panel's count of Tapewatch's diagnostics for the
 * active file (errors, warnings and infos: the panel leaves hints out), whatever
 * ran last; the tooltip says when that file last ran ("last run: train.py,
 * 14:02:31"), or that its results were restored from a kept run after a reload.
 */

import type { RunSummary, Severity } from '../shared/protocol';

/** The last run of one file, as the status bar remembers it. */
export interface LastRun {
  file: string;
  summary: RunSummary;
  /** When it finished (ms since the epoch); a restored run: when it was kept. */
  when: number;
}

/** The file in front of you. */
export interface ActiveFile {
  file: string;
  /** Tapewatch's diagnostics of this file, by severity (what the Problems panel lists for it). */
  counts: Record<Exclude<Severity, 'hint'>, number>;
  last?: LastRun;
}

export interface StatusState {
  device: string;
  /** The server failed to start or is not running. */
  serverDown?: string;
  /** A run in progress (a file name). */
  running?: string;
  /** The active editor's file when it is a Python file; undefined otherwise. */
  active?: ActiveFile;
  trusted: boolean;
  /** Now (ms), for "today" in the tooltip's times. */
  now?: number;
}

export interface StatusView {
  text: string;
  tooltip: string;
  /** 'error' and 'warning' map to the status bar's theme colours. */
  tone: 'normal' | 'warning' | 'error';
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * What the Problems panel lists for a run: every severity it shows. `findings`
 * would leave the run's static lints out, and VS Code's Problems panel leaves
 * hints out, so the toast and the panel agree on this number.
 */
export function problemCount(s: RunSummary): number {
  return s.counts.error + s.counts.warning + s.counts.information;
}

/** "2 findings (1 error, 1 warning) in 3.2 s" and the like. */
export function describeSummary(s: RunSummary): string {
  const seconds = s.seconds !== null ? ` in ${s.seconds.toFixed(1)} s` : '';
  const total = problemCount(s);
  switch (s.status) {
    case 'ok':
      return total ? `no errors or warnings, ${total} info${seconds}` : `no findings${seconds}`;
    case 'cancelled':
      return total ? `cancelled, ${plural(total, 'finding')} so far` : 'cancelled';
    case 'failed':
      return `failed${s.exit_code !== null ? ` (exit code ${s.exit_code})` : ''}${seconds}`;
    case 'findings':
      return `${plural(total, 'finding')}${countsText(s.counts)}${seconds}`;
  }
}

function countsText(counts: Record<Severity, number>): string {
  const parts = (['error', 'warning', 'information'] as const).filter((k) => counts[k] > 0).map((k) => plural(counts[k], k === 'information' ? 'info' : k));
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** A time as the user reads it: "14:02:31" today, else "2024-05-01 14:02". Local time. */
export function whenText(when: number, now: number = Date.now()): string {
  const d = new Date(when);
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const today = new Date(now);
  if (d.getFullYear() === today.getFullYear() && d.getMonth() === today.getMonth() && d.getDate() === today.getDate()) {
    return `${time}:${pad(d.getSeconds())}`;
  }
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

export function statusView(state: StatusState): StatusView {
  // The setting, not the last run's device: a newly selected device shows at once.
  const device = state.device;
  const lines: string[] = [`Tapewatch: device ${device}`];
  let icon = '$(beaker)';
  let result = '';
  let tone: StatusView['tone'] = 'normal';
  const active = state.active;

  if (state.serverDown) {
    icon = '$(error)';
    tone = 'error';
    lines.push(state.serverDown);
  } else if (state.running) {
    icon = '$(sync~spin)';
    lines.push(`Running ${state.running}…`);
  }
  if (active && !state.serverDown) {
    const c = active.counts;
    const total = c.error + c.warning + c.information;
    const last = active.last;
    const s = last?.summary;
    lines.push(
      `${active.file}: ${plural(total, 'problem')}${countsText({ ...c, hint: 0 })} from Tapewatch in the Problems panel`,
    );
    if (last && s) {
      const where = [s.device && `on ${s.device}`, s.warp_version && `with Warp ${s.warp_version}`].filter(Boolean).join(' ');
      const cause = s.failure ? `: ${s.failure.code} ${s.failure.message}` : '';
      const when = whenText(last.when, state.now);
      lines.push(
        s.restored
          ? `last run: ${last.file}, ${s.restored.readable_time || when} — restored from the kept run (the script is unchanged since)${where ? `, ${where}` : ''}: ${describeSummary(s)}`
          : `last run: ${last.file}, ${when}${where ? ` ${where}` : ''}: ${describeSummary(s)}${cause}`,
      );
    } else {
      lines.push(`No run of ${active.file} yet.`);
    }
    const restored = s?.restored ? ' $(history)' : '';
    if (s?.status === 'failed') {
      result = ' $(error) failed';
      tone = 'error';
    } else if (s?.status === 'cancelled' && !state.running) {
      result = ` $(circle-slash)${total ? ` ${total}` : ''}`;
    } else if (c.error > 0) {
      result = `${restored} $(error) ${total}`;
      tone = 'error';
    } else if (c.warning > 0) {
      result = `${restored} $(warning) ${total}`;
      tone = 'warning';
    } else if (total > 0) {
      result = `${restored} $(info) ${total}`;
    } else if (s) {
      result = `${restored} $(check)`;
    }
  }
  if (!state.trusted) {
    lines.push('Untrusted workspace: static lints only; runs are off.');
  }
  lines.push(state.trusted ? 'Click to run verification of the active file.' : 'Click for details.');
  return { text: `${icon} ${device}${result}`, tooltip: lines.join('\n\n'), tone };
}
