/** The status bar item: device and last result; a click runs verification. */

import { Commands, STATUS_ITEM_ID } from './common/constants';
import * as vsapi from './common/vscodeapi';
import type { RunSummary } from '../shared/protocol';
import { statusView, type StatusState } from './statusModel';

function sameFile(summary: RunSummary, fsPath: string): boolean {
  try {
    return vsapi.parseUri(summary.uri).fsPath === fsPath;
  } catch {
    return true; // no usable uri: nothing to keep it for
  }
}

export class StatusBar {
  private readonly item: vsapi.StatusBarItem;
  private state: StatusState;

  constructor(device: string) {
    this.item = vsapi.createStatusBarItem(STATUS_ITEM_ID, 'Tapewatch');
    this.item.command = Commands.runVerification;
    this.state = { device, trusted: vsapi.isTrusted() };
    this.render();
    this.item.show();
  }

  update(change: Partial<StatusState>): void {
    this.state = { ...this.state, ...change, trusted: vsapi.isTrusted() };
    this.render();
  }

  finished(file: string, summary: RunSummary): void {
    this.update({ running: undefined, last: { file, summary } });
  }

  /** The diagnostics of `fsPath` (of every script without one) were withdrawn: so is its result. */
  cleared(fsPath?: string): void {
    const last = this.state.last;
    if (last && (fsPath === undefined || sameFile(last.summary, fsPath))) {
      this.update({ last: undefined });
    }
  }

  private render(): void {
    const view = statusView(this.state);
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor =
      view.tone === 'normal' ? undefined : vsapi.themeColor(view.tone === 'error' ? 'statusBarItem.errorBackground' : 'statusBarItem.warningBackground');
  }

  dispose(): void {
    this.item.dispose();
  }
}
