import { Code, ConnectError } from "@connectrpc/connect";
import type { UniversalClientFn, UniversalClientResponse } from "@connectrpc/connect/protocol";
import type { Bus, BusMessage, BusSubscription } from "../bus/bus.js";
import { reasonHeader } from "../error-mapping.js";
import { subjectOfPath, type NodeAddress } from "../nats-subject.js";
import { controlHeader, countHeader, frameHeader, readAll, statusHeader, trailerPrefix, type FlowSettings } from "./frames.js";
import { wholeMs } from "../process/whole-ms.js";

interface ClientCall {
  readonly subject: string;
  readonly chunks: Uint8Array[];
  readonly trailer: Headers;
  control: string | undefined;
  lastSeen: number;
  ended: boolean;
  failure: unknown;
  consumed: number;
  acked: number;
  wake: (() => void) | undefined;
  head: { resolve: (res: UniversalClientResponse) => void; reject: (err: unknown) => void } | undefined;
}

const internalHeaders = new Set([frameHeader, statusHeader, controlHeader]);

function unavailable(message: string): ConnectError {
  return new ConnectError(message, Code.Unavailable, new Headers({ [reasonHeader]: "unavailable" }));
}

/**
 * A Connect `UniversalClientFn` over the bus: one publish per call, answers
 * on a shared wildcard inbox (no subscription per call), frames decoded as
 * described in frames.ts.
 */
export function createBusClient(bus: Bus, flow: FlowSettings, node?: NodeAddress): UniversalClientFn {
  const inbox = bus.newInbox();
  const calls = new Map<string, ClientCall>();
  let sub: BusSubscription | undefined;
  let watchdog: NodeJS.Timeout | undefined;
  let nextId = 0;

  function control(call: ClientCall, frame: "ack" | "cancel", count?: number): void {
    if (call.control === undefined) return;
    const headers = new Map<string, string>([[frameHeader, frame]]);
    if (count !== undefined) headers.set(countHeader, String(count));
    try {
      bus.publish(call.control, new Uint8Array(0), { headers });
    } catch {
      // the connection is closing: the server notices through its own timeouts
    }
  }

  function forget(token: string): void {
    calls.delete(token);
    if (calls.size === 0 && watchdog) {
      clearInterval(watchdog);
      watchdog = undefined;
    }
  }

  function finish(token: string, call: ClientCall, failure?: unknown): void {
    if (failure !== undefined && !call.ended) {
      call.failure = failure;
      call.head?.reject(failure);
      call.head = undefined;
    }
    call.ended = true;
    forget(token);
    call.wake?.();
  }

  function check(): void {
    const now = Date.now();
    for (const [token, call] of calls) {
      if (now - call.lastSeen > flow.idleTimeoutMs) {
        control(call, "cancel");
        finish(token, call, unavailable(`lost contact with the service on ${call.subject}: no answer for ${flow.idleTimeoutMs} ms`));
      }
    }
  }

  async function* body(token: string, call: ClientCall): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        const chunk = call.chunks.shift();
        if (chunk !== undefined) {
          call.consumed += 1;
          if (!call.ended && call.consumed - call.acked >= flow.window / 2) {
            call.acked = call.consumed;
            control(call, "ack", call.consumed);
          }
          if (chunk.byteLength > 0) yield chunk;
          continue;
        }
        if (call.failure !== undefined) throw call.failure;
        if (call.ended) return;
        await new Promise<void>((resolve) => (call.wake = resolve));
        call.wake = undefined;
      }
    } finally {
      if (!call.ended) {
        control(call, "cancel");
        finish(token, call);
      }
    }
  }

  function onFrame(msg: BusMessage): void {
    const token = msg.subject.slice(inbox.length + 1);
    const call = calls.get(token);
    if (!call) return;
    call.lastSeen = Date.now();
    if (msg.noResponders) {
      finish(token, call, unavailable(`no service is listening on ${call.subject}`));
      return;
    }
    const frame = msg.headers.get(frameHeader);
    if (frame === "hb") return;
    if (frame === "head" || frame === "head-end") {
      call.control = msg.headers.get(controlHeader);
      const header = new Headers();
      for (const [k, v] of msg.headers) if (!internalHeaders.has(k) && !k.startsWith(trailerPrefix)) header.set(k, v);
      call.head?.resolve({ status: Number(msg.headers.get(statusHeader) ?? 500), header, body: body(token, call), trailer: call.trailer });
      call.head = undefined;
    }
    call.chunks.push(msg.data);
    if (frame === "end" || frame === "head-end") {
      for (const [k, v] of msg.headers) if (k.startsWith(trailerPrefix)) call.trailer.set(k.slice(trailerPrefix.length), v);
      call.ended = true;
      forget(token);
    }
    call.wake?.();
  }

  return async (req) => {
    const subject = subjectOfPath(new URL(req.url).pathname, node);
    const data = await readAll(req.body);
    if (data.byteLength > bus.maxPayload - 4096) {
      throw new ConnectError(
        `request of ${data.byteLength} bytes exceeds the bus limit of ${bus.maxPayload} bytes`,
        Code.ResourceExhausted,
        new Headers({ [reasonHeader]: "payload_too_large" }),
      );
    }
    const signal = req.signal;
    signal?.throwIfAborted();
    sub ??= bus.subscribe(`${inbox}.*`, onFrame);
    const token = String(++nextId);
    const headers = new Map<string, string>();
    req.header.forEach((v, k) => headers.set(k, v));
    return new Promise<UniversalClientResponse>((resolve, reject) => {
      const call: ClientCall = {
        subject,
        chunks: [],
        trailer: new Headers(),
        control: undefined,
        lastSeen: Date.now(),
        ended: false,
        failure: undefined,
        consumed: 0,
        acked: 0,
        wake: undefined,
        head: { resolve, reject },
      };
      calls.set(token, call);
      // Not unref()ed: a call in flight is work, and on the in-process bus
      // nothing else may keep the process alive until it ends.
      watchdog ??= setInterval(check, Math.max(10, wholeMs(flow.idleTimeoutMs / 4)));
      signal?.addEventListener(
        "abort",
        () => {
          if (call.ended) return;
          control(call, "cancel");
          finish(token, call, signal.reason);
        },
        { once: true },
      );
      try {
        bus.publish(subject, data, { headers, reply: `${inbox}.${token}` });
      } catch (err) {
        finish(token, call, unavailable(`cannot send to ${subject}: ${err instanceof Error ? err.message : "bus error"}`));
      }
    });
  };
}
