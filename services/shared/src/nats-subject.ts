import { AppError } from "./app-error.js";

/** A Raft-style node address: several clusters may share one bus. */
export interface NodeAddress {
  readonly clusterId: string;
  readonly nodeId: string;
}

const tokenPattern = /^[A-Za-z0-9_-]+$/;

function checkToken(kind: string, value: string): string {
  if (!tokenPattern.test(value)) {
    throw new AppError("invalid_argument", `${kind} '${value}' must be letters, digits, '-' or '_'`);
  }
  return value;
}

/**
 * `/releases.v1.ReleaseService/ListReleases` to
 * `releases.v1.ReleaseService.ListReleases`, and with a node address
 * `…ListReleases.<cluster id>.<node id>`. The one place the scheme lives.
 */
export function subjectOfPath(path: string, node?: NodeAddress): string {
  const match = /^\/([A-Za-z0-9_.]+)\/([A-Za-z0-9_]+)$/.exec(path);
  if (!match) throw new AppError("invalid_argument", `not an RPC path: ${path}`);
  const base = `${match[1]}.${match[2]}`;
  if (!node) return base;
  return `${base}.${checkToken("cluster id", node.clusterId)}.${checkToken("node id", node.nodeId)}`;
}

/** The queue group of a service: its fully-qualified name. */
export function queueOfPath(path: string): string {
  const match = /^\/([A-Za-z0-9_.]+)\//.exec(path);
  if (!match?.[1]) throw new AppError("invalid_argument", `not an RPC path: ${path}`);
  return match[1];
}
