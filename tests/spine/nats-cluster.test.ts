import { createClient } from "@connectrpc/connect";
import { connectNatsBus, type Bus } from "@mc/shared/bus";
import { createBusTransport, serveOverBus } from "@mc/shared/connect";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitFor } from "../harness/wait-for.js";
import { createEchoHandlers } from "../fixtures/echo-service.js";
import { EchoService } from "../gen/echo/v1/echo_pb.js";
import { startNatsCluster, type NatsCluster } from "../harness/nats-server.js";

interface Ctx {
  cluster: NatsCluster | undefined;
  buses: Bus[];
}

const cluster = suite<Ctx>("connect over a three-node NATS cluster", { cluster: undefined, buses: [] });

cluster.before(async (ctx) => {
  ctx.cluster = await startNatsCluster(3);
});

cluster.after(async (ctx) => {
  await Promise.all(ctx.buses.map((b) => b.close()));
  await ctx.cluster?.stop();
});

cluster("should route calls between servers on different nodes", async (ctx) => {
  const [n1, , n3] = ctx.cluster?.urls ?? [];
  assert.ok(n1 && n3);
  const serverBus = await connectNatsBus({ servers: n1 });
  const clientBus = await connectNatsBus({ servers: n3 });
  ctx.buses.push(serverBus, clientBus);
  serveOverBus(serverBus, createEchoHandlers("on-n1"));
  await serverBus.flush();
  const client = createClient(EchoService, createBusTransport({ bus: clientBus }));
  // Subscription interest propagates between routes asynchronously: retry until it arrives.
  const res = await waitFor(() => client.echo({ text: "across" }), { what: "interest to reach n3" });
  assert.is(res.serverId, "on-n1");
  let n = 0;
  for await (const msg of client.count({ n: 500 })) n = msg.value;
  assert.is(n, 500);
});

cluster.run();
