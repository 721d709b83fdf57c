/**
 * Where SUNAT's and the OSE's services are, as the environment configures them (core/config.ts reads it through
 * this module; authority/endpoints.ts resolves a company's destination against it).
 */
export interface EndpointConfig {
  billBeta: string;
  billProd: string;
  otherBeta: string;
  otherProd: string;
  consult: string;
  greAuth: string;
  greApi: string;
  greAuthBeta: string;
  greApiBeta: string;
  providerOse: string | null;
  providerOseBeta: string | null;
  /** When set, every service is the simulator at this base, with SUNAT's own paths. */
  authorityUrl: string | null;
}

/** SUNAT's real hosts (PROTOCOL.md §2, §4). GRE has no official test host: demo uses the community test host. */
export const SUNAT_DEFAULTS = {
  billBeta: 'https://e-beta.sunat.gob.pe/ol-ti-itcpfegem-beta/billService',
  billProd: 'https://e-factura.sunat.gob.pe/ol-ti-itcpfegem/billService',
  otherBeta: 'https://e-beta.sunat.gob.pe/ol-ti-itemision-otroscpe-gem-beta/billService',
  otherProd: 'https://e-factura.sunat.gob.pe/ol-ti-itemision-otroscpe-gem/billService',
  consult: 'https://e-factura.sunat.gob.pe/ol-it-wsconscpegem/billConsultService',
  greAuth: 'https://api-seguridad.sunat.gob.pe/v1',
  greApi: 'https://api-cpe.sunat.gob.pe/v1',
  greTest: 'https://gre-test.nubefact.com/v1',
} as const;

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Reads the endpoint configuration from the environment:
 * SUNAT_BILL_URL_BETA, SUNAT_BILL_URL_PROD, SUNAT_OTHER_CPE_URL_BETA, SUNAT_OTHER_CPE_URL_PROD, SUNAT_CONSULT_URL, SUNAT_GRE_AUTH_URL, SUNAT_GRE_API_URL,
 * SUNAT_GRE_AUTH_URL_BETA, SUNAT_GRE_API_URL_BETA, PROVIDER_OSE_URL, PROVIDER_OSE_URL_BETA (defaults to
 * PROVIDER_OSE_URL), and CHASQUI_AUTHORITY_URL (the simulator switch, overriding all of them).
 */
export function endpointConfigFromEnv(env: NodeJS.ProcessEnv = process.env): EndpointConfig {
  const pick = (name: string, fallback: string) => trimSlash(env[name]?.trim() || fallback);
  const providerOse = env.PROVIDER_OSE_URL?.trim() || null;
  return {
    billBeta: pick('SUNAT_BILL_URL_BETA', SUNAT_DEFAULTS.billBeta),
    billProd: pick('SUNAT_BILL_URL_PROD', SUNAT_DEFAULTS.billProd),
    otherBeta: pick('SUNAT_OTHER_CPE_URL_BETA', SUNAT_DEFAULTS.otherBeta),
    otherProd: pick('SUNAT_OTHER_CPE_URL_PROD', SUNAT_DEFAULTS.otherProd),
    consult: pick('SUNAT_CONSULT_URL', SUNAT_DEFAULTS.consult),
    greAuth: pick('SUNAT_GRE_AUTH_URL', SUNAT_DEFAULTS.greAuth),
    greApi: pick('SUNAT_GRE_API_URL', SUNAT_DEFAULTS.greApi),
    greAuthBeta: pick('SUNAT_GRE_AUTH_URL_BETA', SUNAT_DEFAULTS.greTest),
    greApiBeta: pick('SUNAT_GRE_API_URL_BETA', SUNAT_DEFAULTS.greTest),
    providerOse: providerOse && trimSlash(providerOse),
    providerOseBeta: env.PROVIDER_OSE_URL_BETA?.trim()
      ? trimSlash(env.PROVIDER_OSE_URL_BETA.trim())
      : providerOse && trimSlash(providerOse),
    authorityUrl: env.CHASQUI_AUTHORITY_URL?.trim() ? trimSlash(env.CHASQUI_AUTHORITY_URL.trim()) : null,
  };
}
