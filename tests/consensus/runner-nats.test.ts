// run-all: alone (it measures elections, failover or 2 s visibility, which a busy neighbour would distort)
import { connectNatsBus } from "@mc/shared/bus";
import { startNatsServer, type NatsNode } from "../harness/nats-server.js";
import { defineRunnerSuite } from "./runner-suite.js";

let nats: NatsNode | undefined;

defineRunnerSuite("raft runners over a real nats-server", {
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
});
