// Writes client-vscode/out/README.md, the readme packed into the .vsix
// (`vsce --readme-path`), from client-vscode/README.md.
//
// VS Code shows an installed extension's readme in a webview that loads only
// https: and data: images and opens only http(s) links: a picture relative to
// the extension folder stays blank there. So each local picture is inlined as
// a data: URI, and a relative link (a page that would not open) fails the build.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const client = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(client, 'README.md');
const target = path.join(client, 'out', 'README.md');
const TYPES = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif' };
const isRemote = (link) => /^(https?:|mailto:|data:|#)/i.test(link);

const problems = [];
const text = readFileSync(source, 'utf8').replace(/(!?)\[([^\]]*)\]\(([^)\s]+)\)/g, (whole, bang, alt, link) => {
  if (isRemote(link)) {
    return whole;
  }
  const type = TYPES[path.extname(link).toLowerCase()];
  if (!bang || !type) {
    problems.push(`${link}: a relative link does not open from the extension page; link by https or not at all`);
    return whole;
  }
  const data = readFileSync(path.resolve(client, link)).toString('base64');
  return `![${alt}](data:${type};base64,${data})`;
});
if (problems.length) {
  console.error(`vsix-readme: ${path.relative(process.cwd(), source)}:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, text);
console.log(`vsix-readme: ${path.relative(process.cwd(), target)} (${Math.round(text.length / 1024)} KiB, pictures inlined)`);
