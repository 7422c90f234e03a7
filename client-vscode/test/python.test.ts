import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { activeEnvironment, chooseInterpreter, runInterpreter, type PythonExtensionApi } from '../src/common/python';

const env39 = { path: '/envs/warp/bin/python', version: { major: 3, minor: 12 } };

describe('interpreter choice', () => {
  it('prefers the tapewatch.interpreter setting', () => {
    const c = chooseInterpreter({ setting: '/opt/py/bin/python', pythonExtension: env39, trusted: true, platform: 'linux' });
    assert.deepEqual([c.command, c.source], ['/opt/py/bin/python', 'setting']);
    assert.equal(runInterpreter(c), '/opt/py/bin/python');
  });

  it("then the Python extension's active environment", () => {
    const c = chooseInterpreter({ setting: '  ', pythonExtension: env39, trusted: true, platform: 'linux' });
    assert.deepEqual([c.command, c.source], ['/envs/warp/bin/python', 'python-extension']);
    assert.equal(runInterpreter(c), '/envs/warp/bin/python');
  });

  it('then python3 on PATH (python on Windows), with no Python extension', () => {
    const c = chooseInterpreter({ trusted: true, platform: 'linux' });
    assert.deepEqual([c.command, c.source, c.notes], ['python3', 'path', []]);
    assert.equal(runInterpreter(c), undefined);
    assert.equal(chooseInterpreter({ trusted: true, platform: 'win32' }).command, 'python');
  });

  it("skips an environment older than Python 3.9", () => {
    const c = chooseInterpreter({ pythonExtension: { path: '/old/python', version: { major: 3, minor: 8 } }, trusted: true, platform: 'linux' });
    assert.equal(c.source, 'path');
    assert.match(c.notes[0], /Python 3\.8; Tapewatch needs 3\.9/);
  });

  it("ignores the Python extension's environment in an untrusted workspace", () => {
    const c = chooseInterpreter({ pythonExtension: env39, trusted: false, platform: 'linux' });
    assert.equal(c.source, 'path');
    assert.match(c.notes[0], /untrusted/);
  });
});

describe("the Python extension's API", () => {
  it('resolves the active environment to an executable and version', async () => {
    const api: PythonExtensionApi = {
      environments: {
        getActiveEnvironmentPath: () => ({ id: 'x', path: '/envs/warp' }),
        resolveEnvironment: async () => ({ executable: { uri: { fsPath: '/envs/warp/bin/python' } }, version: { major: 3, minor: 11, micro: 4 } }),
      },
    };
    assert.deepEqual(await activeEnvironment(api), { path: '/envs/warp/bin/python', version: { major: 3, minor: 11, micro: 4 } });
  });

  it('falls back to the reported path when resolving gives nothing', async () => {
    const api: PythonExtensionApi = {
      environments: { getActiveEnvironmentPath: () => ({ id: 'x', path: '/usr/bin/python3' }), resolveEnvironment: async () => undefined },
    };
    assert.deepEqual(await activeEnvironment(api), { path: '/usr/bin/python3', version: undefined });
  });

  it('is undefined without the extension, with an old API, or when it throws', async () => {
    assert.equal(await activeEnvironment(undefined), undefined);
    assert.equal(await activeEnvironment({}), undefined);
    const throwing: PythonExtensionApi = {
      environments: {
        getActiveEnvironmentPath: () => {
          throw new Error('boom');
        },
        resolveEnvironment: async () => undefined,
      },
    };
    assert.equal(await activeEnvironment(throwing), undefined);
  });
});
