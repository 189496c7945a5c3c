// Composition root of the gateway: the only place that starts I/O.
import { mkdir } from "node:fs/promises";
import { pino } from "pino";
import { connectNatsBus, createMemoryBroker, isAppError, type Bus } from "@mc/shared";
import { createBusHealth } from "./bus-health.js";
import { parseGatewayConfig, usage } from "./config.js";
import { createGatewayServer } from "./http-server.js";

const log = pino({ name: "gateway", level: process.env.LOG_LEVEL ?? "info" }, pino.destination(2));

function fail(message: string): never {
  process.stderr.write(`gateway: ${message}\n`);
  process.exit(1);
}

let config;
try {
  config = parseGatewayConfig(process.argv.slice(2), process.env);
} catch (err) {
  fail(`${isAppError(err) ? err.message : "bad arguments"}\n\n${usage}`);
}
if (config.help) {
  process.stdout.write(usage);
  process.exit(0);
}

let bus: Bus;
if (config.natsUrl) {
  try {
    bus = await connectNatsBus({ servers: config.natsUrl.split(","), name: "gateway" });
  } catch (err) {
    fail(`cannot reach NATS at ${config.natsUrl}: ${err instanceof Error ? err.message : String(err)}`);
  }
} else {
  await mkdir(config.dataDir, { recursive: true });
  bus = createMemoryBroker().connect();
}

const busHealth = createBusHealth(bus);
const server = createGatewayServer({ busHealth, busName: config.natsUrl ?? "in-process", startedAt: new Date() });
server.on("error", (err: NodeJS.ErrnoException) => {
  const why = err.code === "EADDRINUSE" ? "address already in use" : err.code === "EACCES" ? "permission denied" : err.message;
  fail(`cannot listen on ${config.host}:${config.port}: ${why}`);
});
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const base = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  log.info({ base, bus: config.natsUrl ?? "in-process" }, "gateway ready");
  process.stdout.write(
    [
      `gateway ready on ${base} (bus: ${config.natsUrl ?? "in-process"})`,
      config.natsUrl ? "" : `  state:   ${config.dataDir}`,
      `  health:  ${base}/healthz`,
      "",
    ]
      .filter((line, i, all) => line !== "" || i === all.length - 1)
      .join("\n"),
  );
});

function shutdown(signal: NodeJS.Signals): void {
  log.info({ signal }, "shutting down");
  server.close();
  server.closeAllConnections();
  busHealth.close();
  void bus.close().then(() => process.exit(0));
}
process.once("SIGINT", () => shutdown("SIGINT"));
process.once("SIGTERM", () => shutdown("SIGTERM"));
