import { readFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { createContextValues } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { toConnectError } from "@mc/shared/connect";
import { initCrypto } from "@mc/wasm";
import { nodeIdOf, type KmsConfig } from "./config/config.js";
import { StartupError } from "./config/startup-error.js";
import { checkIdentity } from "./domain/identity.js";
import { createAuditLog } from "./adapters/edge/audit.js";
import { readTlsOptions } from "./adapters/edge/cert-reloader.js";
import { startEdge } from "./adapters/edge/edge-server.js";
import { createKmsRoutes, registerConnectServices } from "./adapters/edge/kms-operations.js";
import { createKmsMetrics } from "./adapters/edge/metrics.js";
import type { NodeInfo } from "./adapters/edge/node-info.js";
import { rawRequestKey } from "./adapters/edge/admission.js";
import type { EdgeDeps } from "./adapters/edge/operation.js";
import { createRequestInfos } from "./adapters/edge/request-info.js";
import { openHsm } from "./adapters/hsm/open-hsm.js";
import { createEnclavesOnce, type ClusterNode } from "./adapters/cluster/cluster-node.js";
import { addMember, removeMember } from "./adapters/cluster/membership.js";
import { formatApiKey, identityOfSeed } from "./adapters/tls/api-key.js";
import { openNodeState, type NodeState } from "./open-node-state.js";

export const kmsVersion = "0.1.0";

export interface KmsNodeOptions {
  /** Paths already resolved against the config file's directory. */
  readonly config: KmsConfig;
  readonly env?: NodeJS.ProcessEnv;
  /** Operational log lines (never secrets). */
  readonly log?: (line: string) => void;
  /** The terminal (stderr): the only place the root API key is ever printed. */
  readonly terminal?: (line: string) => void;
}

export interface KmsNode {
  readonly host: string;
  readonly port: number;
  readonly rootIdentity: string;
  /** The derived root API key when this start created the data directory (and printed it), else undefined. */
  readonly rootApiKey: string | undefined;
  close(): Promise<void>;
}

const readable = (path: string): boolean => {
  try {
    return path !== "" && readFileSync(path).length > 0;
  } catch {
    return false;
  }
};

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Starts one KMS node: startup checks in the contract's order (§7, nothing is
 * written before they pass), HSM, sealed store, domain, then the TLS edge.
 * The port opens only once the node can serve.
 */
