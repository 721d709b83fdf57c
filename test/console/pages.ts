/**
 * Every page of the support console, for the layout and language walk (console-actions.test.ts): the world's
 * documents plus those only the walk needs (a send without answer, an unreadable answer, an observed verdict), each
 * action's preview and its result, the stuck page with its groups, the companies with their checks, and the sign-in
 * refusals and error pages a support person meets.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Page, Response } from 'playwright-core';
import { saveCheckResults } from '../../db/company-checks';
import { createSupportToken, revokeSupportToken } from '../../db/support-tokens';
import type { DocumentRow } from '../../db/documents';
import { issue, newCompany, payload, until } from '../issuing/support';
import { certificateExpiring, type ConsoleWorld } from './support';
import { result } from '../../activities/checks/context';
import { message } from '../../lifecycle/messages';

/** One page of the walk: its name (the screenshot's), how to reach it, and the status it answers. */
export interface ConsolePage {
  name: string;
  status: number;
  /** What its visible text says (the page is the one meant, with its notice). */
  shows?: string[];
  /** Opens its own session or none (sign-in and its refusals, an account holder's pages): the walk signs in after. */
  ownSession?: boolean;
  open: (page: Page) => Promise<Response | null>;
}

/** Submits the page's own sign-out form to `action`, `csrf` or without it: a POST as the console's forms make them. */
function post(page: Page, action: string, withCsrf = true): Promise<Response | null> {
  return Promise.all([
    page.waitForNavigation(),
    page.evaluate(
      ([to, keep]) => {
        const form = document.querySelector('form.signout') as HTMLFormElement;
        if (!keep) form.querySelector('input[name=csrf]')!.remove();
        form.action = to;
        form.submit();
      },
      [action, withCsrf] as const,
    ),
  ]).then(([r]) => r);
}

/** The documents and tokens only the walk needs, beside the world's. */
interface WalkExtras {
  timedOut: DocumentRow;
  unreadable: DocumentRow;
  observed: DocumentRow;
  longNames: DocumentRow;
  expired: string;
  revoked: string;
}

/**
 * Adds the walk's own documents, support tokens and company checks to the world, and runs a redelivery (so its result
 * has a page). Runs after the action tests: `lost` is accepted by then, and its resend and recheck were done.
 */
async function prepareWalk(
  world: ConsoleWorld,
  signIn: (page: Page, token: string) => Promise<void>,
  confirm: (page: Page, docId: string, action: string) => Promise<Response>,
  page: Page,
): Promise<WalkExtras> {
  const { s, a, lost, waiting } = world;
  const faulted = async (fault: object, reached: (row: DocumentRow) => boolean, statuses: DocumentRow['status'][]) => {
    s.sim.addRule({ operation: 'sendBill', ruc: a.ruc, fault: fault as never, times: 1 });
    const id = (await issue(s.stack, a.token, payload('invoice-basic.json', a.ruc))).body.external_id;
    return until(s.stack, id, statuses, 30_000, reached);
  };
  const timedOut = await faulted({ kind: 'hang' }, (d) => d.result?.origin === 'timeout', ['sent']);
  const unreadable = await faulted({ kind: 'malformedCdr' }, (d) => d.result?.origin === 'system', ['sent']);
  const observed = await faulted({ kind: 'observe', code: '4252' }, () => true, ['observed']);
  s.sim.clearRules();
  // A company and a buyer with the long names and addresses real ones have: a phone's card still holds them.
  const long = await newCompany(s.stack, {
    settings: { business_name: 'CORPORACIÓN DE INVERSIONES Y DISTRIBUCIONES GENERALES DEL NORTE PERUANO S.A.C.' },
  });
  const mailed = payload('invoice-basic.json', long.ruc);
  mailed.cliente = {
    ...mailed.cliente,
    nombre: 'COMERCIALIZADORA INTERNACIONAL DE PRODUCTOS FERRETEROS E INDUSTRIALES ANDINOS E.I.R.L.',
    correo: ['facturacion.electronica.proveedores@distribuidoradelsurperu.com.pe', 'compras@cliente.pe'],
  };
  const longNames = await until(s.stack, (await issue(s.stack, long.token, mailed)).body.external_id, ['accepted']);
  const [expired, revoked] = await Promise.all(
    ['expired', 'revoked'].map(async (state) => {
      const name = `walk-${state}-${process.pid}`;
      const made = await createSupportToken(s.stack.db, {
        name,
        createdBy: 'console walk',
        expiresAt: state === 'expired' ? new Date(Date.now() - 60_000) : null,
      });
      if (state === 'revoked') await revokeSupportToken(s.stack.db, name);
      return made!.token;
    }),
  );
  // Two hours old: the stuck page's 1h shows them, grouped by what each waits for.
  await s.stack
    .db('documents')
    .whereIn('id', [waiting.id, timedOut.id, unreadable.id, world.oseLost.id])
    .update({ created_at: s.stack.db.raw("now() - interval '2 hours'") });
  await saveCheckResults(s.stack.db, a.row.id, [
    certificateExpiring(10),
    result(
      'sol_credentials',
      'fail',
      message('check.credentials.refused', {
        user: 'VENTAS01',
        ruc: a.ruc,
        code: '0102',
        message: 'Usuario o contraseña incorrectos',
      }),
    ),
  ]);
  // The redelivery applies once lost's first delivery has ended (it cannot reach hooks.example.test).
  const deadline = Date.now() + 30_000;
  while ((await s.stack.db('webhook_deliveries').where({ document_id: lost.id, status: 'pending' })).length) {
    expect(Date.now(), "lost's delivery still pending").to.be.below(deadline);
    await new Promise((r) => setTimeout(r, 100));
  }
  await signIn(page, world.supportToken);
  expect((await confirm(page, lost.id, 'redeliver')).status()).to.equal(200);
  return { timedOut, unreadable, observed, longNames, expired, revoked };
}

