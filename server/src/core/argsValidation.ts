/**
 * Validates arguments against a JSON schema, so the model gets every problem at once, in
 * words it can correct from: call_tool's arguments against the upstream tool's input schema
 * before anything is sent (app/toolCalls.ts). (The meta-tools' own arguments are zod schemas,
 * checked in gateway/metaToolArgs.ts.) A schema that cannot be compiled (malformed,
 * `$ref` loops, an unknown draft) is not our call to reject: the arguments go through and
 * the upstream server judges them. Every validator shares one Ajv.
 */
import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { errorMessage } from './errorMessage';

export type ArgsCheck = { ok: true } | { ok: false; problems: string[] } | { ok: 'unchecked'; reason: string };

/** Loaded and made at the first check anywhere: building Ajv costs milliseconds a start has better use for. */
let sharedAjv: Ajv2020 | undefined;

export class ArgsValidator {
  private readonly cache = new Map<string, ValidateFunction | string>();

  /** `cacheKey` must change when the schema does (e.g. tool key + schema hash). `describe` words each problem. */
  check(
    cacheKey: string,
    schema: Record<string, unknown>,
    args: unknown,
    describe: (e: ErrorObject) => string = describeError,
  ): ArgsCheck {
    let validate = this.cache.get(cacheKey);
    if (validate === undefined) {
      validate = this.compile(schema);
      if (this.cache.size > 5000) this.cache.clear();
      this.cache.set(cacheKey, validate);
    }
    if (typeof validate === 'string') return { ok: 'unchecked', reason: validate };
    if (validate(args)) return { ok: true };
    return { ok: false, problems: (validate.errors ?? []).map(describe) };
  }

  private compile(schema: Record<string, unknown>): ValidateFunction | string {
    try {
      // Drafts differ only in ways that do not matter for argument checking; one engine
      // for all avoids failing on a `$schema` we do not have loaded.
      const { $schema: _ignored, ...rest } = schema;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      sharedAjv ??= new (require('ajv/dist/2020') as { default: typeof Ajv2020 }).default({
        strict: false,
        allErrors: true,
        validateFormats: false,
        validateSchema: false,
      });
      return sharedAjv.compile(rest);
    } catch (err) {
      return `schema could not be compiled: ${errorMessage(err)}`;
    }
  }
}

function describeError(e: ErrorObject): string {
  const at = e.instancePath === '' ? 'arguments' : `arguments${e.instancePath.replace(/\//g, '.')}`;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${at}: missing required property "${String(p.missingProperty)}"`;
    case 'additionalProperties':
      return `${at}: unknown property "${String(p.additionalProperty)}" is not allowed`;
    case 'type':
      return `${at}: must be ${String(p.type)}`;
    case 'enum':
      return `${at}: must be one of ${JSON.stringify(p.allowedValues)}`;
    default:
      return `${at}: ${e.message ?? e.keyword}`;
  }
}
