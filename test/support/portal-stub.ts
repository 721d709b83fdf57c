import http from 'node:http';
import { randomUUID } from 'node:crypto';

/**
 * A minimal stand-in for the simulator's portal endpoints (the contract of authority/portal-client.ts), over real
 * HTTP, until the simulator lands. Accepts SOL user MODDATOS / password moddatos for any RUC; `failNext(n)` makes the
 * next n requests answer 500.
 */
export interface PortalStub {
  url: string;
  /** Requests received, in order (path and the RUC of the session or login). */
  calls: { path: string; ruc: string | null }[];
  /** RUC of the company → RUCs authorised as PSE / linked as OSE. */
  pse: Map<string, Set<string>>;
  ose: Map<string, Set<string>>;
  failNext(count: number): void;
  close(): Promise<void>;
}

export async function startPortalStub(): Promise<PortalStub> {
  const sessions = new Map<string, string>();
  let failures = 0;
  const stub = { calls: [], pse: new Map(), ose: new Map() } as unknown as PortalStub;

  function send(res: http.ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  function register(table: Map<string, Set<string>>, ruc: string, other: string, estado: string, res: http.ServerResponse): void {
    const set = table.get(ruc) ?? new Set<string>();
    const already = set.has(other);
    set.add(other);
    table.set(ruc, set);
    send(res, already ? 200 : 201, { id: `${ruc}-${other}`, estado, fecha: new Date().toISOString() });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>) : {};
      const session = sessions.get((req.headers.authorization ?? '').replace(/^Bearer /, '')) ?? null;
      const path = req.url ?? '';
      stub.calls.push({ path, ruc: path === '/portal/v1/login' ? body.ruc : session });
      if (failures > 0) {
        failures--;
        return send(res, 500, { cod: '500', msg: 'simulated portal failure' });
      }
      if (req.method === 'POST' && path === '/portal/v1/login') {
        if (body.usuario !== 'MODDATOS' || body.clave !== 'moddatos') return send(res, 401, { cod: '0101', msg: 'usuario o clave incorrectos' });
        const token = randomUUID();
        sessions.set(token, body.ruc);
        return send(res, 200, { token, expires_in: 3600 });
      }
      if (!session) return send(res, 401, { cod: '0102', msg: 'sesion invalida' });
      if (req.method === 'POST' && path === '/portal/v1/pse/autorizaciones') return register(stub.pse, session, body.ruc_pse, 'AUTORIZADO', res);
      if (req.method === 'POST' && path === '/portal/v1/ose/vinculaciones') return register(stub.ose, session, body.ruc_ose, 'VINCULADO', res);
      if (req.method === 'GET' && path === '/portal/v1/estado') {
        return send(res, 200, { pse: [...(stub.pse.get(session) ?? [])], ose: [...(stub.ose.get(session) ?? [])] });
      }
      send(res, 404, { cod: '404', msg: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  stub.url = `http://127.0.0.1:${port}`;
  stub.failNext = (count) => {
    failures = count;
  };
  stub.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return stub;
}
