// `releases keygen` and `releases init`: the signing key, and the sample
// catalog of the embedded default in a store.
import { ProgramError } from "@mc/shared/program";
import { initCrypto } from "@mc/wasm";
import { loadMinisignSigner } from "../adapters/minisign-signer.js";
import { openReleaseStore } from "../adapters/open-store.js";
import { publishSampleCatalog } from "../adapters/sample-catalog.js";
import { DeploymentCommand } from "./settings.js";

export class KeygenCommand extends DeploymentCommand {
  static override paths = [["keygen"]];

  async run(): Promise<number> {
    await initCrypto();
    const signer = await loadMinisignSigner(this.keyFile, { create: true });
    process.stdout.write(`signing key: ${this.keyFile}\n${signer.publicKeyFile()}`);
    return 0;
  }
}

export class InitCommand extends DeploymentCommand {
  static override paths = [["init"]];

  async run(): Promise<number> {
    if (this.storeFlag === undefined || this.keyFlag === undefined) throw new ProgramError("init: --store and --key are required");
    const published = await publishSampleCatalog(await openReleaseStore(this.storeSpec, process.env), this.keyFile);
    process.stdout.write(`signing key: ${this.keyFile}\nsample catalog: ${published} releases published into ${this.storeSpec}\n`);
    return 0;
  }
}
