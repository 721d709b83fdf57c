import { expect } from 'chai';
import { english, isMessage, message, MESSAGE_CODES, resultMessage, spanish } from '../../lifecycle/messages';
import { WAITING_REASONS, waitingMessage } from '../../lifecycle/transitions';
import { englishOnlyWords, sampleMessages, words } from '../support/page-checks';

/** The lifecycle's words (lifecycle/messages/): every code said in English and in Spanish, each in its own language. */
describe('lifecycle: messages in two languages (pure)', () => {
  it('every code has an English and a Spanish text, and they differ', () => {
    expect(MESSAGE_CODES.length).to.be.greaterThan(50);
    for (const m of sampleMessages()) {
      const en = english(m);
      const es = spanish(m);
      expect(en, m.code).to.be.a('string').and.not.equal('');
      expect(es, m.code).to.be.a('string').and.not.equal('');
      expect(es, m.code).to.not.equal(en);
    }
  });

  it('the Spanish texts carry no markdown, no API paths and no object dumps', () => {
    for (const m of sampleMessages()) {
      const es = spanish(m);
      expect(es, m.code).to.not.match(/`|POST |PATCH |\/v1\/|\[object|undefined|null/);
    }
  });

  it('every waiting reason has its message', () => {
    for (const reason of WAITING_REASONS) expect(waitingMessage(reason).code).to.equal(`waiting.${reason}`);
    expect(spanish(waitingMessage('timeout'))).to.include('SUNAT no respondió a tiempo');
    expect(english(waitingMessage('timeout'))).to.equal(
      'timed out at the authority: waiting for reconciliation (state query every 10 min) — `recheck` queries now',
    );
  });

  it('a timeout nothing queries promises no query: it says what support does; an OSE is named, not SUNAT', () => {
    const ose = spanish(waitingMessage('unqueried', 'provider_ose', 'timeout'));
    expect(ose).to.match(/^La OSE no respondió a tiempo/);
    expect(ose).to.include('nadie lo consultará solo').and.include('portal de la OSE').and.include('envía de nuevo');
    expect(ose).to.not.match(/SUNAT|cada 10 minutos|Consultar el estado/);
    const beta = spanish(waitingMessage('unqueried', 'tax_authority', 'timeout'));
    expect(beta)
      .to.match(/^SUNAT no respondió a tiempo/)
      .and.include('portal de SUNAT');
    expect(english(waitingMessage('unqueried', undefined, 'timeout')))
      .to.include('nothing queries it by itself')
      .and.not.include('every 10 min');
    // Every text that names the authority names the one the document went to.
    for (const reason of ['timeout', 'ticket', 'connection', 'not_received', 'unreadable'] as const) {
      const own = spanish(waitingMessage(reason, 'own_ose'));
      expect(own, reason).to.include('OSE').and.not.include('SUNAT');
      expect(spanish(waitingMessage(reason, 'tax_authority')), reason)
        .to.include('SUNAT')
        .and.not.include('OSE');
    }
    expect(spanish(waitingMessage('unqueried', 'own_ose', 'system'))).to.match(
      /^La OSE respondió, pero la respuesta no se pudo leer, y no ofrece consulta de estado/,
    );
    expect(spanish(waitingMessage('unqueried', 'any'))).to.match(/^SUNAT \(o la OSE\) no dio su veredicto y no ofrece/);
    expect(spanish(waitingMessage('timeout', 'any'))).to.match(/^SUNAT \(o la OSE\) no respondió/);
  });

  it('quotes its parameters: statuses in each language, lists of addresses', () => {
    const refusal = message('email.not_accepted', { filename: 'F001-1', status: 'rejected' });
    expect(english(refusal)).to.equal(
      'Document F001-1 is rejected: only an accepted document is e-mailed to the buyer',
    );
    expect(spanish(refusal)).to.include('está rechazado');
    const done = message('email.done', { filename: 'F001-1', to: ['a@b.pe', 'c@d.pe'] });
    expect(spanish(done)).to.include('a@b.pe, c@d.pe');
    // A support record keeps its message: rendered again in the reader's language, and nested ones too.
    const support = message('detail.support', {
      operator: 'console:ana',
      result: 'done',
      detail: 'send requested (same signed XML, no quota)',
      message: message('resend.done'),
    });
    expect(english(support)).to.equal('by console:ana: done — send requested (same signed XML, no quota)');
    expect(spanish(support)).to.equal(
      'por console:ana: hecho — Envío solicitado: el mismo XML firmado, sin consumir cuota.',
    );
  });

  it("a result in Spanish: SUNAT's words with its code after them, chasqui's own codes named by their origin (English keeps them)", () => {
    const rejected = resultMessage({ origin: 'tax_authority', code: '2335', message: 'El documento ha sido alterado' });
    expect(spanish(rejected)).to.equal('El documento ha sido alterado (código 2335)');
    expect(english(rejected)).to.equal('tax_authority 2335: El documento ha sido alterado');
    const accepted = resultMessage({ origin: null, code: '0', message: 'La Factura numero F001-1, ha sido aceptada' });
    expect(spanish(accepted)).to.equal('La Factura numero F001-1, ha sido aceptada');
    const lost = resultMessage({ origin: 'timeout', code: 'ETIMEDOUT', message: 'socket timed out after 1500 ms' });
    expect(spanish(lost)).to.equal('sin respuesta a tiempo');
    expect(english(lost)).to.equal('timeout ETIMEDOUT: socket timed out after 1500 ms');
    const attempt = (origin: string, own: boolean) =>
      message('detail.attempt', { origin, code: own ? '0011' : 'CDR_UNREADABLE', status: 'sent', message: null, own });
    expect(spanish(attempt('system', false))).to.equal('respuesta ilegible → enviado');
    expect(english(attempt('system', false))).to.equal('system CDR_UNREADABLE → sent');
    expect(spanish(attempt('tax_authority', true))).to.equal('respuesta de SUNAT 0011 → enviado');
  });

  it('reads stored messages back only when this version knows their code', () => {
    expect(isMessage(message('recheck.done'))).to.equal(true);
    expect(isMessage({ code: 'gone.code', params: {} })).to.equal(false);
    // A stored value naming what every object has is no message either, and renders as none.
    expect(isMessage({ code: 'constructor', params: {} })).to.equal(false);
    expect(() => spanish({ code: 'toString', params: {} } as never)).to.throw('no text for lifecycle message toString');
    expect(isMessage('state query requested')).to.equal(false);
    expect(() => english({ code: 'gone.code', params: {} } as never)).to.throw(
      /no text for lifecycle message gone.code/,
    );
  });

  it('the English-only word list (the browser tests check pages against it) holds English words, no Spanish ones', () => {
    const list = englishOnlyWords();
    for (const word of ['already', 'document', 'timed', 'authority', 'requested'])
      expect(list.has(word), word).to.equal(true);
    for (const word of ['ticket', 'webhook', 'sunat', 'documento']) expect(list.has(word), word).to.equal(false);
    expect(words('cpe.resolved to_send F001-10 e-mail {ruc} Ya está')).to.deep.equal(['está']);
  });
});