export async function startKmsNode(options: KmsNodeOptions): Promise<KmsNode> {
  const { config } = options;
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const terminal = options.terminal ?? ((line: string) => process.stderr.write(`${line}\n`));
  const tls = config.tls;
  if (!tls) throw new StartupError("kms: no TLS configuration provided");
  if (!readable(tls.cert)) throw new StartupError("kms: no server certificate provided");
  if (!readable(tls.key)) throw new StartupError(`kms: no server private key provided: ${tls.key}`);
  const tlsFiles = { cert: tls.cert, key: tls.key, ca: tls.ca };
  try {
    readTlsOptions(tlsFiles);
  } catch (err) {
    throw new StartupError(`kms: invalid TLS certificate: ${reason(err)}`);
  }
  if (!config.hsm) throw new StartupError("kms: no HSM provided");
  let adminIdentity: string | undefined;
  if (config.adminIdentity !== undefined) {
    try {
      adminIdentity = checkIdentity(config.adminIdentity);
    } catch {
      throw new StartupError(`kms: invalid configuration: admin.identity '${config.adminIdentity}' is not an identity`);
    }
  }
  await initCrypto();
  const hsm = await openHsm(config.hsm, env);
  const seed = await hsm.rootSeed();
  const rootIdentity = adminIdentity ?? identityOfSeed(seed);
  // The root API key goes to the terminal as soon as the data directory is
  // created: a start that fails later (a busy port) must not swallow it.
  const rootApiKey = adminIdentity ? undefined : formatApiKey(seed);
  seed.fill(0);
  let printed = false;
  let state: NodeState;
  try {
    state = await openNodeState({
      config, hsm, rootIdentity, log, version: kmsVersion,
      onCreated: () => {
        if (!rootApiKey) return;
        printed = true;
        terminal(`API Key ${rootApiKey}`);
        terminal(`Identity ${rootIdentity}`);
      },
    });
  } catch (err) {
    await hsm.close();
    throw err;
  }
  const { node, cluster, kms, lease, firstStart } = state;
  let closing = false;
  // A founding node of a fresh cluster proposes the configured enclaves in the
  // background (they need a leader); it is not ready before they exist here.
  // A single node's first snapshot already holds them.
  let settingUp: Promise<void> | undefined;
  if (cluster && firstStart && config.cluster?.nodes.includes(config.cluster.host)) {
    const c = cluster;
    settingUp = createEnclavesOnce(c, config.enclaves, () => closing)
      .catch((err: unknown) => log(`kms: cannot create the configured enclaves: ${reason(err)}`))
      .finally(() => (settingUp = undefined));
  }
  const audit = createAuditLog(config.audit, (err) => log(`kms: cannot write the audit log ${config.audit} (${err.message}); every request is refused until the node is restarted`));
  const raftStatus = cluster ? () => (cluster as ClusterNode).status() : undefined;
  const metrics = createKmsMetrics(() => node.state().appliedIndex, raftStatus);
  const notReady = (): string | undefined => {
    if (closing) return "shutting down";
    const unaudited = audit.failure();
    if (unaudited !== undefined) return `cannot write the audit log (${unaudited})`;
    if (!cluster) return undefined;
    let s;
    try {
      s = cluster.status();
    } catch {
      return "consensus node stopped";
    }
    if (s.leaderId === "") return "cluster has no leader";
    if (!s.ready) return "applying the log";
    if (settingUp) return "creating the configured enclaves";
    return undefined;
  };
  const info: NodeInfo = {
    version: kmsVersion,
    commit: env.KMS_COMMIT ?? "",
    nodeId: cluster ? cluster.id : "node1",
    host: config.cluster ? config.cluster.host : `${config.host}:${config.port}`,
    startedAt: Date.now(),
    hsmKind: hsm.kind,
    hsmActive: () => !closing,
    appliedIndex: () => node.state().appliedIndex,
    notReady,
    // A single node whose log could not be written serves reads, not writes.
    notWritable: () => ("failure" in node ? node.failure() : undefined),
    auditStream: (signal) => audit.subscribe(signal),
    ...(cluster
      ? {
          raft: {
            status: () => cluster.status(),
            hosts: () => cluster.hosts(),
            // Through the lease: every barrier a read passes renews it.
            linearize: (timeoutMs?: number) => (lease && timeoutMs === undefined ? lease.barrier() : cluster.linearize(timeoutMs)),
            addMember: (host: string) => addMember(cluster, host, log),
            removeMember: (host: string) => removeMember(cluster, host),
            describe: () => cluster.describe(),
            transferLeadership: async (host: string | undefined) => {
              const r = await cluster.runner.transferLeadership(host === undefined ? undefined : nodeIdOf(host));
              return { leaderId: r.leaderId, host: cluster.hosts()[r.leaderId] ?? "", term: r.term };
            },
          },
        }
      : {}),
  };
  const infoOf = createRequestInfos(tls.auth === "verify");
  // One table serves both edges: the same policy path, read rule and use case per operation.
  const deps: EdgeDeps = { kms, node: info, metrics, infoOf };
  const connect = connectNodeAdapter({
    routes: (router) => registerConnectServices(router, deps),
    contextValues: (req) => createContextValues().set(rawRequestKey, req as IncomingMessage),
    // AppErrors become ConnectErrors through the one table, with the contract's messages.
    interceptors: [
      (next) => async (req) => {
        try {
          return await next(req);
        } catch (err) {
          throw toConnectError(err);
        }
      },
    ],
  });
  const edge = await startEdge({
    host: config.host,
    port: config.port,
    tls: tlsFiles,
    infoOf,
    routes: createKmsRoutes(deps),
    connect,
    metrics,
    audit,
    log,
  }).catch(async (err: unknown) => {
    await node.close();
    await hsm.close();
    throw new StartupError(`kms: cannot listen on ${config.host}:${config.port}: ${reason(err)}`);
  });
  return {
    host: config.host,
    port: edge.port,
    rootIdentity,
    rootApiKey: printed ? rootApiKey : undefined,
    async close() {
      closing = true;
      await edge.close();
      await node.close();
      await audit.close();
      await hsm.close();
    },
  };
}
