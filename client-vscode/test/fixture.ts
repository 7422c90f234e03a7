// The tape-graph fixture shared by the unit and webview tests.
// TAPEWATCH_GRAPH_FIXTURE points at another `tapewatch/tapeGraph` result (a real capture).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

export const FIXTURE_PATH = process.env.TAPEWATCH_GRAPH_FIXTURE || path.join(__dirname, '..', '..', 'tests', 'webview', 'fixtures', 'graph.json');

export function loadFixture(): unknown {
  return JSON.parse(readFileSync(FIXTURE_PATH, 'utf8'));
}
