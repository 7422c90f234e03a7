/**
 * The JSON the language server sends (docs/protocol.md, server/tapewatch/model.py),
 * typed, with parsers that accept only well-formed data.
 *
 * Used by the extension host and by the webview bundle, so it imports nothing.
 * Everything that comes from the server is user data (kernel names, array names,
 * messages): the parsers check shapes, never trust them, and the renderers put
 * strings into the DOM as text only.
 */

export const SEVERITIES = ['error', 'warning', 'information', 'hint'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface Location {
  path: string;
  line: number;
  column: number;
}

export interface Related extends Location {
  message: string;
  role: string;
}

export interface Finding {
  id: string;
  code: string;
  severity: Severity;
  message: string;
  path: string | null;
  line: number | null;
  column: number | null;
  related: Related[];
  count: number;
  /** The finding's own `data` (names, numbers, FD samples), unvalidated: read it through a parser. */
  data: Record<string, unknown>;
}

export type NodeKind = 'launch' | 'array' | 'func';

export interface GraphNode {
  id: string;
  kind: NodeKind;
  label: string;
  location: Location | null;
  requires_grad: boolean | null;
  names: string[];
  shape: number[] | null;
  dtype: string;
  finding_ids: string[];
  /**
   * A launch's chain of calls, innermost first: `calls[0]` is the line that called the helper that
   * made the launch (the server resolves the probe's "f() at line N" names to files). Empty: the
   * launch line is the user's own.
   */
  calls: Call[];
}

export interface Call extends Location {
  function: string;
}

export interface GraphEdge {
  source: string;
  target: string;
  kind: 'read' | 'write';
  arg: string;
}

export interface TapeGraph {
  id: string;
  label: string;
  captured_at: string;
  location: Location | null;
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** How many tapes recorded these launches (a tape per window or iteration): drawn once. */
  repeats?: number;
}

/** Result of the `tapewatch/tapeGraph` request (null before any run of that script). */
export interface TapeGraphResult {
  uri: string;
  tapes: TapeGraph[];
  findings: Finding[];
  /** The result is a kept run shown again after a reload (it holds no tapes). */
  restored?: Restored;
}

/** A kept run shown again: when it ran (ISO, and as the user reads it) and its file. */
export interface Restored {
  time: string;
  readable_time: string;
  path: string;
}

export type RunStatus = 'ok' | 'findings' | 'failed' | 'cancelled';

/** Result of `tapewatch.runVerification`, also carried by `tapewatch/runFinished`. */
export interface RunSummary {
  uri: string;
  status: RunStatus;
  warp_version: string;
  device: string;
  seconds: number | null;
  exit_code: number | null;
  counts: Record<Severity, number>;
  /** Runtime findings so far (static lints excluded; `counts` includes them). */
  findings: number;
  /** How many of the counted findings are static lints. */
  lints: number;
  tapes: number;
  /** Why the run failed (or the script raised); null otherwise. */
  failure: RunFailure | null;
  /** Per-launch checks (TW404): how many launches were checked and skipped; null when off or unknown. */
  launch_checks: LaunchChecks | null;
  /** The kept run this summary restores after a reload (no new run happened). */
  restored?: Restored;
  /** Why the run could not be kept under .tapewatch/runs (a read-only or full disk). */
  evidence_error?: string;
}

export interface LaunchChecks {
  checked: number;
  passed: number;
  failed: number;
  inconclusive: number;
  skipped: number;
}

/** The summary's `failure`: a TW9xx code, one line, and the place when it is a file on disk. */
export interface RunFailure {
  code: string;
  message: string;
  path?: string;
  line?: number;
}

/** Result of `tapewatch.listDevices`; `error` when the interpreter could not list them. */
export interface DeviceList {
  devices: string[];
  warp_version: string;
  error?: string;
}

/** Result of `tapewatch.generateHarness`. */
export interface HarnessResult {
  path: string;
  uri: string;
}

// ---------------------------------------------------------------------------
// Parsers: unknown JSON in, typed value (or undefined) out.

type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

function posInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function parseLocation(value: unknown): Location | null {
  if (!isObject(value) || typeof value.path !== 'string' || value.path === '') {
    return null;
  }
  const line = posInt(value.line);
  if (line === undefined) {
    return null;
  }
  return { path: value.path, line, column: posInt(value.column) ?? 1 };
}

export function parseFinding(value: unknown): Finding | undefined {
  if (!isObject(value) || typeof value.code !== 'string' || typeof value.message !== 'string') {
    return undefined;
  }
  const loc = parseLocation(value);
  const severity = SEVERITIES.includes(value.severity as Severity) ? (value.severity as Severity) : 'warning';
  const related: Related[] = [];
  for (const r of Array.isArray(value.related) ? value.related : []) {
    const rl = parseLocation(r);
    if (rl && isObject(r)) {
      related.push({ ...rl, message: str(r.message), role: str(r.role) });
    }
  }
  return {
    id: str(value.id),
    code: value.code,
    severity,
    message: value.message,
    path: loc?.path ?? null,
    line: loc?.line ?? null,
    column: loc?.column ?? null,
    related,
    count: posInt(value.count) ?? 1,
    data: isObject(value.data) ? value.data : {},
  };
}

const NODE_KINDS: readonly NodeKind[] = ['launch', 'array', 'func'];

export function parseGraphNode(value: unknown): GraphNode | undefined {
  if (!isObject(value) || typeof value.id !== 'string' || value.id === '') {
    return undefined;
  }
  const kind = NODE_KINDS.includes(value.kind as NodeKind) ? (value.kind as NodeKind) : 'func';
  const shape = Array.isArray(value.shape) && value.shape.every((d) => typeof d === 'number') ? (value.shape as number[]) : null;
  return {
    id: value.id,
    kind,
    label: str(value.label),
    location: parseLocation(value.location),
    requires_grad: typeof value.requires_grad === 'boolean' ? value.requires_grad : null,
    names: strings(value.names),
    shape,
    dtype: str(value.dtype),
    finding_ids: strings(value.finding_ids),
    calls: Array.isArray(value.calls) ? defined(value.calls.map(parseCall)) : [],
  };
}

function parseCall(value: unknown): Call | undefined {
  const loc = parseLocation(value);
  return loc && isObject(value) ? { ...loc, function: str(value.function) } : undefined;
}

export function parseRestored(value: unknown): Restored | undefined {
  if (!isObject(value) || typeof value.time !== 'string') {
    return undefined;
  }
  return { time: value.time, readable_time: str(value.readable_time, value.time), path: str(value.path) };
}

function parseLaunchChecks(value: unknown): LaunchChecks | null {
  if (!isObject(value)) {
    return null;
  }
  const n = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);
  return { checked: n(value.checked), passed: n(value.passed), failed: n(value.failed), inconclusive: n(value.inconclusive), skipped: n(value.skipped) };
}

