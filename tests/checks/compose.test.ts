import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { parse } from "yaml";
import { repoRoot } from "./run-tool.js";

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

const compose = suite("compose.yaml");

compose("should describe a coherent topology :: every dependency exists and is health-checked", async () => {
  // Compose resolves YAML merge keys (<<), which YAML 1.2 parsers leave off by default.
  const doc = parse(await readFile(join(repoRoot, "compose.yaml"), "utf8"), { merge: true }) as { services: Record<string, ComposeService> };
  const services = doc.services;
  const names = Object.keys(services);
  for (const n of ["nats1", "nats2", "nats3", "gateway"]) assert.ok(names.includes(n), `missing service ${n}`);
  for (const [name, svc] of Object.entries(services)) {
    assert.ok(svc.image ?? svc.build, `${name} has neither image nor build`);
    assert.ok(svc.healthcheck?.test.length, `${name} has no health check`);
    for (const dep of Object.keys(svc.depends_on ?? {})) {
      assert.ok(names.includes(dep), `${name} depends on unknown ${dep}`);
      assert.is(svc.depends_on?.[dep]?.condition, "service_healthy", `${name} -> ${dep}`);
    }
  }
  const gatewayNats = services.gateway?.command?.join(" ") ?? "";
  for (const n of ["nats1", "nats2", "nats3"]) assert.match(gatewayNats, `nats://${n}:4222`);
});

compose.run();
