import { trimSlash, type EndpointConfig } from '../core/endpoints';

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

/** SUNAT's paths, as served by the simulator (`chasqui simulator`). */
export const SUNAT_PATHS = {
  billBeta: '/ol-ti-itcpfegem-beta/billService',
  billProd: '/ol-ti-itcpfegem/billService',
  otherBeta: '/ol-ti-itemision-otroscpe-gem-beta/billService',
  otherProd: '/ol-ti-itemision-otroscpe-gem/billService',
  consult: '/ol-it-wsconscpegem/billConsultService',
  gre: '/v1',
} as const;

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
  const gre = production
    ? { greAuth: config.greAuth, greApi: config.greApi }
    : { greAuth: config.greAuthBeta, greApi: config.greApiBeta };
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
      return {
        billService: trimSlash(company.oseUrl),
        otherCpeService: trimSlash(company.oseUrl),
        billConsultService: null,
        ...gre,
      };
    case 'provider_ose': {
      const url = production ? config.providerOse : config.providerOseBeta;
      if (!url)
        throw new EndpointConfigError(
          `destination provider_ose needs ${production ? 'PROVIDER_OSE_URL' : 'PROVIDER_OSE_URL_BETA or PROVIDER_OSE_URL'}`,
        );
      return { billService: url, otherCpeService: url, billConsultService: null, ...gre };
    }
  }
}
