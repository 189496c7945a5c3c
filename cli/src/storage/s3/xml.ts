import { XMLParser } from "fast-xml-parser";

/** A parsed XML element: text, or child elements by name (repeated names become arrays). */
export type XmlValue = string | XmlElement | XmlValue[];
export interface XmlElement {
  [name: string]: XmlValue;
}

/**
 * Parses S3 XML with every value kept as text: an ID of `007` or a Days of
 * `1` must come back exactly as sent, or round trips stop being lossless.
 * `arrays` names elements that are lists even when they occur once.
 */
export function parseXml(text: string, arrays: readonly string[] = []): XmlElement {
  const parser = new XMLParser({
    ignoreAttributes: true,
    ignoreDeclaration: true,
    removeNSPrefix: true,
    parseTagValue: false,
    trimValues: true,
    isArray: (name) => arrays.includes(name),
  });
  const parsed: unknown = parser.parse(text);
  return typeof parsed === "object" && parsed !== null ? (parsed as XmlElement) : {};
}

/** The name of the document's root element ("" when there is none). */
export function rootName(doc: XmlElement): string {
  return Object.keys(doc)[0] ?? "";
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

/** The element's child as an element ({} when absent or text). */
export function child(el: XmlValue | undefined, name: string): XmlElement {
  if (el === undefined || typeof el === "string" || Array.isArray(el)) return {};
  const c = el[name];
  return c !== undefined && typeof c !== "string" && !Array.isArray(c) ? c : {};
}

/** The element's child as text ("" when absent). */
export function text(el: XmlValue | undefined, name: string): string {
  if (el === undefined || typeof el === "string" || Array.isArray(el)) return "";
  const c = el[name];
  return typeof c === "string" ? c : "";
}

/** The element's children of one name as a list. */
export function list(el: XmlValue | undefined, name: string): XmlValue[] {
  if (el === undefined || typeof el === "string" || Array.isArray(el)) return [];
  const c = el[name];
  return c === undefined ? [] : Array.isArray(c) ? c : [c];
}
