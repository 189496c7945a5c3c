// Two fresh single nodes with the same HSM key (so the same root identity and
// the same enclaves): one is driven over REST, its twin over Connect, with the
// same script. What each answers, and the audit line each writes, must agree.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fromJson, toJson, type DescMethod, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { createKmsClient, type KmsClient } from "@mc/kms";
import { waitFor } from "../harness/wait-for.js";
import { createFixture, runKms, type KmsFixture, type RunningKms } from "./kms-harness.js";

export interface Twin {
  readonly fx: KmsFixture;
  readonly kms: RunningKms;
  /** Clients by actor: "root", "none" (no certificate) or an API key given to `actor`. */
  readonly clients: Map<string, KmsClient>;
  /** API keys of the actors other than root. */
  readonly keys: Map<string, string>;
  /** Audit lines of this node read so far. */
  read: number;
}

export interface AuditLine {
  readonly time: string;
  readonly request: { readonly ip: string; readonly enclave: string; readonly path: string; readonly identity: string };
  readonly response: { readonly code: number; readonly time: number };
}

export async function startTwin(): Promise<Twin> {
  const fx = await createFixture("software");
  const kms = await runKms(fx, { KMS_HSM_KEY: "" });
  const ca = await readFile(fx.certs.caFile);
  const clients = new Map<string, KmsClient>([
    ["root", await kms.client()],
    ["none", await createKmsClient({ server: `127.0.0.1:${fx.port}`, ca })],
  ]);
  return { fx, kms, clients, keys: new Map(), read: 0 };
}

export async function stopTwin(t: Twin | undefined): Promise<void> {
  for (const c of t?.clients.values() ?? []) c.close();
  await t?.kms.proc.stop();
  await t?.fx.cleanup();
}

export async function actor(t: Twin, name: string, apiKey: string): Promise<void> {
  t.clients.set(name, await t.kms.client(apiKey));
  t.keys.set(name, apiKey);
}

export function clientOf(t: Twin, name: string): KmsClient {
  const c = t.clients.get(name);
  if (!c) throw new Error(`no client ${name}`);
  return c;
}

export const rpcPathOf = (m: DescMethod): string => `/${m.parent.typeName}/${m.name}`;

export interface Answer {
  readonly status: number;
  readonly contentType: string;
  /** Parsed JSON, the text when it is not JSON, undefined when empty. */
  readonly body: JsonValue | undefined;
}

export async function call(t: Twin, who: string, method: string, path: string, body: unknown, enclave: string | undefined): Promise<Answer> {
  const res = await clientOf(t, who).send(method, path, body, enclave ? { "kms-enclave": enclave } : {});
  const text = res.body.toString();
  let parsed: JsonValue | undefined = text === "" ? undefined : text;
  try {
    if (text !== "") parsed = JSON.parse(text) as JsonValue;
  } catch {
    // Not JSON (metrics): compared as text.
  }
  return { status: res.status, contentType: String(res.headers["content-type"] ?? ""), body: parsed };
}

/** A Connect answer as the REST edge writes it: the response message as JSON with the proto field names. */
export function asRest(m: DescMethod, a: Answer): JsonValue | undefined {
  if (a.status !== 200) return { message: (a.body as JsonObject | undefined)?.message ?? null };
  return toJson(m.output, fromJson(m.output, a.body ?? {}), { useProtoFieldName: true, alwaysEmitImplicit: true });
}

async function linesOf(t: Twin): Promise<AuditLine[]> {
  const text = await readFile(join(t.fx.dir, "audit.log"), "utf8").catch(() => "");
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as AuditLine);
}

/** The audit lines written since the last call, once `done` says they are all there. */
export async function newLines(t: Twin, done: (lines: readonly AuditLine[]) => boolean): Promise<AuditLine[]> {
  const lines = await waitFor(
    async () => {
      const fresh = (await linesOf(t)).slice(t.read);
      return done(fresh) ? fresh : undefined;
    },
    { what: `audit lines on port ${t.fx.port}`, timeoutMs: 5000, intervalMs: 10 },
  );
  t.read += lines.length;
  return lines;
}

export interface TwinCtx {
  rest: Twin | undefined;
  rpc: Twin | undefined;
}

export interface Step {
  readonly rest: readonly [method: string, path: string, body?: unknown];
  readonly rpc: readonly [method: DescMethod, body: JsonObject];
  readonly as?: string;
  readonly enclave?: string;
  /** The status both must give, where the step is about it (403, 404 ...). */
  readonly status?: number;
  /** "200 empty" on REST (contract §4); the Connect message may say more (CreateKey's version). */
  readonly empty?: boolean;
  /** Fields of random bytes: compared by length. */
  readonly random?: readonly string[];
  /** Health, version and metrics write no audit line. */
  readonly unaudited?: boolean;
  /** Without a canonical form a request is audited as sent: its REST path, its RPC path. */
  readonly asSent?: boolean;
  /** For answers the two transports shape differently (status bodies, metrics). */
  readonly compare?: (rest: Answer, rpc: Answer, what: string) => void;
}

export const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** Times, random bytes and the node's own port are what twins may differ in. */
export function normal(v: JsonValue | undefined, t: Twin, random: readonly string[] = []): JsonValue | undefined {
  const walk = (x: JsonValue, key = ""): JsonValue => {
    if (Array.isArray(x)) return x.map((y) => walk(y));
    if (typeof x === "object" && x !== null) return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y, k)]));
    if (typeof x !== "string") return x;
    if (key === "created_at" && x !== "") return rfc3339.test(x) ? "<time>" : `not a time: ${x}`;
    if (random.includes(key)) return `<${Buffer.from(x, "base64").length} bytes>`;
    return x.replaceAll(`127.0.0.1:${t.fx.port}`, "127.0.0.1:<port>");
  };
  return v === undefined ? undefined : walk(v);
}

export const facts = (l: AuditLine | undefined) => ({ ...l?.request, code: l?.response.code, timed: rfc3339.test(l?.time ?? "") && Number.isInteger(l?.response.time) });

/** Runs one step through both edges and returns the REST answer. */
export type Both = (ctx: TwinCtx, what: string, s: Step) => Promise<Answer>;
