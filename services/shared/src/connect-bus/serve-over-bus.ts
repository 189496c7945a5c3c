import { Code, ConnectError } from "@connectrpc/connect";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import type { Bus, BusMessage, BusSubscription } from "../bus/bus.js";
import { queueOfPath, subjectOfPath, type NodeAddress } from "../nats-subject.js";
import {
  controlHeader,
  countHeader,
  defaultFlow,
  frameHeader,
  headerAllowance,
  headersToMap,
  readAll,
  statusHeader,
  trailerPrefix,
  type FlowSettings,
  type Frame,
} from "./frames.js";
import { wholeMs } from "../process/whole-ms.js";

export interface ServeOverBusOptions {
  /** Serve on per-node subjects (no queue group) instead of per-service ones. */
  readonly node?: NodeAddress;
  readonly flow?: Partial<FlowSettings>;
}

export interface BusServer {
  /** Stops taking calls and aborts those in flight. */
  close(): void;
  /**
   * Graceful stop: leaves the queue groups, answers every call already on
   * its way, then closes. Callers see the other instances, never an error.
   */
  drain(): Promise<void>;
}

interface ServerCall {
  readonly reply: string;
  readonly abort: AbortController;
  sent: number;
  acked: number;
  lastSent: number;
  wake: (() => void) | undefined;
}

const internalErrorBody = new TextEncoder().encode('{"code":"internal","message":"internal error"}');

/**
 * Feeds bus requests into a Connect router's universal handlers, one
 * subscription per RPC (queue group per service), and streams the answers
 * back as frames (see frames.ts).
 */
