import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import type { ListedDocument } from '../../db/documents';
import { listDocuments } from '../../db/document-lists';
import { waitingMessage, waitingReason, type WaitingReason } from '../../lifecycle/transitions';
import { spanish } from '../../lifecycle/messages';
import { parseDuration } from '../../core/durations';
import { html, notice, page } from './html';
import { documentScope, writePage, type Viewer } from './context';
import { documentTable } from './documents';
import { WAITING_TITLES } from './words';

const DEFAULT_AGE = '30m';
/** Like `chasqui support stuck --older-than`: from a minute (a send in flight is not stuck) to a year. */
const AGE_BOUNDS = { min: 60, max: 366 * 86_400 };

/** `30m` → «30 minutos», for the page's sentences. */
function ageWords(seconds: number): string {
  const [n, unit] =
    seconds % 86_400 === 0
      ? [seconds / 86_400, 'día']
      : seconds % 3600 === 0
        ? [seconds / 3600, 'hora']
        : seconds % 60 === 0
          ? [seconds / 60, 'minuto']
          : [seconds, 'segundo'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** Unresolved documents older than the asked age (`?edad=2h`, default 30m), grouped by what they wait for. */
export async function stuckPage(ctx: Context, deps: AppDeps, viewer: Viewer): Promise<void> {
  const typed = String(ctx.query.edad ?? '').trim() || DEFAULT_AGE;
  const seconds = parseDuration(typed);
  const valid = seconds !== null && seconds >= AGE_BOUNDS.min && seconds <= AGE_BOUNDS.max;
  const form = html`<form class="card age" method="get" action="/console/stuck">
    <div>
      <label for="edad">Sin veredicto desde hace más de</label>
      <p class="hint" id="edad-hint">Minutos (m), horas (h) o días (d): 30m, 2h, 1d.</p>
      <input id="edad" name="edad" value="${typed}" maxlength="8" autocomplete="off" aria-describedby="edad-hint" />
    </div>
    <div class="actions"><button type="submit">Mostrar</button></div>
  </form>`;
  const frame = viewer.frame('Documentos atascados', 'stuck');
  if (!valid) {
    writePage(
      ctx,
      400,
      page(
        frame,
        html`${notice('refused', `«${typed}» no es una antigüedad válida: escriba por ejemplo 30m, 2h o 1d (de 1 minuto a 366 días).`)}${form}`,
      ),
    );
    return;
  }
  const docs = await listDocuments(deps.db, {
    ...documentScope(viewer.session),
    resolved: false,
    createdBefore: new Date(Date.now() - seconds * 1000),
    limit: 1000,
  });
  const groups = new Map<WaitingReason, ListedDocument[]>();
  for (const d of docs) groups.set(waitingReason(d), [...(groups.get(waitingReason(d)) ?? []), d]);
  const age = ageWords(seconds);
  const body = docs.length
    ? [...groups].map(([reason, list]) => {
        // A group may hold documents sent to SUNAT and to an OSE, or of two outcomes: its sentence names what they
        // share, or both.
        const shared = (values: (string | null | undefined)[]) => (new Set(values).size === 1 ? values[0] : undefined);
        const destination =
          shared(list.map((d) => (d.destination === 'tax_authority' ? d.destination : 'ose'))) ?? 'any';
        const why = spanish(waitingMessage(reason, destination, shared(list.map((d) => d.result?.origin))));
        return html`<section>
          <h2>${WAITING_TITLES[reason]} (${list.length})</h2>
          <p>${why}</p>
          ${documentTable(`${list.length} documento(s)`, list)}
        </section>`;
      })
    : [notice('ok', `Nada sin resolver con más de ${age}.`)];
  writePage(
    ctx,
    200,
    page(
      frame,
      html`${form} ${docs.length ? html`<p>Sin veredicto tras más de ${age}, agrupados por lo que esperan.</p>` : ''}
      ${body}`,
    ),
  );
}
