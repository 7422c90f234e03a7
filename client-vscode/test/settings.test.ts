import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { didChangeConfigurationParams, expandVariables, initializationOptions, resolveSettings, type SettingsContext } from '../src/common/settings';

const ctx: SettingsContext = { workspaceFolder: '/ws/proj', userHome: '/home/u', env: { CUDA_HOME: '/opt/cuda' }, trusted: true };

describe('settings', () => {
  it('passes valid values through, trimmed and typed', () => {
    const { settings, problems } = resolveSettings(
      { interpreter: ' /usr/bin/python3 ', device: 'cuda:0', timeout: 30, cwd: '', args: ['--steps', '4'], env: { A: '1' }, runOnSave: true, lint: false },
      ctx,
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(settings, {
      interpreter: '/usr/bin/python3',
      device: 'cuda:0',
      timeout: 30,
      args: ['--steps', '4'],
      env: { A: '1' },
      runOnSave: true,
      lint: false,
    });
  });

  it('leaves unset and empty values out so the server uses its defaults', () => {
    const { settings, problems } = resolveSettings({ interpreter: '', cwd: '  ' }, ctx);
    assert.deepEqual(settings, {});
    assert.deepEqual(problems, []);
  });

  it('reports and drops invalid values', () => {
    const { settings, problems } = resolveSettings(
      { device: 'cuda 0; rm -rf', timeout: -1, args: ['ok', 3], env: { 'BAD NAME': 'x', N: 5, OK: 'y' }, runOnSave: 'yes', lint: 1, cwd: 7 },
      ctx,
    );
    assert.deepEqual(settings, { env: { OK: 'y' } });
    assert.equal(problems.length, 8);
    assert.match(problems.join('\n'), /tapewatch\.device/);
    assert.match(problems.join('\n'), /tapewatch\.timeout: expected a number of seconds greater than 0/);
    assert.match(problems.join('\n'), /"BAD NAME" is not a variable name/);
  });

  it('expands ${workspaceFolder}, ${userHome}, ${env:NAME} and ~', () => {
    const { settings } = resolveSettings(
      {
        interpreter: '${workspaceFolder}/.venv/bin/python',
        cwd: '~/runs',
        args: ['--out', '${workspaceFolderBasename}-${env:CUDA_HOME}'],
        env: { LIB: '${env:CUDA_HOME}/lib:${env:UNSET}' },
      },
      ctx,
    );
    assert.equal(settings.interpreter, '/ws/proj/.venv/bin/python');
    assert.equal(settings.cwd, '/home/u/runs');
    assert.deepEqual(settings.args, ['--out', 'proj-/opt/cuda']);
    assert.deepEqual(settings.env, { LIB: '/opt/cuda/lib:' });
  });

  it('keeps ${workspaceFolder} without a folder and says so', () => {
    const problems: string[] = [];
    assert.equal(expandVariables('${workspaceFolder}/x', { userHome: '/h', env: {} }, problems), '${workspaceFolder}/x');
    assert.equal(problems.length, 1);
    assert.equal(expandVariables('${nope}', { userHome: '/h', env: {} }, problems), '${nope}');
    assert.match(problems[1], /unknown variable/);
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
