/**
 * Checks a value against the JSON Schema subset api/openapi.ts uses ($ref, const, enum, type, properties, required,
 * additionalProperties, items, pattern, minLength, maxLength); returns the problems found, empty when it conforms.
 */
type Schema = Record<string, any>;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

export function checkSchema(schema: Schema, value: unknown, root: Schema, at = '$'): string[] {
  if (schema.$ref) {
    const name = String(schema.$ref).replace('#/components/schemas/', '');
    return checkSchema(root.components.schemas[name], value, root, at);
  }
  const problems: string[] = [];
  if ('const' in schema && value !== schema.const) problems.push(`${at}: expected ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value))
    problems.push(`${at}: ${JSON.stringify(value)} not in ${schema.enum.join('|')}`);
  if (schema.type) {
    const allowed: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = typeOf(value);
    if (!allowed.includes(actual) && !(actual === 'integer' && allowed.includes('number'))) {
      return [...problems, `${at}: type ${actual}, expected ${allowed.join('|')}`];
    }
  }
  if (typeof value === 'string') {
    if (schema.pattern && !new RegExp(schema.pattern).test(value))
      problems.push(`${at}: does not match ${schema.pattern}`);
    if (schema.minLength !== undefined && value.length < schema.minLength)
      problems.push(`${at}: shorter than ${schema.minLength}`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength)
      problems.push(`${at}: longer than ${schema.maxLength}`);
  }
  if (Array.isArray(value) && schema.items)
    value.forEach((item, i) => problems.push(...checkSchema(schema.items, item, root, `${at}[${i}]`)));
  if (typeOf(value) === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in record)) problems.push(`${at}.${key}: missing`);
    for (const [key, item] of Object.entries(record)) {
      const declared = schema.properties?.[key];
      if (declared) problems.push(...checkSchema(declared, item, root, `${at}.${key}`));
      else if (schema.additionalProperties)
        problems.push(...checkSchema(schema.additionalProperties, item, root, `${at}.${key}`));
      else if (schema.properties) problems.push(`${at}.${key}: not documented`);
    }
  }
  return problems;
}
