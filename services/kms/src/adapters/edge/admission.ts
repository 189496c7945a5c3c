import type { IncomingMessage } from "node:http";
import { createContextKey, type HandlerContext } from "@connectrpc/connect";
import { AppError } from "@mc/shared/errors";
import type { Caller } from "../../domain/authz.js";
import { readBarrier } from "./node-info.js";
import type { EdgeDeps, Rules } from "./operation.js";
import { callerOf } from "./request-info.js";

/** Carries the raw request into Connect handlers, so they share the REST edge's identity. */
export const rawRequestKey = createContextKey<IncomingMessage | undefined>(undefined);

export function rawOf(ctx: HandlerContext): IncomingMessage {
  const raw = ctx.values.get(rawRequestKey);
  if (!raw) throw new AppError("internal", "internal error");
  return raw;
}

/**
 * The one way in, on either edge: the caller as the operation's policy path
 * with the placeholder filled (certificate, names, request id: a 400 or 401
 * before anything waits), then what the read rule waits for, then root's check.
 */
export function admit(d: EdgeDeps, o: Rules, raw: IncomingMessage, target: string, stale: boolean): Caller | Promise<Caller> {
  const caller = callerOf(d.infoOf(raw), o.path, o.param === undefined ? {} : { [o.param]: target });
  const checked = (): Caller => {
    if (o.root) d.kms.admin.authorize(caller, "root");
    return caller;
  };
  const wait = o.read === "linearizable" && d.node.raft && !stale ? readBarrier(d.node) : d.kms.fresh(caller.identity);
  return wait ? wait.then(checked) : checked();
}

/** Handlers act on the canonical value the request was authorised as, never on the raw one. */
export function canonical<T extends object>(fields: T, param: string | undefined, c: Caller): T {
  return param === undefined ? fields : { ...fields, [param]: c.params[param] ?? "" };
}

export const staleOf = (r: object): boolean => "stale" in r && r.stale === true;
