/**
 * docs/architecture.md draws the rooms of rooms.ts twice in Mermaid (issue 44): the top-level rooms, and the parts of
 * documents/. Each drawing is checked against the arrows rooms.ts allows, so neither can drift from the code.
 */
import { ROOMS } from './rooms';

/** A drawing: which keys of rooms.ts it draws, and the node a path of the repository is drawn as. */
interface Scope {
  /** A comment line of its Mermaid block (`%% rooms.ts: …`), by which the test finds it. */
  marker: string;
  draws: (key: string) => boolean;
  node: (path: string) => string;
}

const partOf = (path: string) => {
  const rest = path.slice('documents/'.length);
  return `documents/${rest.includes('/') ? rest.slice(0, rest.indexOf('/') + 1) : rest}`;
};

export const SCOPES: Scope[] = [
  {
    marker: '%% rooms.ts: top-level rooms',
    // Rooms that may import everything, and rooms of data, have no arrows worth drawing.
    draws: (key) => !ROOMS[key].data && !ROOMS[key].may.includes('*') && !ROOMS[roomsTop(key)].may.includes('*'),
    node: (path) => roomsTop(path),
  },
  {
    marker: "%% rooms.ts: documents/' parts",
    draws: (key) => key.startsWith('documents/') && key !== 'documents/',
    node: partOf,
  },
];

function roomsTop(path: string): string {
  return `${path.split('/')[0]}/`;
}

/** `from --> to` for what a room may import, `from -.-> to` for what it may import as types only. */
export function allowedArrows(scope: Scope): Set<string> {
  const solid = new Set<string>();
  const dotted = new Set<string>();
  for (const [key, room] of Object.entries(ROOMS)) {
    if (!scope.draws(key)) continue;
    const from = scope.node(key);
    for (const target of room.may) if (scope.node(target) !== from) solid.add(`${from} --> ${scope.node(target)}`);
    for (const target of room.types ?? [])
      if (scope.node(target) !== from) dotted.add(`${from} -.-> ${scope.node(target)}`);
  }
  for (const arrow of dotted) if (solid.has(arrow.replace('-.->', '-->'))) dotted.delete(arrow);
  return new Set([...solid, ...dotted]);
}

/** The arrows of the Mermaid block holding the line `marker`, by their nodes' labels (`api["api/"] --> db["db/"]`). */
export function drawnArrows(markdown: string, marker: string): Set<string> | null {
  const lines = markdown
    .split('```mermaid\n')
    .slice(1)
    .map((block) => block.slice(0, block.indexOf('```')).split('\n'))
    .find((block) => block.some((line) => line.trim() === marker));
  if (!lines) return null;
  const labels = new Map<string, string>();
  for (const line of lines) for (const [, id, label] of line.matchAll(/(\w+)\["([^"]+)"\]/g)) labels.set(id, label);
  const arrows = new Set<string>();
  for (const line of lines) {
    const m = /^\s*(\w+)(?:\["[^"]+"\])?\s*(-->|-\.->)\s*(\w+)/.exec(line);
    if (m) arrows.add(`${labels.get(m[1]) ?? m[1]} ${m[2]} ${labels.get(m[3]) ?? m[3]}`);
  }
  return arrows;
}

/** What each drawing of docs/architecture.md draws that rooms.ts does not allow, or leaves out. */
export function diagramDifferences(markdown: string): string[] {
  const differences: string[] = [];
  for (const scope of SCOPES) {
    const drawn = drawnArrows(markdown, scope.marker);
    if (!drawn) {
      differences.push(`docs/architecture.md has no Mermaid block holding \`${scope.marker}\``);
      continue;
    }
    const allowed = allowedArrows(scope);
    for (const arrow of allowed) if (!drawn.has(arrow)) differences.push(`${scope.marker}: not drawn: ${arrow}`);
    for (const arrow of drawn)
      if (!allowed.has(arrow)) differences.push(`${scope.marker}: drawn, not in rooms.ts: ${arrow}`);
  }
  return differences;
}
