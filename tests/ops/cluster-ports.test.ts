// The launcher's auto ports (MC_CLUSTER_PORTS=auto): every planned port is a
// different one. Asking for free ports one by one, closing each, once gave a
// NATS node the same monitor and route port ("address already in use").
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { allPorts, loadTopology } from "../../scripts/cluster/topology.js";

test("300 plans of auto ports: 14 distinct ports each", async () => {
  const dir = await mkdtemp(join(tmpdir(), "cluster-ports-"));
  try {
    for (let i = 0; i < 300; i++) {
      const { topology } = await loadTopology(join(dir, "never-written"), { MC_CLUSTER_PORTS: "auto" });
      const ports = allPorts(topology.ports);
      assert.is(new Set(ports).size, 14, `plan ${i}: ${ports.join(",")}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
