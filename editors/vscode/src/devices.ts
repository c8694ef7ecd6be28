/**
 * Devices as `cllint.listDevices` returns them, the status-bar text, and the quick-pick items.
 *
 * Pure: no `vscode` import.
 */

export interface Device {
  index: number;
  platform: string;
  name: string;
  type: string;
  version: string;
  opencl_c_version: string;
  oclgrind?: boolean;
}

/** Accepts the command's result as a list, as `{devices: [...]}`, or as a JSON string of either. */
export function parseDevices(result: unknown): Device[] {
  let value = result;
  if (typeof value === 'string') {
    try { value = JSON.parse(value); } catch { return []; }
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && Array.isArray((value as { devices?: unknown }).devices)) {
    value = (value as { devices: unknown[] }).devices;
  }
  if (!Array.isArray(value)) return [];
  return value.filter((d): d is Device =>
    !!d && typeof d === 'object' && typeof (d as Device).index === 'number' && typeof (d as Device).name === 'string');
}

/**
 * Which listed device a selector picks, following the server's rules: an index, "cpu", "gpu",
 * "oclgrind", or a case-insensitive substring of the name or platform. Undefined when none does,
 * or when the selector is empty (the server's default device).
 */
export function matchDevice(selector: string | undefined, devices: Device[]): Device | undefined {
  const sel = (selector ?? '').trim();
  if (sel === '') return undefined;
  if (/^(device:)?\d+$/.test(sel)) {
    const index = Number(sel.replace('device:', ''));
    return devices.find((d) => d.index === index);
  }
  const lower = sel.toLowerCase();
  if (lower === 'oclgrind') return devices.find((d) => d.oclgrind || /oclgrind/i.test(d.name) || /oclgrind/i.test(d.platform));
  if (lower === 'cpu' || lower === 'gpu') return devices.find((d) => d.type.toLowerCase() === lower);
  return devices.find((d) => d.name.toLowerCase().includes(lower) || d.platform.toLowerCase().includes(lower));
}

function short(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

export interface StatusText {
  text: string;
  tooltip: string;
}

/** Status-bar text for the selected device; `devices` undefined means not listed yet. */
export function deviceStatus(selector: string | undefined, devices: Device[] | undefined): StatusText {
  const sel = (selector ?? '').trim();
  if (devices === undefined) {
    return {
      text: `$(circuit-board) ${sel === '' ? 'default device' : short(sel, 30)}`,
      tooltip: 'OpenCL device for cllint (click to choose)',
    };
  }
  if (devices.length === 0) {
    return { text: '$(circuit-board) no OpenCL device', tooltip: 'cllint found no OpenCL platform or device (click to retry)' };
  }
  const picked = sel === '' ? devices[0] : matchDevice(sel, devices);
  if (!picked) {
    return { text: `$(warning) ${short(sel, 30)}?`, tooltip: `No OpenCL device matches '${sel}' (click to choose)` };
  }
  return {
    text: `$(circuit-board) ${short(picked.name, 30)}`,
    tooltip: `${deviceLabel(picked)}${sel === '' ? ' (default)' : ` (selector '${sel}')`}\nClick to choose a device`,
  };
}

export function deviceLabel(d: Device): string {
  return `${d.name} (${d.platform})`;
}

export interface DevicePick {
  label: string;
  description: string;
  detail: string;
  /** The value written to `cllint.device`. */
  selector: string;
}

export function devicePicks(devices: Device[]): DevicePick[] {
  return devices.map((d) => ({
    label: `${d.index}: ${d.name}`,
    description: `${d.type} · ${d.platform}`,
    detail: [d.version, d.opencl_c_version].filter((s) => s).join(' · '),
    selector: String(d.index),
  }));
}

/** A table for the output channel (`cllint: Show Devices`). */
export function formatDeviceTable(devices: Device[]): string {
  if (devices.length === 0) return 'no OpenCL devices found';
  const rows = devices.map((d) => [String(d.index), d.type, d.name, d.platform, d.opencl_c_version]);
  const head = ['#', 'type', 'name', 'platform', 'OpenCL C'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}
