import { connectNatsBus } from "@mc/shared/bus";
import { fileURLToPath } from "node:url";
import { startNatsServer, type NatsNode } from "../harness/nats-server.js";
import { startProcess } from "../harness/processes.js";
import { waitFor } from "../harness/wait-for.js";
import { defineTransportSuite } from "./transport-suite.js";

let nats: NatsNode | undefined;
const serverScript = fileURLToPath(new URL("../fixtures/echo-server-process.ts", import.meta.url));

defineTransportSuite("connect over a real nats-server", {
  setup: async () => {
    nats = await startNatsServer();
  },
  teardown: async () => {
    await nats?.stop();
  },
  connect: async () => {
    if (!nats) throw new Error("no nats-server");
    return connectNatsBus({ servers: nats.url });
  },
  // nats-server's default max_payload
  maxPayload: () => 1024 * 1024,
  startKillableServer: async (serverId, heartbeatMs) => {
    if (!nats) throw new Error("no nats-server");
    const proc = startProcess(process.execPath, ["--import", "tsx", serverScript, nats.url, serverId, String(heartbeatMs)]);
    await waitFor(() => proc.output().includes("ready"), { what: `echo server ${serverId}: ${proc.output()}`, timeoutMs: 15000 });
    return { kill: () => proc.kill() };
  },
});
