/** Usage: most used tools and tools used together, or why there is nothing to show. */
import type { UsageStats } from '../../../protocol/model';
import { usageCallsText } from '../../../protocol/figureText';
import { card, h, replaceChildren } from '../dom';

export class UsageView {
  readonly element = card('usage', 'Usage');
  private readonly body = h('div');

  constructor() {
    this.element.append(this.body);
    replaceChildren(this.body, h('div', { class: 'empty' }, 'Loading…'));
  }

  update(usage: UsageStats | null | undefined): void {
    if (!usage) {
      replaceChildren(this.body, h('div', { class: 'empty' }, 'Usage learning not available.'));
      return;
    }
    if (!usage.enabled) {
      replaceChildren(this.body, h('div', { class: 'empty' }, 'Usage learning off (setting mcpLens.usage.enabled).'));
      return;
    }
    replaceChildren(
      this.body,
      h('div', { class: 'muted', attrs: { 'data-figure': 'calls' } }, usageCallsText(usage)),
      usage.predictedHitRate !== undefined &&
        h(
          'div',
          { class: 'muted', attrs: { 'data-figure': 'predicted' } },
          `${Math.round(usage.predictedHitRate * 100)}% of calls went to a tool usage had predicted before the call (what "predictive" exposure would have listed).`,
        ),
      h('h3', {}, 'Most used tools'),
      usage.topTools.length
        ? table(
            ['Tool', 'Server', 'Calls'],
            usage.topTools.map((t) => [t.name, t.server, t.calls]),
          )
        : h('div', { class: 'empty' }, 'No calls yet.'),
      h('h3', {}, 'Used together'),
      usage.pairs.length
        ? table(
            ['Tool', 'Then', 'Times'],
            usage.pairs.map((p) => [p.a, p.b, p.count]),
          )
        : h('div', { class: 'empty' }, 'No pairs yet.'),
    );
  }
}

function table(head: string[], rows: (string | number)[][]): HTMLTableElement {
  const cell = (v: string | number) =>
    typeof v === 'number' ? h('td', { class: 'num' }, v) : h('td', {}, h('code', {}, v));
  return h(
    'table',
    {},
    h('thead', {}, h('tr', {}, ...head.map((c, i) => h('th', { class: i === head.length - 1 ? 'num' : '' }, c)))),
    h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map(cell)))),
  );
}
