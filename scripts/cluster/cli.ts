// `npm run cluster -- up|status|down`: compose.yaml's topology as local
// processes on loopback, for machines without Docker (docs/operations.md).
import { relative } from "node:path";
import { down } from "./down.js";
import { releaseKeyOf, secretsOf } from "./services.js";
import { status } from "./status.js";
import { existsSync } from "node:fs";
import { clusterDir, gatewayPorts, loadTopology, natsUrls, stateFile } from "./topology.js";
import { ClusterError, up } from "./up.js";
import { endOnClosedPipe } from "@mc/shared/closed-pipe";

const usage = `Usage: npm run cluster -- <up|status|down|env>

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

// A closed stdout (`npm run cluster -- up | head -2`) ends quietly with 141, as a program killed by SIGPIPE.
endOnClosedPipe();

/** Bad input is a usage error (status 2): named in one line before anything starts. */
function usageError(argv: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  const [command, ...extra] = argv;
  if (command !== undefined && extra.length > 0) return `'${command}' takes no arguments, got '${extra.join(" ")}'`;
  const ports = env.MC_CLUSTER_PORTS;
  if (ports !== undefined && ports !== "" && ports !== "auto") return `MC_CLUSTER_PORTS must be 'auto' or unset, got '${ports}'`;
  return undefined;
}

async function main(command: string | undefined): Promise<number> {
  const dir = clusterDir();
  const shown = relative(process.cwd(), dir).startsWith("..") ? dir : relative(process.cwd(), dir) || ".";
  switch (command) {
    case "up": {
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
    case "status": {
      const r = await status(dir);
      for (const l of r.lines) out(l);
      return r.healthy ? 0 : 1;
    }
    case "env": {
      // The ports are fixed at the first `up` (state.json); before it there is no cluster to name.
      if (!existsSync(stateFile(dir))) throw new ClusterError(`no cluster in ${shown}: start one with npm run cluster -- up`);
      const { topology } = await loadTopology(dir);
      out(`export NATS_URL=${natsUrls(topology.ports)}`);
      // A comment: eval ignores it, and exporting BASE_URL would change what `npm start` serves.
      out(`# gateways: ${gatewayPorts(topology.ports).map((p) => `http://127.0.0.1:${p}`).join(" ")} (one deployment: links name the first)`);
      return 0;
    }
    case "down": {
      const r = await down(dir);
      out(r.stopped.length === 0 ? `cluster is not up (${shown}): nothing to stop` : `cluster down: stopped ${r.stopped.join(", ")}; no process left`);
      return 0;
    }
    case "-h":
    case "--help":
    case "help":
      process.stdout.write(usage);
      return 0;
    default:
      process.stderr.write(command === undefined ? usage : `cluster: unknown command '${command}'\n\n${usage}`);
      return 2;
  }
}

const bad = ["up", "status", "down", "env"].includes(process.argv[2] ?? "") ? usageError(process.argv.slice(2), process.env) : undefined;
try {
  if (bad !== undefined) {
    process.stderr.write(`cluster: ${bad}\n`);
    process.exitCode = 2;
  } else process.exitCode = await main(process.argv[2]);
} catch (err) {
  // A file that cannot be written or a process that cannot start: its one line ("not a directory, mkdir '…'"), never a stack.
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`cluster: ${err instanceof ClusterError ? message : (message.split("\n")[0] ?? message).replace(/^E[A-Z]+: /, "")}\n`);
  process.exitCode = 1;
}
