/**
 * The tape-graph page: a skeleton with a strict Content Security Policy that
 * loads the webview bundle (client-vscode/out/webview). No inline script or
 * style without the nonce, nothing from outside the extension; WebAssembly
 * (Graphviz) may compile.
 *
 * Pure, so the headless-browser test serves the same page.
 */

import { randomBytes } from 'node:crypto';

export interface PageResources {
  /** `webview.cspSource`. */
  cspSource: string;
  nonce: string;
  /** URIs (as `webview.asWebviewUri(...).toString()`) of the bundle's script and style. */
  scriptUri: string;
  styleUri: string;
}

export function makeNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}' 'wasm-unsafe-eval'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `img-src ${cspSource}`,
    `font-src ${cspSource}`,
  ].join('; ');
}

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function graphPageHtml(r: PageResources): string {
  const a = escapeAttribute;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${a(contentSecurityPolicy(r.cspSource, r.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${a(r.styleUri)}" nonce="${a(r.nonce)}">
<title>Tape graph</title>
</head>
<body>
<div id="app" aria-live="polite"></div>
<script src="${a(r.scriptUri)}" nonce="${a(r.nonce)}"></script>
</body>
</html>
`;
}
