import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import {
  afterStep,
  afterSummary,
  AWAITING_SUMMARY,
  DOCUMENT_STATUSES,
  GENERATED_STATUS,
  HOLD,
  initialStatus,
  recordedKind,
  RELEASE,
  RESOLVED_STATUSES,
  type Answer,
  type DocStatus,
  type Step,
} from '../../lifecycle/transitions';
import {
  afterAttempt,
  DELIVERY_STATUSES,
  DELIVERY_TRANSITIONS,
  isPendingDelivery,
  OPENED_DELIVERY,
  WEBHOOK_MAX_ATTEMPTS,
} from '../../lifecycle/webhooks';
import type { EmailStatus } from '../../lifecycle/email';
import type { CheckStatus } from '../../db/company-checks';

const DOC = fs.readFileSync(path.resolve(__dirname, '../../docs/architecture.md'), 'utf8');

/** The Mermaid state diagram under a heading of docs/architecture.md: its states and its transitions. */
function diagram(heading: string) {
  const at = DOC.indexOf(`\n#### ${heading}\n`);
  expect(at, `docs/architecture.md has a "#### ${heading}" heading`).to.be.greaterThan(-1);
  const start = DOC.indexOf('```mermaid\nstateDiagram-v2\n', at);
  const lines = DOC.slice(start, DOC.indexOf('\n```', start + 3))
    .split('\n')
    .slice(2);
  // `state resolved {` … `}` groups states; a transition to the group is one to each state in it.
  const groups = new Map<string, string[]>();
  let group: string | null = null;
  const edges: [string, string][] = [];
  for (const line of lines.map((l) => l.trim())) {
    const open = /^state (\w+) \{$/.exec(line);
    const edge = /^(\[\*\]|\w+) --> (\[\*\]|\w+)(?::.*)?$/.exec(line);
    if (/^direction \w+$/.test(line)) continue;
    if (open) groups.set((group = open[1]), []);
    else if (line === '}') group = null;
    else if (group && /^\w+$/.test(line)) groups.get(group)!.push(line);
    else if (edge) edges.push([edge[1], edge[2]]);
    else expect.fail(`a line the test cannot read in "${heading}": ${line}`);
  }
  const expand = (s: string) => groups.get(s) ?? [s];
  const transitions = edges.flatMap(([a, b]) => expand(a).flatMap((x) => expand(b).map((y) => `${x} --> ${y}`)));
  const states = new Set(transitions.flatMap((t) => t.split(' --> ')).filter((s) => s !== '[*]'));
  return { states: [...states].sort(), transitions: [...new Set(transitions)].sort(), groups };
}

/** Every answer class an authority can give (lifecycle/transitions.ts classOf). */
const ANSWERS: Answer[] = [
  { status: 'accepted', reached_sunat: true },
  { status: 'observed', reached_sunat: true },
  { status: 'rejected', reached_sunat: true },
  { status: 'ticket', reached_sunat: true },
  { status: 'pending', reached_sunat: true },
  { status: 'unknown', reached_sunat: false },
  { status: 'unknown', reached_sunat: null },
];

/**
 * The statuses each step runs from (workflows/document.ts): the step `recordedKind` names for a status (retry → send,
 * ticket → ticket, unknown → query), and a resend's send from `sent`.
 */
const STEP_OF = { retry: 'send', ticket: 'ticket', unknown: 'query' } as const;
const STEPS_FROM: [Step, DocStatus][] = [
  ...(['queued', 'registered', 'sent'] as DocStatus[]).map((s): [Step, DocStatus] => [STEP_OF[recordedKind(s)], s]),
  ['send', 'sent'],
];

/** Every status change lifecycle/transitions.ts can make, as `from --> to` (`[*]`: a new document). */
function transitionsOfTheCode(): string[] {
  const changes = new Set<string>();
  for (const sending_mode of ['automatic', 'manual'])
    for (const receipts_mode of ['individual', 'summary'])
      for (const docType of ['01', '03', '07', '08', '09', '20', '40'])
        for (const series of ['F001', 'B001', 'T001'])
          changes.add(`[*] --> ${initialStatus({ sending_mode, receipts_mode }, docType, series)}`);
  changes.add(`[*] --> ${GENERATED_STATUS}`);
  changes.add(`${RELEASE.from} --> ${RELEASE.to}`).add(`${HOLD.from} --> ${HOLD.to}`);
  for (const verdict of RESOLVED_STATUSES) changes.add(`${AWAITING_SUMMARY} --> ${afterSummary(verdict)}`);
  for (const [step, from] of STEPS_FROM)
    for (const answer of ANSWERS) changes.add(`${from} --> ${afterStep(answer, step, from).status}`);
  for (const resolved of RESOLVED_STATUSES) changes.add(`${resolved} --> [*]`);
  return [...changes].sort();
}

/** Every change lifecycle/webhooks.ts can make of a delivery: opened, each attempt either way, disabled, final. */
function deliveryTransitionsOfTheCode(): string[] {
  const changes = new Set([`[*] --> ${OPENED_DELIVERY}`, `${OPENED_DELIVERY} --> ${DELIVERY_TRANSITIONS.disabled}`]);
  for (let number = 1; number <= WEBHOOK_MAX_ATTEMPTS; number++)
    for (const delivered of [true, false])
      changes.add(`${OPENED_DELIVERY} --> ${afterAttempt(number, delivered, 0).status}`);
  for (const status of DELIVERY_STATUSES) if (!isPendingDelivery(status)) changes.add(`${status} --> [*]`);
  return [...changes].sort();
}

// Written as records so that a status added to the type fails the type check here until the diagram shows it.
const EMAIL_STATUSES = Object.keys({ pending: 1, sent: 1, failed: 1, disabled: 1 } satisfies Record<EmailStatus, 1>);
// `unknown` is no known status: it keeps the one before (db/company-checks.ts saveCheckResults).
const KNOWN_CHECK_STATUSES = Object.keys({ ok: 1, warn: 1, fail: 1 } satisfies Record<
  Exclude<CheckStatus, 'unknown'>,
  1
>);

describe("lifecycle: docs/architecture.md's state diagrams follow the code", () => {
  it('the document-status diagram names exactly the statuses of lifecycle/transitions.ts', () => {
    const drawn = diagram('Document status');
    expect(drawn.states).to.deep.equal([...DOCUMENT_STATUSES].sort());
    expect(drawn.groups.get('resolved')).to.deep.equal([...RESOLVED_STATUSES]);
  });

  it('and draws exactly the changes the code makes: issue, release and hold, the daily summary, every step', () => {
    expect(STEPS_FROM).to.deep.equal([
      ['send', 'queued'],
      ['ticket', 'registered'],
      ['query', 'sent'],
      ['send', 'sent'],
    ]);
    expect(diagram('Document status').transitions).to.deep.equal(transitionsOfTheCode());
  });

  it('the webhook-delivery diagram names exactly DELIVERY_STATUSES and draws exactly the changes of lifecycle/webhooks.ts', () => {
    expect(diagram('Webhook delivery').states).to.deep.equal([...DELIVERY_STATUSES].sort());
    expect(diagram('Webhook delivery').transitions).to.deep.equal(deliveryTransitionsOfTheCode());
  });

  it("the buyer's e-mail diagram names exactly EmailStatus, the check events' the known CheckStatus", () => {
    expect(diagram("Buyer's e-mail").states).to.deep.equal(EMAIL_STATUSES.sort());
    expect(diagram('Company-check events').states).to.deep.equal(KNOWN_CHECK_STATUSES.sort());
  });
});
