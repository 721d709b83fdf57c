import type { Page } from 'playwright-core';
import { english, message, MESSAGE_CODES, spanish, type Message, type MessageCode } from '../../lifecycle/messages';

/**
 * What the browser tests measure on every server-rendered page (the console, /consulta): nothing wider than the
 * viewport, no word broken mid-letter, and none of the lifecycle's English words on a Spanish page.
 */

/** Parameters that fill every lifecycle message: identifiers are not words, so they add none to the lists. */
function sampleParams(code: MessageCode): Record<string, unknown> {
  return {
    filename: '20123456786-01-F001-10',
    id: 'id-1',
    status: 'sent',
    origin: 'timeout',
    action: 'resend',
    result: 'done',
    operator: 'console:ana-1',
    delivery: 'id-2',
    next: null,
    ticket: '1700000000123',
    to: ['a@b.pe'],
    address: 'a@b',
    hash: 'abc123',
    code: '0100',
    number: 2,
    attempts: 2,
    max: 2,
    got: 3,
    limit: 3,
    seconds: 120,
    days: 90,
    http: 500,
    ms: 20,
    error: 'HTTP-500',
    own: true,
    detail: null,
    waiting: message('waiting.manual'),
    // The company checks' (check.*).
    not_before: '2026-12-31T00:00:00.000Z',
    not_after: '2026-12-31T00:00:00.000Z',
    since: '2026-11-01',
    missing: 2,
    series: 1,
    numbers: ['F001-3'],
    count: 2,
    rules: 2,
    horizon: 30,
    failing: [{ would_fail: 1, checked: 2, rule: 'r-1', effective: '2027-01-01', codes: ['3000'] }],
    user: 'VENTAS01',
    ruc: '20123456786',
    procedure: 'ose_link',
    provider: '20100000001',
    state: 'pending',
    sol: true,
    reason: 'x-1',
    host: 'smtp.b.pe',
    port: 587,
    message: code === 'detail.support' ? message('recheck.done') : 'x-1',
  };
}

/** Every lifecycle message with sample parameters, for tests that read all texts. */
export const sampleMessages = (): Message[] =>
  MESSAGE_CODES.map((code) => ({ code, params: sampleParams(code) }) as Message);

/** Words of letters only: identifiers (`cpe.resolved`, `to_send`, `F001-10`, `e-mail`) are not words of a language. */
export function words(text: string): string[] {
  return (text.match(/[\p{L}\p{N}_.@/{}-]+/gu) ?? [])
    .map((w) => w.replace(/[.]+$/, ''))
    .filter((w) => /^\p{L}{3,}$/u.test(w))
    .map((w) => w.toLowerCase());
}

/** The English renderer's words that its Spanish texts never use: any of them on a Spanish page is a leak. */
export function englishOnlyWords(): Set<string> {
  const all = sampleMessages();
  const spanishWords = new Set(all.flatMap((m) => words(spanish(m))));
  return new Set(all.flatMap((m) => words(english(m))).filter((w) => !spanishWords.has(w)));
}

export interface PageProblems {
  /** `document.scrollWidth - clientWidth`: > 0 when the page scrolls sideways. */
  scrolls: number;
  /** Elements reaching past the viewport's right edge (tag, class and their right edge). */
  wide: string[];
  /** Words whose letters are drawn on more than one line. */
  split: string[];
  /** Words of the lifecycle's English texts in the page's visible text. */
  english: string[];
}

/** Measures the open page (see PageProblems). */
export async function pageProblems(page: Page, englishWords: Set<string>): Promise<PageProblems> {
  const measured = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && r.right > width + 0.5)
        wide.push(`<${el.tagName.toLowerCase()} class="${el.className}"> right ${Math.round(r.right)} > ${width}`);
    }
    const split: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || ['OPTION', 'SCRIPT', 'STYLE'].includes(parent.tagName)) continue;
      const text = node.textContent ?? '';
      // A line may end after a hyphen or a slash (20123456786-01-F001-10); anywhere else inside a word is a split.
      for (const m of text.matchAll(/[^\s\-/]+[-/]?/g)) {
        const range = document.createRange();
        range.setStart(node, m.index!);
        range.setEnd(node, m.index! + m[0].length);
        const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0);
        // Text spilling out of its box is as wide as an element that does.
        if (rects.some((r) => r.right > width + 0.5)) wide.push(`text «${m[0]}» reaches past ${width}`);
        if (new Set(rects.map((r) => Math.round(r.bottom))).size < 2) continue;
        // Drawn on two lines although it fits on one line of the block box laying it out (its content box): a word
        // longer than that (an e-mail address on a phone) has to break rather than run past the screen. Inline code,
        // no named helper: the test runner's transform would name it with a function the page does not have.
        let box: Element = parent;
        while (box.parentElement && getComputedStyle(box).display.startsWith('inline')) box = box.parentElement;
        const style = getComputedStyle(box);
        const line = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        if (rects.reduce((sum, r) => sum + r.width, 0) <= line)
          split.push(`${m[0]} (in «${text.trim().slice(0, 60)}»)`);
      }
    }
    return {
      scrolls: document.documentElement.scrollWidth - width,
      wide,
      split,
      text: document.body.innerText,
    };
  });
  return {
    scrolls: measured.scrolls,
    wide: measured.wide,
    split: measured.split,
    english: [...new Set(words(measured.text).filter((w) => englishWords.has(w)))],
  };
}
