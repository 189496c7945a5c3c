import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { freePort } from "./free-port.js";
import { startProcess, type Started } from "./processes.js";
import { waitFor } from "./wait-for.js";

export interface ScrapeJob {
  readonly name: string;
  readonly target: string;
  readonly metricsPath?: string;
  readonly caFile?: string;
  /** Default https. */
  readonly scheme?: "http" | "https";
}

export interface Prometheus {
  readonly url: string;
  readonly proc: Started;
  /** Health of each job's target as Prometheus reports it ("up", "down", "unknown"). */
  targets(): Promise<Record<string, { health: string; lastError: string }>>;
  stop(): Promise<void>;
}

/** A real Prometheus (Debian package `prometheus`) scraping the given jobs every second. */
export async function startPrometheus(dir: string, jobs: readonly ScrapeJob[]): Promise<Prometheus> {
  await mkdir(join(dir, "tsdb"), { recursive: true });
  const lines = ["global:", "  scrape_interval: 1s", "  scrape_timeout: 1s", "scrape_configs:"];
  for (const j of jobs) {
    lines.push(`  - job_name: ${j.name}`, `    scheme: ${j.scheme ?? "https"}`);
    if (j.metricsPath) lines.push(`    metrics_path: ${j.metricsPath}`);
    if (j.caFile) lines.push("    tls_config:", `      ca_file: ${j.caFile}`);
    lines.push("    static_configs:", `      - targets: ["${j.target}"]`);
  }
  const config = join(dir, "prometheus.yml");
  await writeFile(config, `${lines.join("\n")}\n`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = startProcess("prometheus", [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, "tsdb")}`, `--web.listen-address=127.0.0.1:${port}`]);
  await waitFor(async () => (await fetch(`${url}/-/ready`)).ok, { what: "prometheus ready", timeoutMs: 30000 });
  return {
    url,
    proc,
    async targets() {
      const body = (await (await fetch(`${url}/api/v1/targets`)).json()) as { data: { activeTargets: { labels: { job: string }; health: string; lastError: string }[] } };
      return Object.fromEntries(body.data.activeTargets.map((t) => [t.labels.job, { health: t.health, lastError: t.lastError }]));
    },
    stop: () => proc.stop(),
  };
}
