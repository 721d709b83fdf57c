import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import type { CompanyRow } from '../../../db/companies';
import { lastChanges } from '../../../db/audit';
import type { ProcedureName, ProcedureState } from '../../../db/procedures';
import { CREDENTIALS, saveCredentials, type CredentialKind } from '../../companies/credentials';
import { presentCompanies } from '../../companies/present';
import { html, table, type Html } from '../html';
import { consoleActor, type Viewer } from '../context';
import { CHECK_NAMES, limaLabelled } from '../words';
import { companyPath, writeCompanyPage } from './frame';
import {
  configuredWords,
  csrfField,
  doneNotice,
  field,
  formError,
  redirectDone,
  refusalErrors,
  type Field,
  type FieldErrors,
  unknownForm,
} from './forms';

/**
 * The credentials tab (issue 42 item 4, docs/panel.md): SOL, GRE and OSE credentials, write-only. Once saved they are
 * never shown again, not even the user names: the page says when and by whom (the audit log) and offers to replace
 * them, through the same function as the API's PATCHes. Beside them, the portal procedures' progress.
 */

interface CredentialForm {
  title: string;
  /** What its button saves or replaces. */
  noun: string;
  /** Whether the company holds these credentials, and since when. */
  held: (c: CompanyRow) => Date | null;
  fields: Field[];
  /** Each field's rule in Spanish, shown beside it when the API refuses it. */
  words: FieldErrors;
  general: string;
}

const FORMS: Readonly<Record<CredentialKind, CredentialForm>> = {
  sol: {
    title: 'Clave SOL',
    noun: 'clave SOL',
    held: (c) => (c.sol_user ? c.sol_updated_at : null),
    fields: [
      { name: 'sol_user', label: 'Usuario SOL principal', required: true, maxlength: 16 },
      { name: 'sol_password', label: 'Clave SOL principal', type: 'password', required: true, maxlength: 128 },
      {
        name: 'secondary_user',
        label: 'Usuario SOL secundario (opcional)',
        hint: 'Con certificado propio, los envíos usan el usuario secundario. Si lo deja vacío, se conserva el que había.',
        maxlength: 16,
      },
      { name: 'secondary_password', label: 'Clave del usuario secundario', type: 'password', maxlength: 128 },
    ],
    words: {
      sol_user: 'El usuario SOL tiene de 3 a 16 letras o dígitos.',
      sol_password: 'Escriba la clave SOL (hasta 128 caracteres).',
      secondary_user: 'El usuario secundario tiene de 3 a 16 letras o dígitos.',
      secondary_password: 'Escriba la clave del usuario secundario (hasta 128 caracteres).',
    },
    general: 'El usuario secundario y su clave van juntos: escriba los dos o ninguno.',
  },
  gre: {
    title: 'Credenciales de la guía de remisión (GRE)',
    noun: 'credenciales GRE',
    held: (c) => (c.gre_client_id ? c.gre_updated_at : null),
    fields: [
      { name: 'client_id', label: 'ID de la aplicación (API de SUNAT)', required: true, maxlength: 200 },
      { name: 'client_secret', label: 'Clave de la aplicación', type: 'password', required: true, maxlength: 128 },
    ],
    words: {
      client_id: 'El ID tiene letras, dígitos, «.», «_» o «-» (hasta 200) y empieza con letra o dígito.',
      client_secret: 'Escriba la clave de la aplicación (hasta 128 caracteres).',
    },
    general: 'Revise los datos de la guía de remisión.',
  },
  ose: {
    title: 'Credenciales de su OSE',
    noun: 'credenciales de la OSE',
    held: (c) => (c.ose_user ? c.ose_updated_at : null),
    fields: [
      { name: 'url', label: 'Dirección del servicio de la OSE', hint: 'https://…', required: true, maxlength: 2000 },
      { name: 'user', label: 'Usuario de la OSE', required: true, maxlength: 100 },
      { name: 'password', label: 'Clave de la OSE', type: 'password', required: true, maxlength: 128 },
    ],
    words: {
      url: 'La dirección de la OSE debe empezar con https:// y ser pública (no una red interna).',
      user: 'Escriba el usuario de la OSE (hasta 100 caracteres).',
      password: 'Escriba la clave de la OSE (hasta 128 caracteres).',
    },
    general: 'Revise los datos de la OSE.',
  },
};

