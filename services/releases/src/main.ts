// Composition root of the release service. The service lands with the
// release-service issue; until then this entry point only describes itself.
const usage = `Usage: releases <command>

Release download service: publishes releases (binaries, checksums,
signatures, notes, SBOMs, Go modules) and serves the catalog over the bus.

Commands (being built; see the release-service issue):
  serve       serve the catalog over NATS
  publish     publish a release from a directory
  sbom        write both SBOMs from a Go modules list
`;

const [command] = process.argv.slice(2);
if (command === undefined || command === "-h" || command === "--help" || command === "help") {
  process.stdout.write(usage);
  process.exit(command === undefined ? 1 : 0);
}
process.stderr.write(`releases: '${command}' is not available in this build yet\n\n${usage}`);
process.exit(1);
