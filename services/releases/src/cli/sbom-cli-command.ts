// `releases sbom`: both SBOMs of a release from its Go modules list.
import { Option, ProgramCommand } from "@mc/shared/program";
import { runSbom, sbomUsage } from "../adapters/sbom-command.js";
import { need, needFolder } from "./settings.js";

export class SbomCommand extends ProgramCommand {
  static override paths = [["sbom"]];
  static override help = sbomUsage;

  from = Option.String("--from");
  licenses = Option.String("--licenses");
  component = Option.String("--component");
  release = Option.String("--release");
  out = Option.String("--out");

  async run(): Promise<number> {
    const out = this.out;
    if (out !== undefined) await needFolder("sbom", "--out", out);
    const written = await runSbom({
      from: need("sbom", "--from", this.from),
      licenses: need("sbom", "--licenses", this.licenses),
      component: need("sbom", "--component", this.component),
      releaseId: need("sbom", "--release", this.release),
      ...(out ? { outDir: out } : {}),
      warn: (line) => process.stderr.write(`releases: warning: ${line}\n`),
    });
    process.stdout.write(`${written.join("\n")}\n`);
    return 0;
  }
}
