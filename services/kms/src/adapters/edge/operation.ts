import type { IncomingMessage } from "node:http";
import { create, toJson, type DescMessage, type DescMethod, type DescMethodServerStreaming, type DescMethodUnary, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
import type { ConnectRouter, HandlerContext } from "@connectrpc/connect";
import type { RestRequest, RestResponse, RestRoute } from "@mc/shared/rest";
import { httpStatusOfError, toConnectError } from "@mc/shared/connect";
import type { Caller } from "../../domain/authz.js";
import type { Kms } from "../../domain/kms.js";
import { admit, canonical, rawOf, staleOf } from "./admission.js";
import type { KmsMetrics } from "./metrics.js";
import type { NodeInfo } from "./node-info.js";
import type { RequestInfo } from "./request-info.js";
import { stale } from "./rest-in.js";

/** What the operations of the table run against. */
export interface EdgeDeps {
  readonly kms: Kms;
  readonly node: NodeInfo;
  readonly metrics: KmsMetrics;
  /** The per-request caller facts, shared by both edges. */
  readonly infoOf: (raw: IncomingMessage) => RequestInfo;
}

/** A request message's fields: what both edges hand a use case (REST reads them from path, query and body). */
export type Fields<I extends DescMessage> = Omit<MessageShape<I>, "$typeName" | "$unknown">;
type StringField<I extends DescMessage> = { [K in keyof Fields<I>]-?: Fields<I>[K] extends string ? K : never }[keyof Fields<I>] & string;

/**
 * How an operation reads the replica (contract §8): describe, list and read
 * are linearizable in cluster mode (ReadIndex) unless the request asks for a
 * stale read; everything else authorises a non-root caller only on a replica
 * known fresh enough that a revocation answered anywhere holds here.
 */
export type ReadRule = "linearizable" | "fresh";
export type RestMethod = "GET" | "POST" | "DELETE";

/** One row of the table, as the edges use it. */
export interface KmsOperation {
  /** The policy path template an RPC is checked and audited as; for a public operation its REST path. */
  readonly path: string;
  readonly rpc: DescMethod;
  /** `/kms.v1.<Service>/<Method>`. */
  readonly rpcPath: string;
  /** Undefined for the Connect-only operations. */
  readonly restMethod: RestMethod | undefined;
  /** No certificate, no policy, no audit line (contract §6). */
  readonly isPublic: boolean;
  /** A request that may change state: a timeout leaves its outcome unknown. */
  readonly changes: boolean;
  restRoute(d: EdgeDeps): RestRoute | undefined;
  register(router: ConnectRouter, d: EdgeDeps): void;
}

export interface Rules {
  readonly path: string;
  /** The request field that fills the path's one placeholder. */
  readonly param?: string;
  readonly read: ReadRule;
  /** Root only, checked before the request body is read (the domain checks again where it owns the use case). */
  readonly root?: boolean;
  readonly changes?: boolean;
}

interface CheckedSpec<I extends DescMessage> extends Rules {
  readonly param?: StringField<I>;
}

/** How a REST request becomes the RPC's request message, and its answer a REST body. */
export interface RestSide<I extends DescMessage, R> {
  readonly method: RestMethod;
  /** Runs once the caller is admitted: strict JSON (contract §5), query and path into the message's fields. */
  readonly in: (req: RestRequest) => Fields<I>;
  /** By default the response message as JSON with the proto field names (the contract's snake_case). */
  readonly out?: "empty" | ((r: R) => RestResponse);
}

export interface UnarySpec<I extends DescMessage, O extends DescMessage, R> extends CheckedSpec<I> {
  readonly rpc: DescMethodUnary<I, O>;
  readonly rest?: RestSide<I, R>;
  run(d: EdgeDeps, c: Caller, r: Fields<I>): R | Promise<R>;
}

const rpcPathOf = (m: DescMethod): string => `/${m.parent.typeName}/${m.name}`;
const then = <T, U>(v: T | Promise<T>, f: (v: T) => U | Promise<U>): U | Promise<U> => (v instanceof Promise ? v.then(f) : f(v));

/** The message as the contract's REST JSON: proto field names, every field written. */
export const restJson = <O extends DescMessage>(schema: O, m: MessageInitShape<O>): RestResponse => ({
  body: toJson(schema, create(schema, m), { useProtoFieldName: true, alwaysEmitImplicit: true }) as object,
});

function restRouteOf(method: RestMethod, pattern: string, handle: RestRoute["handle"]): RestRoute {
  return { methods: [method], pattern, readsBody: method === "POST", handle };
}

function row(o: Rules, rpc: DescMethod, restMethod: RestMethod | undefined, isPublic: boolean) {
  return { path: o.path, rpc, rpcPath: rpcPathOf(rpc), restMethod, isPublic, changes: o.changes ?? false };
}

/** A checked unary operation whose use case answers with the RPC's response message. */
export function unary<I extends DescMessage, O extends DescMessage>(spec: UnarySpec<I, O, MessageInitShape<O>>): KmsOperation {
  return mapped({ ...spec, toRpc: (r) => r });
}

/** A checked unary operation whose use case answers in another shape (status bodies), mapped to the message. */
export function mapped<I extends DescMessage, O extends DescMessage, R>(spec: UnarySpec<I, O, R> & { toRpc(r: R): MessageInitShape<O> }): KmsOperation {
  const { rest, param } = spec;
  const out = rest?.out ?? ((r: R) => restJson(spec.rpc.output, spec.toRpc(r)));
  const answer = out === "empty" ? (): RestResponse => ({ status: 200 }) : out;
  return {
    ...row(spec, spec.rpc, rest?.method, false),
    restRoute: (d) =>
      rest &&
      restRouteOf(rest.method, spec.path, (req) => {
        const target = param === undefined ? "" : (req.params[param] ?? "");
        return then(admit(d, spec, req.raw, target, stale(req)), (c) => then(spec.run(d, c, canonical(rest.in(req), param, c)), answer));
      }),
    register(router, d) {
      router.rpc(spec.rpc, async (req: MessageShape<I>, ctx: HandlerContext) => {
        const fields: Fields<I> = req;
        const c = await admit(d, spec, rawOf(ctx), param === undefined ? "" : String(fields[param]), staleOf(req));
        return spec.toRpc(await spec.run(d, c, canonical(fields, param, c)));
      });
    },
  };
}

export interface StreamSpec<I extends DescMessage, O extends DescMessage, T> extends CheckedSpec<I> {
  readonly rpc: DescMethodServerStreaming<I, O>;
  readonly rest: { readonly method: "GET"; readonly in: (req: RestRequest) => Fields<I>; readonly out: (items: AsyncIterable<T>) => RestResponse };
  /** Ends when `signal` aborts (the client went away). */
  run(d: EdgeDeps, c: Caller, r: Fields<I>, signal: AbortSignal): AsyncIterable<T>;
  toRpc(item: T): MessageInitShape<O>;
}

/** A checked server-streaming operation (the audit log): NDJSON on REST, a message stream on Connect. */
export function streaming<I extends DescMessage, O extends DescMessage, T>(spec: StreamSpec<I, O, T>): KmsOperation {
  const { rest, param } = spec;
  return {
    ...row(spec, spec.rpc, rest.method, false),
    restRoute: (d) =>
      restRouteOf(rest.method, spec.path, (req) =>
        then(admit(d, spec, req.raw, param === undefined ? "" : (req.params[param] ?? ""), stale(req)), (c) =>
          rest.out(spec.run(d, c, canonical(rest.in(req), param, c), req.signal)),
        ),
      ),
    register(router, d) {
      router.rpc(spec.rpc, async function* (req: MessageShape<I>, ctx: HandlerContext) {
        // A stream's errors surface while it is read, past the interceptor that maps unary ones.
        const raw = rawOf(ctx);
        let started = false;
        try {
          const fields: Fields<I> = req;
          const c = await admit(d, spec, raw, param === undefined ? "" : String(fields[param]), staleOf(req));
          const items = spec.run(d, c, canonical(fields, param, c), ctx.signal);
          started = true;
          for await (const item of items) yield spec.toRpc(item);
        } catch (err) {
          // Refused before it started: audited with the status REST answers.
          if (!started) d.infoOf(raw).refused = httpStatusOfError(err);
          throw toConnectError(err);
        }
      });
    },
  };
}

export interface PublicSpec<I extends DescMessage, O extends DescMessage> {
  readonly rpc: DescMethodUnary<I, O>;
  /** The REST path. */
  readonly path: string;
  readonly rest: RestSide<I, MessageInitShape<O>>;
  run(d: EdgeDeps, r: Fields<I>): MessageInitShape<O> | Promise<MessageInitShape<O>>;
}

/** Health and version: no certificate, no policy, no audit line, no wait. */
export function open<I extends DescMessage, O extends DescMessage>(spec: PublicSpec<I, O>): KmsOperation {
  const { rest } = spec;
  const out = rest.out ?? ((r: MessageInitShape<O>) => restJson(spec.rpc.output, r));
  const answer = out === "empty" ? (): RestResponse => ({ status: 200 }) : out;
  return {
    ...row({ path: spec.path, read: "fresh" }, spec.rpc, rest.method, true),
    restRoute: (d) => ({ methods: [rest.method], pattern: spec.path, handle: (req) => then(spec.run(d, rest.in(req)), answer) }),
    register(router, d) {
      router.rpc(spec.rpc, (req: MessageShape<I>) => spec.run(d, req));
    },
  };
}
