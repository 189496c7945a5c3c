import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as assert from "uvu/assert";
import type { CertFiles } from "../harness/tls-certs.js";
import type { ChildProcess } from "node:child_process";
import { runMc, spawnMc, type McResult, type RunOptions } from "../mc/mc-runner.js";
import { referenceDecrypt, runDriver, type DriverResult } from "./go-driver.js";
import { startRecorder, type Recorded, type Recorder, type Responder } from "./recorder.js";

/** Keys of the alias `minio` (a secret with characters that need care in a URL and in JSON). */
export const keys = { access: "AKIAMCADMINTEST", secret: "wJalrXUtnFEMI-K7MDENG-bPxRfiCY+EXAMPLE" };

export interface AdminFixture {
  readonly recorder: Recorder;
  /** `mc -C <dir> …` with alias `minio` → the recorder (MC_HOST_minio). */
  mc(args: readonly string[], options?: RunOptions): Promise<McResult>;
  /** The same, started and left running (streams: the test ends it). */
  spawn(args: readonly string[], options?: RunOptions): ChildProcess;
  /** The reference library's run of `op` against the recorder. */
  driver(op: string, args?: Record<string, unknown>): Promise<DriverResult>;
  stop(): Promise<void>;
}

export async function startAdminFixture(tls?: CertFiles): Promise<AdminFixture> {
  const recorder = await startRecorder(keys, tls);
  const configDir = await mkdtemp(join(tmpdir(), "mc-admin-config-"));
  const hostUrl = `${tls ? "https" : "http"}://${keys.access}:${encodeURIComponent(keys.secret)}@${recorder.host}`;
  return {
    recorder,
    mc: (args, options = {}) => runMc(["-C", configDir, ...(tls ? ["--insecure"] : []), ...args], { ...options, env: { MC_HOST_minio: hostUrl, ...options.env } }),
    spawn: (args, options = {}) => spawnMc(["-C", configDir, ...(tls ? ["--insecure"] : []), ...args], { ...options, env: { MC_HOST_minio: hostUrl, ...options.env } }),
    driver: (op, args = {}) => runDriver(op, { endpoint: recorder.host, access: keys.access, secret: keys.secret, secure: tls !== undefined, args }),
    async stop() {
      await recorder.close();
      await rm(configDir, { recursive: true, force: true });
    },
  };
}

/** A request reduced to what the two clients must agree on. */
export interface Normalized {
  readonly method: string;
  readonly path: string;
  /** Decoded query pairs, sorted. */
  readonly query: readonly (readonly [string, string])[];
  readonly signedHeaders: readonly string[];
  readonly contentType: string;
  /** The body as JSON (decrypted first when encrypted), "" when empty, else its text. */
  readonly body: unknown;
}

export async function normalize(rec: Recorded, encrypted: boolean): Promise<Normalized> {
  assert.ok(rec.signatureValid || rec.signedHeaders.length === 0, `${rec.method} ${rec.path}: the SigV4 signature does not verify`);
  let body: unknown = "";
  if (rec.body.length > 0) {
    let plain = rec.body;
    if (encrypted) {
      // Both clients' bodies go through the reference DecryptData: ours must be readable by the server's library.
      const d = await referenceDecrypt(keys.secret, rec.body);
      assert.ok(d.ok, `${rec.method} ${rec.path}: the reference DecryptData refused the body: ${d.ok ? "" : d.error}`);
      if (d.ok) plain = d.plain;
    }
    const text = plain.toString("utf8");
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  const query = new URLSearchParams(rec.query);
  return {
    method: rec.method,
    path: rec.path,
    query: [...query.entries()].sort((a, b) => (a[0] + "\0" + a[1] < b[0] + "\0" + b[1] ? -1 : 1)),
    signedHeaders: [...rec.signedHeaders].sort(),
    contentType: rec.headers["content-type"] ?? "",
    body,
  };
}

export interface Operation {
  /** The driver's operation and arguments. */
  readonly op: string;
  readonly args?: Record<string, unknown>;
  /** The same operation through our mc. */
  readonly mc: readonly string[];
  /** Request bodies encrypted with the secret key (all, or those the predicate picks). */
  readonly encrypted?: boolean | ((req: Recorded) => boolean);
  /** The server's answers (the same for both runs). */
  readonly responder?: Responder;
  /** Our mc's stdin. */
  readonly input?: string;
  /** Blanks what may differ by design (a random id, a library quirk), applied to both runs' requests. */
  readonly mask?: (req: Normalized) => Normalized;
  /** Where our mc runs (commands that write files; default: the repository root). */
  readonly cwd?: string;
  /** More environment for our mc (another alias, a time zone). */
  readonly env?: Record<string, string>;
}

export interface Compared {
  readonly reference: DriverResult;
  readonly ours: McResult;
  readonly requests: readonly Normalized[];
}

/**
 * Runs `operation` with the reference library, then with our mc, against the
 * same answers, and asserts that the two sent the same requests in the same
 * order: method, path, query, signed header set, content type and body.
 */
export async function differential(fx: AdminFixture, operation: Operation): Promise<Compared> {
  fx.recorder.respond(operation.responder ?? (() => ({})));
  fx.recorder.clear();
  const reference = await fx.driver(operation.op, operation.args);
  assert.is(reference.code, 0, `reference ${operation.op}: ${reference.stderr}`);
  const mask = operation.mask ?? ((n: Normalized) => n);
  const refRequests = (await Promise.all(fx.recorder.requests.map((r) => normalize(r, typeof operation.encrypted === "function" ? operation.encrypted(r) : operation.encrypted === true)))).map(mask);
  fx.recorder.clear();
  const ours = await fx.mc(operation.mc, {
    ...(operation.input === undefined ? {} : { input: operation.input }),
    ...(operation.cwd === undefined ? {} : { cwd: operation.cwd }),
    ...(operation.env === undefined ? {} : { env: operation.env }),
  });
  assert.is(ours.code, 0, `mc ${operation.mc.join(" ")}: ${ours.stderr}${ours.stdout}`);
  const ourRequests = (await Promise.all(fx.recorder.requests.map((r) => normalize(r, typeof operation.encrypted === "function" ? operation.encrypted(r) : operation.encrypted === true)))).map(mask);
  assert.ok(refRequests.length > 0, "the reference sent nothing");
  assert.equal(ourRequests, refRequests, `mc ${operation.mc.join(" ")} sent other requests than the reference's ${operation.op}`);
  return { reference, ours, requests: ourRequests };
}