const KINDS = Object.keys(FORMS) as CredentialKind[];

const DONE: Readonly<Record<string, string>> = Object.fromEntries(
  KINDS.map((kind) => [kind, `${FORMS[kind].title}: guardada. No se volverá a mostrar.`]),
);

const PROCEDURE_STATES: Readonly<Record<ProcedureState, string>> = {
  pending: 'pendiente',
  running: 'en curso',
  done: 'hecho',
  failed: 'falló; se reintenta',
  not_applicable: 'no aplica',
};

async function procedures(deps: AppDeps, company: CompanyRow): Promise<Html> {
  const [record] = await presentCompanies(deps.db, [company]);
  const rows = Object.entries(record.tax_procedures).map(([name, p]) => [
    CHECK_NAMES[name as ProcedureName],
    PROCEDURE_STATES[p.state],
    String(p.attempts),
    p.done_at ? limaLabelled(new Date(p.done_at)) : p.next_attempt_at ? limaLabelled(new Date(p.next_attempt_at)) : '—',
  ]);
  return html`<h2>Trámites en el portal de SUNAT</h2>
    <p class="hint">
      chasqui los hace con la clave SOL principal al guardarla; el avance se actualiza al volver a esta página.
    </p>
    ${table('Trámites', ['Trámite', 'Estado', 'Intentos', 'Hecho o próximo intento'], rows)}`;
}

async function credentialsPage(
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  company: CompanyRow,
  refused: { kind: CredentialKind; errors: FieldErrors; typed: URLSearchParams } | null,
): Promise<void> {
  const records = await lastChanges(
    deps.db,
    company.id,
    KINDS.map((k) => CREDENTIALS[k].action),
  );
  const sections = KINDS.map((kind) => {
    const form = FORMS[kind];
    const held = form.held(company);
    const errors = refused?.kind === kind ? refused.errors : {};
    return html`<section aria-labelledby="${kind}-title">
      <h2 id="${kind}-title">${form.title}</h2>
      <p class="configured">
        ${held ? configuredWords(held, records.get(CREDENTIALS[kind].action)) : 'Sin configurar.'}
      </p>
      <form class="card" method="post" action="${companyPath(company.ruc, 'credentials')}/${kind}">
        ${csrfField(viewer)}${formError(errors)}
        ${form.fields.map((f) => field(kind, { ...f, value: refused?.kind === kind ? refused.typed.get(f.name) : null }, errors))}
        <button type="submit">${held ? 'Reemplazar' : 'Guardar'} ${form.noun}</button>
      </form>
    </section>`;
  });
  writeCompanyPage(
    ctx,
    viewer,
    company,
    'credentials',
    html`${doneNotice(ctx, DONE)}
      <p>Las claves se guardan cifradas y no se vuelven a mostrar: para cambiarlas, escriba las nuevas.</p>
      ${sections}${await procedures(deps, company)}`,
    refused ? 422 : 200,
  );
}

/** The tab's page (api/console/panel/routes.ts registers it). */
export const credentialsTab = {
  get: (ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow) =>
    credentialsPage(ctx, deps, viewer, company, null),
  async post(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow, form: URLSearchParams, rest: string) {
    const kind = KINDS.find((k) => k === rest);
    if (!kind) return unknownForm(ctx, viewer, company, 'credentials');
    // Only the fields the form has, and only those filled in: an empty optional field is "not sent".
    const body = Object.fromEntries(
      FORMS[kind].fields.flatMap((f) => (form.get(f.name) ? [[f.name, form.get(f.name)]] : [])),
    );
    try {
      await saveCredentials(deps, company, kind, body, consoleActor(ctx, viewer.session));
    } catch (err) {
      const errors = refusalErrors(err, FORMS[kind].words, FORMS[kind].general);
      return credentialsPage(ctx, deps, viewer, company, { kind, errors, typed: form });
    }
    redirectDone(ctx, company, 'credentials', kind);
  },
};
