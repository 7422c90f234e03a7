import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDeviceList } from '../shared/protocol';
import { deviceNameProblem, devicePick } from '../src/devicePick';

const labels = (items: { label: string }[]) => items.map((i) => i.label);

describe('Select Device', () => {
  it('says what it is choosing, with the Warp version and the interpreter it asked', () => {
    const list = parseDeviceList({ devices: ['cpu', 'cuda:0', 'cuda:1'], warp_version: '1.19.0' });
    const view = devicePick('cuda:1', { trusted: true, interpreter: '/venv/bin/python', list });
    assert.equal(view.title, 'Warp device for verification runs (tapewatch.device)');
    assert.equal(view.placeHolder, 'Warp 1.19.0 in /venv/bin/python: pick the device runs use.');
    assert.deepEqual(view.items, [{ label: 'cpu' }, { label: 'cuda:0' }, { label: 'cuda:1', description: 'current' }, { label: 'Other…', description: 'type a device name (cpu, cuda:N)' }]);
  });

  it('offers only Warp device names, and keeps a current one the interpreter did not report', () => {
    const list = parseDeviceList({ devices: ['cpu', 'tpu', 'cuda:x'], warp_version: '1.19.0' });
    const view = devicePick('cuda:3', { trusted: true, interpreter: 'python3', list });
    assert.deepEqual(labels(view.items), ['cpu', 'cuda:3', 'Other…']);
    assert.equal(view.items[1].description, 'current, not reported by this interpreter');
    // An invalid setting is not offered back.
    assert.deepEqual(labels(devicePick('gpu0', { trusted: true, list }).items), ['cpu', 'Other…']);
  });

  it('says why it could not list devices in a trusted workspace', () => {
    const list = parseDeviceList({ devices: [], warp_version: null, error: "Warp cannot be imported in /usr/bin/python3 (ModuleNotFoundError: No module named 'warp')." });
    const view = devicePick('cpu', { trusted: true, interpreter: '/usr/bin/python3', list });
    assert.equal(view.placeHolder, "Could not list devices: Warp cannot be imported in /usr/bin/python3 (ModuleNotFoundError: No module named 'warp').");
    assert.doesNotMatch(view.placeHolder, /Untrusted/);
    assert.deepEqual(labels(view.items), ['cpu', 'cuda:0', 'Other…']);
    assert.equal(devicePick('cpu', { trusted: true, error: 'The Tapewatch server is not running' }).placeHolder, 'Could not list devices: The Tapewatch server is not running');
    assert.equal(devicePick('cpu', { trusted: true, interpreter: 'py', list: { devices: [], warp_version: '1.19.0' } }).placeHolder, 'py reported no Warp devices.');
  });

  it('says Untrusted only in an untrusted workspace', () => {
    assert.match(devicePick('cpu', { trusted: false }).placeHolder, /^Untrusted workspace/);
  });

  it('validates a typed device name', () => {
    for (const ok of ['cpu', 'cuda', 'cuda:0', 'cuda:12', ' cuda:1 ']) {
      assert.equal(deviceNameProblem(ok), undefined, ok);
    }
    assert.equal(deviceNameProblem('gpu'), '"gpu" is not a Warp device: use cpu, cuda or cuda:N (cuda:0, cuda:1, ...).');
    for (const bad of ['CUDA:0', 'cuda:', 'cuda:-1', 'cpu:0', 'cuda 0']) {
      assert.ok(deviceNameProblem(bad), bad);
    }
    assert.equal(deviceNameProblem(''), 'Type a Warp device: cpu, cuda or cuda:N.');
  });
});

describe('Select Device on a machine without a GPU', () => {
  it('says there is no GPU, and Other… refuses a device the interpreter does not have', () => {
    const list = parseDeviceList({ devices: ['cpu'], warp_version: '1.19.0' });
    const view = devicePick('cpu', { trusted: true, interpreter: '/v/bin/python', list });
    assert.equal(view.placeHolder, 'Warp 1.19.0 in /v/bin/python: pick the device runs use. No GPU: Warp sees no CUDA device on this machine, runs use the CPU.');
    assert.deepEqual(view.listed, ['cpu']);
    assert.equal(deviceNameProblem('cuda:0', view.listed), 'The interpreter has no device "cuda:0": it reports cpu (no GPU: Warp sees no CUDA device here).');
    assert.equal(deviceNameProblem('cpu', view.listed), undefined);
    // With GPUs: "cuda" is the current one; an absent index is refused.
    assert.equal(deviceNameProblem('cuda', ['cpu', 'cuda:0']), undefined);
    assert.equal(deviceNameProblem('cuda:3', ['cpu', 'cuda:0']), 'The interpreter has no device "cuda:3": it reports cpu, cuda:0.');
    // Unknown devices (the interpreter could not be asked): any Warp name goes.
    assert.equal(deviceNameProblem('cuda:3', []), undefined);
  });
});
