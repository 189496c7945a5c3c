import { createMemoryBroker, type MemoryBroker } from "@mc/shared/bus";
import { defineRunnerSuite } from "./runner-suite.js";

let broker: MemoryBroker | undefined;

defineRunnerSuite("raft runners over the in-process bus", {
  setup: async () => {
    broker = createMemoryBroker();
  },
  teardown: async () => {
    broker = undefined;
  },
  connect: async () => {
    if (!broker) throw new Error("no broker");
    return broker.connect();
  },
});
