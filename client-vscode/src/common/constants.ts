/** Identifiers shared by package.json, the client and the server (docs/protocol.md). */

export const EXTENSION_NAME = 'Tapewatch';

/** Commands the user invokes (package.json `contributes.commands`). */
export const Commands = {
  runVerification: 'tapewatch.runVerification',
  showTapeGraph: 'tapewatch.showTapeGraph',
  selectDevice: 'tapewatch.selectDevice',
  generateHarness: 'tapewatch.generateHarness',
  restartServer: 'tapewatch.restartServer',
  clearDiagnostics: 'tapewatch.clearDiagnostics',
  clearAllDiagnostics: 'tapewatch.clearAllDiagnostics',
  bisect: 'tapewatch.bisect',
  compareWithPrevious: 'tapewatch.compareWithPrevious',
  showOutput: 'tapewatch.showOutput',
} as const;

/** Commands the server executes (`workspace/executeCommand`). */
export const ServerCommands = {
  runVerification: 'tapewatch.runVerification',
  generateHarness: 'tapewatch.generateHarness',
  listDevices: 'tapewatch.listDevices',
  clearDiagnostics: 'tapewatch.clearDiagnostics',
  bisect: 'tapewatch.bisect',
  compareWithPrevious: 'tapewatch.compareWithPrevious',
  listRuns: 'tapewatch.listRuns',
} as const;

/** Custom messages. */
export const Methods = {
  tapeGraph: 'tapewatch/tapeGraph',
  runFinished: 'tapewatch/runFinished',
} as const;

/** The scheme of the read-only comparison reports (a TextDocumentContentProvider). */
export const REPORT_SCHEME = 'tapewatch-report';

export const GRAPH_VIEW_TYPE = 'tapewatch.tapeGraph';
export const STATUS_ITEM_ID = 'tapewatch.status';
/** Context keys the walkthrough's steps complete on (`onContext:`). */
export const CONTEXT_KEYS = { interpreterReady: 'tapewatch.interpreterReady', verified: 'tapewatch.verified' } as const;
export const PYTHON_EXTENSION_ID = 'ms-python.python';
