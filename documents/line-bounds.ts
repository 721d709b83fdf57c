/**
 * A document has at most as many lines as the same document may have in JSON (each schema's constant), however it
 * came: signed by the issuer (documents/external.ts) or read back to print it (a document stored before this bound).
 */
import { MAX_LINES } from './sales/schema';
import { MAX_DESPATCH_LINES } from './despatch/schema';
import { MAX_OTHER_LINES } from './other/schema';
import { MAX_SUMMARY_LINES } from './summaries/schema';

/** Each root's line element and its most lines. */
const LINES: Record<string, [element: string, max: number]> = {
  Invoice: ['InvoiceLine', MAX_LINES],
  CreditNote: ['CreditNoteLine', MAX_LINES],
  DebitNote: ['DebitNoteLine', MAX_LINES],
  DespatchAdvice: ['DespatchLine', MAX_DESPATCH_LINES],
  Retention: ['SUNATRetentionDocumentReference', MAX_OTHER_LINES],
  Perception: ['SUNATPerceptionDocumentReference', MAX_OTHER_LINES],
  SummaryDocuments: ['SummaryDocumentsLine', MAX_SUMMARY_LINES],
};

/** What is read of a DOM (the global one or xmldom's): a root's children by local name. */
interface NodeLike {
  nodeType: number;
  localName?: string | null;
  nextSibling: NodeLike | null;
}

/** Too many lines under `root`, said with the limit and SUNAT's code where it has one (2023); null within it. */
export function linesProblem(root: {
  localName?: string | null;
  firstChild: NodeLike | null;
}): { code: string | null; message: string } | null {
  const [element, max] = LINES[root.localName ?? ''] ?? [null, 0];
  if (!element) return null;
  let count = 0;
  for (let node = root.firstChild; node; node = node.nextSibling)
    if (node.nodeType === 1 && node.localName === element && ++count > max)
      return {
        code: max === MAX_LINES ? '2023' : null,
        message: `the document has more than ${max} ${element} elements, the most the same document may have in JSON; split it into several documents`,
      };
  return null;
}
