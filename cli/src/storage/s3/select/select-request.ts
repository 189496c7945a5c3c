import { usageError } from "../../../core/errors.js";
import { escapeXml } from "../xml.js";

export type SelectFormat = "csv" | "json" | "parquet";

export interface SelectSpec {
  readonly query: string;
  readonly inputFormat: SelectFormat;
  /** CSV/JSON input settings by mc's short keys (rd, fd, qc, qec, cc, fh; t). */
  readonly input: Readonly<Record<string, string>>;
  readonly compression: "NONE" | "GZIP" | "BZIP2";
  readonly outputFormat: "csv" | "json";
  readonly output: Readonly<Record<string, string>>;
}

/** `rd=\n,fd=;,fh=USE` as a map: a comma starts a new pair only before `key=`, so `fd=,` works. */
export function parseSerdeOptions(flag: string, value: string, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([A-Za-z]+)=((?:[^,]|,(?![A-Za-z]+=))*)(?:,|$)/gy;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(value)) !== null && m[0] !== "") {
    const key = (m[1] ?? "").toLowerCase();
    if (!keys.includes(key)) throw usageError(`${flag}: unknown key \`${key}\` (known: ${keys.join(", ")}).`);
    out[key] = (m[2] ?? "").replace(/\\n/g, "\n").replace(/\\r/g, "\r").replace(/\\t/g, "\t");
    consumed = re.lastIndex;
  }
  if (consumed !== value.length) throw usageError(`${flag} needs key=value pairs separated by commas, not \`${value}\`.`);
  return out;
}

const fileHeader: Readonly<Record<string, string>> = { use: "USE", ignore: "IGNORE", none: "NONE" };

function csvInput(o: Readonly<Record<string, string>>): string {
  const fh = o["fh"] === undefined ? "USE" : fileHeader[o["fh"].toLowerCase()];
  if (fh === undefined) throw usageError(`--csv-input fh must be USE, IGNORE or NONE, not \`${o["fh"] ?? ""}\`.`);
  const parts = [
    `<FileHeaderInfo>${fh}</FileHeaderInfo>`,
    o["rd"] === undefined ? "" : `<RecordDelimiter>${escapeXml(o["rd"])}</RecordDelimiter>`,
    o["fd"] === undefined ? "" : `<FieldDelimiter>${escapeXml(o["fd"])}</FieldDelimiter>`,
    o["qc"] === undefined ? "" : `<QuoteCharacter>${escapeXml(o["qc"])}</QuoteCharacter>`,
    o["qec"] === undefined ? "" : `<QuoteEscapeCharacter>${escapeXml(o["qec"])}</QuoteEscapeCharacter>`,
    o["cc"] === undefined ? "" : `<Comments>${escapeXml(o["cc"])}</Comments>`,
  ];
  return `<CSV>${parts.join("")}</CSV>`;
}

function jsonInput(o: Readonly<Record<string, string>>): string {
  const t = (o["t"] ?? "lines").toUpperCase();
  if (t !== "LINES" && t !== "DOCUMENT") throw usageError(`--json-input t must be lines or document, not \`${o["t"] ?? ""}\`.`);
  return `<JSON><Type>${t}</Type></JSON>`;
}

/** The SelectObjectContentRequest document. */
export function selectRequestXml(spec: SelectSpec): string {
  if (spec.query.trim() === "") throw usageError("--query must not be empty.");
  const input = spec.inputFormat === "csv" ? csvInput(spec.input) : spec.inputFormat === "json" ? jsonInput(spec.input) : "<Parquet/>";
  const o = spec.output;
  const rd = o["rd"] === undefined ? "" : `<RecordDelimiter>${escapeXml(o["rd"])}</RecordDelimiter>`;
  const output =
    spec.outputFormat === "json"
      ? `<JSON>${rd}</JSON>`
      : `<CSV>${rd}${o["fd"] === undefined ? "" : `<FieldDelimiter>${escapeXml(o["fd"])}</FieldDelimiter>`}${o["qc"] === undefined ? "" : `<QuoteCharacter>${escapeXml(o["qc"])}</QuoteCharacter>`}</CSV>`;
  return (
    `<SelectObjectContentRequest xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Expression>${escapeXml(spec.query)}</Expression><ExpressionType>SQL</ExpressionType>` +
    `<InputSerialization><CompressionType>${spec.compression}</CompressionType>${input}</InputSerialization>` +
    `<OutputSerialization>${output}</OutputSerialization><RequestProgress><Enabled>false</Enabled></RequestProgress></SelectObjectContentRequest>`
  );
}
