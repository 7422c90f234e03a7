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

/** "2 findings (1 error, 1 warning) in 3.2 s" and the like. */
export function describeSummary(s: RunSummary): string {
  const seconds = s.seconds !== null ? ` in ${s.seconds.toFixed(1)} s` : '';
  switch (s.status) {
    case 'ok':
      return `no findings${seconds}`;
    case 'cancelled':
      return 'cancelled';
    case 'failed':
      return `failed${s.exit_code !== null ? ` (exit code ${s.exit_code})` : ''}${seconds}`;
    case 'findings': {
      const parts = (['error', 'warning', 'information', 'hint'] as const)
        .filter((k) => s.counts[k] > 0)
        .map((k) => plural(s.counts[k], k === 'information' ? 'info' : k));
      return `${plural(s.findings, 'finding')}${parts.length ? ` (${parts.join(', ')})` : ''}${seconds}`;
    }
  }
}

export function statusView(state: StatusState): StatusView {
  const device = state.last?.summary.device || state.device;
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
    lines.push(`Last run of ${state.last.file}: ${describeSummary(s)}${s.warp_version ? `, Warp ${s.warp_version}` : ''}`);
    if (s.status === 'ok') {
      result = ' $(check)';
    } else if (s.status === 'findings') {
      const worst = s.counts.error > 0 ? 'error' : 'warning';
      result = ` $(${worst}) ${s.findings}`;
      tone = s.counts.error > 0 ? 'error' : 'warning';
    } else if (s.status === 'failed') {
      result = ' $(error) failed';
      tone = 'error';
    } else {
      result = ' $(circle-slash)';
    }
  }
  if (!state.trusted) {
    lines.push('Untrusted workspace: static lints only; runs are off.');
  }
  lines.push(state.trusted ? 'Click to run verification of the active file.' : 'Click for details.');
  return { text: `${icon} ${device}${result}`, tooltip: lines.join('\n\n'), tone };
}
