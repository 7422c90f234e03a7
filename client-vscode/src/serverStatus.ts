/** The language status item for the server; its command shows the output channel. */

import { Commands } from './common/constants';
import * as vsapi from './common/vscodeapi';
import { serverStatusView, type ServerStatusState } from './serverStatusModel';

export class ServerStatus {
  private readonly item: vsapi.LanguageStatusItem;
  private state: ServerStatusState = { phase: 'starting', trusted: vsapi.isTrusted() };

  constructor() {
    this.item = vsapi.createLanguageStatusItem('tapewatch.server', 'Tapewatch');
    this.item.command = { title: 'Show Output', command: Commands.showOutput };
    this.render();
  }

  update(change: Partial<ServerStatusState>): void {
    this.state = { ...this.state, ...change, trusted: vsapi.isTrusted() };
    this.render();
  }

  private render(): void {
    const view = serverStatusView(this.state);
    this.item.text = view.text;
    this.item.detail = view.detail;
    this.item.severity = vsapi.LANGUAGE_STATUS_SEVERITY[view.severity];
    this.item.busy = view.busy;
  }

  dispose(): void {
    this.item.dispose();
  }
}
