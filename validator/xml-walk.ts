/**
 * One pass over an XML document's tags without a DOM (a DOM costs about 1.1 ms for a 14 kB invoice, more than
 * everything else the simulator does per document). Elements are named by their local names along the path from
 * the root, so any prefix (or a default namespace) works. Used by the simulator's scan of received documents and by
 * the dated rules, which must stay cheap enough to run over every document a company has stored.
 */
const TAG =
  /<(\/?)([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)([^>]*?)(\/?)>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>/g;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.includes('&')
    ? text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (m, e: string) =>
        e[0] === '#'
          ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
          : (ENTITIES[e] ?? m),
      )
    : text;
}

export interface XmlVisitor {
  /** The root element's local name. */
  root?(local: string): void;
  /** An element opens; `path` is the local names below the root joined by '/' ('' for the root itself). */
  open?(path: string, attrs: string): void;
  /** Whether the text of the element at `path` is wanted by `close` (reading text costs). */
  wants(path: string): boolean;
  /** A wanted element closes with its trimmed, decoded text and the attributes of its start tag. */
  close(path: string, text: string, attrs: string): void;
}

/** Walks the document; false when its tags do not balance or there is more than one root (SUNAT: 0306). */
export function walkXml(xml: string, visitor: XmlVisitor): boolean {
  const stack: string[] = [];
  let path = '';
  let textStart = -1;
  let attrs = '';
  let cdata = '';
  let sawRoot = false;
  const re = new RegExp(TAG.source, 'g');
  for (let m = re.exec(xml); m; m = re.exec(xml)) {
    if (m[3] === undefined) {
      if (m[6] !== undefined) cdata += m[6];
      continue;
    }
    const local = m[3];
    if (m[1] !== '/') {
      if (stack.length === 0) {
        if (sawRoot) return false;
        sawRoot = true;
        visitor.root?.(local);
      }
      // An empty element written <x/> carries nothing: it is skipped, as an absent one.
      if (m[5] === '/') continue;
      const childPath = stack.length === 0 ? '' : path ? `${path}/${local}` : local;
      visitor.open?.(childPath, m[4]);
      stack.push(local);
      path = childPath;
      textStart = re.lastIndex;
      attrs = m[4];
      cdata = '';
      continue;
    }
    if (stack.pop() !== local) return false;
    if (textStart >= 0 && visitor.wants(path))
      visitor.close(path, decode(cdata + xml.slice(textStart, m.index)).trim(), attrs);
    textStart = -1;
    path = stack.length > 1 ? stack.slice(1).join('/') : '';
  }
  return stack.length === 0 && sawRoot;
}
