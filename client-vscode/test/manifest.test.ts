import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { Commands, ServerCommands } from '../src/common/constants';
import { CLIENT_SETTING_KEYS, SETTING_KEYS } from '../src/common/settings';

const ROOT = path.join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** Whether .vscodeignore (everything excluded, then `!` lines) lets `file` into the .vsix. */
function shipped(file: string): boolean {
  const patterns = readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('!'))
    .map((l) => new RegExp(`^${l.slice(1).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '.*').replace(/(?<!\.)\*/g, '[^/]*')}$`));
  return patterns.some((re) => re.test(file));
}

describe('package.json (the extension manifest)', () => {
  it('contributes every client command, and no server-only command', () => {
    const contributed: string[] = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
    assert.deepEqual(contributed, Object.values(Commands).sort());
    assert.equal(contributed.some((c) => c === String(ServerCommands.listDevices)), false);
  });

  it('contributes exactly the settings the client sends and the ones it reads itself', () => {
    const keys = Object.keys(manifest.contributes.configuration.properties).sort();
    assert.deepEqual(keys, [...SETTING_KEYS, ...CLIENT_SETTING_KEYS].map((k) => `tapewatch.${k}`).sort());
  });

  it('orders the settings: the interpreter and the device first, then the notifications', () => {
    const props: Record<string, { order?: number }> = manifest.contributes.configuration.properties;
    const byOrder = Object.entries(props).sort(([, a], [, b]) => (a.order ?? 99) - (b.order ?? 99)).map(([k]) => k);
    assert.ok(Object.values(props).every((p) => typeof p.order === 'number'), 'every setting has an order');
    assert.deepEqual(byOrder.slice(0, 3), ['tapewatch.interpreter', 'tapewatch.device', 'tapewatch.showNotifications']);
    assert.deepEqual(props['tapewatch.showNotifications'], { ...props['tapewatch.showNotifications'], type: 'string', enum: ['off', 'onError', 'onWarning', 'always'], default: 'always' });
  });

  it('contributes Tapewatch: Show Output', () => {
    const cmd = manifest.contributes.commands.find((c: { command: string }) => c.command === 'tapewatch.showOutput');
    assert.equal(`${cmd.category}: ${cmd.title}`, 'Tapewatch: Show Output');
  });

  it('ticks the walkthrough\'s steps on what really happened (an interpreter with Warp, a run that verified)', () => {
    const steps: { id: string; completionEvents: string[] }[] = manifest.contributes.walkthroughs[0].steps;
    const events = (id: string) => steps.find((s) => s.id === id)?.completionEvents;
    assert.ok(events('interpreter')?.includes('onContext:tapewatch.interpreterReady'));
    assert.deepEqual(events('run'), ['onContext:tapewatch.verified']);
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

  it('has a 128x128 PNG icon that ships', () => {
    const png = readFileSync(path.join(ROOT, manifest.icon));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    assert.ok(shipped(manifest.icon), `${manifest.icon} is in the .vsix`);
  });

  it('walks a new user through the first hour, each step with a shipped page', () => {
    const [walkthrough] = manifest.contributes.walkthroughs;
    const steps = walkthrough.steps as { id: string; description: string; media: { markdown: string } }[];
    assert.deepEqual(
      steps.map((st) => st.id),
      ['interpreter', 'run', 'finding', 'harness', 'graph'],
    );
    for (const st of steps) {
      assert.ok(existsSync(path.join(ROOT, st.media.markdown)), st.media.markdown);
      assert.ok(shipped(st.media.markdown), `${st.media.markdown} is in the .vsix`);
    }
    assert.match(steps[0].description, /command:workbench\.action\.openSettings\?%5B%22tapewatch\.interpreter%22%5D/);
    assert.match(steps[3].description, /command:tapewatch\.generateHarness/);
    assert.match(steps[4].description, /command:tapewatch\.showTapeGraph/);
  });

  it('packs the users\' readme, with its pictures inlined, not the repository\'s README', () => {
    assert.match(manifest.scripts.package, /--readme-path client-vscode\/out\/README\.md/);
    assert.match(manifest.scripts['vscode:prepublish'], /vsix-readme\.mjs/);
    assert.equal(shipped('README.md'), false);
    assert.equal(shipped('client-vscode/src/extension.ts'), false);
    // Every picture of the users' readme exists (the packing inlines it).
    const readme = readFileSync(path.join(ROOT, 'client-vscode', 'README.md'), 'utf8');
    const pictures = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]);
    assert.ok(pictures.length >= 3);
    for (const pic of pictures) {
      assert.ok(existsSync(path.join(ROOT, 'client-vscode', pic)), pic);
    }
    // Links that would not open from the extension page: none.
    assert.deepEqual([...readme.matchAll(/(?<!!)\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]).filter((l) => !/^https?:/.test(l)), []);
  });
});
