/** One `mc watch` event (contracts/mc.md §5). */
export interface WatchEvent {
  readonly time: string;
  readonly size: number;
  readonly path: string;
  readonly type: string;
  readonly source: { readonly host: string; readonly port: string; readonly userAgent: string };
}

export interface WatchOptions {
  /** mc's short names: put, delete, get. */
  readonly events: ReadonlySet<string>;
  readonly prefix: string;
  readonly suffix: string;
  readonly signal: AbortSignal;
}

export const noSource = { host: "", port: "", userAgent: "" } as const;
