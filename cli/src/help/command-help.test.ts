import { Command, Option } from "clipanion";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { asksForHelp, describeCommand, flagNames } from "./command-help.js";

class SampleCommand extends Command {
  static override paths = [["sample"], ["sa"]];
  static override usage = Command.Usage({ description: "a sample", examples: [["Run it", "$0 sample x"]] });
  configDir = Option.String("-C,--config-dir", { description: "global" });
  recursive = Option.Boolean("-r,--recursive", false, { description: "recurse" });
  attr = Option.String("--attr", { description: "metadata" });
  secret = Option.String("--secret", { description: "hidden", hidden: true });
  version = Option.String("--version", { description: "a version of the object" });
  target = Option.String({ name: "[TARGET]", required: false });
  rest = Option.Rest({ name: "SOURCE [SOURCE...]" });

  execute(): Promise<number> {
    return Promise.resolve(0);
  }
}

const t = suite("command help");

t("should read names, arguments and examples from the definition, leaving out global and hidden flags", () => {
  const help = describeCommand(SampleCommand);
  assert.equal(help.path, ["sample"]);
  assert.equal(help.aliases, [["sa"]]);
  assert.equal(help.arguments, ["[TARGET]", "SOURCE [SOURCE...]"]);
  assert.equal(help.flags.map(flagNames), ["--recursive, -r", "--attr value", "--version value"]);
  assert.equal(help.examples, [["Run it", "mc sample x"]]);
});

t("should see -h/--help before -- and not as a flag's value", () => {
  const help = describeCommand(SampleCommand);
  assert.ok(asksForHelp(help, ["a", "b", "-h"]));
  assert.ok(asksForHelp(help, ["--help", "a"]));
  assert.ok(asksForHelp(help, ["-C", "dir", "--help"]));
  assert.not.ok(asksForHelp(help, ["--attr", "--help", "a"]));
  assert.not.ok(asksForHelp(help, ["-C", "-h", "a"]));
  assert.not.ok(asksForHelp(help, ["--", "-h"]));
  assert.not.ok(asksForHelp(help, ["a", "-hx"]));
});

t.run();