export function parseGraphEdge(value: unknown): GraphEdge | undefined {
  if (!isObject(value) || typeof value.source !== 'string' || typeof value.target !== 'string') {
    return undefined;
  }
  return {
    source: value.source,
    target: value.target,
    kind: value.kind === 'write' ? 'write' : 'read',
    arg: str(value.arg),
  };
}

export function parseTapeGraph(value: unknown): TapeGraph | undefined {
  if (!isObject(value) || typeof value.id !== 'string') {
    return undefined;
  }
  return {
    id: value.id,
    label: str(value.label, value.id),
    captured_at: str(value.captured_at),
    location: parseLocation(value.location),
    nodes: defined((Array.isArray(value.nodes) ? value.nodes : []).map(parseGraphNode)),
    edges: defined((Array.isArray(value.edges) ? value.edges : []).map(parseGraphEdge)),
    repeats: typeof value.repeats === 'number' && Number.isInteger(value.repeats) && value.repeats > 1 ? value.repeats : 1,
  };
}

/** `tapewatch/tapeGraph` result: null stays null, malformed is undefined. */
export function parseTapeGraphResult(value: unknown): TapeGraphResult | null | undefined {
  if (value === null) {
    return null;
  }
  if (!isObject(value) || !Array.isArray(value.tapes)) {
    return undefined;
  }
  const out: TapeGraphResult = {
    uri: str(value.uri),
    tapes: defined(value.tapes.map(parseTapeGraph)),
    findings: defined((Array.isArray(value.findings) ? value.findings : []).map(parseFinding)),
  };
  const restored = parseRestored(value.restored);
  if (restored) {
    out.restored = restored;
  }
  return out;
}

const RUN_STATUSES: readonly RunStatus[] = ['ok', 'findings', 'failed', 'cancelled'];

export function parseRunSummary(value: unknown): RunSummary | undefined {
  if (!isObject(value) || !RUN_STATUSES.includes(value.status as RunStatus)) {
    return undefined;
  }
  const rawCounts = isObject(value.counts) ? value.counts : {};
  const counts = {} as Record<Severity, number>;
  for (const s of SEVERITIES) {
    const n = rawCounts[s];
    counts[s] = typeof n === 'number' && n >= 0 ? n : 0;
  }
  const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const out: RunSummary = {
    uri: str(value.uri),
    status: value.status as RunStatus,
    warp_version: str(value.warp_version),
    device: str(value.device),
    seconds: num(value.seconds),
    exit_code: num(value.exit_code),
    counts,
    findings: num(value.findings) ?? 0,
    lints: num(value.lints) ?? 0,
    tapes: num(value.tapes) ?? 0,
    failure: parseRunFailure(value.failure),
    launch_checks: parseLaunchChecks(value.launch_checks),
  };
  const restored = parseRestored(value.restored);
  if (restored) {
    out.restored = restored;
  }
  if (typeof value.evidence_error === 'string' && value.evidence_error !== '') {
    out.evidence_error = value.evidence_error.split('\n')[0].slice(0, 300);
  }
  return out;
}

