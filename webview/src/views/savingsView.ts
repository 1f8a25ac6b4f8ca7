/** Savings: baseline vs exposed tokens, savings over the session, per-server token cost. */
import type { LensStats } from '../../../protocol/model';
import { baselineBars, rankedBars, savingsChart, seriesFromHistory } from '../charts/charts';
import { card, formatTokens, h, replaceChildren } from '../dom';

export class SavingsView {
  readonly element = card('savings', 'Token savings', true);
  private readonly body = h('div');

  constructor() {
    this.element.append(this.body);
    replaceChildren(this.body, h('div', { class: 'empty' }, 'Loading…'));
  }

  update(stats: LensStats): void {
    const t = stats.tokens;
    const kpis = h(
      'div',
      { class: 'kpis' },
      kpi(`${t.savingsPercent.toFixed(1)}%`, 'fewer tokens in every request', true),
      kpi(formatTokens(t.baselineTokens - t.exposedTokens), `tokens saved per request (${stats.exposure} mode)`),
      kpi(formatTokens(t.savedTokensTotal), `saved by ${t.findToolsCalls} find_tools call${t.findToolsCalls === 1 ? '' : 's'}`),
      kpi(`${stats.tools}`, `tools from ${stats.servers} server${stats.servers === 1 ? '' : 's'}`),
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
      ? rankedBars(t.perServer.map((s) => ({ label: s.server, value: s.tokens, detail: `${s.tools} tool${s.tools === 1 ? '' : 's'}` })))
      : h('div', { class: 'empty' }, 'No servers with tools.');
    replaceChildren(
      this.body,
      kpis,
      h(
        'div',
        { class: 'savings-grid' },
        h('div', {}, h('h3', {}, 'Tool definitions per request'), baselineBars(t.baselineTokens, t.exposedTokens), h('h3', {}, 'Token cost per server'), perServer),
        h('div', {}, h('h3', {}, 'Saved this session'), overTime),
      ),
    );
  }
}

function kpi(value: string, label: string, good = false): HTMLElement {
  return h('div', { class: 'kpi' }, h('div', { class: good ? 'value good' : 'value' }, value), h('div', { class: 'label' }, label));
}
