/**
 * The spec lets integrators send greenter-style names; chasqui reads both and works with the spec's names.
 * Aliases are resolved before validation, so every error path uses the canonical name (e.g. `items[2].valorUnitario`
 * even when the client sent `details[2].mtoValorUnitario`).
 */
const ALIASES: Record<string, string> = {
  company: 'emisor',
  address: 'establecimiento',
  client: 'cliente',
  rznSocial: 'nombre',
  details: 'items',
  mtoValorUnitario: 'valorUnitario',
  tipAfeIgv: 'afectacionIgv',
  legends: 'leyendas',
  code: 'codigo',
  value: 'valor',
};

/** Where an alias means something else: `address` inside `cliente` is the client's address, not an establishment. */
const ALIAS_EXCEPTIONS: Record<string, Set<string>> = {
  cliente: new Set(['address']),
};

export function resolveAliases(value: unknown, parentKey = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveAliases(v, parentKey));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  const keep = ALIAS_EXCEPTIONS[parentKey];
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const name = keep?.has(key) ? key : (ALIASES[key] ?? key);
    // The canonical name wins when a client sends both forms.
    if (name !== key && Object.prototype.hasOwnProperty.call(value, name)) continue;
    out[name] = resolveAliases(v, name);
  }
  return out;
}
