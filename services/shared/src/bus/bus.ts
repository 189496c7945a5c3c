/**
 * The message bus the services talk over: a NATS connection in production,
 * an in-process broker in the embedded mode and in unit tests. Both give the
 * same semantics (subjects with `*`/`>` wildcards, queue groups, request
 * inboxes, "no responders", a maximum payload), so everything built on top
 * runs unchanged on either.
 */
export interface BusMessage {
  readonly subject: string;
  readonly data: Uint8Array;
  readonly headers: ReadonlyMap<string, string>;
  readonly reply: string | undefined;
  /** Set on the status message a publish with a reply gets when nobody listens. */
  readonly noResponders: boolean;
}

export interface PublishOptions {
  readonly headers?: ReadonlyMap<string, string>;
  readonly reply?: string;
}

export interface SubscribeOptions {
  /** Subscribers sharing a queue group get each message once between them. */
  readonly queue?: string;
}

export type BusHandler = (msg: BusMessage) => void;

export interface BusSubscription {
  unsubscribe(): void;
  /** Stops interest, then resolves once messages already on their way were handled. */
  drain(): Promise<void>;
}

export interface Bus {
  /** Largest message (payload plus headers) the bus carries. */
  readonly maxPayload: number;
  publish(subject: string, data: Uint8Array, options?: PublishOptions): void;
  subscribe(subject: string, handler: BusHandler, options?: SubscribeOptions): BusSubscription;
  /** A subject prefix no other connection uses, for reply inboxes. */
  newInbox(): string;
  /** Resolves once everything published so far reached the server. */
  flush(): Promise<void>;
  /** Registers a callback run once when the connection closes. */
  onClose(callback: () => void): void;
  close(): Promise<void>;
}
