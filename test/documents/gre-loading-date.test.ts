/**
 * Rule `gre-loading-date` (issue 24): a GRE remitente by public transport issued on or after the rule's date carries
 * the date the goods were handed to the carrier (envio.fechaEntregaTransportista → ShipmentStage/
 * LoadingTransportEvent/OccurrenceDate): 3617 missing, 3618 before fechaEmision, 3619 not a date. Guides issued
 * before the date are judged by the 2024 rules. SUNAT's revised XSL (sunat/xsl) gives the same verdicts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DocumentValidationError, formatIssue, prepareDocument, type PrepareOptions } from '../../documents';
import { addDays, DEFAULT_CALENDAR, RuleCalendar } from '../../documents/calendar';
import { createSigner, generateTestCertificate, signBuiltXml } from '../../documents/signing';
import { validateDocuments } from '../support/validator';

const FIXTURES = path.resolve(__dirname, '../fixtures/documents');
const fixture = (name: string) => JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, any>;
const FIELD = 'envio.fechaEntregaTransportista';

/** The public-transport sale issued on `date`, its transfer starting that day; `handover` set, or removed when null. */
function publicGuide(date: string, handover: string | null, base = 'gre-09-venta-publico.json'): Record<string, any> {
  const guide = fixture(base);
  guide.fechaEmision = date;
  guide.envio.fechaInicio = date;
  if (handover === null) delete guide.envio.fechaEntregaTransportista;
  else guide.envio.fechaEntregaTransportista = handover;
  return guide;
}

function errorsOf(payload: unknown, options?: PrepareOptions): { error: string; path: string | null }[] {
  try {
    prepareDocument(payload, options);
  } catch (err) {
    expect(err).to.be.instanceOf(DocumentValidationError);
    return (err as DocumentValidationError).issues.map((i) => ({ error: formatIssue(i), path: i.path }));
  }
  return [];
}

