import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startPrometheus } from "../harness/prometheus.js";
import { waitFor } from "../harness/wait-for.js";
import { createFixture, runKms } from "./kms-harness.js";

const scrape = suite("kms metrics scraped by a real Prometheus");

scrape("should be up on /v1/health/metrics over HTTPS and down on the default path", async () => {
  const fx = await createFixture("software");
  const kms = await runKms(fx, { KMS_HSM_KEY: "" });
  const target = `127.0.0.1:${fx.port}`;
  const prom = await startPrometheus(join(fx.dir, "prometheus"), [
    { name: "kms", target, metricsPath: "/v1/health/metrics", caFile: fx.certs.caFile },
    { name: "kms-default-path", target, caFile: fx.certs.caFile },
  ]);
  try {
    const seen = await waitFor(
      async () => {
        const t = await prom.targets();
        return t.kms?.health !== "unknown" && t["kms-default-path"]?.health !== "unknown" && t.kms && t["kms-default-path"] ? t : undefined;
      },
      { what: "both targets scraped", timeoutMs: 20000 },
    );
    assert.is(seen.kms?.health, "up", seen.kms?.lastError);
    assert.is(seen["kms-default-path"]?.health, "down");
    assert.match(seen["kms-default-path"]?.lastError ?? "", /404/);
    const q = (await (await fetch(`${prom.url}/api/v1/query?query=consens_leader`)).json()) as { data: { result: { value: [number, string] }[] } };
    assert.is(q.data.result[0]?.value[1], "1");
  } finally {
    await prom.stop();
    await kms.proc.stop();
    await fx.cleanup();
  }
});

scrape.run();
