/**
 * Client and server releases drifting apart (issue 28, seed §9.2): the client
 * should be released the same day as its server or later, and not far from
 * it. Pure; the server's release comes from what the server says about itself.
 */
import { parseReleaseId, type ReleaseId } from "./release-id.js";

/** More days apart than this is a warning even when the client is newer. */
export const driftDays = 180;
const dayMs = 24 * 60 * 60 * 1000;

/** A release id (`RELEASE.…`) or the RFC 3339 release time MinIO's admin info reports as a server's version. */
export function serverReleaseOf(version: unknown): ReleaseId | undefined {
  if (typeof version !== "string") return undefined;
  const direct = parseReleaseId(version);
  if (direct) return direct;
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/.exec(version);
  return m ? parseReleaseId(`RELEASE.${m[1]}T${m[2]}-${m[3]}-${m[4]}Z`) : undefined;
}

export interface Drift {
  readonly message: string;
  readonly client: string;
  readonly server: string;
  readonly days: number;
}

/** One warning naming both releases and what to do, or undefined when they are close enough. */
export function driftOf(client: ReleaseId, server: ReleaseId): Drift | undefined {
  const days = Math.floor(Math.abs(server.time.getTime() - client.time.getTime()) / dayMs);
  const both = { client: client.id, server: server.id, days };
  if (client.time.getTime() < server.time.getTime()) {
    return { ...both, message: `mc ${client.id} is older than the server's release ${server.id} (${days} days); update mc with \`mc update\`.` };
  }
  if (days > driftDays) {
    return { ...both, message: `mc ${client.id} and the server's release ${server.id} are ${days} days apart; update the server, or use an mc released within ${driftDays} days of it.` };
  }
  return undefined;
}
