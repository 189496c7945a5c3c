// Entry point of `mc`. The commands land with the mc-core issue; until then
// it answers --help and --version and says so for anything else.
const usage = `Usage: mc [FLAGS] COMMAND [COMMAND FLAGS | -h] [ARGUMENTS...]

A command-line client for filesystems and S3-compatible object stores, and
for our KMS (mc admin). Commands are being built; see the mc-core issue.
`;

const args = process.argv.slice(2);
if (args.includes("--version") || args.includes("-v")) {
  process.stdout.write("mc version DEVELOPMENT\n");
  process.exit(0);
}
if (args.length === 0 || args.includes("-h") || args.includes("--help")) {
  process.stdout.write(usage);
  // A bare `mc` exits 1 (contracts/mc.md §4); asking for help exits 0.
  process.exit(args.length === 0 ? 1 : 0);
}
process.stderr.write(`mc: <ERROR> '${args[0]}' is not a recognized command. Get help using '--help' flag.\n`);
process.exit(1);
