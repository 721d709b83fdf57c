import { findDocumentsByReference } from '../../db/document-references';
import { toApiDocument } from '../../db/document-presentation';
import type { ListedDocument } from '../../db/documents';
import { findCompanyById } from '../../db/companies';
import { documentTimeline } from '../../support/timeline';
import { waitingMessage, waitingReason, type WaitingReason } from '../../lifecycle/transitions';
import { temporalUiLink } from '../../support/links';
import { english, resultMessage } from '../../lifecycle/messages';
import { EXIT, type Io } from './bulk';
import { age, iso, table } from './explain';
import type { SupportDeps } from './deps';
import type { Values } from './options';
import { candidates, stuckSelection } from './select';

/** The read-only commands: `find` (one document, its state and timeline) and `stuck` (the unresolved, by reason). */

export async function find(deps: SupportDeps, io: Io, positionals: string[], values: Values): Promise<number> {
  const found = (await findDocumentsByReference(deps.db, positionals[0])).filter(
    (d) => !values.ruc || d.ruc === values.ruc,
  );
  if (found.length === 0) {
    if (values.json) io.stdout.write(JSON.stringify({ documents: [] }) + '\n');
    io.stderr.write(
      `no document matches '${positionals[0]}' (tried external_id, RUC-TT-SERIE-NUMERO, SERIE-NUMERO and file name)\n`,
    );
    return EXIT.nothingMatched;
  }
  if (found.length > 1) {
    if (values.json) io.stdout.write(JSON.stringify({ documents: found.map(toApiDocument) }) + '\n');
    else
      io.stdout.write(
        `${found.length} documents match '${positionals[0]}':\n${candidates(found)}\nshow one with: chasqui support find <EXTERNAL_ID>\n`,
      );
    return EXIT.done;
  }
  const doc = found[0];
  const company = await findCompanyById(deps.db, doc.company_id);
  const timeline = await documentTimeline(deps.db, doc, deps.config.webhookHistoryDays);
  const reason = doc.resolved ? null : waitingReason(doc);
  const link = temporalUiLink(deps.config, doc.id);
  if (values.json) {
    io.stdout.write(
      JSON.stringify({
        document: {
          ...toApiDocument(doc),
          ruc: doc.ruc,
          company: company?.business_name ?? null,
          customer: doc.customer_doc,
          issue_date: doc.issue_date,
          send_attempts: doc.send_attempts,
        },
        waiting: reason
          ? { reason, explanation: english(waitingMessage(reason, doc.destination, doc.result?.origin)) }
          : null,
        temporal_ui: link,
        timeline: timeline.map((t) => ({ at: t.at.toISOString(), event: english(t.event), detail: english(t.detail) })),
      }) + '\n',
    );
    return EXIT.done;
  }
  const result = doc.result ? english(resultMessage(doc.result)) : '-';
  const lines = [
    `${doc.filename}  ${company?.business_name ?? ''}`,
    table([
      ['  external_id', doc.id],
      [
        '  status',
        `${doc.status} (${doc.status_code})${doc.resolved ? ', resolved' : `, no verdict yet after ${age(doc.created_at)}`}`,
      ],
      ...(reason ? [['  why', english(waitingMessage(reason, doc.destination, doc.result?.origin))]] : []),
      ['  result', result],
      [
        '  issued',
        `${iso(doc.created_at)} (issue date ${doc.issue_date}), environment ${doc.environment === '02' ? 'production' : 'demo'}, to ${doc.destination}`,
      ],
      ['  customer', doc.customer_doc ?? '-'],
      ['  ticket', doc.ticket ?? '-'],
      ['  Temporal UI', link ?? `workflow cpe-${doc.id} (set TEMPORAL_UI_URL for a link)`],
    ]),
    '',
    'timeline',
    table(timeline.map((t) => [`  ${iso(t.at)}`, english(t.event), english(t.detail)])),
  ];
  io.stdout.write(lines.join('\n') + '\n');
  return EXIT.done;
}

export async function stuck(deps: SupportDeps, io: Io, values: Values): Promise<number> {
  const docs = await stuckSelection(deps, values);
  const groups = new Map<WaitingReason, ListedDocument[]>();
  for (const doc of docs) {
    const reason = waitingReason(doc);
    groups.set(reason, [...(groups.get(reason) ?? []), doc]);
  }
  const olderThan = values['older-than'] ?? '30m';
  if (values.json) {
    io.stdout.write(
      JSON.stringify({
        older_than: olderThan,
        count: docs.length,
        groups: [...groups].map(([reason, list]) => ({
          reason,
          explanation: english(waitingMessage(reason)),
          documents: list.map((d) => ({
            ...toApiDocument(d),
            ruc: d.ruc,
            age_seconds: Math.round((Date.now() - d.created_at.getTime()) / 1000),
          })),
        })),
      }) + '\n',
    );
  } else if (docs.length === 0) {
    io.stderr.write(`nothing unresolved older than ${olderThan}${values.ruc ? ` for RUC ${values.ruc}` : ''}\n`);
  } else {
    const out: string[] = [`${docs.length} unresolved document(s) older than ${olderThan}`];
    for (const [reason, list] of groups) {
      out.push('', `${reason} (${list.length}): ${english(waitingMessage(reason))}`);
      out.push(
        table([
          ['  DOCUMENT', 'STATUS', 'AGE', 'SENDS', 'LAST RESULT', 'EXTERNAL_ID'],
          ...list.map((d) => [
            `  ${d.filename}`,
            d.status,
            age(d.created_at),
            String(d.send_attempts),
            d.result ? `${d.result.origin ?? ''} ${d.result.code ?? ''}`.trim() || '-' : '-',
            d.id,
          ]),
        ]),
      );
    }
    io.stdout.write(out.join('\n') + '\n');
  }
  // "Nothing stuck" is an answer; a script that alerts on stuck documents asks for --fail-if-any.
  return docs.length && values['fail-if-any'] ? EXIT.failed : EXIT.done;
}
