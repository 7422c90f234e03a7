/**
 * The comparison reports: read-only Markdown documents under the
 * `tapewatch-report:` scheme, shown as a rendered preview. A virtual document
 * rather than a file, so nothing is written into the user's workspace and a
 * newer comparison of the same script replaces the text in place.
 */

import { REPORT_SCHEME } from './common/constants';
import { errorText } from './common/logging';
import * as vsapi from './common/vscodeapi';
import { reportPath } from './investigate';

export class ReportDocuments implements vsapi.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly content = vsapi.registerTextContent(REPORT_SCHEME, (uri) => this.texts.get(uri.path) ?? '');

  constructor(private readonly log: vsapi.LogOutputChannel) {}

  /** Show `markdown` as the report of `script`, rendered. */
  async show(script: vsapi.Uri, markdown: string): Promise<vsapi.Uri> {
    const uri = vsapi.virtualUri(REPORT_SCHEME, reportPath(script.fsPath));
    this.texts.set(uri.path, markdown);
    this.content.changed(uri);
    try {
      await vsapi.executeCommand('markdown.showPreview', uri);
    } catch (err) {
      // Without the built-in Markdown extension: the text itself is still readable.
      this.log.warn(`Markdown preview of ${uri.toString()}: ${errorText(err)}; opening it as text.`);
      await vsapi.showDocumentBeside(uri);
    }
    return uri;
  }

  dispose(): void {
    this.content.disposable.dispose();
  }
}