/** The stuck page's groups (the walk's documents are two hours old): a timeout queried, and one nothing queries. */
const STUCK_SAYS = [
  'Sin respuesta a tiempo, se consulta solo (1)',
  'SUNAT no respondió a tiempo: se consulta su estado cada 10 minutos',
  'Sin veredicto y sin consulta de estado (1)',
  'La OSE no respondió a tiempo y no ofrece consulta de estado',
];

/** Company a's failing and warning checks, each with its reason in Spanish. */
const COMPANIES_SAY = [
  'clave SOL: falla',
  'SUNAT rechazó el usuario SOL VENTAS01 (código 0102): Usuario o contraseña incorrectos.',
  'certificado: aviso',
  'El certificado propio vence en 10 días (el 31/12/2026). Suba el certificado renovado.',
];

/** The pages reached by a GET: name, status, path, and what each says. */
type Get = [name: string, status: number, path: string, ...shows: string[]];

/**
 * Every page of the walk, in the order it visits them (sign-in first, an account holder's last).
 * Longer than 100 lines: one table of the pages, read top to bottom in the order the walk visits them.
 */
export async function everyConsolePage(
  world: ConsoleWorld,
  signIn: (page: Page, token: string) => Promise<void>,
  confirm: (page: Page, docId: string, action: string) => Promise<Response>,
  page: Page,
): Promise<ConsolePage[]> {
  const { s, a, docA, lost, rejected, waiting } = world;
  const { timedOut, unreadable, observed, longNames, expired, revoked } = await prepareWalk(
    world,
    signIn,
    confirm,
    page,
  );
  const url = s.stack.url;
  const doc = (id: string) => `/console/documents/${id}`;
  const get = (path: string) => (p: Page) => p.goto(`${url}${path}`);
  const gets = (rows: Get[], ownSession = false): ConsolePage[] =>
    rows.map(([name, status, path, ...shows]) => ({ name, status, shows, ownSession, open: get(path) }));
  const signingIn = (name: string, token: string, shows: string): ConsolePage => ({
    name,
    status: 401,
    shows: [shows],
    ownSession: true,
    open: async (p) => (await signIn(p, token), null),
  });
  /** Posts an action from the document page, as a forged or stale form would (the page offers no such button). */
  const forced = (name: string, status: number, id: string, action: string, shows: string, csrf = true) => ({
    name,
    status,
    shows: [shows],
    open: async (p: Page) => (await p.goto(`${url}${doc(id)}`), post(p, `${doc(id)}/acciones/${action}`, csrf)),
  });
  return [
    ...gets([['sign-in', 200, '/console/login', 'Token de acceso']], true),
    signingIn('sign-in-unknown-token', 'chq_sup_not-a-token', 'no existe ningún token con ese valor'),
    signingIn('sign-in-refused', a.token, 'Este es un token de firma (cpe:sign)'),
    signingIn('sign-in-expired', expired, 'Este token de soporte venció'),
    signingIn('sign-in-revoked', revoked, 'Este token de soporte fue revocado'),
    {
      name: 'sign-in-stale-form',
      shows: ['El formulario caducó'],
      status: 403,
      ownSession: true,
      open: async (p) => {
        await p.goto(`${url}/console/login`);
        await p.locator('input[name=csrf]').evaluate((input) => input.remove());
        await p.getByLabel('Token de acceso').fill(world.supportToken);
        return Promise.all([p.waitForNavigation(), p.getByRole('button', { name: 'Entrar' }).click()]).then(([r]) => r);
      },
    },
    ...gets([['signed-out', 200, '/console/login?salida=1', 'Sesión cerrada.']], true),
    ...gets([
      ['search', 200, '/console/documents', 'Número del documento'],
      ['search-no-match', 200, '/console/documents?q=F999-1', 'Ningún documento coincide con «F999-1»'],
      ['search-bad-filter', 400, '/console/documents?ruc=123', 'El RUC tiene 11 dígitos.'],
      ['results', 200, `/console/documents?ruc=${a.ruc}`, 'recibidos en hora de Lima'],
      ['document-accepted', 200, doc(docA.id), 'Distribuidora del Sur S.A. (documento'],
      ['document-observed', 200, doc(observed.id), '[SUNAT 4252]'],
      ['document-rejected', 200, doc(rejected.id), '(código 2335)'],
      ['document-to-send', 200, doc(waiting.id), 'Espera que la empresa lo envíe'],
      ['document-long-names', 200, doc(longNames.id), 'ANDINOS E.I.R.L.'],
      ['document-timed-out', 200, doc(timedOut.id), 'SUNAT no respondió a tiempo'],
      ['document-unreadable', 200, doc(unreadable.id), 'la respuesta no se pudo leer'],
      ['preview-recheck', 200, `${doc(timedOut.id)}/acciones/recheck`, 'Se hará: consultar el estado.'],
      // Refused, with what does apply one click away: the state query.
      [
        'preview-resend-refused',
        200,
        `${doc(timedOut.id)}/acciones/resend`,
        'haya llegado',
        'Pregunta a SUNAT (u OSE) por el estado real',
      ],
      ['preview-redeliver', 200, `${doc(docA.id)}/acciones/redeliver`, 'Se hará: entregar el webhook de nuevo.'],
      ['preview-email', 200, `${doc(docA.id)}/acciones/email`, 'Se enviará de nuevo el correo a compras@cliente.pe.'],
      ['preview-email-long-address', 200, `${doc(longNames.id)}/acciones/email`, 'facturacion.electronica.'],
      ['preview-recheck-refused', 200, `${doc(docA.id)}/acciones/recheck`, 'No se puede: Ya está aceptado'],
      ['preview-email-refused', 200, `${doc(lost.id)}/acciones/email`, 'No se puede: El documento no indica el correo'],
      ['done-recheck', 200, `${doc(lost.id)}?hecho=recheck`, 'Consultar el estado ahora: hecho.'],
      ['done-resend', 200, `${doc(lost.id)}?hecho=resend`, 'Enviar de nuevo: hecho.'],
      ['done-redeliver', 200, `${doc(lost.id)}?hecho=redeliver`, 'Entregar el webhook de nuevo: hecho.'],
      ['done-email', 200, `${doc(docA.id)}?hecho=email`, 'Enviar el correo al comprador de nuevo: hecho.'],
    ]),
    forced('refused-conflict', 409, docA.id, 'recheck', 'Consultar el estado ahora: no se puede. Ya está aceptado'),
    forced('refused-invalid', 422, lost.id, 'email', 'no se puede. El documento no indica el correo'),
    forced('refused-no-csrf', 403, docA.id, 'recheck', 'Falta el token del formulario (CSRF)', false),
    ...gets([
      ['stuck', 200, '/console/stuck?edad=1h', ...STUCK_SAYS],
      ['stuck-none', 200, '/console/stuck?edad=300d', 'Nada sin resolver con más de 300 días.'],
      ['stuck-invalid', 400, '/console/stuck?edad=dos', '«dos» no es una antigüedad válida'],
      ['companies', 200, '/console/companies', ...COMPANIES_SAY],
      ['document-not-found', 404, doc(randomUUID()), 'No hay un documento con esa referencia'],
      ['page-not-found', 404, '/console/nada', 'Esta página no existe.'],
    ]),
    // An account holder (the frame says «cuenta»): its companies and a document of its own.
    {
      name: 'account-companies',
      status: 200,
      shows: ['(cuenta)'],
      ownSession: true,
      open: async (p) => (
        await p.context().clearCookies(),
        await signIn(p, a.accountToken),
        get('/console/companies')(p)
      ),
    },
    ...gets([['account-document', 200, doc(docA.id), 'Historia del documento (hora de Lima)']], true),
  ];
}
