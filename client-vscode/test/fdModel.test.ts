/**
 * A launch check's (TW404) compared derivatives: parsed from the finding's
 * `data` (docs/protocol.md), defensively, and grouped into one Jacobian
 * picture per (output, input) pair with its colour scales.
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFinding, type Finding } from '../shared/protocol';
import { cotangentText, divergingCell, fdEvidence, fmtPrecise, jacobianPanels, sequentialCell, type LaunchEvidence } from '../webview/fdModel';

function tw404(data: Record<string, unknown>): Finding {
  return parseFinding({ id: 'l', code: 'TW404', severity: 'error', message: 'm', data })!;
}

/** What the server sends since samples exist: the worst derivative and every compared one. */
const DATA = {
  kernel: 'integrate',
  input: 'v',
  output: 'x',
  element: 5,
  ad: 0.75,
  fd: 0.25,
  max_abs_error: 0.5,
  checked: 6,
  failed: 2,
  cotangent: 'random',
  samples: [
    { input: 'v', output: 'x', element: 5, ad: 0.75, fd: 0.25, ok: false },
    { input: 'v', output: 'x', element: 1, ad: -0.5, fd: -0.5000001, ok: true },
    { input: 'w', output: 'x', element: 0, ad: 1, fd: 1, ok: true },
    { input: 'v', output: 'x', element: 9, ad: 0, fd: 0.1, ok: false },
    { input: 'w', output: 'loss', element: 2, ad: 2, fd: 2, ok: true },
    { output: 'x', element: 3, ad: null, fd: 0.2, ok: false },
  ],
};

function launch(data: Record<string, unknown>): LaunchEvidence {
  const ev = fdEvidence(tw404(data));
  assert.equal(ev?.kind, 'launch');
  return ev as LaunchEvidence;
}

describe('launch check samples (TW404)', () => {
  it('reads every compared derivative and the cotangent', () => {
    const ev = launch(DATA);
    assert.equal(ev.samples.length, 6);
    assert.deepEqual(ev.samples[0], { input: 'v', output: 'x', element: 5, ad: 0.75, fd: 0.25, ok: false });
    assert.equal(ev.cotangent, 'random');
    // a sample without its labels takes the finding's; a missing number is "not finite"
    assert.deepEqual(ev.samples[5], { input: 'v', output: 'x', element: 3, ad: null, fd: 0.2, ok: false });
    // the worst derivative is still there, for the caption and the fallback
    assert.deepEqual([ev.input, ev.output, ev.element, ev.ad, ev.fd, ev.checked, ev.failed], ['v', 'x', 5, 0.75, 0.25, 6, 2]);
  });

  it('drops malformed samples and cotangents', () => {
    const ev = launch({
      ...DATA,
      cotangent: 'sideways',
      samples: [null, 3, 'x', { element: 1.5, ad: 1, fd: 1, ok: true }, { element: '2', ad: 1, fd: 1 }, { input: 7, output: [], element: 4, ad: 'a', fd: Infinity, ok: 'yes' }],
    });
    assert.equal(ev.cotangent, null);
    // only the one with an integer element survives; its bad fields are defaults
    assert.deepEqual(ev.samples, [{ input: 'v', output: 'x', element: 4, ad: null, fd: null, ok: false }]);
    assert.deepEqual(launch({ ...DATA, samples: 'all of them' }).samples, []);
    assert.deepEqual(launch({ ...DATA, samples: { 0: DATA.samples[0] } }).samples, []);
  });

  it('an older finding without samples keeps its worst derivative', () => {
    const old: Record<string, unknown> = { ...DATA };
    delete old.samples;
    delete old.cotangent;
    const ev = launch(old);
    assert.deepEqual(ev.samples, []);
    assert.equal(ev.cotangent, null);
    assert.equal(ev.ad, 0.75);
  });

  it('samples alone are enough, and nothing at all is no picture', () => {
    const ev = launch({ cotangent: 'ones', samples: [{ input: 't', output: 'loss', element: 0, ad: 1, fd: 1, ok: true }] });
    assert.deepEqual([ev.input, ev.output, ev.ad, ev.samples.length, ev.cotangent], ['?', '?', null, 1, 'ones']);
    assert.equal(fdEvidence(tw404({ kernel: 'k', samples: [{ element: 'x' }] })), undefined);
    assert.equal(fdEvidence(tw404({ kernel: 'k' })), undefined);
    // samples on another code are not a launch check's
    assert.equal(fdEvidence({ ...tw404(DATA), code: 'TW101' }), undefined);
  });
});

