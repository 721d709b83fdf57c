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
import {
  afterEmailAttempt,
  EMAIL_AFTER_ATTEMPT,
  EMAIL_RESTARTABLE,
  EMAIL_START,
  EMAIL_STATUSES,
  initialEmailStatus,
  isEmailPending,
  type EmailAttemptOutcome,
} from '../../lifecycle/email';
import { CHECK_STATUSES, isCheckNews, knownStatusAfter } from '../../lifecycle/checks';

const DOC = fs.readFileSync(path.resolve(__dirname, '../../docs/architecture.md'), 'utf8');

/**
 * The Mermaid state diagram under a heading of docs/architecture.md: its states, its transitions and each
 * transition's label (the text after `:`, empty without one).
 */
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
  const edges: [string, string, string][] = [];
  for (const line of lines.map((l) => l.trim())) {
    const open = /^state (\w+) \{$/.exec(line);
    const edge = /^(\[\*\]|\w+) --> (\[\*\]|\w+)(?::\s*(.*))?$/.exec(line);
    if (/^direction \w+$/.test(line)) continue;
    if (open) groups.set((group = open[1]), []);
    else if (line === '}') group = null;
    else if (group && /^\w+$/.test(line)) groups.get(group)!.push(line);
    else if (edge) edges.push([edge[1], edge[2], edge[3] ?? '']);
    else expect.fail(`a line the test cannot read in "${heading}": ${line}`);
  }
  const expand = (s: string) => groups.get(s) ?? [s];
  const labelled = edges.flatMap(([a, b, label]) =>
    expand(a).flatMap((x) => expand(b).map((y): [string, string] => [`${x} --> ${y}`, label])),
  );
  const transitions = labelled.map(([t]) => t);
  const states = new Set(transitions.flatMap((t) => t.split(' --> ')).filter((s) => s !== '[*]'));
  return {
    states: [...states].sort(),
    transitions: [...new Set(transitions)].sort(),
    labels: new Map(labelled),
    groups,
  };
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

/**
 * Every change lifecycle/email.ts can make of a buyer's e-mail: issued with an address, each attempt's outcome of a
 * pending e-mail (while attempts remain and at the last), and "send again" of an ended one.
 */
function emailTransitionsOfTheCode(): string[] {
  const changes = new Set<string>([`[*] --> ${initialEmailStatus(['buyer@example.com'])}`]);
  for (const outcome of Object.keys(EMAIL_AFTER_ATTEMPT) as EmailAttemptOutcome[])
    for (const final of [false, true]) changes.add(`${EMAIL_START} --> ${afterEmailAttempt(outcome, final).status}`);
  for (const ended of EMAIL_RESTARTABLE) changes.add(`${ended} --> ${EMAIL_START}`);
  return [...changes].sort();
}

/**
 * Every move of a check's known status lifecycle/checks.ts makes (a run's result against the status known before,
 * none at first), with whether it is news: `from --> to` → `event` or `no event`. A result that leaves the known
 * status where it was (the same again, or `unknown`) moves nothing.
 */
function checkMovesOfTheCode(): Map<string, string> {
  const moves = new Map<string, string>();
  // The statuses a check can be known by: what a first result leaves known (`unknown` leaves none).
  const known = CHECK_STATUSES.map((s) => knownStatusAfter(s, null)).filter((s) => s !== null);
  for (const before of [null, ...known])
    for (const result of CHECK_STATUSES) {
      const after = knownStatusAfter(result, before);
      if (after === null || after === before) continue;
      moves.set(`${before ?? '[*]'} --> ${after}`, isCheckNews(result, before) ? 'event' : 'no event');
    }
  return moves;
}

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

  it("the buyer's e-mail diagram names exactly EMAIL_STATUSES and draws exactly the changes of lifecycle/email.ts", () => {
    const drawn = diagram("Buyer's e-mail");
    expect(drawn.states).to.deep.equal([...EMAIL_STATUSES].sort());
    expect(drawn.groups.get('ended')).to.have.members([...EMAIL_RESTARTABLE]);
    expect(EMAIL_STATUSES.filter(isEmailPending)).to.deep.equal([EMAIL_START]);
    expect(drawn.transitions).to.deep.equal(emailTransitionsOfTheCode());
  });

  it("the check-events diagram draws exactly the known status's moves of lifecycle/checks.ts, each news or not as the code says", () => {
    const drawn = diagram('Company-check events');
    const moves = checkMovesOfTheCode();
    // `unknown` is no known status: it keeps the one before.
    expect(drawn.states).to.deep.equal(['fail', 'ok', 'warn']);
    expect(drawn.transitions).to.deep.equal([...moves.keys()].sort());
    for (const [move, news] of moves)
      expect(drawn.labels.get(move)!.replace(/^first known, /, ''), move).to.equal(news);
  });
});
