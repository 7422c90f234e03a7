import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { describeLaunch, locateServerCode, serverLaunch, type Layout } from '../src/common/serverLaunch';

function layout(files: string[], development = false): Layout {
  const set = new Set(files.map((f) => path.posix.join('/ext', f)));
  return { extensionRoot: '/ext', development, exists: (p) => set.has(p), join: path.posix.join, delimiter: ':' };
}

const TOOL = 'client-vscode/bundled/tool/tapewatch/__init__.py';
const LIBS = 'client-vscode/bundled/libs';
const REPO = 'server/tapewatch/__init__.py';

describe('server code location', () => {
  it('uses bundled/tool and bundled/libs in a packaged extension', () => {
    assert.deepEqual(locateServerCode(layout([TOOL, LIBS])), {
      mode: 'bundled',
      toolDir: '/ext/client-vscode/bundled/tool',
      pythonPath: ['/ext/client-vscode/bundled/tool', '/ext/client-vscode/bundled/libs'],
    });
  });

  it("falls back to the repository's server/ in development", () => {
    assert.deepEqual(locateServerCode(layout([REPO])), { mode: 'development', toolDir: '/ext/server', pythonPath: ['/ext/server'] });
    // live sources win over a stale bundle when VS Code runs the extension in development mode
    assert.deepEqual(locateServerCode(layout([REPO, TOOL, LIBS], true))?.pythonPath, ['/ext/server', '/ext/client-vscode/bundled/libs']);
    assert.equal(locateServerCode(layout([REPO, TOOL, LIBS], false))?.mode, 'bundled');
  });

  it('is undefined when neither exists', () => {
    assert.equal(locateServerCode(layout([])), undefined);
  });
});

describe('server launch', () => {
  const code = { mode: 'bundled' as const, toolDir: '/ext/b/tool', pythonPath: ['/ext/b/tool', '/ext/b/libs'] };

  it('runs <python> -m tapewatch lsp from the tool folder with PYTHONPATH first', () => {
    const launch = serverLaunch('/envs/warp/bin/python', code, { PATH: '/usr/bin', PYTHONPATH: '/user/lib', SKIP: undefined }, ':');
    assert.equal(launch.command, '/envs/warp/bin/python');
    assert.deepEqual(launch.args, ['-m', 'tapewatch', 'lsp']);
    assert.equal(launch.cwd, '/ext/b/tool');
    assert.equal(launch.env.PYTHONPATH, '/ext/b/tool:/ext/b/libs:/user/lib');
    assert.equal(launch.env.PATH, '/usr/bin');
    assert.equal(launch.env.PYTHONUNBUFFERED, '1');
    assert.equal('SKIP' in launch.env, false);
  });

  it('describes the launch for the log', () => {
    const launch = serverLaunch('/my envs/python', code, {}, ':');
    assert.equal(describeLaunch(launch), '"/my envs/python" -m tapewatch lsp (cwd /ext/b/tool, PYTHONPATH=/ext/b/tool:/ext/b/libs)');
  });
});
