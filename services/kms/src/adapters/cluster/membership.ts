import { checkServerIdentity, connect, type PeerCertificate } from "node:tls";
import { AppError } from "@mc/shared";
import { nodeIdOf, parseAddress } from "../../config/config.js";
import type { ClusterNode } from "./cluster-node.js";

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

async function checkNode(host: string): Promise<void> {
  let cert: PeerCertificate;
  try {
    cert = await probe(host);
  } catch {
    throw joinError(`node '${host}' is not reachable`);
  }
  const { host: name } = parseAddress(host);
  if (checkServerIdentity(name, cert) !== undefined) throw joinError(`certificate of '${host}' does not match its address`);
}

const hostsOf = (node: ClusterNode): string[] => {
  const c = node.status().configuration;
  return [...c.voters, ...c.learners].map((m) => m.address);
};

function checkHost(host: string): void {
  try {
    parseAddress(host);
  } catch {
    throw new AppError("invalid_argument", `address '${host}' is not HOST:PORT`);
  }
}

/**
 * `POST /v1/cluster/add`: checks before any change (the new node and every
 * member answer within 5 s with a certificate for their address; fewer than
 * 7 members), then adds the node as a voter. Not checked yet: the
 * configuration fingerprint and that the new node is empty.
 */
export async function addMember(node: ClusterNode, host: string): Promise<string[]> {
  checkHost(host);
  const current = hostsOf(node);
  if (current.includes(host)) return current;
  if (node.status().configuration.voters.length >= maxNodes) throw new AppError("already_exists", `kms: cannot join cluster: cluster already has ${maxNodes} nodes`);
  for (const h of [...current, host]) await checkNode(h);
  await node.runner.changeMembership({ type: "addVoter", member: { id: nodeIdOf(host), address: host } });
  return hostsOf(node);
}

/** `POST /v1/cluster/remove`: removes the member addressed as HOST:PORT. */
export async function removeMember(node: ClusterNode, host: string): Promise<string[]> {
  checkHost(host);
  const c = node.status().configuration;
  const member = [...c.voters, ...c.learners].find((m) => m.address === host);
  if (!member) throw new AppError("invalid_argument", `kms: node '${host}' is not a member of the cluster`);
  await node.runner.changeMembership({ type: "remove", id: member.id });
  return hostsOf(node);
}
