import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { opensWalkthrough, WALKTHROUGH_ID } from '../src/welcomeModel';

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));

describe('the walkthrough on the first activation', () => {
  const fresh = { activatedBefore: false, interpreterSetting: undefined, openOnInstall: true };

  it('opens for a new user who has not set tapewatch.interpreter', () => {
    assert.equal(opensWalkthrough(fresh), true);
    assert.equal(opensWalkthrough({ ...fresh, interpreterSetting: '  ' }), true);
  });

  it('opens once: never on a later activation', () => {
    assert.equal(opensWalkthrough({ ...fresh, activatedBefore: true }), false);
  });

  it('does not open for a user who already chose the interpreter', () => {
    assert.equal(opensWalkthrough({ ...fresh, interpreterSetting: '${workspaceFolder}/.venv/bin/python' }), false);
  });

  it('follows VS Code\'s workbench.welcomePage.walkthroughs.openOnInstall', () => {
    assert.equal(opensWalkthrough({ ...fresh, openOnInstall: false }), false);
  });

  it('names the walkthrough the manifest contributes', () => {
    assert.equal(WALKTHROUGH_ID, `${manifest.publisher}.${manifest.name}#${manifest.contributes.walkthroughs[0].id}`);
  });
});
