import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createBusTransport, serveOverBus, type FlowSettings } from "@mc/shared/connect";
import type { Bus } from "@mc/shared/bus";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitFor } from "../harness/wait-for.js";
import { EchoService } from "../gen/echo/v1/echo_pb.js";
import { createEchoHandlers, type EchoObserver } from "../fixtures/echo-service.js";

/** A bus and the means to run servers on it: real NATS or in-process. */
export interface TransportEnv {
  setup(): Promise<void>;
  teardown(): Promise<void>;
  /** A new, independent connection to the bus. */
  connect(): Promise<Bus>;
  /** Largest message the bus carries. */
  maxPayload(): number;
  /** A server that can die without a goodbye (a SIGKILLed process, or a dropped connection). */
  startKillableServer(serverId: string, heartbeatMs: number): Promise<{ kill(): Promise<void> }>;
}

interface Ctx {
  buses: Bus[];
  client: Client<typeof EchoService>;
  observer: EchoObserver;
}

const fastFlow: Partial<FlowSettings> = { heartbeatMs: 100, idleTimeoutMs: 1500 };

async function rejection(promise: Promise<unknown>): Promise<ConnectError> {
  try {
    await promise;
  } catch (err) {
    return ConnectError.from(err);
  }
  throw new Error("expected the call to fail");
}

