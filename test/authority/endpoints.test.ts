import { expect } from 'chai';
import { EndpointConfigError, resolveEndpoints } from '../../authority/endpoints';
import { endpointConfigFromEnv, SUNAT_DEFAULTS } from '../../core/endpoints';

describe('authority endpoint resolution', () => {
  const defaults = endpointConfigFromEnv({});

  it('sends tax_authority companies to SUNAT beta in demo and production in production', () => {
    expect(resolveEndpoints({ environment: '01', destination: 'tax_authority' }, defaults)).to.deep.equal({
      billService: SUNAT_DEFAULTS.billBeta,
      otherCpeService: 'https://e-beta.sunat.gob.pe/ol-ti-itemision-otroscpe-gem-beta/billService',
      billConsultService: null,
      greAuth: SUNAT_DEFAULTS.greTest,
      greApi: SUNAT_DEFAULTS.greTest,
    });
    expect(resolveEndpoints({ environment: '02', destination: 'tax_authority' }, defaults)).to.deep.equal({
      billService: 'https://e-factura.sunat.gob.pe/ol-ti-itcpfegem/billService',
      otherCpeService: 'https://e-factura.sunat.gob.pe/ol-ti-itemision-otroscpe-gem/billService',
      billConsultService: 'https://e-factura.sunat.gob.pe/ol-it-wsconscpegem/billConsultService',
      greAuth: 'https://api-seguridad.sunat.gob.pe/v1',
      greApi: 'https://api-cpe.sunat.gob.pe/v1',
    });
  });

  it('sends OSE companies to their OSE, with no CDR query service', () => {
    const own = resolveEndpoints(
      { environment: '02', destination: 'own_ose', oseUrl: 'https://ose.example.pe/ol-ti-itcpe/billService/' },
      defaults,
    );
    // An OSE takes the otros CPE at its one billService.
    expect(own).to.deep.include({
      billService: 'https://ose.example.pe/ol-ti-itcpe/billService',
      otherCpeService: 'https://ose.example.pe/ol-ti-itcpe/billService',
      billConsultService: null,
    });
    const config = endpointConfigFromEnv({
      PROVIDER_OSE_URL: 'https://prov.example.pe/bill',
      PROVIDER_OSE_URL_BETA: 'https://beta.prov.example.pe/bill',
    });
    expect(resolveEndpoints({ environment: '02', destination: 'provider_ose' }, config).billService).to.equal(
      'https://prov.example.pe/bill',
    );
    expect(resolveEndpoints({ environment: '01', destination: 'provider_ose' }, config).billService).to.equal(
      'https://beta.prov.example.pe/bill',
    );
    expect(() => resolveEndpoints({ environment: '02', destination: 'provider_ose' }, defaults)).to.throw(
      EndpointConfigError,
      /PROVIDER_OSE_URL/,
    );
    expect(() => resolveEndpoints({ environment: '02', destination: 'own_ose' }, defaults)).to.throw(
      EndpointConfigError,
    );
  });

  it('takes every URL from the environment', () => {
    const config = endpointConfigFromEnv({
      SUNAT_BILL_URL_PROD: 'https://p/bill',
      SUNAT_OTHER_CPE_URL_PROD: 'https://p/otros/',
      SUNAT_CONSULT_URL: 'https://p/consult',
      SUNAT_GRE_AUTH_URL: 'https://auth/v1/',
      SUNAT_GRE_API_URL: 'https://api/v1',
    });
    expect(resolveEndpoints({ environment: '02', destination: 'tax_authority' }, config)).to.deep.equal({
      billService: 'https://p/bill',
      otherCpeService: 'https://p/otros',
      billConsultService: 'https://p/consult',
      greAuth: 'https://auth/v1',
      greApi: 'https://api/v1',
    });
  });

  it('CHASQUI_AUTHORITY_URL points every service at the simulator with SUNAT paths', () => {
    const config = endpointConfigFromEnv({
      CHASQUI_AUTHORITY_URL: 'http://127.0.0.1:4010/',
      SUNAT_BILL_URL_PROD: 'https://ignored',
    });
    expect(resolveEndpoints({ environment: '01', destination: 'tax_authority' }, config)).to.deep.equal({
      billService: 'http://127.0.0.1:4010/ol-ti-itcpfegem-beta/billService',
      otherCpeService: 'http://127.0.0.1:4010/ol-ti-itemision-otroscpe-gem-beta/billService',
      billConsultService: 'http://127.0.0.1:4010/ol-it-wsconscpegem/billConsultService',
      greAuth: 'http://127.0.0.1:4010/v1',
      greApi: 'http://127.0.0.1:4010/v1',
    });
    expect(
      resolveEndpoints({ environment: '02', destination: 'own_ose', oseUrl: 'https://x' }, config),
    ).to.deep.include({
      billService: 'http://127.0.0.1:4010/ol-ti-itcpfegem/billService',
      billConsultService: null,
    });
  });
});
