import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { startTestStack, type TestStack } from '../support/stack';
import { testConfig, testDatabaseUrl, testTemporalAddress } from '../support/services';
import { findDocument, type DocumentRow } from '../../db/documents';
import { updateCompany, type CompanyRow } from '../../db/companies';
import { createSigner, generateTestCertificate } from '../../documents/signing';
import { commitSignedDocument, companyWithRuc, fixture } from '../support/documents';
import { documentWorkflow, documentWorkflowId } from '../../workflows/document';

const ROOT = path.resolve(__dirname, '../..');
const RUC = '20123456786';
/**
 * Production's durations scaled down: Temporal warns past 5 s of workflow task and a task heartbeats every 8 s (80 % of
 * its 10 s timeout) while a local activity runs; here past 1 s, every 1.6 s, and the authority's answer is waited for
 * 6 s instead of 60 s: the same three or four warnings per hung document, in seconds.
 */
const WARN_SECONDS = '1';
const TASK_TIMEOUT = '2s';
const RESPONSE_MS = 6_000;

interface LogEntry {
  level: number;
  msg: string;
  externalId?: string;
  filename?: string;
  ruc?: string;
}

/**
 * A guide (GRE REST) and a boleta (no state query) whose first send hangs run their whole send inside the first
 * workflow task: Temporal's repeated TMPRL1104 warnings name the document, and only the first of each document is a
 * warning. A real `chasqui worker` process (its stdout is what an operator's log collector reads), real Temporal,
 * PostgreSQL and the simulator's `hang` fault.
 */
describe('a first send that hangs inside the workflow task: Temporal’s warnings name the document', function () {
  this.timeout(120_000);
  let sim: SimulatorHandle;
  let stack: TestStack;
  let company: CompanyRow;
  let child: ChildProcess | null = null;
  let stdout = '';
  const signer = createSigner(generateTestCertificate({ ruc: RUC }));

  before(async function () {
    sim = await startTestSimulator({ port: 0 });
    const base = testConfig();
    stack = await startTestStack({
      worker: false,
      config: { authority: { ...base.authority, authorityUrl: sim.url } },
    });
    company = await companyWithRuc(stack.db, RUC, 'Comercial Andina S.A.C.');
    company = await updateCompany(stack.db, company.id, {
      gre_client_id: `client-${RUC}`,
      gre_client_secret_sealed: stack.secrets.seal('el-secreto'),
      gre_updated_at: new Date(),
    });
  });
  after(async () => {
    child?.kill('SIGKILL');
    await stack?.stop();
    await sim?.close();
  });

  async function commit(name: string, correlativo: number): Promise<DocumentRow> {
    const payload = fixture(name);
    payload.correlativo = String(correlativo);
    return commitSignedDocument(stack.db, company, payload, signer);
  }

  /** Until `ready` is true of the child's log so far. */
  async function untilLogged(ready: (log: string) => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 90_000;
    while (!ready(stdout)) {
      if (child?.exitCode !== null) throw new Error(`the worker exited before ${what}:\n${stdout}`);
      if (Date.now() > deadline) throw new Error(`no ${what} in the worker's log:\n${stdout}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('one named warning per document, the repeats at debug, none with a bare run id', async () => {
    const number = 9000 + Math.floor(Math.random() * 90_000);
    const guide = await commit('gre-09-venta-privado.json', number);
    const boleta = await commit('receipt-basic.json', number);
    expect([guide.status, boleta.status]).to.deep.equal(['queued', 'queued']);
    sim.addRule({ operation: 'greSend', ruc: RUC, fault: { kind: 'hang' }, times: 1 });
    sim.addRule({ operation: 'sendBill', ruc: RUC, docType: '03', fault: { kind: 'hang' }, times: 1 });

    child = spawn(process.execPath, [path.join(ROOT, 'bin/chasqui'), 'worker'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'debug',
        TEMPORAL_LOG_LEVEL: 'WARN',
        TEMPORAL_WORKFLOW_TASK_DURATION_WARN_SECONDS: WARN_SECONDS,
        DATABASE_URL: await testDatabaseUrl(),
        TEMPORAL_ADDRESS: await testTemporalAddress(),
        TEMPORAL_TASK_QUEUE: stack.config.temporal.taskQueue,
        CHASQUI_MASTER_KEY: stack.config.masterKey!,
        CHASQUI_AUTHORITY_URL: sim.url,
        CHASQUI_AUTHORITY_RESPONSE_TIMEOUT_MS: String(RESPONSE_MS),
        CHASQUI_METRICS_PORT: '0',
      },
    });
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    await untilLogged((log) => log.includes('chasqui worker running'), 'start');

    for (const doc of [guide, boleta]) {
      await stack.temporal.workflow.start(documentWorkflow, {
        taskQueue: stack.config.temporal.taskQueue,
        workflowId: documentWorkflowId(doc.id),
        args: [{ externalId: doc.id }],
        workflowTaskTimeout: TASK_TIMEOUT,
      });
    }
    // The hung sends time out (no verdict: `sent`, left for an explicit resend, never sent twice) ...
    const deadline = Date.now() + 30_000;
    for (const doc of [guide, boleta]) {
      while ((await findDocument(stack.db, doc.id))!.status !== 'sent') {
        if (Date.now() > deadline)
          throw new Error(`${doc.filename} stayed ${(await findDocument(stack.db, doc.id))!.status}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    // ... and the task that carried each answer warns once it completes, just after: a moment for its line.
    await new Promise((r) => setTimeout(r, 1_000));
    child.kill('SIGTERM');
    await new Promise((r) => child!.once('exit', r));

    const entries = stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LogEntry);
    const slowTasks = entries.filter((e) => e.msg.includes('TMPRL1104'));
    expect(
      slowTasks.filter((e) => !e.externalId),
      'a warning with only a run id',
    ).to.deep.equal([]);
    for (const doc of [guide, boleta]) {
      const mine = slowTasks.filter((e) => e.externalId === doc.id);
      expect(mine.length, `${doc.filename}: Temporal warned at every task heartbeat`).to.be.greaterThan(1);
      const unnamed = mine.filter((e) => e.filename !== doc.filename || e.ruc !== RUC || !e.msg.includes(doc.filename));
      expect(unnamed, 'each names the file in its fields and its message').to.deep.equal([]);
      expect(
        mine.filter((e) => e.level === 40),
        `${doc.filename}: one warning, the repeats at debug`,
      ).to.have.length(1);
      expect(mine.slice(1).every((e) => e.level === 20)).to.equal(true);
    }
    expect(
      sim.log().filter((e) => e.ruc === RUC && (e.operation === 'greSend' || e.operation === 'sendBill')),
      'each sent once',
    ).to.have.length(2);
  });
});
