import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";
import { AppError } from "@mc/shared/errors";
import { initCrypto } from "@mc/wasm";
import { CatalogEventType } from "../../gen/releases/v1/releases_pb.js";
import { readCatalog } from "../domain/catalog-reader.js";
import { catalogVersionOf } from "../domain/catalog-version.js";
import { publishRelease, type PublishResult } from "../domain/publish-release.js";
import type { ReleaseStore } from "../domain/release-store.js";
import type { CatalogEvents } from "./catalog-events.js";
import { createFsReleaseSource } from "./fs-release-source.js";
import { loadMinisignSigner } from "./minisign-signer.js";
import { createSbomValidator } from "./sbom-validator.js";

export interface PublishCommandOptions {
  readonly store: ReleaseStore;
  readonly keyFile: string;
  /** Create the signing key when it does not exist (the embedded default does). */
  readonly createKey?: boolean;
  readonly product: string;
  readonly component: string;
  /** When absent, read from the document names, which must all agree. */
  readonly releaseId?: string;
  readonly from: string;
  /** Where to announce the publish; omitted when no bus is configured. */
  readonly events?: CatalogEvents;
  /**
   * What an unknown product means: "refuse" for an operator's publish (a
   * typo must not create a product; `--new-product` says "create"), "create"
   * for the sample catalog that seeds an empty store. Default "create".
   */
  readonly unknownProduct?: "refuse" | "create";
  /** How to name the fix for a missing signing key, in the error. */
  readonly missingKeyHint?: string;
}

const documentPattern = /^(?:release-notes-|sbom-|gomod-)(RELEASE\.[^/]+?)(?:\.md|\.cyclonedx\.json|\.spdx\.json|\.txt)$/;

async function releaseIdFromNames(dir: string): Promise<string> {
  const ids = new Set<string>();
  for (const name of await readdir(dir).catch(() => [])) {
    const m = documentPattern.exec(name);
    if (m?.[1]) ids.add(m[1]);
  }
  if (ids.size !== 1) {
    throw new AppError("invalid_argument", ids.size === 0 ? `no release documents in ${dir}: pass --release` : `the documents in ${dir} name different releases (${[...ids].join(", ")}): pass --release`);
  }
  return [...ids][0] ?? "";
}

/** `releases publish`: the one publish path, used by the CLI and the sample catalog. */
export async function runPublish(options: PublishCommandOptions): Promise<PublishResult> {
  await initCrypto();
  const releaseId = options.releaseId ?? (await releaseIdFromNames(options.from));
  if (options.unknownProduct === "refuse" && !(await options.store.list("_catalog")).includes(options.product)) {
    throw new AppError("failed_precondition", `product '${options.product}' is not in the catalog: check --product, or pass --new-product to create it`);
  }
  const signer = await loadMinisignSigner(options.keyFile, { create: options.createKey ?? false }).catch((err: unknown) => {
    if (err instanceof AppError && err.message.startsWith("no release signing key") && options.missingKeyHint) {
      throw new AppError("failed_precondition", `${err.message}: ${options.missingKeyHint}`);
    }
    throw err;
  });
  const result = await publishRelease(
    { product: options.product, component: options.component, releaseId, source: createFsReleaseSource(options.from) },
    {
      store: options.store,
      signer,
      sha256Hex: (data) => createHash("sha256").update(data).digest("hex"),
      validateSbom: await createSbomValidator(),
      now: () => new Date(),
    },
  );
  if (!result.unchanged) {
    await options.events?.publish({
      type: CatalogEventType.RELEASE_PUBLISHED,
      product: options.product,
      component: options.component,
      releaseId,
      latestChanged: result.latestChanged,
      // Read after the commit, so it includes this release.
      catalogVersion: catalogVersionOf([...(await readCatalog(options.store)).values()].flat()),
    });
  }
  return result;
}
