/**
 * Remembered consent: the tools the user allowed "always" when MCP Lens asked before an agent
 * ran them (mcpLens.consent), each with a Revoke button; a revoked tool is asked about again on
 * its next call. Nothing here grants consent. Tool and server names are untrusted text: they go
 * in as text nodes (dom.ts).
 */
import { plural } from '../../../protocol/figureText';
import type { ConsentView as ConsentModel, RememberedConsentView } from '../../../protocol/model';
import { card, h, replaceChildren } from '../dom';
import type { DashboardMessenger } from '../messenger/messenger';

const LEVEL_TEXT: Record<ConsentModel['level'], string> = {
  off: 'MCP Lens does not ask before tools run (setting mcpLens.consent: off).',
  destructive:
    'MCP Lens asks you before an agent runs a tool marked destructive through call_tool or run_code (setting mcpLens.consent: destructive).',
  notReadOnly:
    'MCP Lens asks you before an agent runs any tool not marked read-only through call_tool or run_code (setting mcpLens.consent: notReadOnly).',
};

export class ConsentView {
  readonly element = card('consent', 'Remembered consent', true);
  private readonly body = h('div');
  private readonly error = h('div', { class: 'error-text' });

  constructor(
    private readonly messenger: DashboardMessenger,
    private readonly refresh: () => void,
  ) {
    this.element.append(this.body, this.error);
    replaceChildren(this.body, h('div', { class: 'empty' }, 'Loading…'));
  }

  update(view: ConsentModel): void {
    const level = h('div', { class: 'muted' }, LEVEL_TEXT[view.level]);
    if (view.tools.length === 0) {
      replaceChildren(
        this.body,
        level,
        h(
          'div',
          { class: 'empty' },
          'No tool is allowed always. When MCP Lens asks and you choose "Always allow", the tool is listed here until you revoke it or its definition changes.',
        ),
      );
      return;
    }
    replaceChildren(
      this.body,
      level,
      h(
        'div',
        { class: 'muted' },
        `${plural(view.tools.length, 'tool')} allowed always (at most ${view.max}; the oldest go first)`,
      ),
      h(
        'table',
        { class: 'consent' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Tool'), h('th', {}, 'Allowed'), h('th', {}, 'Now'), h('th', {}, ''))),
        h('tbody', {}, ...view.tools.map((t) => this.row(t))),
      ),
    );
  }

  private row(t: RememberedConsentView): HTMLTableRowElement {
    const revoke = h('button', { class: 'secondary', attrs: { 'data-action': 'revoke-consent' } }, 'Revoke');
    revoke.addEventListener('click', () => {
      revoke.disabled = true;
      replaceChildren(this.error);
      void this.messenger
        .request('revokeConsent', { principal: t.principal, key: t.key })
        .then((r) => {
          if (!r.ok) replaceChildren(this.error, r.error ?? 'Revoking failed.');
        })
        .catch((err: unknown) => replaceChildren(this.error, err instanceof Error ? err.message : String(err)))
        .finally(() => this.refresh());
    });
    return h(
      'tr',
      { attrs: { 'data-key': t.key } },
      h('td', {}, h('code', {}, t.tool), h('div', { class: 'muted' }, `${t.server} · for ${t.principalLabel}`)),
      h('td', {}, new Date(t.allowedAt).toLocaleString()),
      h(
        'td',
        {},
        t.current ? 'runs without asking' : 'asks again: its definition changed or it is not in the catalog now',
      ),
      h('td', {}, revoke),
    );
  }
}
