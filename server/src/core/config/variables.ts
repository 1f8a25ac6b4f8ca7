/**
 * `${...}` substitution in config values, with VS Code's names: `${workspaceFolder}`,
 * `${workspaceFolderBasename}`, `${userHome}`, `${env:NAME}`, `${pathSeparator}` (and its
 * short form `${/}`), `${input:id}` from values the caller supplies.
 */
import * as path from 'node:path';

export interface VariableScope {
  workspaceFolder: string;
  userHome: string;
  env: Record<string, string | undefined>;
  inputs: Record<string, string>;
}

export interface Substitution {
  value: string;
  /** `${input:id}` ids with no supplied value (the reference is left in `value`). */
  missingInputs: string[];
  /** `${env:NAME}` names that are unset (replaced by an empty string, as VS Code does). */
  unsetEnv: string[];
  /** Variables we do not know (`${config:x}`, `${command:y}`), left as written. */
  unknown: string[];
  /** True when an `${input:}` or `${env:}` value went in: the result may hold a secret. */
  secret: boolean;
}

const VARIABLE = /\$\{([^}]*)\}/g;

export function substitute(template: string, scope: VariableScope): Substitution {
  const result: Substitution = { value: '', missingInputs: [], unsetEnv: [], unknown: [], secret: false };
  result.value = template.replace(VARIABLE, (whole, name: string) => {
    const resolved = resolveVariable(name, scope, result);
    return resolved ?? whole;
  });
  return result;
}

function resolveVariable(name: string, scope: VariableScope, out: Substitution): string | undefined {
  switch (name) {
    case 'workspaceFolder':
      return scope.workspaceFolder;
    case 'workspaceFolderBasename':
      return path.basename(scope.workspaceFolder);
    case 'userHome':
      return scope.userHome;
    case 'pathSeparator':
    case '/':
      return path.sep;
  }
  if (name.startsWith('env:')) {
    const key = name.slice(4);
    out.secret = true;
    const value = scope.env[key];
    if (value === undefined) out.unsetEnv.push(key);
    return value ?? '';
  }
  if (name.startsWith('input:')) {
    const id = name.slice(6);
    out.secret = true;
    if (Object.prototype.hasOwnProperty.call(scope.inputs, id)) return scope.inputs[id];
    out.missingInputs.push(id);
    return undefined;
  }
  out.unknown.push(name);
  return undefined;
}
