/**
 * What **Tapewatch: Select Device** offers and says. Pure, unit-tested;
 * commands.ts asks the server and shows the pick.
 */

import type { DeviceList } from '../shared/protocol';

/** Warp's device names: `cpu`, `cuda` (the current CUDA device), `cuda:N`. */
const DEVICE_NAME = /^(cpu|cuda|cuda:\d+)$/;

/** Offered when the interpreter cannot be asked (untrusted workspace, no Warp, server down). */
export const FALLBACK_DEVICES: readonly string[] = ['cpu', 'cuda:0'];

export const DEVICE_PICK_TITLE = 'Warp device for verification runs (tapewatch.device)';

/**
 * The validation message for a typed device name; undefined when it is one. With `listed` (the
 * devices the interpreter reported), a name it did not report is refused too, saying which it has.
 */
export function deviceNameProblem(value: string, listed?: readonly string[]): string | undefined {
  const v = value.trim();
  if (!DEVICE_NAME.test(v)) {
    return v === '' ? 'Type a Warp device: cpu, cuda or cuda:N.' : `"${v}" is not a Warp device: use cpu, cuda or cuda:N (cuda:0, cuda:1, ...).`;
  }
  if (listed && listed.length && !listed.includes(v) && !(v === 'cuda' && listed.some((d) => d.startsWith('cuda')))) {
    const gpus = listed.filter((d) => d.startsWith('cuda'));
    return `The interpreter has no device "${v}": it reports ${listed.join(', ')}${gpus.length ? '' : ' (no GPU: Warp sees no CUDA device here)'}.`;
  }
  return undefined;
}

export interface DeviceAnswer {
  trusted: boolean;
  /** The interpreter that was asked (the one runs use). */
  interpreter?: string;
  /** The server's answer, when it gave one. */
  list?: DeviceList;
  /** Why asking failed (server down, timeout). */
  error?: string;
}

export interface DevicePickItem {
  label: string;
  description?: string;
}

export interface DevicePick {
  title: string;
  placeHolder: string;
  items: DevicePickItem[];
  /** Label of the entry that asks for a typed name. */
  other: string;
  /** The devices the interpreter reported (a typed name is checked against them); empty: unknown. */
  listed: string[];
}

export function devicePick(current: string, answer: DeviceAnswer): DevicePick {
  const listed = (answer.list?.devices ?? []).filter((d) => deviceNameProblem(d) === undefined);
  const failure = answer.error ?? answer.list?.error;
  let placeHolder: string;
  if (!answer.trusted) {
    placeHolder = 'Untrusted workspace: the interpreter is not asked for its devices.';
  } else if (failure) {
    placeHolder = `Could not list devices: ${failure}`;
  } else if (!listed.length) {
    placeHolder = `${answer.interpreter ?? 'The interpreter'} reported no Warp devices.`;
  } else {
    const warp = answer.list?.warp_version ? `Warp ${answer.list.warp_version}` : 'Warp';
    const gpu = listed.some((d) => d.startsWith('cuda')) ? '' : ' No GPU: Warp sees no CUDA device on this machine, runs use the CPU.';
    placeHolder = `${warp} in ${answer.interpreter ?? 'the configured interpreter'}: pick the device runs use.${gpu}`;
  }
  const offered = listed.length ? listed : [...FALLBACK_DEVICES];
  const valid = deviceNameProblem(current) === undefined;
  const labels = [...new Set(valid ? [...offered, current] : offered)];
  const items = labels.map((d): DevicePickItem => {
    if (d !== current) {
      return { label: d };
    }
    // A device the interpreter did not report (a setting from another machine) stays pickable, marked.
    return { label: d, description: listed.length && !listed.includes(d) ? 'current, not reported by this interpreter' : 'current' };
  });
  const other = 'Other…';
  items.push({ label: other, description: 'type a device name (cpu, cuda:N)' });
  return { title: DEVICE_PICK_TITLE, placeHolder, items, other, listed };
}
