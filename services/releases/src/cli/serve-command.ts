// `releases serve`: ReleaseService on NATS until SIGINT or SIGTERM.
import { resolve } from "node:path";
import { connectNatsBus } from "@mc/shared/bus";
import { createLogger } from "@mc/shared/node";
import { Option, ProgramError } from "@mc/shared/program";
import { openReleaseStore } from "../adapters/open-store.js";
import { serveReleases } from "../adapters/serve-releases.js";
import { DeploymentCommand, needHttpUrl } from "./settings.js";

export class ServeCommand extends DeploymentCommand {
  static override paths = [["serve"]];

  baseUrl = Option.String("--base-url");

  async run(): Promise<number> {
    const log = createLogger("releases");
    const base = needHttpUrl("serve", "--base-url", this.baseUrl);
    const natsUrl = this.natsUrl;
    if (!natsUrl) throw new ProgramError("serve: --nats is required");
    const bus = await connectNatsBus({ servers: natsUrl.split(","), name: "releases-serve" }).catch((err: unknown) => {
      throw new ProgramError(`cannot reach NATS at ${natsUrl}: ${err instanceof Error ? err.message : String(err)}`);
    });
    const key = this.keyFlag ?? (process.env.RELEASES_SIGNING_KEY || undefined);
    const store = this.storeSpec;
    const server = await serveReleases({ bus, store: await openReleaseStore(store, process.env), base, log, ...(key ? { keyFile: resolve(key) } : {}) });
    log.info({ nats: natsUrl, store, base }, "releases ready");
    process.stdout.write(`releases ready (nats ${natsUrl}, store ${store})\n`);
    return new Promise((done) => {
      const stop = async (signal: string): Promise<void> => {
        log.info({ signal }, "draining");
        await server.drain();
        await bus.close();
        done(0);
      };
      process.once("SIGINT", () => void stop("SIGINT"));
      process.once("SIGTERM", () => void stop("SIGTERM"));
    });
  }
}
