// Unary calls per second, concurrency 1 and 32: Connect over NATS (our bus
// transport) against Connect over HTTP/2 (@connectrpc/connect-node) and raw
// NATS request/reply, same payload, servers in one other process. A fourth
// column, Connect's own in-memory router transport (no I/O at all, client and
// server in this process), shows the ceiling the Connect protocol itself sets.
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { connect } from "@nats-io/transport-node";
import { connectNatsBus } from "@mc/shared/bus";
import { createBusTransport } from "@mc/shared/connect";
import { fileURLToPath } from "node:url";
import { startNatsServer } from "../tests/harness/nats-server.js";
import { startProcess } from "../tests/harness/processes.js";
import { waitFor } from "../tests/harness/wait-for.js";
import { EchoService } from "../tests/gen/echo/v1/echo_pb.js";

const durationMs = Number(process.env.BENCH_MS ?? 3000);
const payload = new Uint8Array(64).fill(1);
const text = "bench";

async function rate(concurrency: number, call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 200; i++) await call();
  let done = 0;
  const end = Date.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        await call();
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

const nats = await startNatsServer();
const peers = startProcess(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./fixtures/transport-peers.ts", import.meta.url)), nats.url]);
try {
  const port = await waitFor(() => /ready (\d+)/.exec(peers.output())?.[1], { what: `bench peers: ${peers.output()}`, timeoutMs: 20000 });
  const bus = await connectNatsBus({ servers: nats.url });
  const overBus = createClient(EchoService, createBusTransport({ bus }));
  const overH2 = createClient(EchoService, createConnectTransport({ baseUrl: `http://127.0.0.1:${port}`, httpVersion: "2" }));
  const inMemory = createClient(
    EchoService,
    createRouterTransport(({ service }) => {
      service(EchoService, { echo: (req) => ({ text: req.text, payload: req.payload }), async *count() {} });
    }),
  );
  const raw = await connect({ servers: nats.url });
  const rawBody = new Uint8Array(payload.byteLength + text.length + 8).fill(1);

  const fmt = (n: number): string => Math.round(n).toLocaleString("en-US");
  for (const concurrency of [1, 32]) {
    const viaBus = await rate(concurrency, () => overBus.echo({ text, payload }));
    const viaH2 = await rate(concurrency, () => overH2.echo({ text, payload }));
    const viaRaw = await rate(concurrency, () => raw.request("bench.raw.echo", rawBody, { timeout: 5000 }));
    const viaMemory = await rate(concurrency, () => inMemory.echo({ text, payload }));
    process.stdout.write(
      `unary c=${concurrency}: connect/nats ${fmt(viaBus)}/s, connect/http2 ${fmt(viaH2)}/s, raw nats ${fmt(viaRaw)}/s, ` +
        `connect in-memory (no I/O) ${fmt(viaMemory)}/s; ` +
        `nats:http2 ${(viaBus / viaH2).toFixed(2)}x, nats:raw ${(viaBus / viaRaw).toFixed(2)}x\n`,
    );
  }
  await bus.close();
  await raw.close();
} finally {
  await peers.stop();
  await nats.stop();
}
