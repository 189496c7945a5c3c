import { isAbsolute } from "node:path";
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { AppError } from "@mc/shared/errors";
import { toConnectError } from "@mc/shared/connect";
import { ReleaseSchema, type ReleaseAdminService } from "../../gen/releases/v1/releases_pb.js";
import type { ReleaseStore } from "../domain/release-store.js";
import type { CatalogEvents } from "./catalog-events.js";
import { runPublish } from "./publish-command.js";

export interface ReleaseAdminDeps {
  readonly store: ReleaseStore;
  /** The signing key this service was started with (`serve --key`); undefined: publishing is refused. */
  readonly keyFile: string | undefined;
  readonly events: CatalogEvents;
}

/**
 * Publishing through the running service: the deployment, not the operator,
 * knows its store and signing key, so `releases publish --nats URL` can never
 * write where no gateway reads. Binaries never cross the bus: the service
 * reads the release directory by path.
 */
export function createReleaseAdminImpl(deps: ReleaseAdminDeps): ServiceImpl<typeof ReleaseAdminService> {
  return {
    async publishRelease(req) {
      try {
        if (!deps.keyFile) throw new AppError("failed_precondition", "the release service has no signing key: start `releases serve` with --key FILE (`releases keygen --key FILE` creates one)");
        if (!isAbsolute(req.sourceDir)) throw new AppError("invalid_argument", `source_dir must be an absolute path, got '${req.sourceDir}'`);
        const result = await runPublish({
          store: deps.store,
          keyFile: deps.keyFile,
          product: req.product,
          component: req.component,
          from: req.sourceDir,
          ...(req.releaseId !== "" ? { releaseId: req.releaseId } : {}),
          events: deps.events,
          unknownProduct: req.newProduct ? "create" : "refuse",
          missingKeyHint: "the release service was started with --key naming a missing file: create it with `releases keygen --key FILE`",
        });
        const e = result.entry;
        return {
          release: create(ReleaseSchema, { product: e.product, component: e.component, releaseId: e.releaseId, releaseDate: e.releaseDate, status: "supported" }),
          unchanged: result.unchanged,
          latestChanged: result.latestChanged,
          warnings: [...result.warnings],
        };
      } catch (err) {
        throw toConnectError(err);
      }
    },
  };
}
