import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ResolvedAlias } from "../config/aliases.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { trustedCas } from "../storage/s3/s3-client.js";
import type { KmsClient } from "./kms-lib.js";

export type KmsLibModule = typeof import("./kms-lib.js");

export interface KmsLib {
  readonly client: KmsClient;
  readonly isClientError: (err: unknown) => err is Error & { status: number };
  /** The lazily loaded library, for the few commands that need more than the client. */
  readonly lib: KmsLibModule;
  /** Another client with the same credential and trust, for another node of the cluster. */
  readonly openNode: (server: string) => Promise<KmsClient>;
  readonly ca: string;
}

/** How a KMS alias proves its identity: an API key, or a client certificate of its own (mTLS). */
export type KmsCredential = { readonly apiKey: string } | { readonly certFile: string; readonly keyFile: string };

export type KmsAlias = ResolvedAlias & { readonly credential: KmsCredential };

/**
 * The alias of `mc admin kms … ALIAS`: its `apiKey`, or its `clientCert` and
 * `clientKey` files, or else KMS_API_KEY authenticates (contracts/mc.md §3).
 */
export function kmsAlias(ctx: McContext, name: string | undefined): KmsAlias {
  if (name === undefined || name === "") throw usageError("ALIAS is required.");
  const alias = ctx.aliases.get(name.replace(/\/$/, ""));
  if (alias === undefined) throw mcError(`No such alias \`${name}\` found.`, undefined, "not_found");
  if (alias.apiKey === undefined && alias.clientCert !== undefined && alias.clientKey !== undefined) {
    return { ...alias, credential: { certFile: alias.clientCert, keyFile: alias.clientKey } };
  }
  const apiKey = alias.apiKey ?? process.env["KMS_API_KEY"];
  if (apiKey === undefined || apiKey === "") {
    throw mcError(`Alias \`${name}\` is not a KMS alias: set it with \`mc alias set ${name} URL --api-key k1:…\` (or --client-cert and --client-key).`, undefined, "invalid_argument");
  }
  return { ...alias, credential: { apiKey } };
}

/** The client certificate and key a credential presents (the audit stream opens its own request). */
export async function certificateOf(lib: KmsLibModule, credential: KmsCredential): Promise<{ cert: string | Buffer; key: string | Buffer }> {
  if ("certFile" in credential) return { cert: await readFile(credential.certFile), key: await readFile(credential.keyFile) };
  const seed = lib.parseApiKey(credential.apiKey);
  if (!seed) throw new Error("invalid API key: expected k1:<base64url>");
  return lib.clientCertificateOf(seed);
}

/** A KMS client for the alias: its credential as client certificate, the system roots plus certs/CAs/ as trust. */
export async function openKms(ctx: McContext, alias: KmsAlias, enclave?: string): Promise<KmsLib> {
  const lib = await import("./kms-lib.js");
  const ca = trustedCas(join(ctx.config.dir, "certs")).join("\n");
  const credential = alias.credential;
  const open = (server: string): Promise<KmsClient> => lib.createKmsClient({ server, ...credential, ca, ...(enclave ? { enclave } : {}) });
  let client: KmsClient;
  try {
    client = await open(alias.url);
  } catch (err) {
    const what = "apiKey" in credential ? "the API key" : "the client certificate";
    throw mcError(`Unable to use ${what} of alias \`${alias.name}\`.`, err, "invalid_argument");
  }
  return { client, lib, ca, openNode: open, isClientError: (err): err is Error & { status: number } => err instanceof lib.KmsClientError };
}
