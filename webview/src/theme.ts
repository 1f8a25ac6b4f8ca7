/**
 * Theme and styles. The stylesheet ships inside the bundle and is adopted as a constructable
 * stylesheet, which CSP allows without 'unsafe-inline' or a nonce. In VS Code the workbench
 * theme wins (body.vscode-light/-dark/-high-contrast and --vscode-* variables); in a browser
 * the page follows prefers-color-scheme unless the user picked a theme with the toggle.
 */
import css from './styles/dashboard.css';
import { h } from './dom';

export type ThemeChoice = 'auto' | 'light' | 'dark';

export function adoptStyles(doc: Document): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
}

/** Keeps html[data-theme] in step with VS Code's body class as the user switches themes. */
export function followVsCodeTheme(doc: Document): void {
  const apply = () => {
    const c = doc.body.classList;
    const dark =
      c.contains('vscode-dark') || (c.contains('vscode-high-contrast') && !c.contains('vscode-high-contrast-light'));
    doc.documentElement.dataset.theme = dark ? 'dark' : 'light';
  };
  apply();
  new MutationObserver(apply).observe(doc.body, { attributes: true, attributeFilter: ['class'] });
}

/** Browser only: applies a choice now and whenever the system scheme changes. */
export function browserTheme(doc: Document, initial: ThemeChoice, save: (choice: ThemeChoice) => void): HTMLElement {
  const media = doc.defaultView?.matchMedia('(prefers-color-scheme: dark)');
  let choice = initial;
  const apply = () => {
    const dark = choice === 'dark' || (choice === 'auto' && media?.matches === true);
    doc.documentElement.dataset.theme = dark ? 'dark' : 'light';
  };
  media?.addEventListener('change', apply);
  apply();
  const order: ThemeChoice[] = ['auto', 'light', 'dark'];
  const label = () => `Theme: ${choice}`;
  const button = h(
    'button',
    { class: 'secondary', attrs: { id: 'theme-toggle', title: 'Switch between system, light and dark theme' } },
    label(),
  );
  button.addEventListener('click', () => {
    choice = order[(order.indexOf(choice) + 1) % order.length]!;
    button.textContent = label();
    save(choice);
    apply();
  });
  return button;
}
