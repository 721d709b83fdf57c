import type { AppDeps } from '../../deps';
import type { CompanyRow } from '../../../db/companies';
import { listDocuments } from '../../../db/document-lists';
import { lastAttempts, listDeliveries } from '../../../db/webhooks';
import { isPendingDelivery, type DeliveryStatus } from '../../../lifecycle/webhooks';
import { CHECK_WEBHOOK_EVENT, TEST_WEBHOOK_EVENT, WEBHOOK_EVENT } from '../../../workflows/webhook-types';
import { html, notice, table, type Html } from '../html';
import type { Viewer } from '../context';
import { limaTime } from '../words';
import { companyPath } from './frame';
import { csrfField } from './secrets';

/** The webhook tab's delivery log: the company's recent notices, each with its answer and a redeliver button. */

const LOG_SIZE = 30;

const EVENT_WORDS: Readonly<Record<string, string>> = {
  [WEBHOOK_EVENT]: 'resolución de un documento',
  [CHECK_WEBHOOK_EVENT]: 'verificación de la empresa',
  [TEST_WEBHOOK_EVENT]: 'aviso de prueba',
};

const STATUS_WORDS: Readonly<Record<DeliveryStatus, string>> = {
  pending: 'pendiente',
  delivered: 'entregado',
  failed: 'fallido',
  cancelled: 'cancelado',
};

export async function deliveryLog(deps: AppDeps, viewer: Viewer, company: CompanyRow): Promise<Html> {
  const rows = await listDeliveries(deps.db, company.id, { limit: LOG_SIZE });
  if (!rows.length) return notice('info', 'Todavía no hay entregas de avisos a su webhook.');
  const ids = rows.map((r) => r.id);
  const docIds = rows.flatMap((r) => (r.document_id ? [r.document_id] : []));
  const [attempts, docs] = await Promise.all([
    lastAttempts(deps.db, ids),
    docIds.length ? listDocuments(deps.db, { ids: docIds, limit: docIds.length }) : [],
  ]);
  const answer = new Map(attempts.map((a) => [a.delivery_id, a]));
  const filename = new Map(docs.map((d) => [d.id, d.filename]));
  const base = `${companyPath(company.ruc, 'webhook')}/deliveries`;
  return table(
    `Últimas ${LOG_SIZE} entregas (horas de Lima)`,
    ['Hora', 'Evento', 'Documento', 'Estado', 'Respuesta', 'Acción'],
    rows.map((r) => {
      const last = answer.get(r.id);
      const doc = r.document_id
        ? html`<a href="/console/documents/${r.document_id}">${filename.get(r.document_id) ?? 'documento'}</a>`
        : '—';
      const redeliver =
        company.webhook_url && !isPendingDelivery(r.status)
          ? html`<form method="post" action="${base}/${r.id}/redeliver" class="inline">
              ${csrfField(viewer.session.csrf)}
              <button type="submit" class="secondary">Entregar de nuevo</button>
            </form>`
          : '—';
      return [
        limaTime(r.created_at),
        EVENT_WORDS[r.event] ?? r.event,
        doc,
        html`<span class="status">${STATUS_WORDS[r.status]}</span>`,
        last
          ? last.http_status === null
            ? 'sin respuesta'
            : html`<span class="number">${last.http_status}</span>`
          : '—',
        redeliver,
      ];
    }),
  );
}
