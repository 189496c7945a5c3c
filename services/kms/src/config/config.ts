import { parse } from "yaml";
import { StartupError } from "./startup-error.js";

export type HsmConfig =
  | { readonly kind: "key"; readonly key: string }
  | { readonly kind: "passphrase"; readonly env: string; readonly salt: string }
  | { readonly kind: "pkcs11"; readonly module: string; readonly token: string; readonly pinEnv: string; readonly keyLabel: string };

export interface KmsConfig {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  readonly adminIdentity: string | undefined;
  readonly tls: { readonly cert: string; readonly key: string; readonly ca: string | undefined; readonly auth: "off" | "verify" } | undefined;
  readonly hsm: HsmConfig | undefined;
  readonly enclaves: readonly string[];
  /** "off", "stdout" or a file path. */
  readonly audit: string;
  /** Present in cluster mode (Raft over NATS); absent: a single node with its local log. */
  readonly cluster?: ClusterConfig;
}

/**
 * `cluster:` (contract §7 plus the bus): `host` is this node's HOST:PORT as
 * the members know it, `nodes` the founding members. Node ids are derived
 * from the HOST:PORT (NATS subject tokens cannot hold dots or colons).
 */
export interface ClusterConfig {
  /** NATS server URL(s), comma-separated. */
  readonly nats: string;
  /** Cluster id: the NATS subject token that separates clusters on one bus. */
  readonly id: string;
  readonly host: string;
  readonly nodes: readonly string[];
}

/** The Raft node id of a member addressed as HOST:PORT. */
export function nodeIdOf(host: string): string {
  return host.replace(/[^A-Za-z0-9_-]/g, "_");
}

function clusterOf(o: Obj): ClusterConfig | undefined {
  const c = o.cluster;
  if (c === undefined || c === null) return undefined;
  if (!isObj(c)) throw bad("cluster must be a mapping");
  const nats = str(c, "nats", "cluster.");
  if (!nats) throw bad("cluster.nats is required");
  const host = str(c, "host", "cluster.");
  if (!host) throw bad("cluster.host is required");
  parseAddress(host);
  if (!Array.isArray(c.nodes) || c.nodes.length === 0) throw bad("cluster.nodes must list the members (HOST:PORT)");
  const nodes = c.nodes.map(String);
  for (const n of nodes) parseAddress(n);
  if (new Set(nodes.map(nodeIdOf)).size !== nodes.length) throw bad("cluster.nodes has duplicates");
  const id = str(c, "id", "cluster.") ?? "kms";
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw bad("cluster.id may hold only letters, digits, '_' and '-'");
  return { nats, id, host, nodes };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const bad = (what: string) => new StartupError(`kms: invalid configuration: ${what}`);

function str(o: Obj, key: string, where: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" && typeof v !== "number") throw bad(`${where}${key} must be a string`);
  return String(v);
}

/** `HOST:PORT`, `:PORT` or `[v6]:PORT`. */
export function parseAddress(text: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(text);
  const port = Number(m?.[3]);
  if (!m || port > 65535) throw bad(`address '${text}' is not HOST:PORT`);
  return { host: m[1] ?? (m[2] === "" ? "0.0.0.0" : m[2] ?? "0.0.0.0"), port };
}

function hsmOf(o: Obj, env: NodeJS.ProcessEnv): HsmConfig | undefined {
  const envKey = env.KMS_HSM_KEY;
  if (envKey) return { kind: "key", key: envKey };
  const h = o.hsm;
  if (!isObj(h)) return undefined;
  const key = str(h, "key", "hsm.");
  if (key) return { kind: "key", key };
  const pass = h.passphrase;
  if (isObj(pass)) {
    return { kind: "passphrase", env: str(pass, "env", "hsm.passphrase.") ?? "KMS_HSM_PASSPHRASE", salt: str(pass, "salt", "hsm.passphrase.") ?? "" };
  }
  const p = h.pkcs11;
  if (isObj(p)) {
    const module = str(p, "module", "hsm.pkcs11.");
    if (!module) throw bad("hsm.pkcs11.module is required");
    return { kind: "pkcs11", module, token: str(p, "token", "hsm.pkcs11.") ?? "kms", pinEnv: str(p, "pin_env", "hsm.pkcs11.") ?? "KMS_HSM_PIN", keyLabel: str(p, "key_label", "hsm.pkcs11.") ?? "kms-root" };
  }
  return undefined;
}

/**
 * Parses the YAML configuration (contract §7). Paths are resolved by the
 * caller; checks that read files happen later, in the contract's order.
 */
export function parseConfig(text: string, env: NodeJS.ProcessEnv = process.env): KmsConfig {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw bad(err instanceof Error ? err.message.split("\n")[0] ?? "YAML" : "YAML");
  }
  const o: Obj = isObj(doc) ? doc : {};
  const { host, port } = parseAddress(str(o, "address", "") ?? "0.0.0.0:7373");
  const tls = isObj(o.tls) ? o.tls : undefined;
  const auth = tls ? (str(tls, "auth", "tls.") ?? "off") : "off";
  if (auth !== "off" && auth !== "verify") throw bad("tls.auth must be off or verify");
  const admin = isObj(o.admin) ? str(o.admin, "identity", "admin.") : undefined;
  const enclaves = Array.isArray(o.enclaves) ? o.enclaves.map(String) : ["default"];
  const log = isObj(o.log) ? o.log : {};
  const audit = log.audit === false ? "off" : (str(log, "audit", "log.") ?? "off");
  const cluster = clusterOf(o);
  return {
    ...(cluster ? { cluster } : {}),
    host,
    port,
    dataDir: str(o, "data_dir", "") ?? "data",
    adminIdentity: admin,
    tls: tls ? { cert: str(tls, "cert", "tls.") ?? "", key: str(tls, "key", "tls.") ?? "", ca: str(tls, "ca", "tls."), auth } : undefined,
    hsm: hsmOf(o, env),
    enclaves,
    audit,
  };
}
