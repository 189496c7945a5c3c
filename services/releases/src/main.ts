// Composition root of the release service CLI: the only place that starts I/O.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { connectNatsBus, createLogger, isAppError, type Bus } from "@mc/shared";
import { initCrypto } from "@mc/wasm";
import { createCatalogEvents } from "./adapters/catalog-events.js";
import { openReleaseStore } from "./adapters/open-store.js";
import { loadMinisignSigner } from "./adapters/minisign-signer.js";
import { runPublish } from "./adapters/publish-command.js";
import { runSbom } from "./adapters/sbom-command.js";
import { serveReleases } from "./adapters/serve-releases.js";

const usage = `Usage: releases <command> [options]

Release download service: publishes releases into the store and serves the
catalog to gateways over NATS.

Commands:
  publish   --product P --component C [--release ID] --from DIR [--store DIR] [--key FILE] [--nats URL]
            validate, hash, sign and publish a release directory:
              DIR/<os>-<arch>/<component>[.exe], release-notes-<id>.md,
              sbom-<id>.cyclonedx.json, sbom-<id>.spdx.json, gomod-<id>.txt
            (the id is read from the document names when --release is absent)
  sbom      --from gomod.txt --licenses licenses.json --component C --release ID [--out DIR]
            write both SBOMs from a Go modules list and a module -> SPDX license map
  keygen    [--key FILE]       create the release signing key (mode 0600), print its public key
  serve     --nats URL --store DIR --base-url URL
            serve ReleaseService on NATS (instances share the load)

--store is a directory or s3://bucket[/prefix] (with RELEASES_S3_ENDPOINT,
RELEASES_S3_ACCESS_KEY, RELEASES_S3_SECRET_KEY, RELEASES_S3_REGION).
Defaults: --store $RELEASES_STORE or .data/releases, --key $RELEASES_SIGNING_KEY
or .data/minisign.key, --nats $NATS_URL.
`;

const log = createLogger("releases");

function fail(message: string, code = 1): never {
  process.stderr.write(`releases: ${message}\n`);
  process.exit(code);
}

const [command, ...rest] = process.argv.slice(2);
if (command === undefined || command === "-h" || command === "--help" || command === "help") {
  process.stdout.write(usage);
  process.exit(command === undefined ? 1 : 0);
}

let values: Record<string, string | boolean | undefined>;
try {
  values = parseArgs({
    args: rest,
    options: {
      product: { type: "string" },
      component: { type: "string" },
      release: { type: "string" },
      from: { type: "string" },
      store: { type: "string" },
      key: { type: "string" },
      nats: { type: "string" },
      licenses: { type: "string" },
      out: { type: "string" },
      "base-url": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  }).values;
} catch (err) {
  fail(`${err instanceof Error ? err.message : "bad arguments"}\n\n${usage}`);
}
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}

const str = (name: string): string | undefined => (typeof values[name] === "string" ? (values[name] as string) : undefined);
function need(name: string): string {
  const v = str(name);
  if (v === undefined || v === "") fail(`${command}: --${name} is required\n\n${usage}`);
  return v;
}
const storeSpec = str("store") ?? process.env.RELEASES_STORE ?? ".data/releases";
const keyFile = resolve(str("key") ?? process.env.RELEASES_SIGNING_KEY ?? ".data/minisign.key");
const natsUrl = str("nats") ?? process.env.NATS_URL;

async function connect(): Promise<Bus | undefined> {
  if (!natsUrl) return undefined;
  try {
    return await connectNatsBus({ servers: natsUrl.split(","), name: `releases-${command}` });
  } catch (err) {
    return fail(`cannot reach NATS at ${natsUrl}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

try {
  switch (command) {
    case "publish": {
      const bus = await connect();
      const releaseId = str("release");
      const result = await runPublish({
        store: await openReleaseStore(storeSpec, process.env),
        keyFile,
        product: need("product"),
        component: need("component"),
        from: resolve(need("from")),
        ...(releaseId ? { releaseId } : {}),
        ...(bus ? { events: createCatalogEvents(bus) } : {}),
      });
      for (const w of result.warnings) process.stderr.write(`releases: warning: ${w}\n`);
      const e = result.entry;
      process.stdout.write(
        result.unchanged
          ? `${e.product}/${e.component} ${e.releaseId} is already published with these bytes: nothing to do\n`
          : `published ${e.product}/${e.component} ${e.releaseId} (${e.platforms.length} platforms)${result.latestChanged ? ", now latest" : ""}\n`,
      );
      if (!bus && !result.unchanged) process.stdout.write("no --nats given: gateways pick the release up when their cache expires (5 minutes)\n");
      await bus?.close();
      break;
    }
    case "sbom": {
      const out = str("out");
      const written = await runSbom({ from: need("from"), licenses: need("licenses"), component: need("component"), releaseId: need("release"), ...(out ? { outDir: out } : {}) });
      process.stdout.write(`${written.join("\n")}\n`);
      break;
    }
    case "keygen": {
      await initCrypto();
      const signer = await loadMinisignSigner(keyFile, { create: true });
      process.stdout.write(`signing key: ${keyFile}\n${signer.publicKeyFile()}`);
      break;
    }
    case "serve": {
      const bus = await connect();
      if (!bus) fail("serve: --nats is required");
      const baseUrl = need("base-url").replace(/\/+$/, "");
      const server = await serveReleases({ bus, store: await openReleaseStore(storeSpec, process.env), base: baseUrl, log });
      log.info({ nats: natsUrl, store: storeSpec, base: baseUrl }, "releases ready");
      process.stdout.write(`releases ready (nats ${natsUrl}, store ${storeSpec})\n`);
      const stop = async (signal: string): Promise<void> => {
        log.info({ signal }, "draining");
        await server.drain();
        await bus.close();
        process.exit(0);
      };
      process.once("SIGINT", () => void stop("SIGINT"));
      process.once("SIGTERM", () => void stop("SIGTERM"));
      break;
    }
    default:
      fail(`unknown command '${command}'\n\n${usage}`);
  }
} catch (err) {
  if (isAppError(err) && err.reason !== "internal") fail(err.message);
  log.error({ err }, "failed");
  fail("internal error (details in the log)");
}
