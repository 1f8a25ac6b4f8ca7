/** Savings: baseline vs exposed tokens, savings over the session, per-server token cost. */
import { plural, pluralNoun, tokenChange, tokenCostReason } from '../../../protocol/figureText';
import type { LensStats } from '../../../protocol/model';
import { baselineBars, rankedBars, savingsChart, seriesFromHistory } from '../charts/charts';
import { card, formatTokens, h, replaceChildren } from '../dom';
import { codeModeSavings, savedLabel } from './codeModeSavings';

export class SavingsView {
  readonly element = card('savings', 'Token savings', true);
  private readonly body = h('div');

  constructor() {
    this.element.append(this.body);
    replaceChildren(this.body, h('div', { class: 'empty' }, 'Loading…'));
  }

  update(stats: LensStats): void {
    const t = stats.tokens;
    const change = tokenChange(t);
    const cost = change.kind === 'cost';
    // A cost is worded and coloured as one ("+21.1% more"), never as a negative saving.
    const kpis = h(
      'div',
      { class: 'kpis' },
      cost
        ? kpi(
            `+${change.percent}`,
            'more tokens in every request',
            'cost',
            `Cost: ${change.percent} more tokens in every request than without MCP Lens`,
          )
        : kpi(
            change.percent,
            `${change.comparative} tokens in every request`,
            change.kind === 'saving' ? 'good' : undefined,
          ),
      cost
        ? kpi(formatTokens(change.tokens), `tokens added to every request (${stats.exposure} mode)`, 'cost')
        : kpi(formatTokens(change.tokens), `tokens saved per request (${stats.exposure} mode)`),
      kpi(formatTokens(t.savedTokensTotal), savedLabel(t)),
      kpi(`${stats.tools}`, `${pluralNoun(stats.tools, 'tool')} from ${plural(stats.servers, 'server')}`),
    );
    const series = seriesFromHistory(t.history);
    const overTime = series.length
      ? h(
          'div',
          {},
          savingsChart(series),
          h(
            'div',
            { class: 'legend' },
            h('span', {}, h('span', { class: 'swatch green' }), 'cumulative tokens saved'),
            h('span', {}, h('span', { class: 'swatch blue' }), 'saved per find_tools call'),
          ),
        )
      : h('div', { class: 'empty' }, 'No find_tools calls yet in this session.');
    const perServer = t.perServer.length
      ? rankedBars(t.perServer.map((s) => ({ label: s.server, value: s.tokens, detail: plural(s.tools, 'tool') })))
      : h('div', { class: 'empty' }, 'No servers with tools.');
    replaceChildren(
      this.body,
      kpis,
      cost && h('p', { class: 'cost-note' }, tokenCostReason(stats.exposure)),
      h(
        'div',
        { class: 'savings-grid' },
        h(
          'div',
          {},
          h('h3', {}, 'Tool definitions per request'),
          baselineBars(t),
          h('h3', {}, 'Token cost per server'),
          perServer,
        ),
        h('div', {}, h('h3', {}, 'Saved this session'), overTime),
      ),
      codeModeSavings(t),
    );
  }
}

/** A figure and its label; `ariaLabel` where the two read badly together ("+21.1%" "more tokens…"). */
function kpi(value: string, label: string, tone?: 'good' | 'cost', ariaLabel?: string): HTMLElement {
  const attrs: Record<string, string> = ariaLabel ? { role: 'group', 'aria-label': ariaLabel } : {};
  if (tone) attrs['data-tone'] = tone;
  return h(
    'div',
    { class: 'kpi', attrs },
    h('div', { class: tone ? `value ${tone}` : 'value' }, value),
    h('div', { class: 'label' }, label),
  );
}
