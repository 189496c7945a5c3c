import { resolve } from "node:path";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { AppError } from "@mc/shared/errors";
import { connectNatsBus } from "@mc/shared/bus";
import { createBusTransport, fromConnectError } from "@mc/shared/connect";
import { ReleaseAdminService } from "../../gen/releases/v1/releases_pb.js";
import { openReleaseStore } from "./open-store.js";
import { runPublish } from "./publish-command.js";
import type { PublishTarget } from "./publish-target.js";

export interface PublishCliRequest {
  readonly product: string;
  readonly component: string;
  readonly releaseId: string | undefined;
  readonly from: string;
  readonly newProduct: boolean;
}

export interface PublishCliResult {
  readonly lines: string[];
  readonly warnings: readonly string[];
}

function summary(r: { product: string; component: string; releaseId: string; unchanged: boolean; latestChanged: boolean; platforms?: number }, where: string): string {
  if (r.unchanged) return `${r.product}/${r.component} ${r.releaseId} is already published with these bytes: nothing to do`;
  return `published ${r.product}/${r.component} ${r.releaseId}${r.platforms ? ` (${r.platforms} platforms)` : ""}${r.latestChanged ? ", now latest" : ""} ${where}`;
}

async function throughService(natsUrl: string, req: PublishCliRequest): Promise<PublishCliResult> {
  const bus = await connectNatsBus({ servers: natsUrl.split(","), name: "releases-publish" }).catch((err: unknown) => {
    throw new AppError("unavailable", `cannot reach NATS at ${natsUrl}: ${err instanceof Error ? err.message : String(err)}: check --nats`);
  });
  try {
    const admin = createClient(ReleaseAdminService, createBusTransport({ bus, defaultTimeoutMs: 10 * 60 * 1000 }));
    const res = await admin
      .publishRelease({ product: req.product, component: req.component, releaseId: req.releaseId ?? "", sourceDir: resolve(req.from), newProduct: req.newProduct })
      .catch((err: unknown) => {
        if (err instanceof ConnectError && err.code === Code.Unavailable) {
          throw new AppError("unavailable", `no release service answers on NATS at ${natsUrl}: start the deployment (npm run cluster -- up) or check --nats`);
        }
        throw fromConnectError(err);
      });
    const r = res.release;
    const line = summary({ product: r?.product ?? req.product, component: r?.component ?? req.component, releaseId: r?.releaseId ?? "", unchanged: res.unchanged, latestChanged: res.latestChanged }, `through the release service on ${natsUrl}`);
    return { lines: [line], warnings: res.warnings };
  } finally {
    await bus.close();
  }
}

/** `releases publish` once its target is chosen. */
export async function publishFromCli(target: PublishTarget, req: PublishCliRequest): Promise<PublishCliResult> {
  if (target.kind === "nats") return throughService(target.natsUrl, req);
  const result = await runPublish({
    store: await openReleaseStore(target.storeSpec, process.env),
    keyFile: target.keyFile,
    product: req.product,
    component: req.component,
    from: resolve(req.from),
    ...(req.releaseId ? { releaseId: req.releaseId } : {}),
    unknownProduct: req.newProduct ? "create" : "refuse",
  });
  const e = result.entry;
  const where = target.offline ? `into ${target.storeSpec} (--offline: no running service was told; one serving this store shows it within 2 s)` : `into ${target.storeSpec}, live on ${target.servedBy ?? "the running deployment"} within 2 s`;
  return { lines: [summary({ ...e, unchanged: result.unchanged, latestChanged: result.latestChanged, platforms: e.platforms.length }, where)], warnings: result.warnings };
}
