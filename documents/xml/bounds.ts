/**
 * XML a company supplies (an externally signed document, a file given to `chasqui validate`, a stored document read
 * to print it) is measured before any parser holds it: a DOM costs time and memory by elements, not by bytes (a 2 MiB
 * text of many small elements kept xmldom busy 2 s on the event loop), and xmldom recurses by depth. One linear pass
 * without a DOM counts both and refuses past the bounds, so the parse that follows is bounded too (docs/security.md,
 * "XML"; docs/documents.md).
 */

export interface XmlBounds {
  /** UTF-8 bytes of the text. */
  bytes: number;
  /** Elements nested inside one another, the root included. */
  depth: number;
  /** Start tags in all. */
  elements: number;
}

/** A document is at most this large, JSON or XML alike: the JSON body's limit is this one. */
export const DOCUMENT_MAX_BYTES = 2 * 1024 * 1024;

/**
 * A document sent to be issued (`{xml}` of POST /v1/cpe): a 999-line invoice is 1.9 MB and 29,000 elements, UBL
 * averages 60 bytes an element, so 2 MiB of genuine UBL holds fewer than 40,000; the deepest document chasqui knows
 * (SUNAT's samples, the fixtures, every builder) nests 9 levels, JSON bodies at most 32.
 */
export const UPLOAD_BOUNDS: XmlBounds = { bytes: DOCUMENT_MAX_BYTES, depth: 32, elements: 60_000 };

/**
 * A stored document read again (printed) or a file given to `chasqui validate`: whatever chasqui builds from a JSON
 * document of 2 MiB passes (a 9,999-line guide is 5.8 MB and 100,000 elements; a 999-line invoice whose lines carry
 * properties, 5.3 MB and 74,000).
 */
export const STORED_BOUNDS: XmlBounds = { bytes: 16 * 1024 * 1024, depth: 32, elements: 300_000 };

/** A text past its bounds, or a document past its lines, met where it is read rather than where it came in. */
export class XmlBoundsError extends Error {}

const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

/** The `>` closing a tag opened before `from`, outside quoted attribute values; -1 when there is none. */
function tagEnd(xml: string, from: number): number {
  let quote = 0;
  for (let i = from; i < xml.length; i++) {
    const c = xml.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === QUOTE || c === APOSTROPHE) quote = c;
    else if (c === GT) return i;
  }
  return -1;
}

/** The last character of a comment, CDATA section, processing instruction or declaration starting at `at`. */
function markupEnd(xml: string, at: number): number {
  const close = xml.startsWith('<!--', at) ? '-->' : xml.startsWith('<![CDATA[', at) ? ']]>' : null;
  if (close) {
    const found = xml.indexOf(close, at + 4);
    return found < 0 ? -1 : found + 2;
  }
  if (xml.charCodeAt(at + 1) !== QUESTION) return tagEnd(xml, at + 2);
  const found = xml.indexOf('?>', at + 2);
  return found < 0 ? -1 : found + 1;
}

/**
 * The first bound the text passes, said with its limit; null when it is within all of them. Malformed markup is left
 * to the parser, which then only ever sees a bounded text.
 */
export function xmlBoundsProblem(xml: string, bounds: XmlBounds): string | null {
  // Every UTF-16 code unit is at least one UTF-8 byte: only a text that may be near the bound is measured exactly.
  const bytes = xml.length * 3 > bounds.bytes ? Buffer.byteLength(xml, 'utf8') : xml.length;
  if (bytes > bounds.bytes) return `the XML is ${bytes} bytes, more than the ${bounds.bytes} accepted`;
  let depth = 0;
  let elements = 0;
  for (let at = xml.indexOf('<'); at >= 0;) {
    const next = xml.charCodeAt(at + 1);
    let end: number;
    if (next === BANG || next === QUESTION) end = markupEnd(xml, at);
    else {
      end = tagEnd(xml, at + 1);
      if (next === SLASH) depth--;
      else {
        if (++elements > bounds.elements) return `the XML has more than ${bounds.elements} elements`;
        if (end > 0 && xml.charCodeAt(end - 1) !== SLASH && ++depth > bounds.depth)
          return `the XML nests elements more than ${bounds.depth} deep`;
      }
    }
    if (end < 0) return null;
    at = xml.indexOf('<', end + 1);
  }
  return null;
}
