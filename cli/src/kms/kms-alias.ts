import { join } from "node:path";
import type { ResolvedAlias } from "../config/aliases.js";
import type { McContext } from "../context.js";
import { mcError, usageError } from "../errors.js";
import { trustedCas } from "../storage/s3-client.js";
import type { KmsClient } from "./kms-lib.js";

export type KmsLibModule = typeof import("./kms-lib.js");

export interface KmsLib {
  readonly client: KmsClient;
  readonly isClientError: (err: unknown) => err is Error & { status: number };
  /** The lazily loaded library, for the few commands that need more than the client. */
  readonly lib: KmsLibModule;
  /** Another client with the same key and trust, for another node of the cluster. */
  readonly openNode: (server: string) => Promise<KmsClient>;
  readonly ca: string;
}

export type KmsAlias = ResolvedAlias & { apiKey: string };

/** The alias of `mc admin kms … ALIAS`; its `apiKey` (or KMS_API_KEY) authenticates (contracts/mc.md §3). */
export function kmsAlias(ctx: McContext, name: string | undefined): KmsAlias {
  if (name === undefined || name === "") throw usageError("ALIAS is required.");
  const alias = ctx.aliases.get(name.replace(/\/$/, ""));
  if (alias === undefined) throw mcError(`No such alias \`${name}\` found.`, undefined, "not_found");
  const apiKey = alias.apiKey ?? process.env["KMS_API_KEY"];
  if (apiKey === undefined || apiKey === "") {
    throw mcError(`Alias \`${name}\` is not a KMS alias: set it with \`mc alias set ${name} URL --api-key k1:…\`.`, undefined, "invalid_argument");
  }
  return { ...alias, apiKey };
}

/** A KMS client for the alias: its API key as client certificate, the system roots plus certs/CAs/ as trust. */
export async function openKms(ctx: McContext, alias: KmsAlias, enclave?: string): Promise<KmsLib> {
  const lib = await import("./kms-lib.js");
  const ca = trustedCas(join(ctx.config.dir, "certs")).join("\n");
  const open = (server: string): Promise<KmsClient> => lib.createKmsClient({ server, apiKey: alias.apiKey, ca, ...(enclave ? { enclave } : {}) });
  let client: KmsClient;
  try {
    client = await open(alias.url);
  } catch (err) {
    throw mcError(`Unable to use the API key of alias \`${alias.name}\`.`, err, "invalid_argument");
  }
  return { client, lib, ca, openNode: open, isClientError: (err): err is Error & { status: number } => err instanceof lib.KmsClientError };
}
