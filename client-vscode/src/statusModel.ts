/**
 * What the status bar item says: the device and the last run's result.
 * Pure (text in, text out) so it is unit-tested; `statusBar.ts` shows it.
 */

import type { RunSummary } from '../shared/protocol';

export interface StatusState {
  device: string;
  /** The server failed to start or is not running. */
  serverDown?: string;
  running?: string;
  last?: { file: string; summary: RunSummary };
  trusted: boolean;
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
 * hints out, so the status bar, the toast and the panel agree on this number.
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
    case 'findings': {
      const parts = (['error', 'warning', 'information'] as const)
        .filter((k) => s.counts[k] > 0)
        .map((k) => plural(s.counts[k], k === 'information' ? 'info' : k));
      return `${plural(total, 'finding')}${parts.length ? ` (${parts.join(', ')})` : ''}${seconds}`;
    }
  }
}

export function statusView(state: StatusState): StatusView {
  // The setting, not the last run's device: a newly selected device shows at once.
  const device = state.device;
  const lines: string[] = [`Tapewatch: device ${device}`];
  let icon = '$(beaker)';
  let result = '';
  let tone: StatusView['tone'] = 'normal';

  if (state.serverDown) {
    icon = '$(error)';
    tone = 'error';
    lines.push(state.serverDown);
  } else if (state.running) {
    icon = '$(sync~spin)';
    lines.push(`Running ${state.running}…`);
  } else if (state.last) {
    const s = state.last.summary;
    const where = [s.device && `on ${s.device}`, s.warp_version && `with Warp ${s.warp_version}`].filter(Boolean).join(' ');
    const cause = s.failure ? `: ${s.failure.code} ${s.failure.message}` : '';
    lines.push(`Last run of ${state.last.file}${where ? ` ${where}` : ''}: ${describeSummary(s)}${cause}`);
    const total = problemCount(s);
    if (s.status === 'failed') {
      result = ' $(error) failed';
      tone = 'error';
    } else if (s.status === 'cancelled') {
      result = ` $(circle-slash)${total ? ` ${total}` : ''}`;
    } else if (s.counts.error > 0) {
      result = ` $(error) ${total}`;
      tone = 'error';
    } else if (s.counts.warning > 0) {
      result = ` $(warning) ${total}`;
      tone = 'warning';
    } else {
      result = total ? ` $(info) ${total}` : ' $(check)';
    }
  }
  if (!state.trusted) {
    lines.push('Untrusted workspace: static lints only; runs are off.');
  }
  lines.push(state.trusted ? 'Click to run verification of the active file.' : 'Click for details.');
  return { text: `${icon} ${device}${result}`, tooltip: lines.join('\n\n'), tone };
}