export function serveOverBus(bus: Bus, handlers: readonly UniversalHandler[], options: ServeOverBusOptions = {}): BusServer {
  const flow: FlowSettings = { ...defaultFlow, ...options.flow };
  const controlPrefix = bus.newInbox();
  const calls = new Map<string, ServerCall>();
  const subs: BusSubscription[] = [];
  let nextId = 0;
  let heartbeat: NodeJS.Timeout | undefined;
  let closed = false;

  const control = bus.subscribe(`${controlPrefix}.*`, (msg) => {
      const call = calls.get(msg.subject.slice(controlPrefix.length + 1));
      if (!call) return;
      const frame = msg.headers.get(frameHeader);
      if (frame === "cancel") {
        call.abort.abort(new ConnectError("canceled by the client", Code.Canceled));
      } else if (frame === "ack") {
        call.acked = Math.max(call.acked, Number(msg.headers.get(countHeader) ?? 0));
      }
      call.wake?.();
  });
  let idle: (() => void) | undefined;

  function beat(): void {
    const now = Date.now();
    for (const call of calls.values()) {
      if (now - call.lastSent < flow.heartbeatMs) continue;
      try {
        send(call, "hb", new Uint8Array(0));
      } catch {
        call.abort.abort(new ConnectError("bus connection lost", Code.Unavailable));
      }
    }
  }

  function send(call: ServerCall, frame: Frame, data: Uint8Array, headers = new Map<string, string>()): void {
    headers.set(frameHeader, frame);
    bus.publish(call.reply, data, { headers });
    call.lastSent = Date.now();
    if (frame !== "hb") call.sent += 1;
  }

  /** Waits until the client has room for another frame, or gives it up. */
  async function credit(call: ServerCall): Promise<void> {
    while (call.sent - call.acked >= flow.window && !call.abort.signal.aborted) {
      const acked = call.acked;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, flow.stallTimeoutMs);
        call.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      call.wake = undefined;
      if (call.acked === acked && call.sent - call.acked >= flow.window) {
        call.abort.abort(new ConnectError("client stopped reading", Code.Canceled));
      }
    }
  }

  async function sendBody(call: ServerCall, first: Frame, body: Uint8Array, head: Map<string, string>, last: boolean, trailers: Map<string, string>): Promise<void> {
    const max = Math.max(1024, bus.maxPayload - headerAllowance);
    let offset = 0;
    let frame = first;
    do {
      const part = body.subarray(offset, offset + max);
      offset += part.byteLength;
      const final = last && offset >= body.byteLength;
      await credit(call);
      if (call.abort.signal.aborted) return;
      const kind: Frame = final ? (frame === "head" ? "head-end" : "end") : frame;
      const headers = frame === "head" ? head : new Map<string, string>();
      if (final) for (const [k, v] of trailers) headers.set(k, v);
      send(call, kind, part, headers);
      frame = "data";
    } while (offset < body.byteLength);
  }

  async function respond(handler: UniversalHandler, call: ServerCall, msg: BusMessage, id: string): Promise<void> {
    const header = new Headers();
    for (const [k, v] of msg.headers) header.set(k, v);
    const res = await handler({
      httpVersion: "2.0",
      url: `http://bus${handler.requestPath}`,
      method: "POST",
      header,
      body: (async function* () {
        yield msg.data;
      })(),
      signal: call.abort.signal,
    });
    const head = new Map<string, string>([
      [statusHeader, String(res.status)],
      [controlHeader, `${controlPrefix}.${id}`],
    ]);
    if (res.header) headersToMap(res.header, head);
    const trailers = res.trailer ? headersToMap(res.trailer, new Map(), trailerPrefix) : new Map<string, string>();
    if (handler.method.methodKind === "unary" || handler.method.methodKind === "client_streaming") {
      await sendBody(call, "head", await readAll(res.body), head, true, trailers);
      return;
    }
    await sendBody(call, "head", new Uint8Array(0), head, false, trailers);
    const it = res.body?.[Symbol.asyncIterator]();
    try {
      for (;;) {
        if (call.abort.signal.aborted || !it) break;
        const next = await it.next();
        if (next.done) break;
        await sendBody(call, "data", next.value, head, false, trailers);
      }
    } finally {
      await it?.return?.();
    }
    if (!call.abort.signal.aborted) send(call, "end", new Uint8Array(0), trailers);
  }

  async function handle(handler: UniversalHandler, msg: BusMessage): Promise<void> {
    if (msg.reply === undefined || closed) return;
    const id = String(++nextId);
    const call: ServerCall = { reply: msg.reply, abort: new AbortController(), sent: 0, acked: 0, lastSent: Date.now(), wake: undefined };
    calls.set(id, call);
    heartbeat ??= setInterval(beat, Math.max(10, wholeMs(flow.heartbeatMs / 2))).unref();
    try {
      await respond(handler, call, msg, id);
    } catch {
      // The universal handler answers errors itself; reaching here means the
      // bus failed under us. Try once to tell the client, without the cause.
      try {
        if (call.sent === 0) {
          send(call, "head-end", internalErrorBody, new Map([[statusHeader, "500"], ["content-type", "application/json"]]));
        }
      } catch {
        // the connection is gone: the client's idle timeout will report it
      }
    } finally {
      calls.delete(id);
      if (calls.size === 0) {
        if (heartbeat) clearInterval(heartbeat);
        heartbeat = undefined;
        idle?.();
      }
    }
  }

  for (const handler of handlers) {
    const subject = subjectOfPath(handler.requestPath, options.node);
    const queue = options.node ? undefined : queueOfPath(handler.requestPath);
    subs.push(bus.subscribe(subject, (msg) => void handle(handler, msg), queue ? { queue } : {}));
  }

  function unsubscribe(s: BusSubscription): void {
    try {
      s.unsubscribe();
    } catch {
      // already gone with the connection
    }
  }

  function close(): void {
    if (closed) return;
    closed = true;
    if (heartbeat) clearInterval(heartbeat);
    for (const s of subs) unsubscribe(s);
    unsubscribe(control);
    for (const call of calls.values()) call.abort.abort(new ConnectError("server is shutting down", Code.Unavailable));
  }

  async function drain(): Promise<void> {
    await Promise.all(subs.map((s) => s.drain().catch(() => undefined)));
    if (calls.size > 0) await new Promise<void>((resolve) => (idle = resolve));
    close();
  }

  bus.onClose(close);
  return { close, drain };
}
