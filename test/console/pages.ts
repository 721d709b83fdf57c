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
import type { DocumentRow } from '../../db/documents';
import { issue, newCompany, payload, until } from '../issuing/support';
import { certificateExpiring, type ConsoleWorld } from './support';

/** One page of the walk: its name (the screenshot's), how to reach it, and the status it answers. */
export interface ConsolePage {
  name: string;
  status: number;
  /** What its visible text says (the page is the one meant, with its notice). */
  shows?: string;
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

/**
 * Adds the walk's own documents and company checks to the world, runs a redelivery (so its result has a page), and
 * answers the pages. Runs after the action tests: `lost` is accepted by then, and its resend and recheck were done.
 */
export async function everyConsolePage(
  world: ConsoleWorld,
  signIn: (page: Page, token: string) => Promise<void>,
  confirm: (page: Page, docId: string, action: string) => Promise<Response>,
  page: Page,
): Promise<ConsolePage[]> {
  const { s, a, docA, lost, rejected, waiting } = world;
  const url = s.stack.url;
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
  // Two hours old: the stuck page's 1h shows them, grouped by what each waits for.
  await s.stack
    .db('documents')
    .whereIn('id', [waiting.id, timedOut.id, unreadable.id])
    .update({ created_at: s.stack.db.raw("now() - interval '2 hours'") });
  await saveCheckResults(s.stack.db, a.row.id, [
    certificateExpiring(10),
    { id: 'sol_credentials', status: 'fail', detail: 'SUNAT refused the SOL user', checked_at: new Date(), fields: {} },
  ]);
  // The redelivery applies once lost's first delivery has ended (it cannot reach hooks.example.test).
  const deadline = Date.now() + 30_000;
  while ((await s.stack.db('webhook_deliveries').where({ document_id: lost.id, status: 'pending' })).length) {
    expect(Date.now(), "lost's delivery still pending").to.be.below(deadline);
    await new Promise((r) => setTimeout(r, 100));
  }
  await signIn(page, world.supportToken);
  expect((await confirm(page, lost.id, 'redeliver')).status()).to.equal(200);

  const get =
    (path: string) =>
    (p: Page): Promise<Response | null> =>
      p.goto(`${url}${path}`);
  const doc = (id: string) => `/console/documents/${id}`;
  const pages: ConsolePage[] = [
    { name: 'sign-in', shows: 'Token de acceso', status: 200, ownSession: true, open: get('/console/login') },
    {
      name: 'sign-in-unknown-token',
      shows: 'no existe ningún token con ese valor',
      status: 401,
      ownSession: true,
      open: async (p) => (await signIn(p, 'chq_sup_not-a-token'), null),
    },
    {
      name: 'sign-in-refused',
      shows: 'Este es un token de firma (cpe:sign)',
      status: 401,
      ownSession: true,
      open: async (p) => (await signIn(p, a.token), null),
    },
    {
      name: 'signed-out',
      shows: 'Sesión cerrada.',
      status: 200,
      ownSession: true,
      open: get('/console/login?salida=1'),
    },
    { name: 'search', status: 200, open: get('/console/documents') },
    {
      name: 'search-no-match',
      shows: 'Ningún documento coincide con «F999-1»',
      status: 200,
      open: get('/console/documents?q=F999-1'),
    },
    {
      name: 'search-bad-filter',
      shows: 'El RUC tiene 11 dígitos.',
      status: 400,
      open: get('/console/documents?ruc=123'),
    },
    { name: 'results', shows: 'recibidos en hora de Lima', status: 200, open: get(`/console/documents?ruc=${a.ruc}`) },
    { name: 'document-accepted', shows: 'Distribuidora del Sur S.A. (documento', status: 200, open: get(doc(docA.id)) },
    { name: 'document-observed', shows: '[SUNAT 4252]', status: 200, open: get(doc(observed.id)) },
    { name: 'document-rejected', shows: '(código 2335)', status: 200, open: get(doc(rejected.id)) },
    { name: 'document-to-send', shows: 'Espera que la empresa lo envíe', status: 200, open: get(doc(waiting.id)) },
    { name: 'document-long-names', shows: 'ANDINOS E.I.R.L.', status: 200, open: get(doc(longNames.id)) },
    {
      name: 'preview-email-long-address',
      shows: 'facturacion.electronica.proveedores@',
      status: 200,
      open: get(`${doc(longNames.id)}/acciones/email`),
    },
    { name: 'document-timed-out', shows: 'SUNAT no respondió a tiempo', status: 200, open: get(doc(timedOut.id)) },
    { name: 'document-unreadable', shows: 'la respuesta no se pudo leer', status: 200, open: get(doc(unreadable.id)) },
    {
      name: 'preview-recheck',
      shows: 'Se hará: consultar el estado.',
      status: 200,
      open: get(`${doc(timedOut.id)}/acciones/recheck`),
    },
    {
      name: 'preview-resend-refused',
      shows: 'No se puede: Puede que haya llegado a SUNAT',
      status: 200,
      open: get(`${doc(timedOut.id)}/acciones/resend`),
    },
    {
      name: 'preview-redeliver',
      shows: 'Se hará: entregar el webhook de nuevo.',
      status: 200,
      open: get(`${doc(docA.id)}/acciones/redeliver`),
    },
    {
      name: 'preview-email',
      shows: 'Se enviará de nuevo el correo a compras@cliente.pe.',
      status: 200,
      open: get(`${doc(docA.id)}/acciones/email`),
    },
    {
      name: 'preview-recheck-refused',
      shows: 'No se puede: Ya está aceptado',
      status: 200,
      open: get(`${doc(docA.id)}/acciones/recheck`),
    },
    {
      name: 'preview-email-refused',
      shows: 'No se puede: El documento no indica el correo del comprador',
      status: 200,
      open: get(`${doc(lost.id)}/acciones/email`),
    },
    {
      name: 'done-recheck',
      shows: 'Consultar el estado ahora: hecho.',
      status: 200,
      open: get(`${doc(lost.id)}?hecho=recheck`),
    },
    { name: 'done-resend', shows: 'Enviar de nuevo: hecho.', status: 200, open: get(`${doc(lost.id)}?hecho=resend`) },
    {
      name: 'done-redeliver',
      shows: 'Entregar el webhook de nuevo: hecho.',
      status: 200,
      open: get(`${doc(lost.id)}?hecho=redeliver`),
    },
    {
      name: 'done-email',
      shows: 'Enviar el correo al comprador de nuevo: hecho.',
      status: 200,
      open: get(`${doc(docA.id)}?hecho=email`),
    },
    {
      name: 'refused-conflict',
      shows: 'Consultar el estado ahora: no se puede. Ya está aceptado',
      status: 409,
      open: async (p) => (await p.goto(`${url}${doc(docA.id)}`), post(p, `${doc(docA.id)}/acciones/recheck`)),
    },
    {
      name: 'refused-invalid',
      shows: 'no se puede. El documento no indica el correo',
      status: 422,
      open: async (p) => (await p.goto(`${url}${doc(lost.id)}`), post(p, `${doc(lost.id)}/acciones/email`)),
    },
    {
      name: 'refused-no-csrf',
      shows: 'Falta el token del formulario (CSRF)',
      status: 403,
      open: async (p) => (await p.goto(`${url}${doc(docA.id)}`), post(p, `${doc(docA.id)}/acciones/recheck`, false)),
    },
    { name: 'stuck', shows: 'Sin respuesta de SUNAT a tiempo (1)', status: 200, open: get('/console/stuck?edad=1h') },
    {
      name: 'stuck-none',
      shows: 'Nada sin resolver con más de 300 días.',
      status: 200,
      open: get('/console/stuck?edad=300d'),
    },
    {
      name: 'stuck-invalid',
      shows: '«dos» no es una antigüedad válida',
      status: 400,
      open: get('/console/stuck?edad=dos'),
    },
    { name: 'companies', shows: 'clave SOL: falla', status: 200, open: get('/console/companies') },
    {
      name: 'document-not-found',
      shows: 'No hay un documento con esa referencia',
      status: 404,
      open: get(doc(randomUUID())),
    },
    { name: 'page-not-found', shows: 'Esta página no existe.', status: 404, open: get('/console/nada') },
    // An account holder (the frame says «cuenta»): its companies and a document of its own.
    {
      name: 'account-companies',
      shows: '(cuenta)',
      status: 200,
      ownSession: true,
      open: async (p) => (
        await p.context().clearCookies(),
        await signIn(p, a.accountToken),
        get('/console/companies')(p)
      ),
    },
    {
      name: 'account-document',
      shows: 'Historia del documento (hora de Lima)',
      status: 200,
      ownSession: true,
      open: get(doc(docA.id)),
    },
  ];
  return pages;
}
