// The cluster launcher's command line: its usage and its commands, run by
// the project's one argument parser (@mc/shared/program). A mistake ends with
// status 2, as it always has.
import { existsSync } from "node:fs";
import { relative } from "node:path";
import { ProgramCommand, ProgramError, ProgramUsageError, type Program } from "@mc/shared/program";
import { down } from "./down.js";
import { releaseKeyOf, secretsOf } from "./services.js";
import { status } from "./status.js";
import { clusterDir, gatewayPorts, loadTopology, natsUrls, stateFile } from "./topology.js";
import { ClusterError, up } from "./up.js";

export const usage = `Usage: npm run cluster -- <up|status|down|env>

Starts on 127.0.0.1 what compose.yaml describes: nats-server x3 (clustered),
three KMS nodes in one Raft cluster, two release service instances (with a
release signing key and the sample catalog of \`npm start\`) and two gateways.
Publish into it with \`npx releases publish … --nats <its NATS URL>\`. State (certificates, keys, data, logs, pid files) lives in
$MC_CLUSTER_DIR, default .cluster/ in the repository.

  up       start whatever is not running; returns once all is ready
  status   processes, KMS roles (naming the leader) and readiness
  down     stop every process \`up\` started
  env      print NATS_URL=… of this cluster (and its gateways, as a comment), for
           \`eval "$(npm run -s cluster -- env)"\`

Environment: MC_CLUSTER_DIR (state folder), MC_CLUSTER_PORTS=auto (free
ports instead of 4222-4224, 7373-7375, 8080-8081; chosen at the first up).
`;

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/** A command of the launcher: bad environment is named in one line before anything starts. */
abstract class ClusterCommand extends ProgramCommand {
  async run(): Promise<number> {
    const ports = process.env.MC_CLUSTER_PORTS;
    if (ports !== undefined && ports !== "" && ports !== "auto") throw new ProgramUsageError(`MC_CLUSTER_PORTS must be 'auto' or unset, got '${ports}'`);
    const dir = clusterDir();
    const shown = relative(process.cwd(), dir).startsWith("..") ? dir : relative(process.cwd(), dir) || ".";
    return this.runIn(dir, shown).catch((err: unknown) => {
      // A file that cannot be written or a process that cannot start: its one line ("not a directory, mkdir '…'"), never a stack.
      const message = err instanceof Error ? err.message : String(err);
      throw new ProgramError(err instanceof ClusterError ? message : (message.split("\n")[0] ?? message).replace(/^E[A-Z]+: /, ""));
    });
  }

  abstract runIn(dir: string, shown: string): Promise<number>;
}

class UpCommand extends ClusterCommand {
  static override paths = [["up"]];

  async runIn(dir: string, shown: string): Promise<number> {
    const r = await up(dir);
    const files = secretsOf(r.topology);
    out(r.started.length === 0 ? `cluster already up (${shown}): nothing to start` : `cluster up (${shown}): started ${r.started.join(", ")}`);
    for (const s of r.services) out(`  ${s.name.padEnd(10)} ${s.endpoint}`);
    out(`  CA:           ${files.caFile}   (clients: --ca / KMS_CA / mc's certs/CAs)`);
    out(`  root API key: ${files.apiKeyFile}   (KMS_API_KEY=$(cat ${files.apiKeyFile}))`);
    out(`  signing key:  ${releaseKeyOf(r.topology)}   (the release services sign with it)`);
    out(`  publish:      npx releases publish --product client --component mc --from dist/ --nats ${natsUrls(r.topology.ports)}`);
    out(`  logs:         ${dir}/logs/`);
    return 0;
  }
}

class StatusCommand extends ClusterCommand {
  static override paths = [["status"]];

  async runIn(dir: string): Promise<number> {
    const r = await status(dir);
    for (const l of r.lines) out(l);
    return r.healthy ? 0 : 1;
  }
}

class EnvCommand extends ClusterCommand {
  static override paths = [["env"]];

  async runIn(dir: string, shown: string): Promise<number> {
    // The ports are fixed at the first `up` (state.json); before it there is no cluster to name.
    if (!existsSync(stateFile(dir))) throw new ClusterError(`no cluster in ${shown}: start one with npm run cluster -- up`);
    const { topology } = await loadTopology(dir);
    out(`export NATS_URL=${natsUrls(topology.ports)}`);
    // A comment: eval ignores it, and exporting BASE_URL would change what `npm start` serves.
    out(`# gateways: ${gatewayPorts(topology.ports).map((p) => `http://127.0.0.1:${p}`).join(" ")} (one deployment: links name the first)`);
    return 0;
  }
}

class DownCommand extends ClusterCommand {
  static override paths = [["down"]];

  async runIn(dir: string, shown: string): Promise<number> {
    const r = await down(dir);
    out(r.stopped.length === 0 ? `cluster is not up (${shown}): nothing to stop` : `cluster down: stopped ${r.stopped.join(", ")}; no process left`);
    return 0;
  }
}

export const clusterProgram: Program = { name: "cluster", usage, usageStatus: 2, commands: [UpCommand, StatusCommand, EnvCommand, DownCommand] };
