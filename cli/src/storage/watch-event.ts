/** One `mc watch` event (contracts/mc.md §5). */
export interface WatchEvent {
  readonly time: string;
  readonly size: number;
  readonly path: string;
  readonly type: string;
  readonly source: { readonly host: string; readonly port: string; readonly userAgent: string };
  /** The object's user metadata as MinIO's event carries it (mirror --active-active reads its own mark there). */
  readonly userMetadata?: Readonly<Record<string, string>>;
}

export interface WatchOptions {
  /** mc's short names: put, delete, get. */
  readonly events: ReadonlySet<string>;
  readonly prefix: string;
  readonly suffix: string;
  readonly signal: AbortSignal;
  /** Called once the server has accepted the watch (the stream is open), before any event. */
  readonly onOpen?: () => void;
}

export const noSource = { host: "", port: "", userAgent: "" } as const;
