/** Company axes that decide where documents go (spec section 1). */
export interface CompanyRoute {
  environment: '01' | '02';
  destination: 'tax_authority' | 'own_ose' | 'provider_ose';
  /** The company's own OSE billService URL (destination `own_ose`). */
  oseUrl?: string | null;
}

export interface ResolvedEndpoints {
  billService: string;
  /** The billService of the "otros CPE": retención (20), percepción (40) and their reversals (RR). An OSE takes them at its one billService. */
  otherCpeService: string;
  /** SUNAT's CDR query service: production only, and never through an OSE. */
  billConsultService: string | null;
  greAuth: string;
  greApi: string;
}

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

/** SUNAT's paths, as served by the simulator (`chasqui simulator`). */
export const SUNAT_PATHS = {
  billBeta: '/ol-ti-itcpfegem-beta/billService',
  billProd: '/ol-ti-itcpfegem/billService',
  otherBeta: '/ol-ti-itemision-otroscpe-gem-beta/billService',
  otherProd: '/ol-ti-itemision-otroscpe-gem/billService',
  consult: '/ol-it-wsconscpegem/billConsultService',
  gre: '/v1',
} as const;

function trimSlash(url: string): string {
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
    providerOseBeta: env.PROVIDER_OSE_URL_BETA?.trim() ? trimSlash(env.PROVIDER_OSE_URL_BETA.trim()) : providerOse && trimSlash(providerOse),
    authorityUrl: env.CHASQUI_AUTHORITY_URL?.trim() ? trimSlash(env.CHASQUI_AUTHORITY_URL.trim()) : null,
  };
}

/** Thrown for a company whose destination cannot be resolved (a configuration error, not a transport outcome). */
export class EndpointConfigError extends Error {
  override name = 'EndpointConfigError';
}

/** Where a company's documents go: destination × environment (demo → SUNAT beta, production → SUNAT production). */
export function resolveEndpoints(company: CompanyRoute, config: EndpointConfig): ResolvedEndpoints {
  const production = company.environment === '02';
  if (config.authorityUrl) {
    const base = config.authorityUrl;
    return {
      billService: base + (production ? SUNAT_PATHS.billProd : SUNAT_PATHS.billBeta),
      otherCpeService: base + (production ? SUNAT_PATHS.otherProd : SUNAT_PATHS.otherBeta),
      billConsultService: company.destination === 'tax_authority' ? base + SUNAT_PATHS.consult : null,
      greAuth: base + SUNAT_PATHS.gre,
      greApi: base + SUNAT_PATHS.gre,
    };
  }
  const gre = production ? { greAuth: config.greAuth, greApi: config.greApi } : { greAuth: config.greAuthBeta, greApi: config.greApiBeta };
  switch (company.destination) {
    case 'tax_authority':
      return {
        billService: production ? config.billProd : config.billBeta,
        otherCpeService: production ? config.otherProd : config.otherBeta,
        billConsultService: production ? config.consult : null,
        ...gre,
      };
    case 'own_ose':
      if (!company.oseUrl) throw new EndpointConfigError('destination own_ose needs the company OSE URL');
      return { billService: trimSlash(company.oseUrl), otherCpeService: trimSlash(company.oseUrl), billConsultService: null, ...gre };
    case 'provider_ose': {
      const url = production ? config.providerOse : config.providerOseBeta;
      if (!url) throw new EndpointConfigError(`destination provider_ose needs ${production ? 'PROVIDER_OSE_URL' : 'PROVIDER_OSE_URL_BETA or PROVIDER_OSE_URL'}`);
      return { billService: url, otherCpeService: url, billConsultService: null, ...gre };
    }
  }
}
