// Categories of one cluster node's CPU for bench/profile/kms-cluster.ts.
// `specific` rules are tried on every frame of a sample's stack from the
// leaf up, and the nearest matching frame decides (so a socket read that
// goes on into the NATS parser counts as NATS, one that goes into the HTTP
// parser as client HTTP). `generic` rules classify what is left by its leaf.
import type { Rule } from "./cpu-table.js";

export const clusterRules: { readonly specific: readonly Rule[]; readonly generic: readonly Rule[] } = {
  specific: [
    ["garbage collection", /^\(garbage collector\)/],
    ["log sealing and fsync (file log store)", /file-log-store|log-records|crc32|snapshot-file/],
    ["AppendEntries/forward protobuf encode+decode", /message-codec|@bufbuild|forward-codec/],
    ["Connect-over-bus framing (RPC layer)", /connect-bus\/|@connectrpc|connect\/dist|nats-subject/],
    ["NATS client (transport)", /@nats-io|nats-bus/],
    ["forwarding (follower to leader)", /forward-service|forward-batcher/],
    ["proposal and batching", /propose-loop|leader-ops|waiters|peer-pipeline|append-merge|write-outcome|propose-once|cluster-node/],
    ["consensus core (raft step, ready loop)", /domain\/raft-node|replication\.ts|node-state|raft-log|election\.ts|configuration\.ts|ready-loop|raft-runner|state-signal|leader-watch|runner-status|consensus-transport/],
    ["apply (state machine)", /domain\/apply|domain\/state|domain\/key-ops|domain\/command|packed-version|sorted-names|sessions\.ts|snapshot-cadence/],
    ["libsodium / key material", /wasm-function|sodium|libsodium|hsm|ciphertext/i],
    ["edge and policy", /adapters\/edge\/|policy|authz|identity|admission|canonical|names\.ts|rest\/|audit|metric/i],
    ["client TLS and HTTP", /_http_|node:http|parserOn|OutgoingMessage|ServerResponse|IncomingMessage|_tls_|tls_wrap|TLSSocket/],
  ],
  generic: [
    ["sockets and streams (node internals)", /^writeBuffer|^writev|node:net|net\.js|stream|onStreamRead|writeGeneric|writev|afterWrite|node:events|emit/],
    ["JSON, buffers, strings", /JSON|^Buffer|node:buffer|toString|TextDecoder|TextEncoder|encoding/],
    ["timers and promises", /processTicksAndRejections|runMicrotasks|listOnTimeout|processTimers|nextTick/],
    ["(program) native", /^\(program\)/],
  ],
};
