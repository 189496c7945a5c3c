// `releases publish`: validate, hash, sign and publish a release directory
// into the deployment its TARGET flags name.
import { Option } from "@mc/shared/program";
import { publishFromCli } from "../adapters/publish-cli.js";
import { choosePublishTarget } from "../adapters/publish-target.js";
import { DeploymentCommand, need } from "./settings.js";

export class PublishCommand extends DeploymentCommand {
  static override paths = [["publish"]];

  product = Option.String("--product");
  component = Option.String("--component");
  release = Option.String("--release");
  from = Option.String("--from");
  newProduct = Option.Boolean("--new-product", false);
  offline = Option.Boolean("--offline", false);

  async run(): Promise<number> {
    const request = {
      product: need("publish", "--product", this.product),
      component: need("publish", "--component", this.component),
      releaseId: this.release,
      from: need("publish", "--from", this.from),
      newProduct: this.newProduct,
    };
    const target = await choosePublishTarget({ nats: this.natsFlag, dataDir: this.dataDirFlag, store: this.storeFlag, key: this.keyFlag, offline: this.offline }, process.env);
    const result = await publishFromCli(target, request);
    for (const w of result.warnings) process.stderr.write(`releases: warning: ${w}\n`);
    process.stdout.write(`${result.lines.join("\n")}\n`);
    return 0;
  }
}
