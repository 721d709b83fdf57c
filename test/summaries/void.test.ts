import { expect } from 'chai';
import { type SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { startTestStack, type TestStack } from '../support/stack';
import { testConfig } from '../support/services';
import { checkSchema } from '../support/json-schema';
import { call, type ApiResponse } from '../companies/helpers';
import { summaryFixtures } from './support';
import { createAccount } from '../../db/accounts';
import type { CompanyRow } from '../../db/companies';
import { findDocument } from '../../db/documents';
import { COMPANY_SCOPE, issueToken } from '../../db/tokens';
import { openApiDocument } from '../../api/openapi';
import { documentWorkflowId } from '../../workflows/document-types';

/**
 * `POST/GET /v1/cpe/{external_id}/void` over HTTP against a real stack and the simulator: an invoice is voided by an
 * ra sent at once, a receipt by a condition 3 line of the next daily summary; every answer matches the OpenAPI document.
 */
describe('voiding documents (POST /v1/cpe/{external_id}/void)', function () {
  this.timeout(90_000);
  let sim: SimulatorHandle;
  let stack: TestStack;
  let accountId: string;
  let owner: CompanyRow;
  let token: string;
  const { today, company, issued, nudging, runCompany, until } = summaryFixtures(
    () => stack,
    () => accountId,
  );
  const openapi = openApiDocument();

  before(async function () {
    this.timeout(120_000);
    sim = await startTestSimulator({ port: 0, ticketPolls: 0 });
    const base = testConfig();
    stack = await startTestStack({
      config: {
        authority: { ...base.authority, authorityUrl: sim.url },
        authorityTimeouts: { connectMs: 1_000, responseMs: 1_500 },
      },
    });
    accountId = (await createAccount(stack.db, { name: 'voids', quotaUnits: 0 })).account.id;
    owner = await company();
    token = await issueToken(stack.db, { scope: COMPANY_SCOPE, accountId, companyId: owner.id });
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  /** The call, checked against the documented response of its operation and status. */
  async function voidCall(
    method: 'POST' | 'GET',
    externalId: string,
    json?: unknown,
    as = token,
  ): Promise<ApiResponse> {
    const res = await call(stack, method, `/v1/cpe/${externalId}/void`, { token: as, json });
    const documented = (openapi.paths['/v1/cpe/{external_id}/void'] as any)[method.toLowerCase()].responses[
      String(res.status)
    ];
    expect(documented, `${method} ${res.status} is documented`).to.not.equal(undefined);
    expect(
      checkSchema(documented.content['application/json'].schema, res.body, openapi),
      JSON.stringify(res.body),
    ).to.deep.equal([]);
    return res;
  }

  it('an accepted invoice is voided by an ra built, signed and sent now', async () => {
    const invoice = await issued(owner, 'invoice-basic.json', 301, 'accepted');
    // Committed as accepted without a send: SUNAT (the simulator) must hold it too, or the ra is refused with 2105.
    sim.seedDocument({ ruc: owner.ruc, docType: '01', series: invoice.series, number: invoice.number });
    const res = await voidCall('POST', invoice.id, { reason: 'Error en el RUC del cliente' });
    expect(res.status).to.equal(202);
    expect(res.body.data.void).to.include({
      external_id: invoice.id,
      via: 'ra',
      status: 'sent',
      reason: 'Error en el RUC del cliente',
    });
    const raId = res.body.data.void.document.external_id;
    expect(res.body.data.void.document.filename).to.equal(`${owner.ruc}-RA-${today.replace(/-/g, '')}-1`);
    const ra = (await findDocument(stack.db, raId))!;
    // Batch work, in the account's turn (docs/delivery.md).
    const started = await stack.temporal.workflow.getHandle(documentWorkflowId(raId)).describe();
    expect(started.priority).to.deep.include({ priorityKey: 4, fairnessKey: owner.account_id });
    expect(ra.xml)
      .to.contain(`<sac:DocumentSerialID>${invoice.series}</sac:DocumentSerialID>`)
      .and.contain('Error en el RUC del cliente');
    await nudging(
      [owner],
      until('the ra is resolved', async () => (await findDocument(stack.db, raId))!.resolved),
    );
    const after = await voidCall('GET', invoice.id);
    expect(after.body.data.void).to.include({ status: 'accepted' });
    // Asking again answers the same void; no second ra.
    const again = await voidCall('POST', invoice.id, { reason: 'otra vez' });
    expect(again.status).to.equal(200);
    expect(again.body.data.void).to.include({ reason: 'Error en el RUC del cliente', status: 'accepted' });
    expect(await stack.db('documents').where({ company_id: owner.id, doc_type: 'ra' })).to.have.length(1);
  });

  it('a receipt waits for the next daily summary, which carries it as condition 3', async () => {
    const receipt = await issued(owner, 'receipt-basic.json', 302, 'accepted');
    const res = await voidCall('POST', receipt.id, { reason: 'Venta anulada' });
    expect(res.status).to.equal(202);
    expect(res.body.data.void).to.include({ via: 'rc', status: 'pending', document: null });
    expect((await voidCall('GET', receipt.id)).body.data.void).to.include({ status: 'pending' });

    const result = await nudging([owner], (await runCompany(owner)).result());
    expect(result).to.include({ summaries: 1, accepted: 1 });
    const done = (await voidCall('GET', receipt.id)).body.data.void;
    expect(done).to.include({ status: 'accepted' });
    const rc = (await findDocument(stack.db, done.document.external_id))!;
    expect(rc.doc_type).to.equal('rc');
    expect(rc.xml)
      .to.contain(`<cbc:ID>${receipt.series}-${receipt.number}</cbc:ID>`)
      .and.contain('<cbc:ConditionCode>3</cbc:ConditionCode>');
  });

  it('refuses what cannot be voided: rejected, not yet resolved, summaries, no reason, other companies', async () => {
    const rejected = await issued(owner, 'invoice-basic.json', 303, 'rejected');
    expect((await voidCall('POST', rejected.id, { reason: 'x' })).status).to.equal(409);
    const queued = await issued(owner, 'invoice-basic.json', 304, 'queued');
    expect((await voidCall('POST', queued.id, { reason: 'x' })).status).to.equal(409);
    const accepted = await issued(owner, 'invoice-basic.json', 305, 'accepted');
    const missing = await voidCall('POST', accepted.id, {});
    expect(missing.status).to.equal(422);
    expect(missing.body.errors).to.have.property('reason');
    expect((await voidCall('POST', accepted.id, { reason: 'x'.repeat(101) })).status).to.equal(422);
    const summary = await issued(owner, 'rc-add.json', 9, 'accepted');
    expect((await voidCall('POST', summary.id, { reason: 'x' })).status).to.equal(422);
    expect((await voidCall('GET', accepted.id)).status).to.equal(404);
    expect((await voidCall('POST', '00000000-0000-4000-8000-000000000000', { reason: 'x' })).status).to.equal(404);

    const other = await company();
    const otherToken = await issueToken(stack.db, { scope: COMPANY_SCOPE, accountId, companyId: other.id });
    expect((await voidCall('POST', accepted.id, { reason: 'x' }, otherToken)).status).to.equal(403);
    expect(
      await stack.db('document_voids').whereIn('document_id', [rejected.id, queued.id, accepted.id, summary.id]),
    ).to.have.length(0);
  });
});
