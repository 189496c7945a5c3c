import type { Identity } from "./identity.js";
import type { Payload } from "./command.js";
import type { ApplyResult, KmsState, Session } from "./state.js";

/**
 * The replicated session table (Raft thesis §6.3): the first outcome of each
 * recent write by (caller, request id). A write retried after an unknown
 * outcome (a timeout, a lost leader, a client's failover) reaches the log
 * again; apply answers the repeat from here instead of applying it twice, so
 * a retried create answers success, never "already exists".
 *
 * Bounded by count, oldest first: at 1,000 writes/s 100,000 records cover
 * more than a minute and a half, longer than any client retries one write.
 * Eviction follows apply order, so every replica evicts the same records.
 */
export const sessionLimit = 100_000;

/** Request ids: what a UUID, ULID or base64 token needs, nothing that could split a key. */
export const requestIdPattern = /^[A-Za-z0-9._:+/=-]{1,128}$/;

export const sessionKey = (issuedBy: Identity, requestId: string): string => `${issuedBy} ${requestId}`;

export function targetOf(p: Payload): string {
  switch (p.kind) {
    case "createEnclave":
    case "deleteEnclave":
      return `${p.kind}/${p.name}`;
    case "createIdentity":
    case "deleteIdentity":
      return `${p.kind}/${p.enclave}/${p.identity}`;
    case "assignPolicy":
    case "unassignPolicy":
      return `${p.kind}/${p.enclave}/${p.name}/${p.identity}`;
    case "deleteKeyVersion":
      return `${p.kind}/${p.enclave}/${p.name}/${p.version}`;
    default:
      return `${p.kind}/${p.enclave}/${p.name}`;
  }
}

export const reusedRequestId: ApplyResult = { ok: false, reason: "invalid_argument", message: "request id was already used for a different request" };

/** The first outcome of this write if the table holds it: the answer to a repeat. */
export function recordedOutcome(state: KmsState, issuedBy: Identity, requestId: string, payload: Payload): ApplyResult | undefined {
  if (requestId === "") return undefined;
  const s = state.sessions.get(sessionKey(issuedBy, requestId));
  if (!s) return undefined;
  return s.target === targetOf(payload) ? s.result : reusedRequestId;
}

/**
 * The order `remember` added each table's keys in, oldest first from `head`.
 * Asking the Map for its oldest key would be quadratic: V8 leaves a deleted
 * entry as a hole until the table is rehashed, and a new iterator walks
 * every hole from the front, so with the table full each eviction stepped
 * over up to a table's worth of them: a million writes with request ids
 * took 63 µs a write on average instead of 7 (bench/kms-apply.bench.ts).
 * Kept beside the state, not in it: the Map stays the state (snapshots,
 * equality).
 */
const evictionOrder = new WeakMap<Map<string, Session>, { keys: string[]; head: number }>();

function orderOf(sessions: Map<string, Session>): { keys: string[]; head: number } {
  const known = evictionOrder.get(sessions);
  // A table filled elsewhere (decoded from a snapshot) or changed elsewhere: its own order, read once.
  if (known && known.keys.length - known.head === sessions.size) return known;
  const order = { keys: [...sessions.keys()], head: 0 };
  evictionOrder.set(sessions, order);
  return order;
}

/** Adds a write's outcome (its key is new: a repeat is answered from the table) and evicts the oldest beyond the limit. */
export function remember(sessions: Map<string, Session>, key: string, session: Session): void {
  if (sessions.has(key)) return void sessions.set(key, session);
  const order = orderOf(sessions);
  sessions.set(key, session);
  order.keys.push(key);
  while (sessions.size > sessionLimit && order.head < order.keys.length) {
    sessions.delete(order.keys[order.head] as string);
    order.head++;
  }
  // Drop the evicted prefix now and then: amortised O(1), and the array stays about the table's size.
  if (order.head > sessionLimit) {
    order.keys = order.keys.slice(order.head);
    order.head = 0;
  }
}
