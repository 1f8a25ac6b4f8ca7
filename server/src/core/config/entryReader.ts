/**
 * Reads the fields of one server entry: type checks, `${...}` substitution and problems,
 * each problem naming the file, the JSON path and what is wrong. Knows nothing of which
 * transport the entry is; `entry.ts` decides that.
 *
 * Every field comes back twice: `value`, what runs, and `shown`, what a person may see. A value
 * that took in an `${env:…}` or `${input:…}` may hold a secret, so its `shown` form is the text
 * as written (`${env:GITHUB_TOKEN}/.env`): messages, prompts and summaries name the variable,
 * never its value.
 */
import { formatJsonPath, type JsonPath, type Locator } from './jsonPath';
import { substitute, type VariableScope } from './variables';
import type { ConfigProblem } from './types';

/** One substituted field: what runs, whether a variable may have put a secret in it, and what may be shown. */
export interface Field {
  value: string;
  secret: boolean;
  /** The value, or the text as written when it took in `${env:…}`/`${input:…}`. */
  shown: string;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

export class EntryReader {
  readonly problems: ConfigProblem[] = [];
  readonly missingInputs: string[] = [];

  constructor(
    readonly name: string,
    readonly raw: Record<string, unknown>,
    private readonly file: string,
    /** Path of the entry itself, e.g. `['servers', 'github']`. */
    private readonly base: JsonPath,
    private readonly locate: Locator,
    private readonly scope: VariableScope,
  ) {}

  get hasErrors(): boolean {
    return this.problems.some((p) => p.severity === 'error');
  }

  report(severity: ConfigProblem['severity'], rel: JsonPath, message: string): void {
    const full = [...this.base, ...rel];
    const range = this.locate(full);
    this.problems.push({ severity, file: this.file, path: formatJsonPath(full), message, server: this.name, ...range });
  }

  /** Substitutes variables; a missing `${input:}` is an error, an unset `${env:}` a warning. */
  subst(rel: JsonPath, template: string): Field {
    const s = substitute(template, this.scope);
    for (const id of s.missingInputs) {
      this.report('error', rel, `no value for \${input:${id}}`);
      if (!this.missingInputs.includes(id)) this.missingInputs.push(id);
    }
    for (const key of s.unsetEnv) this.report('warning', rel, `\${env:${key}} is not set; using ""`);
    for (const name of s.unknown) this.report('warning', rel, `unsupported variable \${${name}} left as written`);
    return { value: s.value, secret: s.secret, shown: s.secret ? template : s.value };
  }

  /** An optional string field, substituted; wrong type is an error. */
  optionalString(key: string): Field | undefined {
    const v = this.raw[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') {
      this.report('error', [key], `"${key}" must be a string, got ${kindOf(v)}`);
      return undefined;
    }
    return this.subst([key], v);
  }

  /** A required string field: missing gets `missingMessage`, empty or wrong type an error. */
  requiredString(key: string, missingMessage: string): Field | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) {
      this.report('error', [key], missingMessage);
      return undefined;
    }
    if (typeof v !== 'string' || v.trim() === '') {
      this.report('error', [key], `"${key}" must be a non-empty string`);
      return undefined;
    }
    return this.subst([key], v);
  }

  /** `args`: an array of strings; returns the values, their shown forms and which took in a secret. */
  stringArray(key: string): { values: string[]; shown: string[]; secret: number[] } {
    const v = this.raw[key];
    const out = { values: [] as string[], shown: [] as string[], secret: [] as number[] };
    if (v === undefined || v === null) return out;
    if (!Array.isArray(v)) {
      this.report('error', [key], `"${key}" must be an array of strings, got ${kindOf(v)}`);
      return out;
    }
    v.forEach((item, i) => {
      if (typeof item !== 'string') {
        this.report('error', [key, i], `expected a string, got ${kindOf(item)}`);
        return;
      }
      const s = this.subst([key, i], item);
      if (s.secret) out.secret.push(i);
      out.values.push(s.value);
      out.shown.push(s.shown);
    });
    return out;
  }

  /**
   * `env`/`headers`: an object whose values are strings (substituted), numbers or booleans
   * (stringified, as VS Code's schema allows), or null (the name is removed). `shown` is each
   * value as a person may see it (the template where it took a secret).
   */
  stringMap(key: string): { values: Record<string, string>; shown: Record<string, string>; removed: string[] } {
    const v = this.raw[key];
    const out = { values: {} as Record<string, string>, shown: {} as Record<string, string>, removed: [] as string[] };
    if (v === undefined || v === null) return out;
    if (!isRecord(v)) {
      this.report('error', [key], `"${key}" must be an object of strings, got ${kindOf(v)}`);
      return out;
    }
    for (const [name, value] of Object.entries(v)) {
      if (value === null) out.removed.push(name);
      else if (typeof value === 'string') {
        const s = this.subst([key, name], value);
        out.values[name] = s.value;
        out.shown[name] = s.shown;
      } else if (typeof value === 'number' || typeof value === 'boolean')
        out.values[name] = out.shown[name] = String(value);
      else this.report('error', [key, name], `expected a string, number, boolean or null, got ${kindOf(value)}`);
    }
    return out;
  }
}
