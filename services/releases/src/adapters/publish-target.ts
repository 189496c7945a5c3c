import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { AppError } from "@mc/shared/errors";
import { readServingMarker } from "./serving-marker.js";

/** Where a publish goes: one named deployment, or (explicitly) a bare store. */
export type PublishTarget =
  | { readonly kind: "nats"; readonly natsUrl: string }
  | { readonly kind: "store"; readonly storeSpec: string; readonly keyFile: string; readonly offline: boolean; readonly servedBy: string | undefined };

export interface TargetFlags {
  readonly nats: string | undefined;
  readonly dataDir: string | undefined;
  readonly store: string | undefined;
  readonly key: string | undefined;
  readonly offline: boolean;
}

const fixHint = "publish to a running deployment with --nats URL, or into the embedded default's DATA_DIR while `npm start` runs";

/**
 * Picks the target from the flags and environment, refusing every guess
 * (issue 17): `--nats` publishes through that deployment's release service,
 * which knows its store and key; otherwise the embedded default's data folder
 * (DATA_DIR, else .data), which must be served by a running `npm start`; a
 * store nobody serves only with `--offline`. Each refusal is one line that
 * names the fix.
 */
export async function choosePublishTarget(flags: TargetFlags, env: NodeJS.ProcessEnv): Promise<PublishTarget> {
  const natsUrl = flags.nats ?? (env.NATS_URL || undefined);
  if (natsUrl) {
    if (flags.offline) throw new AppError("invalid_argument", "--offline writes into a store, --nats publishes through a deployment: give one of them");
    if (flags.store !== undefined) throw new AppError("invalid_argument", "--nats names the deployment, whose release service knows its store: drop --store");
    if (flags.key !== undefined) throw new AppError("invalid_argument", "--nats publishes through the deployment's release service, which signs with its own key (`releases serve --key`): drop --key");
    return { kind: "nats", natsUrl };
  }
  const dataDir = resolve(flags.dataDir ?? (env.DATA_DIR || ".data"));
  const explicitStore = flags.store ?? (env.RELEASES_STORE || undefined);
  const storeSpec = explicitStore ?? resolve(dataDir, "releases");
  const keyFile = resolve(flags.key ?? (env.RELEASES_SIGNING_KEY || resolve(dataDir, "minisign.key")));
  if (!flags.offline) {
    if (explicitStore !== undefined) throw new AppError("failed_precondition", `--store ${explicitStore} names a store, not a deployment: ${fixHint}; add --offline to write into that store anyway`);
    const marker = await readServingMarker(dataDir);
    if (!marker) throw new AppError("failed_precondition", `no running deployment serves ${dataDir}: start it (npm start, DATA_DIR=${dataDir}), or use --nats URL; add --offline to write into ${storeSpec} anyway`);
    if (!existsSync(keyFile)) throw new AppError("failed_precondition", `no release signing key at ${keyFile}: the embedded default creates it on its first start; or create one with \`releases keygen --key ${keyFile}\``);
    return { kind: "store", storeSpec, keyFile, offline: false, servedBy: marker.base };
  }
  if (!existsSync(keyFile)) throw new AppError("failed_precondition", `no release signing key at ${keyFile}: create one with \`releases keygen --key ${keyFile}\` or name it with --key`);
  if (!storeSpec.startsWith("s3://") && !existsSync(storeSpec)) throw new AppError("failed_precondition", `--offline: no store at ${storeSpec}: name an existing store folder with --store`);
  return { kind: "store", storeSpec, keyFile, offline: true, servedBy: undefined };
}
