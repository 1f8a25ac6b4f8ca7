/**
 * Pre-fills the "Try it" arguments from a tool's JSON schema: every required property gets
 * its default, its first enum value or a placeholder of its type. Optional ones are left out
 * so the user sees what the tool needs, not everything it accepts.
 */
export function exampleArguments(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = Array.isArray(schema.required)
    ? (schema.required as unknown[]).filter((r): r is string => typeof r === 'string')
    : [];
  const out: Record<string, unknown> = {};
  for (const key of required) out[key] = exampleValue(properties[key] ?? {}, 0);
  return out;
}

function exampleValue(prop: Record<string, unknown>, depth: number): unknown {
  if ('default' in prop) return prop.default;
  if (Array.isArray(prop.enum) && prop.enum.length > 0) return prop.enum[0];
  if ('const' in prop) return prop.const;
  const type = Array.isArray(prop.type) ? prop.type[0] : prop.type;
  switch (type) {
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return typeof prop.minimum === 'number' ? prop.minimum : 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return depth < 3 ? exampleArguments(prop) : {};
    default:
      return null;
  }
}
