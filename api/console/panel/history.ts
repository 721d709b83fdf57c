import type { AppDeps } from '../../deps';
import type { CompanyRow } from '../../../db/companies';
import { listAudit, type ActorKind, type AuditRow } from '../../../db/audit';
import { html, notice, table, type Html } from '../html';
import { limaTime } from '../words';
import { actionWord, fieldWord, valueWord } from './company-words';

/** A company's recent history on its overview: the audit log's last changes, who, when, what (secrets masked). */

/** Who made a change, by kind, in the audit log's pages (the company history and the account's log). */
export const ACTOR_KINDS: Readonly<Record<ActorKind, string>> = {
  'account-token': 'token de cuenta',
  'company-token': 'token de firma',
  console: 'consola',
  support: 'soporte',
  user: 'usuario',
  system: 'sistema',
};

function changesOf(row: AuditRow): Html | string {
  const fields = Object.entries(row.changes);
  if (!fields.length) return '—';
  return html`<ul class="plain">
    ${fields.map(
      ([field, change]) =>
        html`<li>
          ${fieldWord(field)}:
          ${'from' in change ? html`${valueWord(field, change.from)} → ` : ''}${valueWord(field, change.to)}
        </li>`,
    )}
  </ul>`;
}

export async function companyHistory(deps: AppDeps, company: CompanyRow, limit = 10): Promise<Html> {
  const rows = await listAudit(deps.db, { accountId: company.account_id, companyId: company.id, limit });
  if (!rows.length) return notice('info', 'Aún no hay cambios registrados.');
  return table(
    'Últimos cambios (hora de Lima)',
    ['Cuándo', 'Quién', 'Qué', 'Cambios'],
    rows.map((r) => [
      limaTime(r.at, false),
      `${r.actor} (${ACTOR_KINDS[r.actor_kind] ?? r.actor_kind})`,
      actionWord(r.action),
      changesOf(r),
    ]),
  );
}
