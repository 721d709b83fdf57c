import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { type SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { startTestStack, type TestStack } from '../support/stack';
import { testConfig, testDatabaseUrl, testTemporalAddress } from '../support/services';
import { findDocument } from '../../db/documents';
import { createSigner, generateTestCertificate } from '../../documents/signing';
import { commitSignedDocument, companyWithRuc, fixture } from '../support/documents';
import { startDocumentWorkflow } from '../../workflows/document-client';
import { startWorker } from '../../runtime/services';
import { documentWorkflowId } from '../../workflows/document';

const ROOT = path.resolve(__dirname, '../..');
const RUC = '20600000005';

/**
 * A worker process killed (SIGKILL) while its send is in flight: the first send is a local activity, so what is lost is
 * the workflow task; another worker takes it over once it times out, asks SUNAT for the real state before sending
 * again, and the document resolves exactly once.
 */
describe('worker killed mid-send', function () {
  this.timeout(120_000);
  let sim: SimulatorHandle;
  let stack: TestStack;
  let child: ChildProcess | null = null;

  before(async function () {
    sim = await startTestSimulator({ port: 0 });
    const base = testConfig();
    // The in-process worker starts later, on the same task queue, as the replacement.
    stack = await startTestStack({
      worker: false,
      config: { authority: { ...base.authority, authorityUrl: sim.url } },
    });
  });
  after(async () => {
    child?.kill('SIGKILL');
    await stack?.stop();
    await sim?.close();
  });

  it('resolves once after the worker dies during sendBill', async () => {
    const company = await companyWithRuc(stack.db, RUC, 'Distribuidora del Sur S.A.');
    const payload = fixture('invoice-basic.json');
    payload.emisor.ruc = RUC;
    payload.cliente = { tipoDoc: '6', numDoc: '20123456786', nombre: 'Comercial Andina S.A.C.' };
    payload.correlativo = '777';
    const doc = await commitSignedDocument(
      stack.db,
      company,
      payload,
      createSigner(generateTestCertificate({ ruc: RUC })),
    );

    // The first worker is a separate `chasqui worker` process; SUNAT never answers its send.
    sim.addRule({ operation: 'sendBill', ruc: RUC, fault: { kind: 'hang' }, times: 1 });
    child = spawn(process.execPath, [path.join(ROOT, 'bin/chasqui'), 'worker'], {
      cwd: ROOT,
      stdio: 'ignore',
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: await testDatabaseUrl(),
        TEMPORAL_ADDRESS: await testTemporalAddress(),
        TEMPORAL_TASK_QUEUE: stack.config.temporal.taskQueue,
        CHASQUI_MASTER_KEY: stack.config.masterKey!,
        CHASQUI_AUTHORITY_URL: sim.url,
        CHASQUI_METRICS_PORT: '0', // not 9464: another process on the machine may hold the default
      },
    });
    await startDocumentWorkflow(stack.temporal, stack.config.temporal.taskQueue, doc);
    for (let i = 0; !sim.log().some((e) => e.operation === 'sendBill' && e.ruc === RUC); i++) {
      if (i > 600) throw new Error('the child worker never sent the document');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await findDocument(stack.db, doc.id))!.send_started_at).to.be.an.instanceOf(Date);
    child.kill('SIGKILL');

    // A new worker takes over once the lost workflow task times out (10 s) and finishes the job.
    const worker = await startWorker(stack.config, await testTemporalAddress(), stack.db, stack.files, stack.secrets);
    try {
      const status = await stack.temporal.workflow.getHandle(documentWorkflowId(doc.id)).result();
      expect(status).to.equal('accepted');
    } finally {
      await worker.stop();
    }
    const done = (await findDocument(stack.db, doc.id))!;
    expect(done).to.include({ status: 'accepted', resolved: true, send_attempts: 2 });
    expect(await stack.db('document_events').where({ document_id: doc.id })).to.have.length(1);
    const operations = sim
      .log()
      .filter((e) => e.ruc === RUC)
      .map((e) => e.operation);
    // Sent, (killed), state queried — SUNAT has no record of the hung send — then sent again.
    expect(operations).to.deep.equal(['sendBill', 'getStatusCdr', 'sendBill']);
  });
});
