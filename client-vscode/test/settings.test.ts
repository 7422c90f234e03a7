import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { didChangeConfigurationParams, expandVariables, initializationOptions, isUnset, resolveSettings, type SettingsContext } from '../src/common/settings';

const ctx: SettingsContext = { workspaceFolder: '/ws/proj', userHome: '/home/u', env: { CUDA_HOME: '/opt/cuda' }, trusted: true };

// Validation is the server's (tests/lsp/test_settings.py holds the cases this file used to check).
describe('settings', () => {
  it('passes values through, the interpreter trimmed for the client itself', () => {
    const { settings, interpreter, problems } = resolveSettings(
      { interpreter: ' /usr/bin/python3 ', device: 'cuda:0', timeout: 30, cwd: '', args: ['--steps', '4'], env: { A: '1' }, runOnSave: true, lint: false },
      ctx,
    );
    assert.deepEqual(problems, []);
    assert.equal(interpreter, '/usr/bin/python3');
    assert.deepEqual(settings, {
      interpreter: '/usr/bin/python3',
      device: 'cuda:0',
      timeout: 30,
      cwd: '',
      args: ['--steps', '4'],
      env: { A: '1' },
      runOnSave: true,
      lint: false,
    });
  });

  it('leaves unset keys out; blank ones go to the server, which uses its defaults', () => {
    const { settings, interpreter, problems } = resolveSettings({ interpreter: '', cwd: '  ', device: undefined }, ctx);
    assert.deepEqual(settings, { interpreter: '', cwd: '' });
    assert.equal(interpreter, undefined);
    assert.deepEqual(problems, []);
    assert.ok(isUnset(settings.interpreter) && isUnset(null) && isUnset(undefined) && isUnset('  '));
    assert.ok(!isUnset(42) && !isUnset('python3'));
  });

  it('sends invalid values unchanged, for the server to report', () => {
    const raw = {
      device: 'cuda 0; rm -rf',
      timeout: -1,
      args: ['ok', 3],
      env: { 'BAD NAME': 'x', N: 5, OK: 'y' },
      runOnSave: 'yes',
      lint: 1,
      cwd: 7,
      interpreter: 42,
    };
    const { settings, interpreter, problems } = resolveSettings(raw, ctx);
    assert.deepEqual(settings, raw);
    assert.deepEqual(problems, []);
    assert.equal(interpreter, undefined, 'the client cannot start the server with 42: it uses its usual choice');
  });

  it('expands ${workspaceFolder}, ${userHome}, ${env:NAME} and ~', () => {
    const { settings, interpreter } = resolveSettings(
      {
        interpreter: '${workspaceFolder}/.venv/bin/python',
        cwd: '~/runs',
        args: ['--out', '${workspaceFolderBasename}-${env:CUDA_HOME}', ' ${userHome} '],
        env: { LIB: '${env:CUDA_HOME}/lib:${env:UNSET}', N: 5 },
      },
      ctx,
    );
    assert.equal(interpreter, '/ws/proj/.venv/bin/python');
    assert.equal(settings.interpreter, '/ws/proj/.venv/bin/python');
    assert.equal(settings.cwd, '/home/u/runs');
    // Arguments keep their blanks; values that are not strings pass untouched.
    assert.deepEqual(settings.args, ['--out', 'proj-/opt/cuda', ' /home/u ']);
    assert.deepEqual(settings.env, { LIB: '/opt/cuda/lib:', N: 5 });
  });

  it('keeps ${workspaceFolder} without a folder and says so', () => {
    const problems: string[] = [];
    assert.equal(expandVariables('${workspaceFolder}/x', { userHome: '/h', env: {} }, problems), '${workspaceFolder}/x');
    assert.equal(problems.length, 1);
    assert.equal(expandVariables('${nope}', { userHome: '/h', env: {} }, problems), '${nope}');
    assert.match(problems[1], /unknown variable/);
    const resolved = resolveSettings({ cwd: '${workspaceFolder}/runs' }, { userHome: '/h', env: {}, trusted: true });
    assert.deepEqual(resolved.problems, ['tapewatch.cwd: ${workspaceFolder} used without a workspace folder']);
  });

  it('never lets the server run on save in an untrusted workspace', () => {
    assert.equal(resolveSettings({ runOnSave: true }, { ...ctx, trusted: false }).settings.runOnSave, false);
    assert.equal(resolveSettings({}, { ...ctx, trusted: false }).settings.runOnSave, false);
    assert.equal(resolveSettings({}, ctx).settings.runOnSave, undefined);
  });

  it('wraps settings in the shapes of docs/protocol.md', () => {
    assert.deepEqual(initializationOptions({ device: 'cpu' }), { settings: { device: 'cpu' } });
    assert.deepEqual(didChangeConfigurationParams({ device: 'cpu' }), { settings: { tapewatch: { device: 'cpu' } } });
  });
});
