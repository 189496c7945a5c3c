// Composition root of the KMS node. The server itself lands with the KMS-node
// issue; until then this entry point only describes itself.
const usage = `Usage: kms <command>

Key management service: a TLS-only node on port 7373 with enclaves,
identities, policies and keys, clustered with Raft over NATS.

Commands (being built; see the KMS-node issue):
  server      run a KMS node
  hsm new     print a new software HSM key
  apikey new  print a new API key and its identity
`;

const [command] = process.argv.slice(2);
if (command === undefined || command === "-h" || command === "--help" || command === "help") {
  process.stdout.write(usage);
  process.exit(command === undefined ? 1 : 0);
}
process.stderr.write(`kms: '${command}' is not available in this build yet\n\n${usage}`);
process.exit(1);
