import { createSigner, generateTestCertificate, signXml, type Signer } from '../../documents/signing';
import { SUNAT_PATHS } from '../../authority/endpoints';
import type { SimulatorHandle } from '../../simulator/server';

export const RUC = '20123456789';
export const CREDS = { ruc: RUC, solUser: 'MODDATOS', solPassword: 'moddatos' };

let signer: Signer | null = null;

/** Signs a fixture with one issuer certificate per test run. */
export function sign(doc: { filename: string; xml: string }): { filename: string; xml: string } {
  signer ??= createSigner(generateTestCertificate({ ruc: RUC }));
  return { filename: doc.filename, xml: signXml(doc.xml, signer).xml };
}

export function urls(sim: SimulatorHandle) {
  return {
    bill: sim.url + SUNAT_PATHS.billBeta,
    billProd: sim.url + SUNAT_PATHS.billProd,
    consult: sim.url + SUNAT_PATHS.consult,
    otherCpe: sim.url + SUNAT_PATHS.otherBeta,
    gre: { auth: sim.url + SUNAT_PATHS.gre, api: sim.url + SUNAT_PATHS.gre },
  };
}
