/** The portal surface: the SUNAT portal (Menú SOL) procedures the company-procedures adapter automates. */
import type http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { SunatBehaviour } from './behaviour';
import { messageFor } from './codes';
import type { PortalEntry, SimulatorStore } from './store';
import type { BearerTokens } from './tokens';
import { json, type Reply, type Route } from './transport';

export class Portal {
  constructor(
    private readonly store: SimulatorStore,
    private readonly sunat: SunatBehaviour,
    private readonly tokens: BearerTokens,
  ) {}

  /** The portal procedure at this path, or null when the path is not the portal's. */
  route(method: string, path: string, raw: Buffer, headers: http.IncomingHttpHeaders): Route | null {
    if (!path.startsWith('/portal/v1/')) return null;
    return {
      operation: 'portal',
      subject: { operation: 'portal' },
      name: null,
      ticket: null,
      handle: () => this.answer(method, path, raw.toString('utf8'), headers),
    };
  }

  private answer(method: string, path: string, body: string, headers: http.IncomingHttpHeaders): Reply {
    let input: Record<string, unknown> = {};
    if (body.trim()) {
      try {
        input = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return json(400, { cod: '400', msg: 'El cuerpo no es JSON' });
      }
    }
    if (method === 'POST' && path === '/portal/v1/login') {
      const { ruc, usuario, clave } = input;
      if (
        typeof ruc !== 'string' ||
        typeof usuario !== 'string' ||
        typeof clave !== 'string' ||
        !this.sunat.authenticate(ruc, usuario, clave)
      ) {
        return json(401, { cod: '0102', msg: messageFor('0102') }, '0102');
      }
      const { token, expiresIn } = this.tokens.issue(ruc, 'portal');
      return json(200, { token, expires_in: expiresIn });
    }
    const ruc = this.tokens.ruc(headers, 'portal');
    if (!ruc) return json(401, { cod: '401', msg: 'Token inválido o expirado' }, '401');
    if (method === 'GET' && path === '/portal/v1/estado') {
      const view = (kind: PortalEntry['kind']) =>
        this.store.portal
          .filter((e) => e.kind === kind && e.ruc === ruc)
          .map((e) => ({
            id: e.id,
            [kind === 'pse' ? 'ruc_pse' : 'ruc_ose']: e.target,
            estado: e.estado,
            fecha: e.fecha,
          }));
      return json(200, { pse: view('pse'), ose: view('ose') });
    }
    const procedure =
      method === 'POST' && path === '/portal/v1/pse/autorizaciones'
        ? ({ kind: 'pse', field: 'ruc_pse', estado: 'AUTORIZADO' } as const)
        : method === 'POST' && path === '/portal/v1/ose/vinculaciones'
          ? ({ kind: 'ose', field: 'ruc_ose', estado: 'VINCULADO' } as const)
          : null;
    if (!procedure) return json(404, { cod: '404', msg: 'Recurso no encontrado' });
    const target = input[procedure.field];
    if (typeof target !== 'string' || !/^\d{11}$/.test(target))
      return json(400, { cod: '400', msg: `${procedure.field} debe tener 11 dígitos` });
    const existing = this.store.portal.find((e) => e.kind === procedure.kind && e.ruc === ruc && e.target === target);
    if (existing) return json(200, { id: existing.id, estado: existing.estado, fecha: existing.fecha });
    const entry: PortalEntry = {
      kind: procedure.kind,
      ruc,
      target,
      id: `${procedure.kind.toUpperCase()}-${randomBytes(5).toString('hex')}`,
      estado: procedure.estado,
      fecha: new Date().toISOString(),
    };
    this.store.addPortalEntry(entry);
    return json(201, { id: entry.id, estado: entry.estado, fecha: entry.fecha });
  }
}