describe('Jacobian pictures of a launch check', () => {
  const panels = jacobianPanels(launch(DATA));

  it('one panel per (output, input) pair, the ones that disagree first, columns in element order', () => {
    assert.deepEqual(
      panels.map((p) => [p.output, p.input, p.columns.map((c) => c.element)]),
      [
        ['x', 'v', [1, 3, 5, 9]],
        ['x', 'w', [0]],
        ['loss', 'w', [2]],
      ],
    );
    assert.deepEqual(
      panels.map((p) => p.summary),
      ['d x/d v: 4 elements compared, 3 disagree', 'd x/d w: 1 element compared, none disagrees', 'd loss/d w: 1 element compared, none disagrees'],
    );
    const one = jacobianPanels(launch({ ...DATA, samples: DATA.samples.slice(0, 3) }));
    assert.equal(one[0].summary, 'd x/d v: 2 elements compared, 1 disagrees');
  });

  it('marks the disagreeing elements and the worst one, with the exact numbers on hover', () => {
    const [xv] = panels;
    assert.deepEqual(xv.columns.map((c) => c.ok), [true, false, false, false]);
    assert.deepEqual(xv.columns.map((c) => c.worst), [false, false, true, false]);
    assert.equal(xv.columns[2].title, 'd x/d v[5]: AD 0.75, FD 0.25, |AD − FD| 0.5 — disagrees (the worst)');
    assert.equal(xv.columns[0].title, 'd x/d v[1]: AD -0.5, FD -0.5000001, |AD − FD| 1e-7');
    assert.equal(xv.columns[1].title, 'd x/d v[3]: AD not finite, FD 0.2, |AD − FD| not finite — disagrees');
  });

  it('colours AD and FD on one diverging scale and the difference on a sequential one', () => {
    const [xv] = panels;
    assert.equal(xv.span, 0.75); // the largest |AD| or |FD| of the pair
    assert.equal(xv.diffSpan, 0.75); // never below the values' span: rounding noise stays pale
    const five = xv.columns[2];
    assert.deepEqual(five.ad, { value: 0.75, tone: 'pos', alpha: 1 });
    assert.deepEqual(five.fd, { value: 0.25, tone: 'pos', alpha: 1 / 3 });
    assert.deepEqual(five.diff, { value: 0.5, tone: 'pos', alpha: 0.5 / 0.75 });
    const one = xv.columns[0];
    assert.equal(one.ad.tone, 'neg');
    assert.ok(one.diff.alpha < 1e-6);
    assert.deepEqual(xv.columns[3].ad, { value: 0, tone: 'zero', alpha: 0 });
    assert.deepEqual(xv.columns[1].ad, { value: null, tone: 'nonfinite', alpha: 0 });
    assert.deepEqual(xv.columns[1].diff, { value: null, tone: 'nonfinite', alpha: 0 });
    // a difference larger than every value ends the sequential scale
    const flip = jacobianPanels(launch({ ...DATA, samples: [{ input: 'a', output: 'b', element: 0, ad: 1, fd: -1, ok: false }] }))[0];
    assert.deepEqual([flip.span, flip.diffSpan, flip.columns[0].diff.alpha, flip.columns[0].fd.tone], [1, 2, 1, 'neg']);
  });

  it('scales that are all zero colour nothing', () => {
    assert.deepEqual(divergingCell(0, 0), { value: 0, tone: 'zero', alpha: 0 });
    assert.deepEqual(sequentialCell(3, 0), { value: 3, tone: 'zero', alpha: 0 });
    assert.deepEqual(divergingCell(-4, 2), { value: -4, tone: 'neg', alpha: 1 });
  });

  it('says what the numbers are for each cotangent', () => {
    assert.match(cotangentText('ones'), /d output\/d input\[element\]/);
    assert.match(cotangentText('random'), /projected on a random output direction/);
    assert.match(cotangentText(null), /derivative/);
    assert.equal(fmtPrecise(0.30000001192092896), '0.3');
    assert.equal(fmtPrecise(null), 'not finite');
  });
});
