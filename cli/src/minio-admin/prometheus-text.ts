/**
 * The Prometheus text exposition format read into prom2json's families (what
 * `mc admin prometheus metrics --json` prints through madmin's
 * ParsePrometheusResults): counters, gauges and untyped samples with their
 * value as Go prints a float, summaries with quantiles, histograms with
 * buckets, families sorted by name. Pure.
 */
interface Sample {
  labels: Record<string, string>;
  value: number;
  timestamp?: string;
}

export interface Family {
  name: string;
  help: string;
  type: string;
  metrics?: Record<string, unknown>[];
}

/** Go `fmt.Sprint(float64)` (shortest %g): exponent form when the exponent is below -4 or at least 6. */
export function goFloat(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  const [mant = "", expText = "0"] = v.toExponential().split("e");
  const exp = Number(expText);
  if (exp >= -4 && exp < 6) return String(v);
  return `${mant}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

function parseLabels(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*,?/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) out[m[1] ?? ""] = (m[2] ?? "").replace(/\\(["\\n])/g, (_s, c: string) => (c === "n" ? "\n" : c));
  return out;
}

const parseValue = (s: string): number => (s === "+Inf" ? Infinity : s === "-Inf" ? -Infinity : s === "NaN" ? NaN : Number(s));

export function parsePrometheusText(text: string): Family[] {
  const families = new Map<string, { help: string; type: string; samples: { name: string; s: Sample }[] }>();
  const family = (name: string): { help: string; type: string; samples: { name: string; s: Sample }[] } => {
    let f = families.get(name);
    if (!f) {
      f = { help: "", type: "untyped", samples: [] };
      families.set(name, f);
    }
    return f;
  };
  const typed = new Map<string, string>();
  const owner = (sampleName: string): string => {
    for (const suffix of ["_bucket", "_count", "_sum"]) {
      const base = sampleName.slice(0, -suffix.length);
      if (sampleName.endsWith(suffix) && ["histogram", "summary"].includes(typed.get(base) ?? "")) return base;
    }
    return sampleName;
  };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    const meta = /^#\s+(HELP|TYPE)\s+(\S+)\s*(.*)$/.exec(line);
    if (meta) {
      const f = family(meta[2] ?? "");
      if (meta[1] === "HELP") f.help = (meta[3] ?? "").replace(/\\n/g, "\n").replace(/\\\\/g, "\\");
      else {
        f.type = (meta[3] ?? "untyped").trim();
        typed.set(meta[2] ?? "", f.type);
      }
      continue;
    }
    if (line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)(?:\s+(\S+))?$/.exec(line);
    if (!m) throw new Error(`text format parsing error: unexpected line ${JSON.stringify(line)}`);
    const name = m[1] ?? "";
    const s: Sample = { labels: m[2] ? parseLabels(m[2].slice(1, -1)) : {}, value: parseValue(m[3] ?? "") };
    if (m[4] !== undefined) s.timestamp = m[4];
    family(owner(name)).samples.push({ name, s });
  }
  const key = (l: Record<string, string>, drop: string): string => JSON.stringify(Object.entries(l).filter(([k]) => k !== drop).sort());
  const withLabels = (l: Record<string, string>): Record<string, unknown> => (Object.keys(l).length > 0 ? { labels: l } : {});
  const out: Family[] = [];
  for (const name of [...families.keys()].sort()) {
    const f = families.get(name);
    if (!f) continue;
    let metrics: Record<string, unknown>[] = [];
    if (f.type === "histogram" || f.type === "summary") {
      const drop = f.type === "histogram" ? "le" : "quantile";
      const groups = new Map<string, { labels: Record<string, string>; parts: Record<string, string>; count: string; sum: string }>();
      for (const { name: n, s } of f.samples) {
        const k = key(s.labels, drop);
        let g = groups.get(k);
        if (!g) {
          g = { labels: Object.fromEntries(Object.entries(s.labels).filter(([l]) => l !== drop)), parts: {}, count: "0", sum: "0" };
          groups.set(k, g);
        }
        if (n.endsWith("_count")) g.count = goFloat(s.value);
        else if (n.endsWith("_sum")) g.sum = goFloat(s.value);
        else if (s.labels[drop] !== undefined) g.parts[goFloat(parseValue(s.labels[drop] ?? ""))] = goFloat(s.value);
      }
      metrics = [...groups.values()].map((g) => ({ ...withLabels(g.labels), [f.type === "histogram" ? "buckets" : "quantiles"]: g.parts, count: g.count, sum: g.sum }));
    } else {
      metrics = f.samples.map(({ s }) => ({ ...withLabels(s.labels), ...(s.timestamp !== undefined ? { timestamp_ms: s.timestamp } : {}), value: goFloat(s.value) }));
    }
    out.push({ name, help: f.help, type: f.type.toUpperCase(), ...(metrics.length > 0 ? { metrics } : {}) });
  }
  return out;
}