describe('GRE: the date the goods are handed to the carrier (rule gre-loading-date)', () => {
  const effective = DEFAULT_CALENDAR.effective('gre-loading-date');
  const dayBefore = addDays(effective, -1);

  it('is in force from 2026-06-01 by default', () => {
    expect(effective).to.equal('2026-06-01');
  });

  it('by default: the day before, a guide without the date is accepted as the 2024 rules did; from the day itself it is 3617', () => {
    expect(errorsOf(publicGuide(dayBefore, null))).to.deep.equal([]);
    expect(prepareDocument(publicGuide(dayBefore, null)).xml).not.to.contain('LoadingTransportEvent');
    expect(errorsOf(publicGuide(effective, null))).to.deep.equal([
      {
        error: `[SUNAT 3617] ${FIELD} (date the goods are handed to the carrier) is required for public transport (modalidad 01) on guides issued from 2026-06-01`,
        path: FIELD,
      },
    ]);
  });

  it('with the calendar moved (CHASQUI_RULE_DATES): judged by the moved date, on both sides of it', () => {
    const moved = new RuleCalendar({ 'gre-loading-date': '2026-09-15' });
    const calendar: PrepareOptions = { calendar: moved };
    expect(errorsOf(publicGuide(effective, null), calendar), 'the default date no longer bites').to.deep.equal([]);
    expect(errorsOf(publicGuide('2026-09-14', null), calendar)).to.deep.equal([]);
    const onTheDay = errorsOf(publicGuide('2026-09-15', null), calendar);
    expect(onTheDay.map((e) => e.path)).to.deep.equal([FIELD]);
    expect(onTheDay[0].error).to.match(/^\[SUNAT 3617\] .* on guides issued from 2026-09-15$/);
    // Brought forward: a guide of May 2026 is judged by the new rule too.
    const earlier = new RuleCalendar({ 'gre-loading-date': '2026-05-01' });
    expect(
      errorsOf(publicGuide('2026-05-01', null), { calendar: earlier }).map((e) => e.error.slice(0, 12)),
    ).to.deep.equal(['[SUNAT 3617]']);
    expect(errorsOf(publicGuide('2026-04-30', null), { calendar: earlier })).to.deep.equal([]);
  });

  it('3618: a handover before fechaEmision; on the issue date or later is fine', () => {
    expect(errorsOf(publicGuide(effective, dayBefore))).to.deep.equal([
      { error: `[SUNAT 3618] ${FIELD} ${dayBefore} is before fechaEmision ${effective}`, path: FIELD },
    ]);
    expect(errorsOf(publicGuide(effective, effective))).to.deep.equal([]);
    expect(errorsOf(publicGuide(effective, addDays(effective, 3)))).to.deep.equal([]);
    // Before the rule's date SUNAT did not read it: an earlier handover date is not judged.
    expect(errorsOf(publicGuide(dayBefore, addDays(dayBefore, -5)))).to.deep.equal([]);
  });

  it('3619: not a date YYYY-MM-DD, whatever the issue date', () => {
    for (const [value, text] of [
      ['01/06/2026', 'must be a date YYYY-MM-DD'],
      ['2026-06-31', 'is not a calendar date'],
      [20260601, 'must be a date YYYY-MM-DD'],
    ] as const) {
      for (const date of [dayBefore, effective]) {
        const guide = publicGuide(date, null);
        guide.envio.fechaEntregaTransportista = value;
        expect(errorsOf(guide), `${value} on ${date}`).to.deep.equal([
          { error: `[SUNAT 3619] '${FIELD}' (date the goods are handed to the carrier) ${text}`, path: FIELD },
        ]);
      }
    }
  });

  it("only public transport needs it: private transport (02) and the carrier's 31 are accepted without it", () => {
    const privateGuide = fixture('gre-09-venta-privado.json');
    privateGuide.fechaEmision = effective;
    privateGuide.envio.fechaInicio = effective;
    expect(errorsOf(privateGuide)).to.deep.equal([]);
    const carrierGuide = fixture('gre-31-basico.json');
    carrierGuide.fechaEmision = effective;
    carrierGuide.envio.fechaInicio = effective;
    expect(errorsOf(carrierGuide)).to.deep.equal([]);
  });

  it("is written as ShipmentStage/LoadingTransportEvent/OccurrenceDate in UBL's order (after CarrierParty, before DriverPerson), in a 09 and a 31", () => {
    const sender = prepareDocument(publicGuide(effective, '2026-06-02')).xml;
    expect(sender).to.match(
      /<\/cac:CarrierParty><cac:LoadingTransportEvent><cbc:OccurrenceDate>2026-06-02<\/cbc:OccurrenceDate><\/cac:LoadingTransportEvent><\/cac:ShipmentStage>/,
    );
    const carrierGuide = fixture('gre-31-basico.json');
    carrierGuide.envio.fechaEntregaTransportista = carrierGuide.envio.fechaInicio;
    const carrier = prepareDocument(carrierGuide).xml;
    expect(carrier).to.match(
      /<\/cac:CarrierParty><cac:LoadingTransportEvent><cbc:OccurrenceDate>[\d-]+<\/cbc:OccurrenceDate><\/cac:LoadingTransportEvent><cac:DriverPerson>/,
    );
  });

  describe("SUNAT's revised GRE rules (sunat/xsl, chasqui validate) judge the same XML", function () {
    // The first run on a machine compiles SUNAT's GRE rules.
    this.timeout(300_000);
    const signer = createSigner(generateTestCertificate({ ruc: '20123456786' }));
    // chasqui itself refuses these from the default date on: built with the rule moved away, as an integrator's own
    // XML or a guide issued before the date would reach SUNAT.
    const lenient: PrepareOptions = { calendar: new RuleCalendar({ 'gre-loading-date': '2099-01-01' }) };
    const cases = {
      with: publicGuide(effective, effective),
      without: publicGuide(effective, null),
      before: publicGuide(effective, dayBefore),
      carrier: (() => {
        const guide = fixture('gre-31-basico.json');
        guide.envio.fechaEntregaTransportista = guide.envio.fechaInicio;
        return guide;
      })(),
    };
    const verdicts = new Map<string, { xsl: string; rejection: string | null }>();

    before(async () => {
      const entries = Object.entries(cases).map(([name, payload], i) => {
        const prepared = prepareDocument({ ...payload, correlativo: String(900 + i) }, lenient);
        return { name, file: `${prepared.filename}.xml`, xml: signBuiltXml(prepared.xml, signer).xml };
      });
      const reports = await validateDocuments(entries.map(({ file, xml }) => ({ file, xml })));
      entries.forEach((e, i) => verdicts.set(e.name, { xsl: reports[i].xsl, rejection: reports[i].rejection }));
    });

    it('accept a public-transport guide with the date, and a 31 carrying it', () => {
      expect(verdicts.get('with')).to.deep.equal({ xsl: 'accepted', rejection: null });
      expect(verdicts.get('carrier')).to.deep.equal({ xsl: 'accepted', rejection: null });
    });

    it('refuse it without the date (3617) and with a date before the issue date (3618)', () => {
      expect(verdicts.get('without')).to.deep.equal({ xsl: 'rejected', rejection: '3617' });
      expect(verdicts.get('before')).to.deep.equal({ xsl: 'rejected', rejection: '3618' });
    });
  });
});
