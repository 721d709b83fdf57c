/** Sales fixtures dated again, with product codes or at a rate: what the dated-rules suites build documents from. */
import { fixture } from '../support/documents';

export const dated = (
  name: string,
  fechaEmision: string,
  changes: Record<string, unknown> = {},
): Record<string, any> => ({
  ...fixture(name),
  fechaEmision,
  ...changes,
});
export const withCodes = (doc: Record<string, any>) => ({
  ...doc,
  items: doc.items.map((it: object) => ({ ...it, codigoSunat: '43211503' })),
});
export const atRate = (doc: Record<string, any>, rate: number) => ({
  ...doc,
  items: doc.items.map((it: object) => ({ ...it, porcentajeIgv: rate })),
});
