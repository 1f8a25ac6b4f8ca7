/**
 * Servers: state, tool count, last error, stderr tail and a Restart button for each upstream. A
 * server awaiting approval shows everything that decides what it runs (ServerStatus.approval)
 * and an Approve button that approves exactly that definition.
 */
import { plural, pluralNoun } from '../../../protocol/figureText';
import type { ServerStatus } from '../../../protocol/model';
import { signInLine } from '../../../protocol/signInText';
import { card, formatTokens, h, replaceChildren } from '../dom';
import type { DashboardMessenger } from '../messenger/messenger';

const STATE_TEXT: Record<ServerStatus['state'], string> = {
  starting: 'starting',
  ready: 'ready',
  error: 'error',
  stopped: 'stopped',
  idle: 'idle (starts on first call)',
  disabled: 'disabled',
  'awaiting-approval': 'awaiting approval',
  'needs-sign-in': 'needs sign-in',
};

export class ServersView {
  readonly element = card('servers', 'Servers');
  private readonly list = h('ul', { class: 'servers' });
  /** Restarts in flight, so a state push does not re-enable their buttons. */
  private readonly restarting = new Set<string>();
  /** Why an approval was refused (the definition changed since it was shown...), per server, until the next try. */
  private readonly approveErrors = new Map<string, string>();
  private last: ServerStatus[] = [];

  constructor(private readonly messenger: DashboardMessenger) {
    this.element.append(this.list);
    replaceChildren(this.list, h('li', { class: 'empty' }, 'Loading…'));
  }

  update(servers: ServerStatus[]): void {
    this.last = servers;
    if (servers.length === 0) {
      replaceChildren(this.list, h('li', { class: 'empty' }, 'No MCP servers configured.'));
      return;
    }
    replaceChildren(this.list, ...servers.map((s) => this.row(s)));
  }

  private row(s: ServerStatus): HTMLElement {
    const busy = this.restarting.has(s.name);
    const restart =
      s.state === 'awaiting-approval' && s.approval
        ? this.approveButton(s.name, s.approval.fingerprint)
        : s.state === 'needs-sign-in'
          ? this.signInButton(s.name)
          : h('button', { class: 'secondary', attrs: { 'data-server': s.name } }, busy ? 'Restarting…' : 'Restart');
    if (!(s.state === 'awaiting-approval' && s.approval) && s.state !== 'needs-sign-in') {
      restart.disabled = busy || s.configFile === true || s.state === 'disabled';
      restart.addEventListener('click', () => void this.restart(s.name));
    }
    const counts = [plural(s.toolCount, 'tool')];
    if (s.tokens !== undefined) counts.push(`${formatTokens(s.tokens)} ${pluralNoun(s.tokens, 'token')}`);
    if (s.restarts > 0) counts.push(plural(s.restarts, 'restart'));
    return h(
      'li',
      { class: 'server', attrs: { 'data-server': s.name, 'data-state': s.state } },
      h(
        'div',
        { class: 'server-head' },
        h(
          'div',
          { class: 'server-title' },
          h('span', { class: 'server-name' }, s.name),
          h(
            'span',
            { class: `state state-${s.state}` },
            h('span', { class: 'dot', attrs: { 'aria-hidden': 'true' } }),
            STATE_TEXT[s.state],
          ),
          h('span', { class: 'tag' }, s.transport),
          s.alsoStartedByEditor &&
            h(
              'span',
              { class: 'tag', attrs: { title: 'VS Code also starts this server from .vscode/mcp.json' } },
              'also started by VS Code',
            ),
        ),
        restart,
      ),
      h('div', { class: 'muted' }, counts.join(' · ')),
      // Awaiting approval and needs sign-in are states with their action (Approve…, Sign in), not
      // errors: a waiting server's definition is shown below instead of the reason's long sentence.
      s.state === 'needs-sign-in'
        ? h('div', { class: 'muted server-note' }, signInLine(s.error))
        : s.error && !s.approval && h('div', { class: 'server-error' }, s.error),
      s.note && h('div', { class: 'muted server-note' }, s.note),
      s.approval && this.approvalDetails(s.name, s.approval.details),
      s.stderrTail.length > 0 &&
        h(
          'details',
          {},
          h(
            'summary',
            {},
            s.stderrTail.length === 1 ? 'stderr (last line)' : `stderr (last ${plural(s.stderrTail.length, 'line')})`,
          ),
          h('pre', {}, s.stderrTail.join('\n')),
        ),
    );
  }

  /** Every field of the definition awaiting approval (escaped by the host), and why the last Approve was refused. */
  private approvalDetails(name: string, details: string[]): HTMLElement {
    const refused = this.approveErrors.get(name);
    return h(
      'div',
      { class: 'approval', attrs: { 'data-server': name } },
      h('div', { class: 'muted' }, 'Not started until you approve it. Approve starts exactly this:'),
      h('pre', { class: 'approval-details' }, details.join('\n')),
      refused && h('div', { class: 'server-error approve-error', attrs: { role: 'alert' } }, refused),
    );
  }

  /** A server refused or not yet approved can be approved here at any time: the definition shown, nothing else. */
  private approveButton(name: string, fingerprint: string): HTMLButtonElement {
    const button = h(
      'button',
      { attrs: { 'data-server': name, 'data-action': 'approve' } },
      'Approve…',
    ) as HTMLButtonElement;
    button.addEventListener('click', () => {
      button.disabled = true;
      void this.messenger
        .request('approveServer', { name, fingerprint })
        .then((r) => (r.ok ? this.approveErrors.delete(name) : this.approveErrors.set(name, r.error ?? 'not approved')))
        .catch((err: unknown) =>
          this.approveErrors.set(name, `approving failed: ${err instanceof Error ? err.message : String(err)}`),
        )
        .finally(() => {
          button.disabled = false;
          this.update(this.last);
        });
    });
    return button;
  }

  /** A remote server that needs an account: the sign-in page opens in the browser; the row turns ready once signed in. */
  private signInButton(name: string): HTMLButtonElement {
    const button = h(
      'button',
      { attrs: { 'data-server': name, 'data-action': 'sign-in' } },
      'Sign in',
    ) as HTMLButtonElement;
    button.addEventListener('click', () => {
      button.disabled = true;
      button.textContent = 'Signing in… (finish in your browser)';
      void this.messenger
        .request('signInServer', { name })
        .then((r) => !r.ok && console.warn(`signing in to ${name}: ${r.error ?? ''}`))
        .catch((err: unknown) => console.warn(`signing in to ${name} failed`, err))
        .finally(() => {
          button.disabled = false;
          button.textContent = 'Sign in';
        });
    });
    return button;
  }

  private async restart(name: string): Promise<void> {
    this.restarting.add(name);
    this.update(this.last);
    try {
      const result = await this.messenger.request('restartServer', { name });
      if (!result.ok) console.warn(`restart of ${name} failed: ${result.error ?? ''}`);
    } catch (err) {
      console.warn(`restart of ${name} failed`, err);
    } finally {
      this.restarting.delete(name);
    }
    this.update(await this.messenger.request('listServers', {}));
  }
}
