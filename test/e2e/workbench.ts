/** Driving the VS Code workbench in the browser the way a user does: palette, quick picks. */
import type { Page } from 'playwright-core';

const INPUT = '.quick-input-widget input';
const ROWS = '.quick-input-widget .quick-input-list .monaco-list-row';

/** Opens the command palette with `text` typed and returns the visible rows' labels. */
export async function paletteRows(page: Page, text: string, expect: string): Promise<string[]> {
  await closeQuickInput(page);
  await page.keyboard.press('F1');
  await page.waitForSelector(INPUT, { state: 'visible' });
  await page.fill(INPUT, `>${text}`);
  await page.waitForFunction(
    ([rows, want]) =>
      Array.from(document.querySelectorAll(rows!)).some((r) =>
        (r.getAttribute('aria-label') ?? r.textContent ?? '').includes(want!),
      ),
    [ROWS, expect] as const,
    { timeout: 30_000 },
  );
  return rowLabels(page);
}

export async function rowLabels(page: Page): Promise<string[]> {
  return page.$$eval(ROWS, (rows) => rows.map((r) => r.getAttribute('aria-label') ?? r.textContent ?? ''));
}

/**
 * Runs a command by its palette title. The row is matched on the whole title ("MCP: List
 * Servers" must not pick "MCP Lens: List Servers"), on its aria-label, which holds the title
 * as shown.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  const rows = await paletteRows(page, title, title);
  const index = rows.findIndex((r) => r === title || r.startsWith(`${title},`) || r.startsWith(`${title} `));
  const row = index >= 0 ? page.locator(ROWS).nth(index) : page.locator(ROWS).filter({ hasText: title }).first();
  await row.click();
}

/**
 * Types `text` into the quick pick whose placeholder starts with `placeholder`, once that pick (and
 * not the palette that opened it: both share one input) holds the input; keys sent earlier land in
 * the palette and are lost. Returns once the input holds the whole text.
 */
export async function fillQuickPick(page: Page, placeholder: string, text: string): Promise<void> {
  await page.waitForFunction(
    ([input, want]) => {
      const el = document.querySelector<HTMLInputElement>(input!);
      return !!el && el.offsetParent !== null && el.placeholder.startsWith(want!);
    },
    [INPUT, placeholder] as const,
    { timeout: 30_000 },
  );
  await page.fill(INPUT, text);
  await page.waitForFunction(
    ([input, want]) => document.querySelector<HTMLInputElement>(input!)?.value === want,
    [INPUT, text] as const,
    {
      timeout: 30_000,
    },
  );
}

/** The placeholder of MCP Lens: Search Tools (client/src/commands/searchTools.ts). */
export const SEARCH_TOOLS_PLACEHOLDER = 'Describe what you want to do';

/** Waits for a quick pick (not the palette) to show a row containing `text`. */
export async function waitForPickRow(page: Page, text: string): Promise<string[]> {
  await page.waitForFunction(
    ([rows, want]) =>
      Array.from(document.querySelectorAll(rows!)).some((r) =>
        (r.getAttribute('aria-label') ?? r.textContent ?? '').includes(want!),
      ),
    [ROWS, text] as const,
    { timeout: 60_000 },
  );
  return rowLabels(page);
}

export async function closeQuickInput(page: Page): Promise<void> {
  if (
    await page
      .locator(INPUT)
      .isVisible()
      .catch(() => false)
  )
    await page.keyboard.press('Escape');
}
