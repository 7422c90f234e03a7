/** The status bar item: device and last result; a click runs verification. */

import { Commands, STATUS_ITEM_ID } from './common/constants';
import * as vsapi from './common/vscodeapi';
import type { RunSummary } from '../shared/protocol';
import { statusView, type StatusState } from './statusModel';

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
