/**
 * A meta-tool's arguments checked against the meta-tool's own input schema, as declared in
 * metaToolDefs.ts (types, required, enums, ranges and every length cap), with the one Ajv
 * (core/argsValidation.ts). The handlers then check only what a schema cannot say (a server
 * that exists, a timeout under the user's setting). Problems name the meta-tool and the
 * argument and never carry its value: an agent's arguments may hold secrets, and one
 * megabyte of it must not come back as one megabyte of error.
 */
import type { ErrorObject } from 'ajv';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ArgsValidator } from '../core/argsValidation';
import { oneLine, capLength } from '../../../protocol/untrustedText';
import { metaToolDefinitions } from './metaToolDefs';

/** More problems than this are counted, not listed (an array of 10,000 wrong items is one mistake). */
const MAX_PROBLEMS = 5;

const validator = new ArgsValidator();
let schemas: Map<string, Tool['inputSchema']> | undefined;

/**
 * The schemas as validated. Options change descriptions only (a default, the workspace's
 * domains), so one set built with code mode on serves every session.
 */
function inputSchema(tool: string): Tool['inputSchema'] | undefined {
  schemas ??= new Map(
    metaToolDefinitions({ defaultLimit: 1, codeMode: true, domains: '' }).map((t) => [t.name, t.inputSchema]),
  );
  return schemas.get(tool);
}

/** Why `args` are not `tool`'s arguments, in words a model can act on; undefined when they are (or `tool` is no meta-tool). */
export function metaToolArgsProblem(tool: string, args: unknown): string | undefined {
  const schema = inputSchema(tool);
  if (!schema) return undefined;
  const check = validator.check(`meta-tool:${tool}`, schema, args, (e) => describe(e, schema));
  if (check.ok !== false) return undefined;
  const problems = [...new Set(check.problems)];
  const shown = problems.slice(0, MAX_PROBLEMS).join('; ');
  const more = problems.length > MAX_PROBLEMS ? `; and ${problems.length - MAX_PROBLEMS} more` : '';
  return `${tool}: ${shown}${more}.`;
}

/** `"keywords[3]"` for /keywords/3: the argument, never its value. */
function argumentName(path: string, extra?: string): string {
  const parts = path.split('/').slice(1);
  if (extra !== undefined) parts.push(extra);
  const [first, ...rest] = parts;
  return `"${first ?? ''}${rest.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('')}"`;
}

function describe(e: ErrorObject, schema: Tool['inputSchema']): string {
  const p = e.params as Record<string, unknown>;
  const at = argumentName(e.instancePath);
  switch (e.keyword) {
    case 'required': {
      const name = String(p.missingProperty);
      const about = (schema.properties?.[name] as { description?: string } | undefined)?.description;
      return `needs ${argumentName('', name)}${about ? ` (${about.replace(/\.$/, '')})` : ''}`;
    }
    case 'additionalProperties':
      // The name an agent used is shown (cut, on one line) so a typo can be seen; the known ones follow.
      return `has no argument "${capLength(oneLine(String(p.additionalProperty)), 60)}" (its arguments: ${Object.keys(schema.properties ?? {}).join(', ') || 'none'})`;
    case 'type':
      return `${at} must be ${p.type === 'integer' ? 'an integer' : p.type === 'object' ? 'an object' : p.type === 'array' ? 'an array' : `a ${String(p.type)}`}`;
    case 'enum':
      return `${at} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'maxLength':
      return `${at} is longer than ${String(p.limit)} characters, the limit`;
    case 'minLength':
      return `${at} must not be empty`;
    case 'maxItems':
      return `${at} has more than ${String(p.limit)} items, the limit`;
    case 'minimum':
      return `${at} must be at least ${String(p.limit)}`;
    case 'maximum':
      return `${at} must be at most ${String(p.limit)}`;
    default:
      return `${at} ${e.message ?? `fails "${e.keyword}"`}`;
  }
}