export function defineTransportSuite(name: string, env: TransportEnv): void {
  const t = suite<Ctx>(name, { buses: [], client: undefined as never, observer: { streamsStarted: 0, streamsAborted: 0, lastStreamSent: 0 } });

  async function open(ctx: Ctx): Promise<Bus> {
    const bus = await env.connect();
    ctx.buses.push(bus);
    return bus;
  }

  async function serve(ctx: Ctx, id: string): Promise<Bus> {
    const bus = await open(ctx);
    serveOverBus(bus, createEchoHandlers(id, ctx.observer));
    await bus.flush();
    return bus;
  }

  t.before(async (ctx) => {
    await env.setup();
    await serve(ctx, "a");
    ctx.client = createClient(EchoService, createBusTransport({ bus: await open(ctx), flow: fastFlow }));
  });

  t.after(async (ctx) => {
    await Promise.all(ctx.buses.map((b) => b.close()));
    await env.teardown();
  });

  t("should round-trip a unary call :: generated client", async ({ client }) => {
    const payload = new Uint8Array([1, 2, 3, 250]);
    let header: Headers | undefined;
    const res = await client.echo({ text: "hello", payload }, { onHeader: (h) => (header = h) });
    assert.is(res.text, "hello");
    assert.equal([...res.payload], [1, 2, 3, 250]);
    assert.is(res.serverId, "a");
    assert.is(header?.get("x-echo-server"), "a");
  });

  t("should carry every Connect error code with message and metadata", async ({ client }) => {
    const codes = Object.values(Code).filter((c): c is Code => typeof c === "number");
    assert.is(codes.length, 16);
    for (const code of codes) {
      const name = Code[code];
      const err = await rejection(client.echo({ failCode: name, failMessage: `failed with ${name}` }));
      assert.is(err.code, code, `code ${name}`);
      assert.is(err.rawMessage, `failed with ${name}`);
      assert.is(err.metadata.get("x-echo-meta"), "from-a");
    }
  });

  t("should fail with DeadlineExceeded on time :: deadline shorter than the work", async ({ client }) => {
    const started = Date.now();
    const err = await rejection(client.echo({ text: "slow", delayMs: 2000 }, { timeoutMs: 200 }));
    const took = Date.now() - started;
    assert.is(err.code, Code.DeadlineExceeded);
    assert.ok(took >= 190 && took < 1500, `took ${took} ms`);
  });

  t("should fail with Unavailable at once :: no server", async (ctx) => {
    const bus = await open(ctx);
    const lonely = createClient(EchoService, createBusTransport({ bus, node: { clusterId: "nobody", nodeId: "n0" } }));
    const started = Date.now();
    const err = await rejection(lonely.echo({ text: "anyone?" }));
    assert.is(err.code, Code.Unavailable);
    assert.match(err.rawMessage, "no service is listening on echo.v1.EchoService.Echo.nobody.n0");
    assert.ok(Date.now() - started < 1000, "not at once");
  });

  t("should stream 10,000 messages complete and in order", async ({ client }) => {
    let expected = 1;
    for await (const msg of client.count({ n: 10000 })) {
      assert.is(msg.value, expected);
      expected += 1;
    }
    assert.is(expected, 10001);
  });

  t("should stop the server stream :: client cancels", async (ctx) => {
    const before = { ...ctx.observer };
    const abort = new AbortController();
    let received = 0;
    const err = await rejection(
      (async () => {
        for await (const msg of ctx.client.count({ n: 100000, delayMs: 1 }, { signal: abort.signal })) {
          received = msg.value;
          if (received === 50) abort.abort();
        }
      })(),
    );
    assert.is(err.code, Code.Canceled);
    await waitFor(() => ctx.observer.streamsAborted > before.streamsAborted, { what: "the server to see the cancel", timeoutMs: 3000 });
    const sentAtAbort = ctx.observer.lastStreamSent;
    await new Promise((r) => setTimeout(r, 100));
    assert.is(ctx.observer.lastStreamSent, sentAtAbort, "server kept producing");
    assert.ok(sentAtAbort < 1000, `server produced ${sentAtAbort} messages`);
  });

  t("should share calls in a queue group", async (ctx) => {
    await serve(ctx, "b");
    const counts = new Map<string, number>();
    const calls = Array.from({ length: 1000 }, () => ctx.client.echo({ text: "x" }));
    for (const res of await Promise.all(calls)) counts.set(res.serverId, (counts.get(res.serverId) ?? 0) + 1);
    assert.ok((counts.get("a") ?? 0) > 0, `a got none: ${JSON.stringify([...counts])}`);
    assert.ok((counts.get("b") ?? 0) > 0, `b got none: ${JSON.stringify([...counts])}`);
    assert.is((counts.get("a") ?? 0) + (counts.get("b") ?? 0), 1000);
  });

  t("should answer oversized requests with ResourceExhausted and chunk large replies", async ({ client }) => {
    const max = env.maxPayload();
    const err = await rejection(client.echo({ payload: new Uint8Array(max + 1) }, { timeoutMs: 5000 }));
    assert.is(err.code, Code.ResourceExhausted);
    assert.match(err.rawMessage, "exceeds the bus limit");
    const big = await client.echo({ replySize: 3 * max + 123 }, { timeoutMs: 10000 });
    assert.is(big.payload.byteLength, 3 * max + 123);
    assert.ok(big.payload.every((b) => b === 7));
    let total = 0;
    for await (const msg of client.count({ n: 3, fillerSize: 2 * max })) total += msg.filler.byteLength;
    assert.is(total, 6 * max);
  });

  t("should answer calls in flight and then leave :: graceful drain", async (ctx) => {
    const node = { clusterId: "drain", nodeId: "n1" };
    const bus = await open(ctx);
    const leaving = serveOverBus(bus, createEchoHandlers("leaving"), { node });
    await bus.flush();
    const client = createClient(EchoService, createBusTransport({ bus: await open(ctx), node, flow: fastFlow }));
    const call = client.echo({ text: "slow", delayMs: 300 });
    await new Promise((r) => setTimeout(r, 100));
    await leaving.drain();
    const res = await call;
    assert.is(res.serverId, "leaving");
    const after = await rejection(client.echo({ text: "after" }));
    assert.is(after.code, Code.Unavailable);
  });

  t("should fail, not hang, when a server dies mid-stream; later calls succeed", async (ctx) => {
    // Only the killable server and one healthy server remain in the group.
    for (const bus of ctx.buses.splice(0)) await bus.close();
    await serve(ctx, "healthy");
    const doomed = await env.startKillableServer("doomed", 100);
    const client = createClient(EchoService, createBusTransport({ bus: await open(ctx), flow: fastFlow }));
    let failure: ConnectError | undefined;
    for (let attempt = 0; attempt < 20 && !failure; attempt++) {
      const stream = client.count({ n: 1000000, delayMs: 2 });
      const started = Date.now();
      try {
        for await (const msg of stream) {
          if (msg.serverId !== "doomed") break;
          if (msg.value === 20) await doomed.kill();
        }
      } catch (err) {
        failure = ConnectError.from(err);
        assert.ok(Date.now() - started < 5000, "took too long to notice");
      }
    }
    assert.ok(failure, "never reached the doomed server");
    assert.is(failure.code, Code.Unavailable);
    for (let i = 0; i < 20; i++) {
      const res = await client.echo({ text: "after" });
      assert.is(res.serverId, "healthy");
    }
  });

  t.run();
}
