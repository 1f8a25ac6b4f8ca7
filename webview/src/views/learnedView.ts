/**
 * Learned search: per tool, the words of the agent's past find_tools requests that led to it
 * (mcpLens.search.learnFromUsage), as typed, with their weight and how many requests; which of
 * them count for every session (taught by two sessions, or shared here) and which only for the
 * session that taught them; a way to share a tool's words with every session, and to forget it
 * all. Words and tool names are untrusted text: they go in as text nodes (dom.ts).
 */
import { plural } from '../../../protocol/figureText';
import type { LearnedSearchView, LearnedToolSummary } from '../../../protocol/model';
import { card, formatTime, h, replaceChildren } from '../dom';
import type { DashboardMessenger } from '../messenger/messenger';

export class LearnedView {
  readonly element = card('learned', 'Learned search', true);
  private readonly body = h('div');
  private readonly actions = h('div', { class: 'row learned-actions' });
  private confirming = false;

  constructor(
    private readonly messenger: DashboardMessenger,
    private readonly refresh: () => void,
  ) {
    this.element.append(this.body, this.actions);
    replaceChildren(this.body, h('div', { class: 'empty' }, 'Loading…'));
  }

  update(view: LearnedSearchView | null | undefined): void {
    this.renderActions(view);
    if (!view) {
      replaceChildren(this.body, h('div', { class: 'empty' }, 'Search learning is not kept here.'));
      return;
    }
    if (!view.enabled) {
      replaceChildren(
        this.body,
        h('div', { class: 'empty' }, 'Search learning is off (setting mcpLens.search.learnFromUsage).'),
      );
      return;
    }
    const summary = h(
      'div',
      { class: 'muted' },
      `${plural(view.requests, 'past request')} kept (at most ${view.maxRequests.toLocaleString('en-US')}, the oldest go first) · ${plural(view.tools.length, 'tool')}`,
    );
    if (view.tools.length === 0) {
      replaceChildren(
        this.body,
        summary,
        h(
          'div',
          { class: 'empty' },
          'Nothing learned yet: when an agent calls a tool after find_tools, the words of its request count for that tool.',
        ),
      );
      return;
    }
    replaceChildren(
      this.body,
      summary,
      h(
        'table',
        { class: 'learned' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'Tool'),
            h('th', {}, 'Learned words (weight)'),
            h('th', { class: 'num' }, 'Requests'),
            h('th', { class: 'num', attrs: { title: 'Sessions that taught it' } }, 'Sessions'),
            h('th', { class: 'num' }, 'Weight'),
            h('th', { class: 'num' }, 'Last'),
          ),
        ),
        h('tbody', {}, ...view.tools.map((t) => this.row(t))),
      ),
      h(
        'div',
        { class: 'muted' },
        'Words in italics count only for the session that taught them, until another session teaches them too or you share them.',
      ),
    );
  }

  private row(t: LearnedToolSummary): HTMLTableRowElement {
    const words = t.words.map((w) =>
      h(
        'span',
        {
          class: w.everyone ? 'learned-word' : 'learned-word own',
          attrs: {
            title: `${plural(w.requests, 'request')}, weight ${w.weight}; ${w.everyone ? 'counts for every session' : 'counts only for the session that taught it'}`,
          },
        },
        w.word,
        h('span', { class: 'muted' }, ` ${w.weight}`),
      ),
    );
    const cell = h('td', {}, h('div', { class: 'learned-words' }, ...words));
    if (t.words.some((w) => !w.everyone)) cell.append(this.shareButton(t));
    return h(
      'tr',
      { attrs: { 'data-tool': t.name } },
      h('td', {}, h('code', {}, t.name), h('div', { class: 'muted' }, t.server)),
      cell,
      h('td', { class: 'num' }, t.against > 0 ? `${t.requests} (−${t.against})` : t.requests),
      h('td', { class: 'num' }, t.sessions),
      h('td', { class: 'num' }, t.weight),
      h('td', { class: 'num' }, formatTime(t.lastAt)),
    );
  }

  /** Shares a tool's learned words with every session (the user vouches for them). */
  private shareButton(t: LearnedToolSummary): HTMLElement {
    const share = h(
      'button',
      {
        class: 'secondary',
        attrs: { 'data-action': 'share-learned', title: 'Let these words count for every session' },
      },
      'Share with every session',
    );
    const error = h('span', { class: 'error-text' });
    share.addEventListener('click', () => {
      share.disabled = true;
      void this.messenger
        .request('shareLearnedSearch', { tool: t.name })
        .then((r) => {
          if (!r.ok) replaceChildren(error, r.error ?? 'Sharing failed.');
        })
        .catch((err: unknown) => replaceChildren(error, err instanceof Error ? err.message : String(err)))
        .finally(() => this.refresh());
    });
    return h('div', { class: 'row learned-share' }, share, error);
  }

  /** Forget, with an inline confirmation (webviews have no modal dialogs). */
  private renderActions(view: LearnedSearchView | null | undefined): void {
    if (!view || view.requests === 0) {
      this.confirming = false;
      replaceChildren(this.actions);
      return;
    }
    if (!this.confirming) {
      const forget = h(
        'button',
        { class: 'secondary', attrs: { 'data-action': 'forget-learned' } },
        'Forget learned search…',
      );
      forget.addEventListener('click', () => {
        this.confirming = true;
        this.renderActions(view);
      });
      replaceChildren(this.actions, forget);
      return;
    }
    const yes = h('button', { attrs: { 'data-action': 'forget-learned-confirm' } }, 'Forget');
    const no = h('button', { class: 'secondary' }, 'Cancel');
    const error = h('span', { class: 'error-text' });
    yes.addEventListener('click', () => {
      yes.disabled = true;
      void this.messenger
        .request('forgetLearnedSearch', {})
        .then((r) => {
          if (!r.ok) replaceChildren(error, r.error ?? 'Forgetting failed.');
          else this.confirming = false;
        })
        .catch((err: unknown) => replaceChildren(error, err instanceof Error ? err.message : String(err)))
        .finally(() => this.refresh());
    });
    no.addEventListener('click', () => {
      this.confirming = false;
      this.renderActions(view);
    });
    replaceChildren(
      this.actions,
      h('span', {}, `Forget all ${plural(view.requests, 'learned request')}?`),
      yes,
      no,
      error,
    );
  }
}
