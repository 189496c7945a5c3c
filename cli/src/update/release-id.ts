/** Release ids (contracts/releases.md §2) and the `mc.sha256sum` line (§3, contracts/mc.md §9 step 2). */

export interface ReleaseId {
  /** `RELEASE.2024-05-01T01-11-10Z[.hotfix.<hex>]`. */
  readonly id: string;
  readonly time: Date;
  readonly hotfix: string;
}

const idPattern = /^RELEASE\.(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})Z((?:\.[A-Za-z0-9]+){0,2})$/;

/** A release id: 2–4 dot fields, time layout `2006-01-02T15-04-05Z`, a real calendar time; undefined otherwise. */
export function parseReleaseId(id: string): ReleaseId | undefined {
  const m = idPattern.exec(id);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const time = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (time.getUTCFullYear() !== y || time.getUTCMonth() !== mo - 1 || time.getUTCDate() !== d || time.getUTCHours() !== h || time.getUTCMinutes() !== mi || time.getUTCSeconds() !== s) {
    return undefined;
  }
  return { id, time, hotfix: (m[7] ?? "").replace(/^\./, "") };
}

/** True when `candidate` is a later release than `current` (time, then a hotfix after the plain id). */
export function isNewer(candidate: ReleaseId, current: ReleaseId): boolean {
  const dt = candidate.time.getTime() - current.time.getTime();
  if (dt !== 0) return dt > 0;
  return candidate.hotfix !== "" && current.hotfix === "";
}

export interface ChecksumLine {
  readonly sha256: string;
  readonly release: ReleaseId;
}

/** `<sha256 hex> mc.RELEASE.<id>`: exactly two whitespace-separated fields. */
export function parseChecksumFile(text: string, component = "mc"): ChecksumLine {
  const fields = text.trim().split(/\s+/);
  if (fields.length !== 2) throw new Error(`expected two fields, found ${fields.length}`);
  const [sha256 = "", name = ""] = fields;
  if (!/^[0-9a-fA-F]{64}$/.test(sha256)) throw new Error(`\`${sha256}\` is not a SHA-256 hex digest`);
  if (!name.startsWith(`${component}.`)) throw new Error(`\`${name}\` does not name a ${component} release`);
  const release = parseReleaseId(name.slice(component.length + 1));
  if (!release) throw new Error(`\`${name}\` does not carry a valid release id`);
  return { sha256: sha256.toLowerCase(), release };
}
