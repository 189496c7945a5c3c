import { createMemoryBroker, type MemoryBroker } from "@mc/shared/bus";
import { serveOverBus } from "@mc/shared/connect";
import { createEchoHandlers } from "../fixtures/echo-service.js";
import { defineTransportSuite } from "./transport-suite.js";

let broker: MemoryBroker | undefined;
const maxPayload = 64 * 1024;

defineTransportSuite("connect over the in-process bus", {
  setup: async () => {
    broker = createMemoryBroker({ maxPayload });
  },
  teardown: async () => {
    broker = undefined;
  },
  connect: async () => {
    if (!broker) throw new Error("no broker");
    return broker.connect();
  },
  maxPayload: () => maxPayload,
  startKillableServer: async (serverId, heartbeatMs) => {
    if (!broker) throw new Error("no broker");
    const bus = broker.connect();
    serveOverBus(bus, createEchoHandlers(serverId), { flow: { heartbeatMs } });
    // Dropping the connection is this bus's SIGKILL: the server says nothing more.
    return { kill: () => bus.close() };
  },
});
