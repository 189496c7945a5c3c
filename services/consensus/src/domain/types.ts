/**
 * Plain data of the Raft core. Terms and indexes are JS numbers (exact up to
 * 2^53, far beyond any log we will write); the transport adapter converts
 * them to the protobuf's uint64 bigints at the edge.
 */
export type EntryType = "normal" | "config" | "noop";

export interface Entry {
  readonly index: number;
  readonly term: number;
  readonly type: EntryType;
  readonly data: Uint8Array;
}

export interface Member {
  readonly id: string;
  /** Client-facing HOST:PORT, for status and join checks only. */
  readonly address: string;
}

export interface Configuration {
  readonly voters: readonly Member[];
  readonly learners: readonly Member[];
}

export interface SnapshotMeta {
  readonly index: number;
  readonly term: number;
  readonly configuration: Configuration;
}

export interface Snapshot {
  readonly meta: SnapshotMeta;
  readonly data: Uint8Array;
}

/**
 * The bytes of the snapshot a node holds to send to followers: in memory (a
 * Uint8Array is one), or read back a piece at a time from where the node
 * stored them, so that a node does not keep its last snapshot in memory
 * beside the state it encodes (issue 26: about 300 bytes per key).
 */
export interface SnapshotData {
  readonly length: number;
  subarray(begin: number, end: number): Uint8Array;
}

/** The snapshot at the base of a node's log. */
export interface HeldSnapshot {
  readonly meta: SnapshotMeta;
  readonly data: SnapshotData;
}

export interface HardState {
  readonly term: number;
  /** "" = no vote in this term. */
  readonly votedFor: string;
  readonly commit: number;
}

/** What a node finds on its disk at start. */
export interface PersistedState {
  readonly hardState: HardState;
  readonly snapshot?: HeldSnapshot | undefined;
  /** Entries after the snapshot, in index order. */
  readonly entries: readonly Entry[];
}

interface Envelope {
  readonly from: string;
  readonly to: string;
  readonly term: number;
}

export interface VoteRequest extends Envelope {
  readonly type: "vote";
  readonly lastLogIndex: number;
  readonly lastLogTerm: number;
  readonly preVote: boolean;
  readonly transfer: boolean;
}

export interface VoteResponse extends Envelope {
  readonly type: "voteResp";
  readonly granted: boolean;
  readonly preVote: boolean;
}

export interface AppendRequest extends Envelope {
  readonly type: "append";
  readonly prevIndex: number;
  readonly prevTerm: number;
  readonly entries: readonly Entry[];
  readonly commit: number;
  readonly seq: number;
}

export interface AppendResponse extends Envelope {
  readonly type: "appendResp";
  readonly success: boolean;
  readonly matchIndex: number;
  readonly conflictTerm: number;
  readonly conflictIndex: number;
  readonly lastIndex: number;
  readonly seq: number;
}

export interface SnapshotRequest extends Envelope {
  readonly type: "snapshot";
  readonly meta: SnapshotMeta;
  readonly offset: number;
  readonly data: Uint8Array;
  readonly done: boolean;
  /** On the last chunk: the checksum of the whole snapshot (empty when the node has no checksum function). */
  readonly checksum: Uint8Array;
}

export interface SnapshotResponse extends Envelope {
  readonly type: "snapshotResp";
  readonly index: number;
  readonly nextOffset: number;
  readonly installed: boolean;
}

export interface TimeoutNowRequest extends Envelope {
  readonly type: "timeoutNow";
}

export type RequestMessage = VoteRequest | AppendRequest | SnapshotRequest | TimeoutNowRequest;
export type ResponseMessage = VoteResponse | AppendResponse | SnapshotResponse;
export type Message = RequestMessage | ResponseMessage;

export interface ReadState {
  readonly ctx: string;
  readonly index: number;
}

/**
 * The output of every call into the core. Handle it in this order: persist
 * (snapshot, then truncate-and-append entries, then hard state) durably, then
 * send the messages, then restore/apply, then serve the read states.
 */
export interface Ready {
  readonly hardState: HardState | undefined;
  /** Replace the log from entries[0].index on with these. */
  readonly entries: readonly Entry[];
  /**
   * Store this snapshot; drop log entries it covers (keep a matching suffix).
   * A node's own snapshot may already be in its file, its data read from there.
   */
  readonly snapshot: HeldSnapshot | undefined;
  readonly messages: readonly Message[];
  /** Received snapshot the state machine must restore before applying `committed`. */
  readonly restore: Snapshot | undefined;
  readonly committed: readonly Entry[];
  readonly readStates: readonly ReadState[];
}

export type Role = "follower" | "preCandidate" | "candidate" | "leader";

export type RejectReason = "not_leader" | "not_ready" | "transferring" | "config_pending" | "invalid";

export type Result<T> = ({ readonly ok: true } & T) | { readonly ok: false; readonly reason: RejectReason; readonly leaderId: string; readonly ready: Ready };

export type MembershipChange =
  | { readonly type: "addLearner"; readonly member: Member }
  | { readonly type: "addVoter"; readonly member: Member }
  | { readonly type: "remove"; readonly id: string };

export interface PeerStatus {
  readonly id: string;
  readonly match: number;
  readonly next: number;
  readonly voter: boolean;
  /** Bytes of the snapshot being sent to the peer that it has acknowledged (undefined when none is being sent). */
  readonly snapshotOffset: number | undefined;
}

export interface NodeStatus {
  readonly id: string;
  readonly role: Role;
  readonly term: number;
  readonly votedFor: string;
  readonly leaderId: string;
  readonly commit: number;
  readonly applied: number;
  readonly firstIndex: number;
  readonly lastIndex: number;
  readonly lastTerm: number;
  readonly snapshotIndex: number;
  readonly configuration: Configuration;
  readonly configIndex: number;
  readonly transferTarget: string;
  /** Pre-vote rounds this node started since it was created: with pre-vote, a failed election round leaves no term behind. */
  readonly preVotes: number;
  readonly peers: readonly PeerStatus[];
}
