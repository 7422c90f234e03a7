import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { graphMentionsPath, parseHostMessage, parseWebviewMessage } from '../shared/messages';
import { parseTapeGraphResult } from '../shared/protocol';
import { loadFixture } from './fixture';

describe('webview → host messages', () => {
  it('accepts ready, run and well-formed navigate', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseWebviewMessage({ type: 'run', extra: 1 }), { type: 'run' });
    assert.deepEqual(parseWebviewMessage({ type: 'navigate', path: '/a/b.py', line: 3, column: 5 }), {
      type: 'navigate',
      path: '/a/b.py',
      line: 3,
      column: 5,
    });
    assert.deepEqual(parseWebviewMessage({ type: 'navigate', path: '/a/b.py', line: 3 }), { type: 'navigate', path: '/a/b.py', line: 3, column: 1 });
  });

  it('rejects anything else', () => {
    for (const bad of [
      null,
      'navigate',
      [],
      { type: 'exec', command: 'rm' },
      { type: 'navigate', path: '', line: 1 },
      { type: 'navigate', path: '/a.py', line: 0 },
      { type: 'navigate', path: '/a.py', line: 1.5 },
      { type: 'navigate', path: '/a.py', line: '3' },
      { type: 'navigate', path: '/a\0.py', line: 1 },
      { type: 'navigate', path: 5, line: 1 },
    ]) {
      assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
    }
  });
});

describe('host → webview messages', () => {
  it('parses a graph message with the fixture and a null result', () => {
    const msg = parseHostMessage({ type: 'graph', uri: 'file:///x.py', title: 'x.py', result: loadFixture() });
    assert.equal(msg?.type, 'graph');
    assert.ok(msg?.type === 'graph' && msg.result && msg.result.tapes.length >= 1);
    assert.deepEqual(parseHostMessage({ type: 'graph', uri: 'file:///x.py', result: null }), {
      type: 'graph',
      uri: 'file:///x.py',
      title: '',
      result: null,
    });
  });

  it('rejects malformed ones', () => {
    assert.equal(parseHostMessage({ type: 'graph', uri: 'file:///x.py', result: { tapes: 'no' } }), undefined);
    assert.equal(parseHostMessage({ type: 'graph', result: null }), undefined);
    assert.equal(parseHostMessage({ type: 'notice' }), undefined);
    assert.deepEqual(parseHostMessage({ type: 'notice', text: 'hi' }), { type: 'notice', text: 'hi' });
  });
});

describe('navigation is limited to files the graph mentions', () => {
  const result = parseTapeGraphResult(loadFixture())!;
  it('allows node and finding locations', () => {
    const node = result.tapes[0].nodes.find((n) => n.location)!;
    assert.equal(graphMentionsPath(result, node.location!.path), true);
  });
  it('refuses other files', () => {
    assert.equal(graphMentionsPath(result, '/etc/passwd'), false);
    assert.equal(graphMentionsPath(null, '/etc/passwd'), false);
  });
});
