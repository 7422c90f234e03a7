// Bundles the extension (Node, CommonJS) and the tape-graph webview (browser,
// with Graphviz as WebAssembly) into client-vscode/out.
//   node client-vscode/build.mjs [--production] [--watch]
import * as esbuild from 'esbuild';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'info',
  legalComments: 'linked',
};

const builds = [
  {
    ...common,
    entryPoints: [path.join(here, 'src/extension.ts')],
    outfile: path.join(here, 'out/extension.js'),
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    external: ['vscode'],
  },
  {
    ...common,
    entryPoints: [path.join(here, 'webview/main.ts')],
    outfile: path.join(here, 'out/webview/main.js'),
    platform: 'browser',
    format: 'iife',
    target: ['chrome108'],
  },
];

if (watch) {
  for (const options of builds) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
