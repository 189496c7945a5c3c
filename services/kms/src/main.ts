// Composition root of the KMS command: parses the command line and runs it.
// Startup failures print exactly their one line to stderr and exit 1.
import { runCli } from "./cli/commands.js";
import { StartupError } from "./config/startup-error.js";

try {
  process.exitCode = await runCli(process.argv.slice(2));
} catch (err) {
  if (err instanceof StartupError) process.stderr.write(`${err.message}\n`);
  else process.stderr.write(`kms: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
}
// Anything still pending after a failed start must not keep the process alive.
if (process.exitCode !== 0) process.exit(process.exitCode);
