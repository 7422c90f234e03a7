import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { Commands, ServerCommands } from '../src/common/constants';
import { SETTING_KEYS } from '../src/common/settings';

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));

describe('package.json (the extension manifest)', () => {
  it('contributes every client command, and no server-only command', () => {
    const contributed: string[] = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
    assert.deepEqual(contributed, Object.values(Commands).sort());
    assert.equal(contributed.some((c) => c === String(ServerCommands.listDevices)), false);
  });

  it('contributes exactly the settings the client sends', () => {
    const keys = Object.keys(manifest.contributes.configuration.properties).sort();
    assert.deepEqual(keys, SETTING_KEYS.map((k) => `tapewatch.${k}`).sort());
  });

  it('declares limited support for untrusted workspaces and none for virtual ones', () => {
    const caps = manifest.capabilities;
    assert.equal(caps.virtualWorkspaces, false);
    assert.equal(caps.untrustedWorkspaces.supported, 'limited');
    assert.deepEqual(caps.untrustedWorkspaces.restrictedConfigurations.sort(), [
      'tapewatch.args',
      'tapewatch.cwd',
      'tapewatch.env',
      'tapewatch.interpreter',
    ]);
  });

  it('puts Run Verification in the editor title and context menus of Python files', () => {
    const title = manifest.contributes.menus['editor/title'].find((m: { command: string }) => m.command === Commands.runVerification);
    assert.match(title.when, /resourceLangId == python/);
    const context = manifest.contributes.menus['editor/context'].find((m: { command: string }) => m.command === Commands.runVerification);
    assert.match(context.when, /editorLangId == python/);
  });
});
