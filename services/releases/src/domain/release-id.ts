import { AppError } from "@mc/shared/errors";

const pattern = /^RELEASE\.(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})Z(?:\.hotfix\.([0-9a-f]+))?$/;

export interface ReleaseId {
  readonly id: string;
  /** Build/tag time in RFC 3339 (`2024-05-01T01:11:10Z`). */
  readonly releaseTime: string;
  readonly epochSeconds: number;
  readonly hotfix: string | undefined;
}

/** Parses a release id, or returns undefined: the regex and a real calendar time. */
export function tryParseReleaseId(id: string): ReleaseId | undefined {
  const m = pattern.exec(id);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const t = new Date(ms);
  // Date.UTC rolls 2024-13-40 over into 2025: a real date survives the round trip.
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d || t.getUTCHours() !== h || t.getUTCMinutes() !== mi || t.getUTCSeconds() !== s) {
    return undefined;
  }
  return { id, releaseTime: t.toISOString().replace(".000Z", "Z"), epochSeconds: ms / 1000, hotfix: m[7] };
}

export function parseReleaseId(id: string): ReleaseId {
  const parsed = tryParseReleaseId(id);
  if (!parsed) throw new AppError("invalid_argument", `invalid release id '${id}'`);
  return parsed;
}

export interface Ordered {
  readonly releaseId: string;
  /** Publish time, RFC 3339: orders hotfixes of one time. */
  readonly releaseDate: string;
}

/**
 * Release order: by release time; a hotfix after the plain id of the same
 * time; hotfixes of one time by publish time. Negative when a is older.
 */
export function compareReleases(a: Ordered, b: Ordered): number {
  const pa = parseReleaseId(a.releaseId);
  const pb = parseReleaseId(b.releaseId);
  if (pa.epochSeconds !== pb.epochSeconds) return pa.epochSeconds - pb.epochSeconds;
  if ((pa.hotfix === undefined) !== (pb.hotfix === undefined)) return pa.hotfix === undefined ? -1 : 1;
  if (a.releaseDate !== b.releaseDate) return a.releaseDate < b.releaseDate ? -1 : 1;
  return a.releaseId < b.releaseId ? -1 : a.releaseId > b.releaseId ? 1 : 0;
}
