/**
 * bench:simulator — sendBill throughput of the simulator on one core.
 *
 * The simulator runs in its own process (pinned to one CPU with taskset when available); this process pre-signs
 * distinct invoices, pre-builds the SOAP envelopes and replays them over keep-alive HTTP connections, checking that
 * every answer is an accepted CDR. It also prints the per-request cost of the pieces that dominate a sendBill.
 *
 *   npm run bench:simulator [-- --requests 4000 --concurrency 32 --persist]
 *
 * `--persist` gives the simulator a temporary --data-dir (every CDR appended to simulator.jsonl);
 * `SIM_PROF=1` writes a V8 CPU profile of the simulator process to /tmp/simprof.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { soapRequest } from '../authority/soap';
import { zipXml } from '../authority/zip';
import { createSigner, generateTestCertificate, signXml, verifyXmlSignature } from '../documents/signing';
import { buildCdrZip } from '../simulator/cdr';
import { verifyCanonicalSignature } from '../simulator/signature';
import { scanUbl } from '../simulator/ubl-scan';
import { invoice } from '../test/support/ubl-fixtures';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const REQUESTS = option('requests', 4000);
const CONCURRENCY = option('concurrency', 32);
const PERSIST = args.includes('--persist');
const RUC = '20123456789';

function perOp(label: string, n: number, fn: () => void): void {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  const ms = Number(process.hrtime.bigint() - start) / 1e6 / n;
  console.log(`  ${label.padEnd(46)} ${ms.toFixed(3)} ms`);
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuSeconds(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const ticks = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim()) || 100;
    return (Number(fields[11]) + Number(fields[12])) / ticks;
  } catch {
    return null;
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** What the pieces that dominate a sendBill cost, measured in this process. */
function printPieceCosts(sampleXml: string, requestBytes: number): void {
  console.log(
    `bench:simulator — ${os.cpus()[0]?.model ?? 'unknown CPU'} (${os.cpus().length} CPUs), Node ${process.version}`,
  );
  console.log(`invoice size ${sampleXml.length} bytes, SOAP request ${requestBytes} bytes`);
  console.log('per-request pieces (in this process):');
  perOp('signature check, xml-crypto (verifyXmlSignature)', 200, () => verifyXmlSignature(sampleXml));
  perOp('signature check, string path (simulator)', 2000, () => verifyCanonicalSignature(sampleXml));
  perOp('UBL facts scan', 2000, () => scanUbl(sampleXml));
  const content = {
    name: `${RUC}-01-F001-1`,
    issuerRuc: RUC,
    docType: '01',
    referenceId: 'F001-1',
    issueDate: '2026-11-21',
    issueTime: '10:00:00',
    recipient: '6-20100070970',
    code: '0',
    description: 'La Factura numero F001-1, ha sido aceptada',
    notes: [],
  };
  perOp('CDR build + RSA-SHA512 exc-c14n signature + zip', 1000, () => buildCdrZip(content));
}

/** The simulator in its own process, pinned to CPU 0 when taskset exists; resolves once it listens. */
async function startSimulator() {
  const port = await freePort();
  const pin = spawnSync('taskset', ['--version']).status === 0;
  // The fixtures carry a fixed issue date: SUNAT's sending window (2108) would refuse them once it is days old.
  const command = [
    process.execPath,
    ...(process.env.SIM_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/simprof'] : []),
    '--import',
    'tsx',
    '-e',
    "require('./cli/commands/simulator').simulatorCommand(process.argv.slice(1))",
    '--',
    '--port',
    String(port),
    '--sending-window-days',
    '0',
  ];
  const dataDir = PERSIST ? mkdtempSync(path.join(os.tmpdir(), 'chasqui-bench-sim-')) : null;
  if (dataDir) command.push('--data-dir', dataDir);
  const child = spawn(pin ? 'taskset' : command[0], pin ? ['-c', '0', ...command] : command.slice(1), {
    cwd: path.resolve(__dirname, '..'),
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) =>
    child.stdout!.on('data', (c: Buffer) => c.toString().includes('SUNAT simulator on') && resolve()),
  );
  return { child, port, pin, dataDir };
}

function keepAlivePost(port: number, agent: http.Agent) {
  return (body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/ol-ti-itcpfegem-beta/billService',
          method: 'POST',
          agent,
          headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: 'urn:sendBill' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

async function main(): Promise<void> {
  const signer = createSigner(generateTestCertificate({ ruc: RUC }));
  const creds = { ruc: RUC, solUser: 'MODDATOS', solPassword: 'moddatos' };
  const bodies: string[] = [];
  for (let n = 1; n <= REQUESTS; n++) {
    const doc = invoice({ ruc: RUC, series: 'F001', number: n });
    const signed = signXml(doc.xml, signer).xml;
    bodies.push(
      soapRequest(creds, 'sendBill', [
        ['fileName', `${doc.filename}.zip`],
        ['contentFile', zipXml(doc.filename, signed).toString('base64')],
      ]),
    );
  }
  const sampleXml = signXml(invoice({ ruc: RUC, series: 'F001', number: 1 }).xml, signer).xml;

  printPieceCosts(sampleXml, bodies[0].length);

  const { child, port, pin, dataDir } = await startSimulator();

  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const post = keepAlivePost(port, agent);

  // Warm-up on distinct numbers (the simulator answers 1033 for a number it already accepted).
  const warm = Math.min(200, Math.floor(REQUESTS / 10));
  for (let i = 0; i < warm; i++) await post(bodies[i]);
  const loadBefore = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const cpuBefore = cpuSeconds(child.pid);
  const latencies: number[] = [];
  let next = warm;
  let accepted = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const t0 = process.hrtime.bigint();
        const res = await post(body);
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (res.status === 200 && res.text.includes('<applicationResponse>')) accepted++;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpuAfter = cpuSeconds(child.pid);
  child.kill('SIGTERM');
  agent.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  const measured = bodies.length - warm;
  console.log(
    `load average before/after: ${loadBefore} / ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (other processes share these CPUs)`,
  );
  console.log(
    `simulator process ${pin ? 'pinned to CPU 0 (taskset)' : 'not pinned (no taskset)'}, ${dataDir ? 'persisting to a data dir' : 'in memory'}; load from this process, ${CONCURRENCY} keep-alive connections`,
  );
  console.log(
    `sendBill: ${measured} requests in ${seconds.toFixed(2)} s = ${(measured / seconds).toFixed(0)} req/s; accepted ${accepted}/${measured}`,
  );
  if (cpuBefore !== null && cpuAfter !== null) {
    const cpu = cpuAfter - cpuBefore;
    console.log(
      `simulator CPU time ${cpu.toFixed(2)} s = ${(measured / cpu).toFixed(0)} sendBill per CPU-second (independent of other load)`,
    );
  }
  console.log(
    `latency p50 ${latencies[Math.floor(latencies.length * 0.5)].toFixed(1)} ms, p99 ${latencies[Math.floor(latencies.length * 0.99)].toFixed(1)} ms`,
  );
  if (accepted !== measured) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