/** Older servers send no `failure`: that reads as null, like a malformed one. */
export function parseRunFailure(value: unknown): RunFailure | null {
  if (!isObject(value) || typeof value.code !== 'string' || !/^TW\d{3}$/.test(value.code)) {
    return null;
  }
  const out: RunFailure = { code: value.code, message: str(value.message).split('\n')[0].trim() };
  const line = posInt(value.line);
  if (typeof value.path === 'string' && value.path !== '') {
    out.path = value.path;
    if (line !== undefined) {
      out.line = line;
    }
  }
  return out;
}

export function parseDeviceList(value: unknown): DeviceList | undefined {
  if (!isObject(value) || !Array.isArray(value.devices)) {
    return undefined;
  }
  const list: DeviceList = { devices: strings(value.devices).filter((d) => d !== ''), warp_version: str(value.warp_version) };
  if (typeof value.error === 'string' && value.error !== '') {
    list.error = value.error;
  }
  return list;
}

export function parseHarnessResult(value: unknown): HarnessResult | undefined {
  if (!isObject(value) || typeof value.path !== 'string') {
    return undefined;
  }
  return { path: value.path, uri: str(value.uri) };
}

/** Result of `tapewatch.bisect`: the bisection's one finding (TW410, TW400 or TW406). */
export interface BisectResult {
  uri: string;
  findings: Finding[];
}

export function parseBisectResult(value: unknown): BisectResult | undefined {
  if (!isObject(value) || !Array.isArray(value.findings)) {
    return undefined;
  }
  return { uri: str(value.uri), findings: defined(value.findings.map(parseFinding)) };
}

/** Result of `tapewatch.compareWithPrevious`; the finding lists stay raw (only counted and reported). */
export interface CompareResult {
  compared: boolean;
  /** The comparison as a Markdown document. */
  report: string;
  counts: { new: number; fixed: number; unchanged: number };
  /** Kept runs of the script, when there were fewer than two. */
  runs?: number;
  /** The two runs compared, with readable times. */
  before?: { path: string; readable_time: string };
  after?: { path: string; readable_time: string };
}

/** One kept run in `tapewatch.listRuns` (newest first). */
export interface KeptRun {
  path: string;
  time: string;
  readable_time: string;
  status: string;
  counts: Record<Severity, number>;
  has_findings: boolean;
  warp_version: string;
  device: string;
  /** The script is the same now as when this run was kept. */
  current: boolean;
}

export function parseKeptRuns(value: unknown): KeptRun[] | undefined {
  if (!isObject(value) || !Array.isArray(value.runs)) {
    return undefined;
  }
  const out: KeptRun[] = [];
  for (const r of value.runs) {
    if (!isObject(r) || typeof r.path !== 'string' || r.path === '') {
      continue;
    }
    const rawCounts = isObject(r.counts) ? r.counts : {};
    const counts = {} as Record<Severity, number>;
    for (const s of SEVERITIES) {
      const n = rawCounts[s];
      counts[s] = typeof n === 'number' && n >= 0 ? n : 0;
    }
    out.push({
      path: r.path,
      time: str(r.time),
      readable_time: str(r.readable_time, str(r.time)),
      status: str(r.status),
      counts,
      has_findings: r.has_findings === true,
      warp_version: str(r.warp_version),
      device: str(r.device),
      current: r.current === true,
    });
  }
  return out;
}

export function parseCompareResult(value: unknown): CompareResult | undefined {
  if (!isObject(value) || typeof value.compared !== 'boolean' || typeof value.report !== 'string') {
    return undefined;
  }
  const count = (v: unknown): number => (Array.isArray(v) ? v.length : 0);
  const out: CompareResult = {
    compared: value.compared,
    report: value.report,
    counts: { new: count(value.new), fixed: count(value.fixed), unchanged: count(value.unchanged) },
  };
  if (typeof value.runs === 'number') {
    out.runs = value.runs;
  }
  for (const side of ['before', 'after'] as const) {
    const v = value[side];
    if (isObject(v) && typeof v.path === 'string') {
      out[side] = { path: v.path, readable_time: str(v.readable_time, str(v.time)) };
    }
  }
  return out;
}

function defined<T>(items: (T | undefined)[]): T[] {
  return items.filter((x): x is T => x !== undefined);
}
