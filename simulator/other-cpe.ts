/**
 * SUNAT's "otros CPE" billService: the comprobantes de retención (20) and percepción (40) and their reversals (RR) go to
 * their own service (`/ol-ti-itemision-otroscpe-gem[-beta]/billService`), which speaks the same SOAP contract as the
 * CPE billService. Each service takes only its own types; a file sent to the other one is refused before it is read.
 */
import { SUNAT_PATHS } from '../authority/endpoints';

const OTHER_CPE_PATHS = new Set<string>([SUNAT_PATHS.otherBeta, SUNAT_PATHS.otherProd]);
const OTHER_CPE_TYPES = new Set(['20', '40', 'RR']);
/** Reversals are kept on the CPE billService too, where chasqui sent them before the otros CPE service existed here. */
const ONLY_OTHER_CPE = new Set(['20', '40']);

/** 0302 (tipo de comprobante no registrado) when `docType` is not taken by the billService at `path`; null otherwise. */
export function wrongService(path: string, docType: string): string | null {
  const other = OTHER_CPE_PATHS.has(path.replace(/\/+$/, ''));
  return (other ? !OTHER_CPE_TYPES.has(docType) : ONLY_OTHER_CPE.has(docType)) ? '0302' : null;
}
