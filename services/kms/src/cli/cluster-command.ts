// `kms cluster add|remove|status` against a running node (contract §8).
import { readFile } from "node:fs/promises";
import { Option, ProgramCommand } from "@mc/shared/program";
import { createKmsClient, KmsClientError } from "../client/kms-client.js";
import { StartupError } from "../config/startup-error.js";
import { clusterView, clusterViewLines } from "./cluster-view.js";

/** --server is HOST:PORT or https://HOST[:PORT]; anything else is one clear line here, not a URL parser's stack later. */
function serverOf(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value.includes("://") ? value : `https://${value}`);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== "https:" || url.hostname === "" || url.pathname !== "/" || url.search !== "") {
    throw new StartupError(`kms: --server must be HOST:PORT or https://HOST:PORT, got '${value}'`);
  }
  return value;
}

const clusterUsage = `Usage: kms cluster (add HOST:PORT | remove HOST:PORT | status) [--server HOST:PORT] [--api-key KEY] [--ca FILE]

Changes or shows the members of a KMS cluster (docs/operations.md).
  add HOST:PORT      add a fresh, running node to the cluster; prints the members
  remove HOST:PORT   remove a node from the cluster; prints the members
  status             members, leader, term, indexes, lag, round trips, as the
                     leader sees them (asked of it from any node)
  --server HOST:PORT a node of the cluster (default 127.0.0.1:7373; https://HOST:PORT too)
  --api-key KEY      an API key allowed to manage the cluster (default $KMS_API_KEY)
  --ca FILE          the CA that signed the nodes' certificates (default $KMS_CA)
`;

export class ClusterCommand extends ProgramCommand {
  static override paths = [
    ["cluster", "add"],
    ["cluster", "remove"],
    ["cluster", "status"],
  ];
  static override help = clusterUsage;

  server = Option.String("--server");
  apiKey = Option.String("--api-key");
  ca = Option.String("--ca");
  host = Option.String({ required: false });

  async run(): Promise<number> {
    const sub = this.path[1] ?? "";
    const out = (line: string): void => {
      process.stdout.write(`${line}\n`);
    };
    const server = serverOf(this.server ?? "127.0.0.1:7373");
    const apiKey = this.apiKey ?? process.env.KMS_API_KEY;
    if (!apiKey) throw new StartupError("kms: cluster commands need an API key (KMS_API_KEY or --api-key)");
    const caFile = this.ca ?? process.env.KMS_CA;
    const ca = caFile
      ? await readFile(caFile).catch(() => {
          throw new StartupError(`kms: cannot read CA file: ${caFile}`);
        })
      : undefined;
    const host = this.host;
    if (sub !== "status" && !host) throw new StartupError(`kms: cluster ${sub} needs HOST:PORT`);
    const client = await createKmsClient({ server, apiKey, ...(ca ? { ca } : {}) });
    try {
      if (sub === "status") {
        // The leader's view, asked of the leader even when --server names a follower (clusterView says why when it cannot).
        const view = await clusterView(client, server, (leader) => createKmsClient({ server: leader, apiKey, ...(ca ? { ca } : {}) }));
        for (const line of clusterViewLines(view)) out(line);
        return 0;
      }
      const r = await client.call<{ nodes: string[] }>("POST", `/v1/cluster/${sub}`, { host });
      for (const n of r.nodes) out(n);
      return 0;
    } catch (err) {
      if (err instanceof KmsClientError) {
        process.stderr.write(`${err.message.startsWith("kms: ") ? err.message : `kms: ${err.message}`}\n`);
        return 1;
      }
      // Network and TLS failures (refused, timed out, untrusted or expired certificate): one line naming the server, no stack.
      if (err instanceof Error) {
        process.stderr.write(`kms: cannot reach ${server}: ${err.message}\n`);
        return 1;
      }
      throw err;
    } finally {
      client.close();
    }
  }
}
