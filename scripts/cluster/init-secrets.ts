// `node --import tsx scripts/cluster/init-secrets.ts DIR NAME[=SAN,SAN…]…`:
// the compose init service. Creates the CA, one certificate per KMS node and
// the shared HSM key in DIR unless they exist (safe to run on every `up`).
import { ensureSecrets, type NodeCertSpec } from "./secrets.js";

const [dir, ...specs] = process.argv.slice(2);
if (!dir || specs.length === 0) {
  process.stderr.write("usage: init-secrets.ts DIR NAME[=SAN,SAN...]...\n");
  process.exit(2);
}
const nodes: NodeCertSpec[] = specs.map((s) => {
  const [name = "", sans] = s.split("=");
  return { name, hosts: sans ? sans.split(",") : [name] };
});
try {
  const { created } = await ensureSecrets(dir, nodes, { apiKey: false });
  process.stdout.write(created.length > 0 ? `created ${created.join(", ")}\n` : `secrets in ${dir} already complete\n`);
} catch (err) {
  process.stderr.write(`init-secrets: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
