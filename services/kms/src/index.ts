export { startEmbeddedKms } from "./embedded.js";
export type { EmbeddedKms, EmbeddedKmsOptions } from "./embedded.js";
export { startKmsNode, kmsVersion } from "./kms-node.js";
export type { KmsNode, KmsNodeOptions } from "./kms-node.js";
// The start path of `kms server` without TLS or listeners: opens the data directory and rebuilds the state.
export { openNodeState, startupErrorOf } from "./open-node-state.js";
export type { NodeState, NodeStateOptions } from "./open-node-state.js";
export { openHsm } from "./adapters/hsm/open-hsm.js";
export { parseConfig, parseAddress } from "./config/config.js";
export type { KmsConfig, HsmConfig } from "./config/config.js";
export { loadConfig } from "./config/load-config.js";
export { StartupError } from "./config/startup-error.js";
export { createKmsClient, KmsClientError } from "./client/kms-client.js";
export type { KmsClient, KmsClientOptions } from "./client/kms-client.js";
export { clientCertificateOf, formatApiKey, identityOfSeed, newApiKey, parseApiKey } from "./adapters/tls/api-key.js";
export { identityOfCertificate } from "./adapters/tls/identity-of-cert.js";
export { createDevCa } from "./adapters/tls/dev-certs.js";
export type { CertPair, DevCa } from "./adapters/tls/dev-certs.js";
