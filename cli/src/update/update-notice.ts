/**
 * The update notifier's decisions (issue 28), pure: when a release build may
 * ask its release folder again, and when and what it tells the user. The
 * clock is a parameter; the state lives in `<config dir>/update-check.json`.
 */
import { isNewer, parseReleaseId, type ReleaseId } from "./release-id.js";

export interface UpdateCheckState {
  /** When the folder was last asked (answered or not), in ms since the epoch. */
  readonly attemptedAt?: number | undefined;
  /** The newest release the folder named at its last answer. */
  readonly latest?: string | undefined;
  /** When the notice was last printed. */
  readonly shownAt?: number | undefined;
}

export const dayMs = 24 * 60 * 60 * 1000;

/** A clock set back (attempt "in the future") counts as due, so a wrong clock cannot silence checks forever. */
const olderThanADay = (at: number | undefined, now: number): boolean => at === undefined || now - at >= dayMs || at > now;

/** At most one request a day, whether or not the last one was answered. */
export const isCheckDue = (state: UpdateCheckState, now: number): boolean => olderThanADay(state.attemptedAt, now);

/** Releases between the running one and the latest, as upstream words it ("4 months"). */
export function releasedBefore(olderMs: number): string {
  const units: readonly [string, number][] = [
    ["year", 365 * dayMs],
    ["month", 30 * dayMs],
    ["week", 7 * dayMs],
    ["day", dayMs],
    ["hour", 60 * 60 * 1000],
    ["minute", 60 * 1000],
  ];
  for (const [name, size] of units) {
    const n = Math.floor(olderMs / size);
    if (n >= 1) return `${n} ${name}${n === 1 ? "" : "s"}`;
  }
  return "moments";
}

/** Upstream's notice on one line. */
export function noticeText(running: ReleaseId, latest: ReleaseId): string {
  const older = releasedBefore(latest.time.getTime() - running.time.getTime());
  return `You are running an older version of mc released ${older} before the latest release ${latest.id}. Update: Run \`mc update\``;
}

/** The notice owed for `latest` (from this run's answer or the state), unless one was shown within the day. */
export function noticeFor(state: UpdateCheckState, latest: string | undefined, running: ReleaseId, now: number): string | undefined {
  const newest = latest === undefined ? undefined : parseReleaseId(latest);
  if (!newest || !isNewer(newest, running)) return undefined;
  if (!olderThanADay(state.shownAt, now)) return undefined;
  return noticeText(running, newest);
}

/** The state file's text read back; anything unreadable is a first run, never an error. */
export function parseState(text: string | undefined): UpdateCheckState {
  if (text === undefined) return {};
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    const num = (x: unknown): number | undefined => (typeof x === "number" && Number.isFinite(x) ? x : undefined);
    const latest = typeof v["latest"] === "string" ? v["latest"] : undefined;
    return { attemptedAt: num(v["attemptedAt"]), latest, shownAt: num(v["shownAt"]) };
  } catch {
    return {};
  }
}
