import { checkServerIdentity, connect, type PeerCertificate } from "node:tls";
import type { Configuration } from "@mc/consensus";
import { AppError } from "@mc/shared/errors";
import { nodeIdOf, parseAddress } from "../../config/config.js";
import type { ClusterNode } from "./cluster-node.js";
import type { NodeDescription } from "./node-description.js";

const maxNodes = 7;
const probeMs = 5000;
const joinError = (message: string) => new AppError("failed_precondition", `kms: cannot join cluster: ${message}`);

/** Connects to HOST:PORT over TLS and returns its server certificate (chain trust is not checked here). */
function probe(host: string): Promise<PeerCertificate> {
  const { host: name, port } = parseAddress(host);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: name, port, rejectUnauthorized: false, ...(/^[\d.:]+$/.test(name) ? {} : { servername: name }) });
    const timer = setTimeout(() => socket.destroy(new Error("timeout")), probeMs);
    socket.once("secureConnect", () => {
      clearTimeout(timer);
      const cert = socket.getPeerCertificate();
      socket.destroy();
      resolve(cert);
    });
    socket.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** The joiner's own account over NATS: its edge may answer while its consensus side does not. */
async function describeJoiner(node: ClusterNode, host: string): Promise<NodeDescription> {
  try {
    return await node.describeRemote(host, probeMs);
  } catch {
    throw joinError(`node '${host}' is not reachable`);
  }
}

const addressesOf = (c: Configuration): string[] => [...c.voters, ...c.learners].map((m) => m.address);
const hostsOf = (node: ClusterNode): string[] => addressesOf(node.status().configuration);

function checkHost(host: string): void {
  try {
    parseAddress(host);
  } catch {
    throw new AppError("invalid_argument", `address '${host}' is not HOST:PORT`);
  }
}

/**
 * `POST /v1/cluster/add`: every check of contract §8, in its order, runs
 * before any change (all nodes answer within 5 s, with a certificate for
 * their address; the joiner shares this node's configuration fingerprint and
 * holds no data; fewer than 7 members), then the node is added as a
 * learner, caught up and promoted to voter. A learner left by an addition
 * that did not finish (its leader changed) is caught up and promoted by
 * running the addition again.
 */
export async function addMember(node: ClusterNode, host: string, log: (line: string) => void = () => undefined): Promise<string[]> {
  checkHost(host);
  const c = node.status().configuration;
  if (c.voters.some((m) => m.address === host)) return hostsOf(node);
  const learner = c.learners.find((m) => m.address === host);
  if (learner) return promote(node, host, learner.id, log);
  const current = hostsOf(node);
  const all = [...current, host];
  const probes = await Promise.allSettled(all.map((h) => probe(h)));
  const unreachable = all.find((_h, i) => probes[i]?.status === "rejected");
  if (unreachable !== undefined) throw joinError(`node '${unreachable}' is not reachable`);
  const joiner = await describeJoiner(node, host);
  for (const [i, h] of all.entries()) {
    const p = probes[i];
    if (p?.status === "fulfilled" && checkServerIdentity(parseAddress(h).host, p.value) !== undefined) throw joinError(`certificate of '${h}' does not match its address`);
  }
  if (joiner.configFingerprint !== node.describe().configFingerprint) throw joinError(`'${host}' has a different HSM or enclave configuration`);
  if (!joiner.empty) throw joinError(`node '${host}' is not empty`);
  if (node.status().configuration.voters.length >= maxNodes) throw new AppError("already_exists", `kms: cannot join cluster: cluster already has ${maxNodes} nodes`);
  return promote(node, host, nodeIdOf(host), log);
}

/** Answered within the edge's 15 s; a node catching up from a large snapshot is then still a learner. */
export const joinAnswerMs = 10_000;

/**
 * Adds the node as a voter (through a learner that catches up first). A
 * node that needs a large snapshot catches up for longer than a request
 * may last: the answer then lists it (as a learner in cluster status) and
 * the promotion completes on its own, or logs why it did not.
 */
async function promote(node: ClusterNode, host: string, id: string, log: (line: string) => void): Promise<string[]> {
  const adding = node.runner.changeMembership({ type: "addVoter", member: { id, address: host } });
  let timer: NodeJS.Timeout | undefined;
  const pending = new Promise<"pending">((resolve) => (timer = setTimeout(() => resolve("pending"), joinAnswerMs)));
  try {
    const outcome = await Promise.race([adding, pending]);
    // The configuration the change made: a follower that forwarded it to the leader may
    // not hold the new entry yet, and its own view would still be the old one.
    if (outcome !== "pending") return addressesOf(outcome.configuration);
  } catch (err) {
    // A deadline while the node is being caught up is not a refusal: it is a member, as a learner.
    if (!(err instanceof AppError && err.reason === "deadline_exceeded" && hostsOf(node).includes(host))) throw err;
  } finally {
    clearTimeout(timer);
  }
  log(`kms: node '${host}' joined as a learner and is catching up; it becomes a voter once it has`);
  adding.then(
    () => log(`kms: node '${host}' caught up and is a voter`),
    (err: unknown) => log(`kms: node '${host}' is not a voter yet (${err instanceof Error ? err.message : String(err)}); if \`kms cluster status\` shows it as a learner, run \`kms cluster add ${host}\` again`),
  );
  return hostsOf(node);
}

/** `POST /v1/cluster/remove`: removes the member addressed as HOST:PORT. */
export async function removeMember(node: ClusterNode, host: string): Promise<string[]> {
  checkHost(host);
  const c = node.status().configuration;
  const member = [...c.voters, ...c.learners].find((m) => m.address === host);
  if (!member) throw new AppError("invalid_argument", `kms: node '${host}' is not a member of the cluster`);
  // The configuration the change made, not this node's view (a follower may not hold the entry yet).
  const r = await node.runner.changeMembership({ type: "remove", id: member.id });
  return addressesOf(r.configuration);
}
