import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DynamicFeature, ExecuteCommandRegistrationOptions, RegistrationData, ServerCapabilities } from 'vscode-languageclient';
import { actionsForTrust, ExecuteCommandsExcept } from '../src/common/commandFilter';
import { Commands, ServerCommands } from '../src/common/constants';

/** Records what vscode-languageclient's ExecuteCommandFeature would register. */
function fakeFeature() {
  const registered: string[][] = [];
  const feature = {
    registrationType: { method: 'workspace/executeCommand' },
    fillClientCapabilities: (caps: Record<string, unknown>) => {
      caps.workspace = { executeCommand: { dynamicRegistration: true } };
    },
    getState: () => ({ kind: 'workspace', id: 'workspace/executeCommand', registrations: registered.length > 0 }),
    initialize(caps: ServerCapabilities) {
      if (caps.executeCommandProvider) {
        this.register({ id: 'init', registerOptions: { ...caps.executeCommandProvider } });
      }
    },
    register: (data: RegistrationData<ExecuteCommandRegistrationOptions>) => registered.push(data.registerOptions.commands ?? []),
    unregister: () => undefined,
    clear: () => undefined,
  };
  return { feature: feature as unknown as DynamicFeature<ExecuteCommandRegistrationOptions>, registered };
}

describe('server command registration', () => {
  const serverAdvertises = [ServerCommands.runVerification, ServerCommands.listDevices, 'tapewatch.showDocumentation', ServerCommands.generateHarness];

  it("skips the ids the extension registers itself and keeps the server's others", () => {
    const { feature, registered } = fakeFeature();
    const filter = new ExecuteCommandsExcept(feature, new Set(Object.values(Commands)));
    filter.initialize({ executeCommandProvider: { commands: serverAdvertises } }, undefined);
    assert.deepEqual(registered, [[ServerCommands.listDevices, 'tapewatch.showDocumentation']]);
    filter.register({ id: 'dyn', registerOptions: { commands: [ServerCommands.generateHarness, 'tapewatch.other'] } });
    assert.deepEqual(registered[1], ['tapewatch.other']);
  });

  it('still declares the executeCommand capability', () => {
    const { feature } = fakeFeature();
    const caps: Record<string, unknown> = {};
    new ExecuteCommandsExcept(feature, new Set()).fillClientCapabilities(caps);
    assert.deepEqual(caps, { workspace: { executeCommand: { dynamicRegistration: true } } });
  });

  it('covers every server command that package.json also contributes', () => {
    const owned = new Set<string>(Object.values(Commands));
    const clashing = Object.values(ServerCommands).filter((c) => owned.has(c));
    assert.deepEqual(
      clashing.sort(),
      [ServerCommands.bisect, ServerCommands.clearDiagnostics, ServerCommands.compareWithPrevious, ServerCommands.generateHarness, ServerCommands.runVerification].sort(),
    );
  });
});

describe('code actions in an untrusted workspace', () => {
  it('drops the ones that run the workspace\'s code, keeps the others', () => {
    const actions = [
      { title: 'Generate FD harness', command: { title: 'g', command: 'tapewatch.generateHarness', arguments: ['file:///a.py'] } },
      { title: 'Show documentation for TW101', command: { title: 'd', command: 'tapewatch.showDocumentation', arguments: ['TW101'] } },
      { title: 'a bare command', command: 'tapewatch.runVerification' },
      { title: 'an edit' },
    ];
    assert.deepEqual(actionsForTrust(actions, true), actions);
    assert.deepEqual(
      actionsForTrust(actions, false).map((a) => a.title),
      ['Show documentation for TW101', 'an edit'],
    );
  });
});
