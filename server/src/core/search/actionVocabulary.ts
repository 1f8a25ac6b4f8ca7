/**
 * The action vocabulary: the language of software commands, from three public sources, not
 * from any catalog or benchmark:
 * - PowerShell's approved verbs (learn.microsoft.com, "Approved Verbs for PowerShell Commands",
 *   MicrosoftDocs/PowerShell-Docs): each verb's action and the synonyms it lists as "do not
 *   use" (New ← Create/Generate/Build/Make; Remove ← Clear/Cut/Dispose/Discard/Erase; Stop ←
 *   End/Kill/Terminate/Cancel; Suspend ← Pause; Restore ← Repair/Return/Undo; …);
 * - HTTP's method semantics (RFC 9110: GET reads, POST creates or submits, PUT/PATCH change,
 *   DELETE removes) and CRUD;
 * - the phrasal verbs developers type for the same actions (spin up, tear down, kick off, roll
 *   back, check off, look up, sign in).
 * Words are stemmed by the caller's stemmer; phrases are matched as adjacent word pairs (actions.ts).
 */

export type ActionClass =
  | 'list'
  | 'get'
  | 'search'
  | 'create'
  | 'update'
  | 'delete'
  | 'run'
  | 'start'
  | 'stop'
  | 'restore'
  | 'complete'
  | 'send'
  | 'deploy'
  | 'navigate'
  | 'click'
  | 'fill'
  | 'upload'
  | 'download'
  | 'approve';

export interface ActionWords {
  /** Single words that name the action (unstemmed). */
  words: readonly string[];
  /** Two-word phrases ("spin up"), matched on adjacent words. */
  phrases?: readonly string[];
}

export const ACTION_VOCABULARY: Readonly<Record<ActionClass, ActionWords>> = {
  list: { words: ['list', 'enumerate', 'browse', 'lists', 'listing'] },
  get: {
    words: [
      'get',
      'fetch',
      'retrieve',
      'read',
      'obtain',
      'show',
      'view',
      'display',
      'describe',
      'inspect',
      'examine',
      'info',
      'details',
      'detail',
      'dump',
      'print',
      'cat',
      'see',
      'check',
      'peek',
      'load',
    ],
    phrases: ['look at', 'pull up'],
  },
  search: {
    words: ['search', 'find', 'query', 'lookup', 'locate', 'filter', 'grep', 'discover', 'seek'],
    phrases: ['look up', 'look for'],
  },
  create: {
    words: [
      'create',
      'new',
      'add',
      'make',
      'generate',
      'insert',
      'register',
      'provision',
      'allocate',
      'init',
      'initialize',
      'build',
      'open',
      'draft',
      'compose',
      'write',
      'remember',
      'memorize',
      'record',
      'store',
    ],
    phrases: ['set up', 'spin up', 'put in', 'note down', 'jot down'],
  },
  update: {
    words: [
      'update',
      'edit',
      'modify',
      'change',
      'set',
      'patch',
      'put',
      'rename',
      'configure',
      'adjust',
      'alter',
      'replace',
      'assign',
      'move',
      'transfer',
      'bump',
      'tweak',
      'reorder',
      'mark',
      'toggle',
    ],
    phrases: ['hand over', 'hand off'],
  },
  delete: {
    words: [
      'delete',
      'remove',
      'erase',
      'destroy',
      'drop',
      'discard',
      'purge',
      'clear',
      'wipe',
      'trash',
      'uninstall',
      'unregister',
      'unlink',
      'detach',
      'dispose',
      'prune',
      'archive',
      'forget',
    ],
    phrases: ['tear down', 'get rid', 'throw away', 'clean up'],
  },
  run: {
    words: ['run', 'execute', 'exec', 'invoke', 'call', 'trigger', 'evaluate', 'eval', 'perform', 'apply'],
    phrases: ['kick off'],
  },
  start: {
    words: ['start', 'begin', 'launch', 'boot', 'resume', 'enable', 'unpause', 'activate'],
    phrases: ['turn on', 'switch on', 'fire up'],
  },
  stop: {
    words: [
      'stop',
      'kill',
      'terminate',
      'halt',
      'end',
      'cancel',
      'abort',
      'disable',
      'pause',
      'suspend',
      'sleep',
      'shutdown',
      'deactivate',
    ],
    phrases: ['shut down', 'turn off', 'switch off'],
  },
  restore: {
    words: ['restore', 'undo', 'revert', 'rollback', 'reopen', 'recover', 'unarchive', 'rewind', 'reset', 'repair'],
    phrases: ['roll back', 'bring back', 'go back'],
  },
  complete: {
    words: ['complete', 'finish', 'done', 'resolve', 'close', 'conclude'],
    phrases: ['check off', 'tick off', 'mark done'],
  },
  send: {
    words: [
      'send',
      'post',
      'publish',
      'notify',
      'message',
      'reply',
      'broadcast',
      'share',
      'announce',
      'comment',
      'email',
      'mail',
      'dm',
      'ping',
    ],
  },
  deploy: { words: ['deploy', 'release', 'ship', 'promote', 'rollout'], phrases: ['roll out', 'push out'] },
  navigate: { words: ['navigate', 'go', 'visit', 'goto', 'browse', 'redirect'] },
  click: { words: ['click', 'press', 'tap', 'hover', 'drag', 'scroll', 'select', 'choose'] },
  fill: { words: ['fill', 'type', 'enter', 'input'] },
  upload: { words: ['upload', 'attach', 'import', 'push', 'commit'] },
  download: { words: ['download', 'export', 'save', 'backup'] },
  approve: { words: ['approve', 'accept', 'confirm', 'review', 'lgtm'], phrases: ['sign off'] },
};
